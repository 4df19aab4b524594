#!/usr/bin/python3
"""Real-architecture forms for the VkGraph writer (run at test time with Debian's python3-torch).

Each case is a small torch module (or, for forms torch.onnx.export does not emit, an ONNX graph
built with onnx.helper next to the torch function that defines it) exported at ONNX opsets 13
and 17. For each case this writes into OUT/<case>_<opset>/:
  model.onnx     what torch.onnx.export (or onnx.helper) wrote
  input_0.npy    the input
  output_0.npy   what PyTorch computes from it (the expected value)
The C++ test converts model.onnx to a .vkdelegate with nnbridge, reads it back, runs it on the
cpu backend and compares with output_0.npy.
Usage: torch_forms.py OUT
"""
import os
import sys
import warnings

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper

warnings.filterwarnings("ignore")


class Seq(torch.nn.Module):
    def __init__(self, fn, *mods):
        super().__init__()
        self.mods = torch.nn.ModuleList(mods)
        self.fn = fn

    def forward(self, x):
        return self.fn(x, *self.mods)


def modules():
    torch.manual_seed(0)
    conv = lambda ci, co, k=3, **kw: torch.nn.Conv2d(ci, co, k, **kw)
    lin = torch.nn.Linear
    c = {}
    # MaxPool / AvgPool with ceil_mode (torchvision's squeezenet and googlenet pools).
    c["maxpool_ceil"] = (Seq(lambda x, cv: F.max_pool2d(cv(x), 3, 2, ceil_mode=True), conv(3, 4)), (1, 3, 10, 10))
    c["avgpool_ceil"] = (Seq(lambda x: F.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False)),
                         (1, 2, 8, 8))
    # GlobalAveragePool, Flatten and Gemm (resnet's head).
    c["global_pool_gemm"] = (Seq(lambda x, cv, l: l(torch.flatten(F.adaptive_avg_pool2d(cv(x), 1), 1)), conv(3, 6), lin(6, 5)),
                             (2, 3, 6, 6))
    # A constant-shape view and a channel shuffle (shufflenet): Reshape, Transpose, Reshape.
    c["channel_shuffle"] = (Seq(lambda x: x.view(1, 2, 3, 4, 4).transpose(1, 2).reshape(1, 6, 4, 4)), (1, 6, 4, 4))
    # A Swin Transformer's window partition: a rank-6 view and Transpose (ExecuTorch's Vulkan
    # tensors have at most 4 dims: the writer merges the Transpose's dims, transpose_rank_reduced).
    c["window_partition"] = (Seq(lambda x: x.view(1, 2, 2, 2, 3, 2).permute(0, 1, 3, 2, 4, 5).reshape(-1, 2, 3, 2) * 2),
                             (1, 4, 6, 2))
    # A Swin Transformer's attention: q, k, v taken from a rank-5 permuted projection, and the
    # scores plus a mask as [1, windows, heads, N, N] (gather_before_transpose,
    # gather_of_split_as_slice, unit_dims_dropped keep every tensor within 4 dims).
    mask = torch.linspace(-1, 1, 4 * 5 * 5).view(1, 4, 1, 5, 5)

    def attention(x, l):
        qkv = l(x).reshape(4, 5, 3, 2, 3).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)).view(1, 4, 2, 5, 5) + mask
        return attn.view(-1, 2, 5, 5).softmax(-1) @ v

    c["window_attention"] = (Seq(attention, lin(6, 18)), (4, 5, 6))
    # Activations: Clip(0, 6), HardSigmoid, HardSwish, SiLU (x * sigmoid), GELU in both forms.
    c["activations"] = (Seq(lambda x, l: F.relu6(l(x)) + F.hardsigmoid(x * 3) + F.hardswish(x * 3) + F.silu(x)
                            + F.gelu(x * 2) + F.gelu(x, approximate="tanh") + F.hardtanh(x, -0.5, 0.5), lin(8, 8)),
                        (2, 8))
    # LayerNormalization (opset 17: the op; 13: its arithmetic) and Softmax on a middle axis.
    c["layernorm_softmax"] = (Seq(lambda x, ln: F.softmax(ln(x), 1) + F.log_softmax(x, -1), torch.nn.LayerNorm(8)),
                              (2, 3, 8))
    # MatMul forms: [B, S, K] x constant [K, N] (Linear on 3-D), attention [B, H, S, D] x [B, H, D, S],
    # [B, S, K] x a computed [K, N].
    c["matmul_forms"] = (Seq(lambda x, l: torch.matmul(l(x), l(x).transpose(-1, -2)).sum(-1, keepdim=True)
                             + torch.matmul(x.view(2, 2, 3, 4), x.view(2, 2, 3, 4).transpose(-1, -2)).reshape(2, 6, 3)
                             .sum(-1, keepdim=True) + torch.matmul(x, x[0, :4, :].transpose(0, 1) * 2), lin(4, 4)),
                         (2, 6, 4))
    # DepthToSpace (CRD: pixel_shuffle), Concat, Split (Pad: onnx_cases; torch exports F.pad's pads, and
    # Tensor.repeat's, through arithmetic on shapes).
    c["shuffle_cat_split"] = (Seq(lambda x: torch.cat([F.pixel_shuffle(x, 2)[..., :3, :3],
                                                      torch.split(x, [4, 4], 1)[1]], 1)),
                             (1, 8, 3, 3))
    # Slices whose bounds the exporter computes from the input's shape (shufflenet's channel split:
    # Shape -> Gather -> Div -> Unsqueeze feeding Slice's starts / ends).
    c["shape_computed_slice"] = (Seq(lambda x, cv: (lambda a, b: a * 2 + b)(*cv(x).chunk(2, dim=1)), conv(3, 6, 1)),
                                 (1, 3, 3, 3))
    # Two BatchNorms with equal parameters: the exporter writes one initializer and an Identity for
    # the other (densenet's shared ones and zeros).
    c["shared_bn_params"] = (Seq(lambda x, b1, b2: b2(F.relu(b1(x))), torch.nn.BatchNorm2d(4), torch.nn.BatchNorm2d(4)),
                             (1, 4, 3, 3))
    return c


def onnx_cases():
    """Forms torch.onnx.export does not write: asymmetric pads and auto_pad (TensorFlow SAME)."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    x0 = rng.standard_normal((1, 3, 6, 5)).astype(np.float32)
    pads = np.array([0, 0, 1, 0, 0, 0, 0, 2], dtype=np.int64)
    nodes = [helper.make_node("Pad", ["x0", "pads", "value"], ["x"], mode="constant"),
             helper.make_node("Conv", ["x", "w"], ["c"], pads=[0, 0, 1, 1], strides=[2, 2]),
             helper.make_node("MaxPool", ["c"], ["m"], kernel_shape=[2, 2], pads=[1, 1, 0, 0], strides=[1, 1]),
             helper.make_node("AveragePool", ["m"], ["y"], kernel_shape=[2, 2], auto_pad="SAME_UPPER", strides=[1, 1],
                              count_include_pad=1)]
    t = torch.from_numpy
    x = F.pad(t(x0), (0, 2, 1, 0), value=0.5)  # H: 1 before; W: 2 after -> 7 x 7
    c = F.conv2d(F.pad(x, (0, 1, 0, 1)), t(w), stride=2)
    m = F.max_pool2d(F.pad(c, (1, 0, 1, 0), value=-float("inf")), 2, 1)
    y = F.avg_pool2d(F.pad(m, (0, 1, 0, 1)), 2, 1)  # SAME_UPPER: the extra row and column at the end, zeros counted
    g = helper.make_graph(nodes, "same_pads", [helper.make_tensor_value_info("x0", onnx.TensorProto.FLOAT, x0.shape)],
                          [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, list(y.shape))],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(pads, "pads"),
                           numpy_helper.from_array(np.array(0.5, dtype=np.float32), "value")])
    yield "same_pads", g, x0, y.numpy()


def main(out_dir):
    for name, (mod, shape) in modules().items():
        mod.eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            y = mod(x)
        for opset in (13, 17):
            d = os.path.join(out_dir, "%s_%d" % (name, opset))
            os.makedirs(d, exist_ok=True)
            torch.onnx.export(mod, x, os.path.join(d, "model.onnx"), opset_version=opset, input_names=["x"],
                              output_names=["y"])
            np.save(os.path.join(d, "input_0.npy"), x.numpy())
            np.save(os.path.join(d, "output_0.npy"), y.numpy())
    for name, g, x, y in onnx_cases():
        for opset in (13, 17):
            d = os.path.join(out_dir, "%s_%d" % (name, opset))
            os.makedirs(d, exist_ok=True)
            onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), os.path.join(d, "model.onnx"))
            np.save(os.path.join(d, "input_0.npy"), x)
            np.save(os.path.join(d, "output_0.npy"), y)


if __name__ == "__main__":
    main(sys.argv[1])
