#!/usr/bin/python3
"""PyTorch reference cases for VkGraph operators (run at test time with Debian's python3-torch).

For each case this writes into OUT/<case>/:
  graph.json       a one-operator VkGraph in flatc's JSON form, laid out as ExecuTorch's
                   VkGraphBuilder does (every schema argument in order, then the output)
  input_<k>.npy    the graph inputs (every tensor argument is a graph input)
  output_<k>.npy   what torch.ops.aten.<op> computes from the same arguments
The C++ test compiles graph.json with flatc, runs it on nnbridge's cpu backend and compares.
Usage: torch_cases.py OUT
"""
import json
import os
import sys

import numpy as np
import torch

VK_DTYPE = {torch.float32: "FLOAT32", torch.int64: "INT64", torch.int32: "INT32", torch.bool: "BOOL"}


class Graph:
    def __init__(self):
        self.values, self.inputs, self.args = [], [], []

    def _add(self, kind, body):
        self.values.append({"value_type": kind, "value": body})
        return len(self.values) - 1

    def tensor(self, t):
        return self._add("VkTensor", {"datatype": VK_DTYPE[t.dtype], "dims": list(t.shape), "constant_id": -1,
                                      "mem_obj_id": -1, "staging_datatype": VK_DTYPE[t.dtype]})

    def arg(self, a):
        """Appends a value for an ATen argument (as the builder's get_or_create_value_for)."""
        if isinstance(a, torch.Tensor):
            i = self.tensor(a)
            self.inputs.append((i, a))
        elif isinstance(a, (list, tuple)) and a and isinstance(a[0], torch.Tensor):
            items = []
            for t in a:
                items.append(self.tensor(t))
                self.inputs.append((items[-1], t))
            i = self._add("ValueList", {"items": items})
        elif a is None:
            i = self._add("Null", {})
        elif isinstance(a, bool):
            i = self._add("Bool", {"bool_val": a})
        elif isinstance(a, int):
            i = self._add("Int", {"int_val": a})
        elif isinstance(a, float):
            i = self._add("Double", {"double_val": a})
        elif isinstance(a, str):
            i = self._add("String", {"string_val": a})
        elif isinstance(a, (list, tuple)):
            i = self._add("IntList", {"items": list(a)})
        else:
            raise TypeError(type(a))
        self.args.append(i)

    def output(self, result):
        if isinstance(result, torch.Tensor):
            outs = [result]
            self.args.append(self.tensor(result))
        else:
            outs = list(result)
            self.args.append(self._add("ValueList", {"items": [self.tensor(t) for t in outs]}))
        return outs


def emit(out_dir, name, op_name, fn, *args):
    g = Graph()
    for a in args:
        g.arg(a)
    outs = g.output(fn(*args))
    out_ids = g.values[g.args[-1]]["value"]["items"] if len(outs) > 1 else [g.args[-1]]
    doc = {"version": "0", "chain": [{"node_id": 0, "name": op_name, "args": g.args}], "values": g.values,
           "input_ids": [i for i, _ in g.inputs], "output_ids": out_ids, "constants": [], "shaders": []}
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "graph.json"), "w") as f:
        json.dump(doc, f)
    for k, (_, t) in enumerate(g.inputs):
        np.save(os.path.join(d, "input_%d.npy" % k), t.numpy())
    for k, t in enumerate(outs):
        np.save(os.path.join(d, "output_%d.npy" % k), t.numpy())


def main(out_dir):
    torch.manual_seed(0)
    aten = torch.ops.aten
    r = lambda *s: torch.randn(*s)
    pos = lambda *s: torch.rand(*s) + 0.5
    x23, y23 = r(2, 3), r(2, 3)
    e = lambda name, op, *a: emit(out_dir, name, op, *a)

    # Keyword-only ATen arguments (alpha, approximate, dtype, ...) are positional in OperatorCall.args.
    e("add", "aten.add.Tensor", lambda s, o, a: aten.add.Tensor(s, o, alpha=a), x23, r(1, 3), 1)  # broadcasts
    e("sub", "aten.sub.Tensor", lambda s, o, a: aten.sub.Tensor(s, o, alpha=a), x23, y23, 1)
    e("mul", "aten.mul.Tensor", aten.mul.Tensor, x23, y23)
    e("div", "aten.div.Tensor", aten.div.Tensor, x23, pos(2, 3))
    e("pow", "aten.pow.Tensor_Tensor", aten.pow.Tensor_Tensor, pos(2, 3), y23)
    e("minimum", "aten.minimum.default", aten.minimum.default, x23, y23)
    e("maximum", "aten.maximum.default", aten.maximum.default, x23, y23)
    e("gt", "aten.gt.Tensor", aten.gt.Tensor, x23, y23)
    e("where", "aten.where.self", aten.where.self, x23 > 0, x23, r(1, 3))
    for name in ["relu", "sigmoid", "tanh", "abs", "neg", "exp", "sin", "floor", "round", "hardswish"]:
        e(name, "aten.%s.default" % name, getattr(aten, name).default, r(3, 4) * 3)
    for name in ["sqrt", "rsqrt", "log"]:
        e(name, "aten.%s.default" % name, getattr(aten, name).default, pos(3, 4))
    gelu = lambda s, a: aten.gelu.default(s, approximate=a)
    e("gelu", "aten.gelu.default", gelu, r(8), "none")
    e("gelu_tanh", "aten.gelu.default", gelu, r(8), "tanh")
    e("leaky_relu", "aten.leaky_relu.default", aten.leaky_relu.default, r(8), 0.2)
    e("hardtanh", "aten.hardtanh.default", aten.hardtanh.default, r(8) * 3, -0.5, 2.0)
    e("clamp", "aten.clamp.default", aten.clamp.default, r(8), None, 0.25)
    e("clone", "aten.clone.default", lambda s, m: aten.clone.default(s, memory_format=m), r(2, 2), None)
    e("softmax", "aten._softmax.default", aten._softmax.default, r(2, 3, 4), 1, False)
    e("log_softmax", "aten._log_softmax.default", aten._log_softmax.default, r(2, 3, 4), -1, False)
    e("conv", "aten.convolution.default", aten.convolution.default, r(1, 3, 8, 8), r(4, 3, 3, 3), r(4),
      [2, 2], [1, 1], [1, 1], False, [0, 0], 1)
    e("conv_groups_dilation", "aten.convolution.default", aten.convolution.default, r(1, 4, 9, 9), r(6, 2, 3, 3), None,
      [1, 1], [2, 2], [2, 2], False, [0, 0], 2)
    e("conv_transposed", "aten.convolution.default", aten.convolution.default, r(1, 4, 4, 4), r(4, 2, 3, 3), r(2),
      [2, 2], [1, 1], [1, 1], True, [1, 1], 1)
    e("linear", "aten.linear.default", aten.linear.default, r(3, 5), r(4, 5), None)
    e("linear_bias", "aten.linear.default", aten.linear.default, r(3, 5), r(4, 5), r(4))
    e("linear_3d", "aten.linear.default", aten.linear.default, r(2, 3, 5), r(4, 5), None)
    e("mm", "aten.mm.default", aten.mm.default, r(3, 5), r(5, 2))
    e("bmm", "aten.bmm.default", aten.bmm.default, r(2, 3, 5), r(2, 5, 2))
    e("addmm", "aten.addmm.default", lambda s, a, b, beta, alpha: aten.addmm.default(s, a, b, beta=beta, alpha=alpha),
      r(2), r(3, 5), r(5, 2), 0.5, 2)
    e("layer_norm", "aten.native_layer_norm.default", aten.native_layer_norm.default, r(2, 3, 4), [3, 4], r(3, 4), r(3, 4),
      1e-5)
    e("mean", "aten.mean.dim", lambda s, d, k, t: aten.mean.dim(s, d, k, dtype=t), r(2, 3, 4), [1], True, None)
    e("sum", "aten.sum.dim_IntList", lambda s, d, k, t: aten.sum.dim_IntList(s, d, k, dtype=t), r(2, 3, 4), [-1, 0], False,
      None)
    e("amax", "aten.amax.default", aten.amax.default, r(2, 3, 4), [2], False)
    e("argmax", "aten.argmax.default", aten.argmax.default, r(3, 5), 1, False)
    e("permute", "aten.permute_copy.default", aten.permute_copy.default, r(2, 3, 4), [2, 0, 1])
    e("view", "aten.view_copy.default", aten.view_copy.default, r(2, 3, 4), [4, -1])
    e("unsqueeze", "aten.unsqueeze_copy.default", aten.unsqueeze_copy.default, r(2, 3), -1)
    # torch 1.13 has squeeze_copy.dim only: squeeze the listed dims one at a time, last first.
    def squeeze_dims(s, dims):
        for d in sorted((d % s.dim() for d in dims), reverse=True):
            s = aten.squeeze_copy.dim(s, d)
        return s
    e("squeeze", "aten.squeeze_copy.dims", squeeze_dims, r(2, 1, 3, 1), [1, -1])
    e("select", "aten.select_copy.int", aten.select_copy.int, r(2, 3, 4), 1, -1)
    e("cat", "aten.cat.default", aten.cat.default, [r(2, 3), r(2, 1), r(2, 2)], 1)
    e("split", "aten.split_with_sizes_copy.default", aten.split_with_sizes_copy.default, r(5, 2), [2, 3], 0)
    e("slice", "aten.slice_copy.Tensor", aten.slice_copy.Tensor, r(3, 9), 1, -7, None, 2)
    e("pad", "aten.constant_pad_nd.default", aten.constant_pad_nd.default, r(1, 2, 3), [1, 2, 0, 1], 0.5)
    e("index_select", "aten.index_select.default", aten.index_select.default, r(5, 3), 0, torch.tensor([4, 0, 2]))
    e("embedding", "aten.embedding.default", aten.embedding.default, r(6, 4), torch.tensor([[1, 5], [0, 0]]), -1, False,
      False)
    e("upsample", "aten.upsample_nearest2d.vec", aten.upsample_nearest2d.vec, r(1, 2, 3, 3), [5, 7], None)
    e("max_pool", "aten.max_pool2d.default", aten.max_pool2d.default, r(1, 2, 6, 6), [3, 3], [2, 2], [1, 1], [1, 1], False)
    e("avg_pool_incl", "aten.avg_pool2d.default", aten.avg_pool2d.default, r(1, 2, 5, 5), [3, 3], [2, 2], [1, 1], False,
      True, None)
    # ceil_mode where PyTorch and ONNX count the same windows (the last one starts inside the input).
    e("max_pool_ceil", "aten.max_pool2d.default", aten.max_pool2d.default, r(1, 2, 7, 6), [3, 3], [2, 2], [1, 1], [1, 1],
      True)
    e("avg_pool_ceil_incl", "aten.avg_pool2d.default", aten.avg_pool2d.default, r(1, 2, 6, 6), [3, 3], [2, 2], [0, 0],
      True, True, None)
    e("avg_pool_ceil_excl", "aten.avg_pool2d.default", aten.avg_pool2d.default, r(1, 2, 6, 6), [3, 3], [2, 2], [1, 1],
      True, False, None)
    e("hardsigmoid", "aten.hardsigmoid.default", aten.hardsigmoid.default, r(3, 4) * 4)
    e("pixel_shuffle", "aten.pixel_shuffle.default", aten.pixel_shuffle.default, r(1, 8, 2, 3), 2)
    e("repeat", "aten.repeat.default", aten.repeat.default, r(2, 3), [2, 3])
    e("avg_pool_excl", "aten.avg_pool2d.default", aten.avg_pool2d.default, r(1, 2, 5, 5), [3, 3], [], [1, 1], False,
      False, None)


if __name__ == "__main__":
    main(sys.argv[1])
