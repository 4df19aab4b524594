#!/usr/bin/env python3
"""Exports a small convolutional network with PyTorch, converts the ONNX file to Arm NN and
VkGraph (ExecuTorch's Vulkan delegate) with nnbridge, and validates each file on the cpu
backend against PyTorch's own output.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/pytorch_to_armnn.py OUT_DIR

The network has what torch.onnx.export writes for real architectures: Conv + BatchNorm (folded by
the exporter) + ReLU, a depthwise convolution (group = channels), TensorFlow-style padding left
to ONNX's rules, global average pooling, Flatten and a Linear layer, with no value_info for the
intermediate tensors. Random weights; BatchNorm statistics are gathered on random data in train
mode first, so the activations are neither zero nor huge. Prints one line per file and exits 1
when a comparison fails.
"""

import sys
from pathlib import Path

import numpy as np
import torch

import nnbridge


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.dw = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = torch.relu(self.dw(x))
        x = self.pool(x)
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "pytorch_to_armnn")
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    net = Net()
    net.train()
    with torch.no_grad():
        for _ in range(4):
            net(torch.randn(8, 3, 32, 32))
    net.eval()
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        expected = net(x).numpy()
    onnx_path = out / "net.onnx"
    torch.onnx.export(net, x, str(onnx_path), input_names=["x"], output_names=["y"], opset_version=13)

    g = nnbridge.load(str(onnx_path))
    failed = 0
    for target in ("net.armnn", "net.vkdelegate"):
        path = out / target
        nnbridge.save(g, str(path))
        written = nnbridge.load(str(path))
        # A VkGraph keeps no tensor names (its inputs read back as input_0, ...): go by position.
        x_name, y_name = written.inputs[0].name, written.outputs[0].name
        report = nnbridge.validate(written, {x_name: x.numpy()}, expected={y_name: expected})
        for r in report:
            print(f"{target}: {r.output} [{r.backend}] max_abs_error {r.max_abs_error:.3g}: "
                  f"{'pass' if r.passed else 'FAIL ' + r.message}")
        failed += not report.passed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
