#!/usr/bin/python3
"""Writes tests/golden/armnn_post2008/: Arm NN networks with layers newer than Arm NN 20.08 (which
cannot write them), laid out by hand as flatc JSON of `SerializedGraph` and compiled by
`flatc -b schemas/armnn/ArmnnSchema.fbs`. Expected outputs come from the operator's formula in
NumPy (or PyTorch 1.13 for the 3-D convolution and pooling), following Arm NN's reference
workloads where they define the rule. Nothing here runs nnbridge.

Enum values whose numbering changed upstream are written as numbers, in upstream Arm NN's
numbering (BinaryOperation: SqDiff 6, Power 7; ScatterNdFunction: Update 0, Add 1, Sub 2, Max 3,
Min 4), so the files hold what a current Arm NN serializer writes whatever names a schema gives.

Usage: /usr/bin/python3 tests/golden/scripts/gen_armnn_post2008.py [REPO_ROOT]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden", "armnn_post2008")
SCHEMA = os.path.join(ROOT, "schemas", "armnn", "ArmnnSchema.fbs")
SCRIPT = "tests/golden/scripts/gen_armnn_post2008.py"

DT = {np.float32: "Float32", np.int32: "Signed32", np.bool_: "Boolean"}


def info(shape, dtype=np.float32):
    return {"dimensions": list(shape), "dataType": DT[dtype]}


class Net:
    """Layers in index order; each output slot has one TensorInfo."""

    def __init__(self):
        self.layers, self.inputs, self.outputs = [], [], []

    def _base(self, name, layer_type, ins, outs):
        return {"index": len(self.layers), "layerName": name, "layerType": layer_type,
                "inputSlots": [{"index": k, "connection": {"sourceLayerIndex": s, "outputSlotIndex": o}}
                               for k, (s, o) in enumerate(ins)],
                "outputSlots": [{"index": k, "tensorInfo": t} for k, t in enumerate(outs)]}

    def input(self, name, shape, dtype=np.float32):
        bid = len(self.inputs)
        self.layers.append({"layer_type": "InputLayer", "layer": {"base": {
            "base": self._base(name, "Input", [], [info(shape, dtype)]), "layerBindingId": bid}}})
        self.inputs.append(bid)
        return (len(self.layers) - 1, 0)

    def constant(self, name, array):
        a = np.ascontiguousarray(array)
        # As Arm NN's serializer stores them: 4-byte elements (Float32 as its bit pattern) in IntData.
        kind = "ByteData" if a.dtype == np.bool_ else "IntData"
        data = a.astype(np.int8) if a.dtype == np.bool_ else a.view(np.int32)
        self.layers.append({"layer_type": "ConstantLayer", "layer": {
            "base": self._base(name, "Constant", [], [info(a.shape, a.dtype.type)]),
            "input": {"info": info(a.shape, a.dtype.type), "data_type": kind, "data": {"data": data.reshape(-1).tolist()}}}})
        return (len(self.layers) - 1, 0)

    def layer(self, kind, name, ins, out_shape, out_dtype=np.float32, descriptor=None):
        body = {"base": self._base(name, kind, ins, [info(out_shape, out_dtype)])}
        if descriptor is not None:
            body["descriptor"] = descriptor
        self.layers.append({"layer_type": kind + "Layer", "layer": body})
        return (len(self.layers) - 1, 0)

    def output(self, name, src):
        bid = len(self.outputs)
        self.layers.append({"layer_type": "OutputLayer", "layer": {"base": {
            "base": self._base(name, "Output", [src], []), "layerBindingId": bid}}})
        self.outputs.append(bid)

    def doc(self):
        # What a current Arm NN serializer writes: binding ids as inputIds/outputIds (scheme 1),
        # TFLite depthwise weights (scheme 1), constants as layer inputs.
        return {"layers": self.layers, "inputIds": self.inputs, "outputIds": self.outputs,
                "featureVersions": {"bindingIdsScheme": 1, "weightsLayoutScheme": 1, "constantTensorsAsInputs": 1}}


def f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def cases(rng):
    # ElementwiseBinary SqDiff (6) and Power (7), upstream numbering.
    x, y = f32(rng, 2, 3), f32(rng, 2, 3)
    xp = (np.abs(x) + 0.5).astype(np.float32)
    n = Net()
    a, b = n.input("a", x.shape), n.input("b", y.shape)
    n.output("sqdiff", n.layer("ElementwiseBinary", "sqdiff", [a, b], x.shape, descriptor={"operation": 6}))
    n.output("power", n.layer("ElementwiseBinary", "power", [a, b], x.shape, descriptor={"operation": 7}))
    yield ("elementwise_binary_sqdiff_power", n, {"a": xp, "b": y},
           {"sqdiff": np.square(xp - y), "power": np.power(xp.astype(np.float64), y).astype(np.float32)},
           "numpy (a - b)**2 and a**b; BinaryOperation SqDiff = 6, Power = 7 (upstream ArmnnSchema.fbs)")

    x = f32(rng, 2, 3)
    n = Net()
    n.output("y", n.layer("Tile", "tile", [n.input("x", x.shape)], (4, 6), descriptor={"m_Multiples": [2, 2]}))
    yield "tile", n, {"x": x}, {"y": np.tile(x, (2, 2))}, "numpy tile(x, (2, 2)) (ONNX Tile-13)"

    x = f32(rng, 2, 3, 4)
    n = Net()
    xi, ax = n.input("x", x.shape), n.constant("axes", np.array([0, -1], np.int32))
    n.output("y", n.layer("ReverseV2", "reverse", [xi, ax], x.shape))
    yield ("reverse_v2", n, {"x": x}, {"y": x[::-1, :, ::-1].copy()},
           "numpy x[::-1, :, ::-1]: axes [0, -1] from input slot 1 (Arm NN ReverseV2Impl, negative axes from the end)")

    x = f32(rng, 1, 6, 2, 2)
    n = Net()
    n.output("y", n.layer("ChannelShuffle", "shuffle", [n.input("x", x.shape)], x.shape,
                          descriptor={"axis": 1, "numGroups": 3}))
    expect = x.reshape(1, 3, 2, 2, 2).transpose(0, 2, 1, 3, 4).reshape(x.shape)
    yield ("channel_shuffle", n, {"x": x}, {"y": expect},
           "numpy reshape [N, groups, C/groups, H, W], swap axes 1 and 2, reshape back (RefChannelShuffleWorkload)")

    x = f32(rng, 3, 4)
    idx = np.array([[2, 1], [0, 3]], np.int32)
    n = Net()
    n.output("y", n.layer("GatherNd", "gather_nd", [n.input("x", x.shape), n.constant("indices", idx)], (2,)))
    yield "gather_nd", n, {"x": x}, {"y": x[idx[:, 0], idx[:, 1]]}, "numpy x[idx[:, 0], idx[:, 1]] (ONNX GatherND-13)"

    # ScatterNd Add (1) with a repeated index: Arm NN's reference combines each update with the
    # original input element, so the later update at row 1 wins: out[1] = x[1] + u[2].
    x, u = f32(rng, 4, 3), f32(rng, 3, 3)
    idx = np.array([[1], [3], [1]], np.int32)
    n = Net()
    xi, ii, ui = n.input("x", x.shape), n.constant("indices", idx), n.input("updates", u.shape)
    n.output("y", n.layer("ScatterNd", "scatter_add", [xi, ii, ui], x.shape, descriptor={"m_Function": 1}))
    expect = x.copy()
    for k, r in enumerate(idx[:, 0]):
        expect[r] = x[r] + u[k]
    yield ("scatter_nd_add_repeated_index", n, {"x": x, "updates": u}, {"y": expect},
           "numpy: out = x; out[i_k] = x[i_k] + updates[k] in index order (ScatterNd.cpp: the original element, "
           "so of a repeated index the last update wins); ScatterNdFunction Add = 1")

    # ScatterNd Sub (2) without an input tensor: slot 0 is the output shape, the data zeros.
    u = f32(rng, 2)
    n = Net()
    si, ii, ui = n.constant("shape", np.array([5], np.int32)), n.constant("indices", np.array([[4], [0]], np.int32)), n.input("updates", u.shape)
    n.output("y", n.layer("ScatterNd", "scatter_sub", [si, ii, ui], (5,), descriptor={"m_Function": 2, "m_InputEnabled": False}))
    expect = np.zeros(5, np.float32)
    expect[4], expect[0] = -u[0], -u[1]
    yield ("scatter_nd_shape_sub", n, {"updates": u}, {"y": expect},
           "numpy: zeros(5); out[i_k] = 0 - updates[k] (m_InputEnabled false: slot 0 is the shape); ScatterNdFunction Sub = 2")

    x = f32(rng, 2, 3, 4)
    n = Net()
    n.output("y", n.layer("Shape", "shape", [n.input("x", x.shape)], (3,), np.int32))
    yield "shape", n, {"x": x}, {"y": np.array(x.shape, np.int32)}, "numpy array(x.shape, int32) (Arm NN Shape: Signed32)"

    x = np.array([[-1.7, 1.7, 2.5, -0.2], [3.99, -3.99, 0.0, 7.5]], np.float32)
    n = Net()
    n.output("y", n.layer("Cast", "cast", [n.input("x", x.shape)], x.shape, np.int32))
    yield ("cast_float_to_int_truncates", n, {"x": x}, {"y": np.trunc(x).astype(np.int32)},
           "numpy trunc then int32: Arm NN RefCastWorkload encodes Signed32 with static_cast (toward zero)")

    a, b = rng.random((2, 3)) > 0.5, rng.random((2, 3)) > 0.5
    n = Net()
    ai, bi = n.input("a", a.shape, np.bool_), n.input("b", b.shape, np.bool_)
    n.output("and", n.layer("LogicalBinary", "and", [ai, bi], a.shape, np.bool_, descriptor={"operation": 0}))
    n.output("or", n.layer("LogicalBinary", "or", [ai, bi], a.shape, np.bool_, descriptor={"operation": 1}))
    yield "logical_binary", n, {"a": a, "b": b}, {"and": a & b, "or": a | b}, "numpy a & b, a | b (LogicalBinaryOperation And 0, Or 1)"

    x = f32(rng, 2, 3, 4)
    n = Net()
    xi = n.input("x", x.shape)
    n.output("sum", n.layer("Reduce", "sum", [xi], (2, 4), descriptor={"axis": [1], "keepDims": False, "reduceOperation": 0}))
    n.output("prod", n.layer("Reduce", "prod", [xi], (1, 3, 1), descriptor={"axis": [0, 2], "keepDims": True, "reduceOperation": 4}))
    yield ("reduce_sum_prod", n, {"x": x},
           {"sum": x.astype(np.float64).sum(axis=1).astype(np.float32),
            "prod": x.astype(np.float64).prod(axis=(0, 2), keepdims=True).astype(np.float32)},
           "numpy sum(axis=1) and prod(axis=(0, 2), keepdims=True) in float64 (ReduceOperation Sum 0, Prod 4)")

    # BatchMatMul with transposeY: X [2, 2, 3] x Y^T, Y [2, 4, 3] -> [2, 2, 4].
    x, y = f32(rng, 2, 2, 3), f32(rng, 2, 4, 3)
    n = Net()
    n.output("z", n.layer("BatchMatMul", "bmm", [n.input("x", x.shape), n.input("y", y.shape)], (2, 2, 4),
                          descriptor={"transposeY": True}))
    yield ("batch_matmul_transpose_y", n, {"x": x, "y": y},
           {"z": np.matmul(x.astype(np.float64), y.astype(np.float64).transpose(0, 2, 1)).astype(np.float32)},
           "numpy matmul(x, y.transpose(0, 2, 1)) in float64 (BatchMatMulDescriptor transposeY, NCHW: the last two dims)")

    import torch  # PyTorch 1.13 for the 3-D convolution and pooling
    x, w, bias = f32(rng, 1, 3, 4, 4, 2), f32(rng, 2, 2, 2, 2, 3), f32(rng, 3)  # NDHWC; DHWIO
    n = Net()
    xi, wi, bi = n.input("x", x.shape), n.constant("weights", w), n.constant("bias", bias)
    desc = {"padLeft": 1, "padRight": 0, "padTop": 1, "padBottom": 1, "padFront": 1, "padBack": 0,
            "strideX": 1, "strideY": 2, "strideZ": 1, "biasEnabled": True, "dataLayout": "NDHWC"}
    xt = torch.from_numpy(x).permute(0, 4, 1, 2, 3)            # NCDHW
    wt = torch.from_numpy(w).permute(4, 3, 0, 1, 2)            # OIDHW
    xt = torch.nn.functional.pad(xt, (1, 0, 1, 1, 1, 0))       # W left/right, H top/bottom, D front/back
    yt = torch.nn.functional.conv3d(xt, wt, torch.from_numpy(bias), stride=(1, 2, 1))
    y = yt.permute(0, 2, 3, 4, 1).contiguous().numpy()
    n.output("y", n.layer("Convolution3d", "conv3d", [xi, wi, bi], y.shape, descriptor=desc))
    yield ("convolution3d_ndhwc", n, {"x": x}, {"y": y},
           "PyTorch 1.13 conv3d on the NCDHW-permuted input after F.pad, weights [D,H,W,I,O] permuted to [O,I,D,H,W] "
           "(Conv3dImpl.cpp layouts)")

    x = f32(rng, 1, 4, 4, 4, 2)  # NDHWC
    n = Net()
    xi = n.input("x", x.shape)
    xt = torch.from_numpy(x).permute(0, 4, 1, 2, 3)
    mx = torch.nn.functional.max_pool3d(xt, 2, stride=2).permute(0, 2, 3, 4, 1).contiguous().numpy()
    av = torch.nn.functional.avg_pool3d(xt, 3, stride=2, padding=1, count_include_pad=False).permute(0, 2, 3, 4, 1).contiguous().numpy()
    pool = {"poolWidth": 2, "poolHeight": 2, "poolDepth": 2, "strideX": 2, "strideY": 2, "strideZ": 2, "dataLayout": "NDHWC"}
    n.output("max", n.layer("Pooling3d", "max", [xi], mx.shape, descriptor=dict(pool, poolType="Max", paddingMethod="Exclude")))
    avg = {"poolType": "Average", "poolWidth": 3, "poolHeight": 3, "poolDepth": 3, "strideX": 2, "strideY": 2, "strideZ": 2,
           "padLeft": 1, "padRight": 1, "padTop": 1, "padBottom": 1, "padFront": 1, "padBack": 1,
           "paddingMethod": "Exclude", "dataLayout": "NDHWC"}
    n.output("avg", n.layer("Pooling3d", "avg", [xi], av.shape, descriptor=avg))
    yield ("pooling3d_ndhwc_max_avg_exclude", n, {"x": x}, {"max": mx, "avg": av},
           "PyTorch 1.13 max_pool3d(2, stride 2) and avg_pool3d(3, stride 2, padding 1, count_include_pad=False) on "
           "the NCDHW-permuted input (Pooling3d.cpp: Exclude divides by the elements inside the input)")


def main():
    rng = np.random.default_rng(2008)
    flatc = shutil.which("flatc") or "flatc"
    for name, net, inputs, outputs, how in cases(rng):
        d = os.path.join(GOLDEN, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "inputs"))
        os.makedirs(os.path.join(d, "outputs"))
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "model.json")
            with open(src, "w") as f:
                json.dump(net.doc(), f, indent=1)
            r = subprocess.run([flatc, "-b", "-o", tmp, SCHEMA, src], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("flatc failed on %s: %s" % (name, "\n".join(l for l in r.stderr.splitlines() if "warning" not in l)))
            shutil.copy(os.path.join(tmp, "model.armnn"), os.path.join(d, "model.armnn"))  # file_extension "armnn"
        for k, v in inputs.items():
            np.save(os.path.join(d, "inputs", k + ".npy"), v)
        for k, v in outputs.items():
            np.save(os.path.join(d, "outputs", k + ".npy"), v)
        case = {
            "format": "armnn",
            "model": "model.armnn",
            "provenance": {
                "model": "SerializedGraph JSON laid out by hand in " + SCRIPT + ", compiled by flatc -b against "
                         "schemas/armnn/ArmnnSchema.fbs (Arm NN 20.08 cannot write these layers; enum values in upstream "
                         "Arm NN's numbering)",
                "inputs": "numpy.random.default_rng(2008)",
                "outputs": how,
                "command": "/usr/bin/python3 " + SCRIPT,
            },
            "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}, "quantized": {"max_abs_diff_in_steps": 1}},
        }
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(case, f, indent=2)
            f.write("\n")
    print("wrote", GOLDEN)


if __name__ == "__main__":
    main()
