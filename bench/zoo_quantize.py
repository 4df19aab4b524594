"""Quantized zoo models for bench/zoo.py --quantized: every Conv of a float ONNX model becomes
QuantizeLinear -> QLinearConv -> DequantizeLinear (ONNX opset 13), the rest stays float.

Static quantization as ONNX Runtime's quantization tool does it for CNNs by default: activations
uint8, asymmetric, per tensor, from the min and max seen on the benchmark's input (range widened
to include 0); weights int8, symmetric (zero point 0), per output channel (scale max|W[m]| / 127);
bias int32 = round(B / (x_scale * w_scale[m])) (QLinearConv-10). The activation ranges are
measured by running the float model with the nnbridge module being benchmarked, with every Conv
input and output added as a graph output: they only choose the scales, they are not expected
values (the benchmark compares nnbridge's outputs with ONNX Runtime's on the quantized file).
"""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _calibrate(model, names, input_npy, pydir):
    """min and max of each named value on the input, through nnbridge's cpu backend."""
    import sys
    sys.path.insert(0, pydir)
    import nnbridge
    probe = onnx.shape_inference.infer_shapes(model)
    typed = {v.name: v for v in probe.graph.value_info}
    have = {o.name for o in probe.graph.output}
    inputs = {i.name for i in probe.graph.input}
    for n in names:
        if n not in have and n not in inputs:
            known = n in typed and typed[n].type.tensor_type.HasField("shape")
            probe.graph.output.append(typed[n] if known else helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [None] * 4))
    tmp = os.path.join(os.path.dirname(input_npy), ".calibrate.onnx")
    onnx.save(probe, tmp)
    x = np.load(input_npy)
    try:
        graph = nnbridge.load(tmp)
        plan = nnbridge.prepare(graph, "cpu", threads=1)
        out = plan.run({plan.inputs[0][0]: x})
    finally:
        os.remove(tmp)
    out[plan.inputs[0][0]] = x
    return {n: (float(np.min(out[n])), float(np.max(out[n]))) for n in names}


def _act_params(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / 255.0 if hi > lo else 1.0
    zp = int(np.clip(np.round(-lo / scale), 0, 255))
    return np.float32(scale), np.uint8(zp)


def quantize(src, dst, input_npy, pydir):
    """Writes dst: src with every 2-D Conv as QuantizeLinear -> QLinearConv -> DequantizeLinear."""
    model = onnx.load(src)
    g = model.graph
    # Constants: initializers, Constant nodes and Identity nodes of them (torch.onnx.export
    # passes weights it shares through Identity).
    consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        elif n.op_type == "Identity" and n.input[0] in consts:
            consts[n.output[0]] = consts[n.input[0]]
    convs = [n for n in g.node if n.op_type == "Conv" and n.input[1] in consts and (len(n.input) < 3 or not n.input[2] or n.input[2] in consts)]
    ranges = _calibrate(model, sorted({n.input[0] for n in convs} | {n.output[0] for n in convs}), input_npy, pydir)
    nodes, new_inits = [], []
    for n in g.node:
        if n not in convs:
            nodes.append(n)
            continue
        k = len(new_inits)
        p = "q%d_" % k
        w = consts[n.input[1]].astype(np.float32)
        m = w.shape[0]
        ws = np.maximum(np.abs(w.reshape(m, -1)).max(axis=1), 1e-12) / 127.0
        wq = np.clip(np.round(w / ws.reshape((m,) + (1,) * (w.ndim - 1))), -127, 127).astype(np.int8)
        xs, xz = _act_params(*ranges[n.input[0]])
        ys, yz = _act_params(*ranges[n.output[0]])
        tensors = {
            "xs": np.array(xs, np.float32), "xz": np.array(xz, np.uint8), "w": wq, "ws": ws.astype(np.float32),
            "wz": np.zeros(m, np.int8), "ys": np.array(ys, np.float32), "yz": np.array(yz, np.uint8),
        }
        if len(n.input) > 2 and n.input[2]:
            b = consts[n.input[2]].astype(np.float64)
            tensors["b"] = np.round(b / (np.float64(xs) * ws)).astype(np.int32)
        for key, arr in tensors.items():
            new_inits.append(numpy_helper.from_array(arr, p + key))
        qin = ["%s%s" % (p, key) for key in ("xs", "xz", "w", "ws", "wz", "ys", "yz")]
        nodes.append(helper.make_node("QuantizeLinear", [n.input[0], p + "xs", p + "xz"], [p + "x"]))
        conv_in = [p + "x"] + qin + ([p + "b"] if "b" in tensors else [])
        nodes.append(helper.make_node("QLinearConv", conv_in, [p + "y"], name=n.name, **{a.name: helper.get_attribute_value(a) for a in n.attribute}))
        nodes.append(helper.make_node("DequantizeLinear", [p + "y", p + "ys", p + "yz"], [n.output[0]]))
    graph_outputs = {o.name for o in g.output}
    used = {i for n in nodes for i in n.input}
    nodes = [n for n in nodes if n.op_type not in ("Constant", "Identity") or n.output[0] in used or n.output[0] in graph_outputs]
    used = {i for n in nodes for i in n.input}  # again: the float weights the dropped Identity nodes passed on
    keep = [t for t in g.initializer if t.name in used]
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(keep + new_inits)
    onnx.checker.check_model(model)
    tmp = dst + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, dst)
    return dst
