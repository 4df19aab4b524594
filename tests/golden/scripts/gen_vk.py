#!/usr/bin/python3
"""Writes the VkGraph, Vulkan delegate and ONNX-style golden cases (tests/golden/README.md).

Models: VkGraph documents in flatc's JSON form laid out as ExecuTorch's VkGraphBuilder does
(tests/formats/vkgraph/torch_cases.py), compiled by flatc against schemas/vkgraph/schema.fbs; the
delegate payloads wrap such a flatbuffer in the VH00 header and constant segment by ExecuTorch's
layout rules (backends/vulkan/serialization/vulkan_graph_serialize.py), packed here with struct.
Expected outputs: PyTorch 1.13 (Debian python3-torch) running the same ATen operator.
ONNX-style folders: TensorProto files encoded by protoc --encode from text form.
Nothing here runs nnbridge.

Usage: /usr/bin/python3 tests/golden/scripts/gen_vk.py [REPO_ROOT]
"""
import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden")
SCHEMA = os.path.join(ROOT, "schemas", "vkgraph", "schema.fbs")
TENSOR_PROTO = "/usr/include/onnx/onnx.proto"  # ONNX's own (Debian libonnx-dev)
SCRIPT = "tests/golden/scripts/gen_vk.py"
TOL = {"float32": {"atol": 1e-5, "rtol": 1e-4}, "quantized": {"max_abs_diff_in_steps": 1}}

spec = importlib.util.spec_from_file_location("torch_cases", os.path.join(ROOT, "tests", "formats", "vkgraph", "torch_cases.py"))
torch_cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(torch_cases)

# torch_cases.py cases copied into the corpus, with the conversions each one is checked through.
VKGRAPH_CASES = {
    "add": ["json", "vkdelegate"], "sub": ["json"], "mul": ["json"], "div": [], "maximum": [], "where": [],
    "relu": ["json", "vkdelegate"], "sigmoid": [], "tanh": [], "exp": [], "sqrt": [], "gelu": [], "hardtanh": [],
    "softmax": ["json"], "log_softmax": [], "conv": ["json"], "conv_groups_dilation": [], "conv_transposed": [],
    "linear_bias": [], "bmm": [], "addmm": [], "layer_norm": [], "mean": [], "sum": [], "argmax": [], "permute": [],
    "view": [], "cat": [], "split": [], "slice": [], "pad": [], "index_select": [], "embedding": [], "upsample": [],
    "max_pool": [], "avg_pool_excl": [],
}

# Backend gaps found by running the corpus, kept visible in the cases (docs/conformance.md skip_backends).
# (The opencl Conv kernel refuses W given as a graph input; opencl.fallback=cpu now runs such nodes
# on cpu, so no case needs skipping.)
OPENCL_GAPS = {}


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def flatc_binary(json_path, out_dir):
    out_dir = tempfile.mkdtemp(dir=out_dir)
    subprocess.run(["flatc", "--no-warnings", "-b", "-o", out_dir, SCHEMA, json_path], check=True)
    (binary,) = os.listdir(out_dir)  # the schema declares no file_extension: flatc writes .bin
    return os.path.join(out_dir, binary)


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def vkgraph_cases(tmp):
    torch_cases.main(tmp)
    for name, conversions in VKGRAPH_CASES.items():
        src = os.path.join(tmp, name)
        dst = os.path.join(GOLDEN, "vkgraph", name)
        fresh(dst)
        os.makedirs(os.path.join(dst, "inputs"))
        os.makedirs(os.path.join(dst, "outputs"))
        shutil.copy(flatc_binary(os.path.join(src, "graph.json"), tmp), os.path.join(dst, "model.vkgraph"))
        for f in sorted(os.listdir(src)):
            if f.startswith("input_"):
                shutil.copy(os.path.join(src, f), os.path.join(dst, "inputs", f))
            elif f.startswith("output_"):
                shutil.copy(os.path.join(src, f), os.path.join(dst, "outputs", f))
        op = json.load(open(os.path.join(src, "graph.json")))["chain"][0]["name"]
        case = {"format": "vkgraph", "model": "model.vkgraph",
                "provenance": {
                    "model": "VkGraph JSON laid out as ExecuTorch's VkGraphBuilder does (tests/formats/vkgraph/torch_cases.py), "
                             "compiled by flatc -b against schemas/vkgraph/schema.fbs",
                    "inputs": "torch.randn / torch.rand with torch.manual_seed(0)",
                    "outputs": "PyTorch %s: torch.ops.%s on the inputs" % (torch.__version__, op),
                    "command": "/usr/bin/python3 %s" % SCRIPT},
                "tolerance": TOL}
        if conversions:
            case["conversions"] = conversions
        if name in OPENCL_GAPS:
            case["skip_backends"] = {"opencl": OPENCL_GAPS[name]}
        write_json(os.path.join(dst, "case.json"), case)


def align(n, a=16):
    return (n + a - 1) // a * a


def delegate_payload(fb, segment):
    """ExecuTorch's VH00 layout: 30-byte header (4 padding bytes, magic, header_size u16,
    flatbuffer_offset u32, flatbuffer_size u32, bytes_offset u32, bytes_size u64, little-endian),
    the flatbuffer at a 16-aligned offset, then the constant segment at a 16-aligned offset."""
    header_size = 30
    fb_offset = align(header_size)
    bytes_offset = align(fb_offset + len(fb))
    head = b"\0\0\0\0VH00" + struct.pack("<HIIIQ", header_size, fb_offset, len(fb), bytes_offset, len(segment))
    out = head + b"\0" * (fb_offset - len(head)) + fb
    out += b"\0" * (bytes_offset - len(out)) + segment
    return out


def vkdelegate_cases(tmp):
    """Cases whose weights are constants in the delegate's segment (not graph inputs)."""
    aten = torch.ops.aten
    torch.manual_seed(1)
    r = torch.randn
    cases = {
        "linear_const_weight": ("aten.linear.default", aten.linear.default, [r(3, 5), r(4, 5), r(4)], [1, 2]),
        "conv_const_weight": ("aten.convolution.default", aten.convolution.default,
                              [r(1, 2, 6, 6), r(3, 2, 3, 3), r(3), [1, 1], [1, 1], [1, 1], False, [0, 0], 1], [1, 2]),
        "mm_const_rhs": ("aten.mm.default", aten.mm.default, [r(2, 3), r(3, 4)], [1]),
        "add_const": ("aten.add.Tensor", lambda s, o, a: aten.add.Tensor(s, o, alpha=a), [r(2, 3), r(2, 3), 1], [1]),
        "mul_const_relu_free": ("aten.mul.Tensor", aten.mul.Tensor, [r(4), r(4)], [0]),
    }
    for name, (op, fn, args, const_args) in cases.items():
        g = torch_cases.Graph()
        for a in args:
            g.arg(a)
        result = fn(*args)
        g.output(result)
        constants, segment = [], b""
        const_ids = {g.args[k] for k in const_args}
        for vid in const_ids:
            t = next(t for i, t in g.inputs if i == vid)
            data = t.numpy().astype("<f4").tobytes()
            g.values[vid]["value"]["constant_id"] = len(constants)
            constants.append({"offset": len(segment), "length": len(data)})
            # serialize_constant_tensors pads every tensor to 16, the last one too (bytes_size
            # counts that padding).
            segment += data + b"\0" * (align(len(data)) - len(data))
        inputs = [(i, t) for i, t in g.inputs if i not in const_ids]
        doc = {"version": "0", "chain": [{"node_id": 0, "name": op, "args": g.args}], "values": g.values,
               "input_ids": [i for i, _ in inputs], "output_ids": [g.args[-1]], "constants": constants, "shaders": []}
        jpath = os.path.join(tmp, name + ".json")
        write_json(jpath, doc)
        fb = open(flatc_binary(jpath, tmp), "rb").read()
        dst = os.path.join(GOLDEN, "vkdelegate", name)
        fresh(dst)
        os.makedirs(os.path.join(dst, "inputs"))
        os.makedirs(os.path.join(dst, "outputs"))
        with open(os.path.join(dst, "model.vkdelegate"), "wb") as f:
            f.write(delegate_payload(fb, segment))
        for k, (_, t) in enumerate(inputs):
            np.save(os.path.join(dst, "inputs", "input_%d.npy" % k), t.numpy())
        np.save(os.path.join(dst, "outputs", "output_0.npy"), result.numpy())
        write_json(os.path.join(dst, "case.json"), {
            "format": "vkdelegate", "model": "model.vkdelegate",
            "provenance": {
                "model": "VkGraph JSON (constants: argument(s) %s as VkBytes) compiled by flatc -b against "
                         "schemas/vkgraph/schema.fbs, wrapped in ExecuTorch's VH00 header and 16-aligned constant "
                         "segment by %s (struct.pack)" % (const_args, SCRIPT),
                "inputs": "torch.randn with torch.manual_seed(1)",
                "outputs": "PyTorch %s: torch.ops.%s" % (torch.__version__, op),
                "command": "/usr/bin/python3 %s" % SCRIPT},
            "conversions": ["json"],
            "tolerance": TOL})


PROTO_TYPES = {np.dtype("float32"): (1, "float_data"), np.dtype("uint8"): (2, "int32_data"), np.dtype("int64"): (7, "int64_data"),
               np.dtype("int32"): (6, "int32_data"), np.dtype("bool"): (9, "int32_data")}


def tensor_pb(path, array, name):
    """Encodes `array` as an ONNX TensorProto with protoc --encode from its text form."""
    array = np.asarray(array)
    dtype, field = PROTO_TYPES[array.dtype]
    lines = ["name: %s" % json.dumps(name), "data_type: %d" % dtype] + ["dims: %d" % d for d in array.shape]
    for v in array.reshape(-1):
        lines.append("%s: %s" % (field, repr(float(v)) if field == "float_data" else int(v)))
    out = subprocess.run(["protoc", "--encode=onnx.TensorProto", "-I", os.path.dirname(TENSOR_PROTO),
                          TENSOR_PROTO], input="\n".join(lines).encode(), stdout=subprocess.PIPE, check=True).stdout
    with open(path, "wb") as f:
        f.write(out)


def onnx_style_cases(tmp):
    aten = torch.ops.aten
    torch.manual_seed(2)
    specs = {
        "vkgraph_relu": ("aten.relu.default", aten.relu.default, lambda: [torch.randn(2, 5)]),
        "vkgraph_add_broadcast": ("aten.add.Tensor", lambda s, o, a: aten.add.Tensor(s, o, alpha=a),
                                  lambda: [torch.randn(3, 4), torch.randn(1, 4), 1]),
        "vkgraph_softmax": ("aten._softmax.default", aten._softmax.default, lambda: [torch.randn(2, 6), 1, False]),
    }
    for name, (op, fn, make_args) in specs.items():
        dst = os.path.join(GOLDEN, "onnx_style", name)
        fresh(dst)
        for k in range(2):
            args = make_args()
            result = fn(*args)
            if k == 0:
                g = torch_cases.Graph()
                for a in args:
                    g.arg(a)
                g.output(result)
                doc = {"version": "0", "chain": [{"node_id": 0, "name": op, "args": g.args}], "values": g.values,
                       "input_ids": [i for i, _ in g.inputs], "output_ids": [g.args[-1]], "constants": [], "shaders": []}
                jpath = os.path.join(tmp, name + ".json")
                write_json(jpath, doc)
                shutil.copy(flatc_binary(jpath, tmp), os.path.join(dst, "model.vkgraph"))
            ds = os.path.join(dst, "test_data_set_%d" % k)
            os.makedirs(ds)
            tensors = [a for a in args if isinstance(a, torch.Tensor)]
            for i, t in enumerate(tensors):
                tensor_pb(os.path.join(ds, "input_%d.pb" % i), t.numpy(), "input_%d" % i)
            tensor_pb(os.path.join(ds, "output_0.pb"), result.numpy(), "output_0")
        write_json(os.path.join(dst, "case.json"), {"provenance": {
            "model": "VkGraph JSON laid out as ExecuTorch's VkGraphBuilder does, compiled by flatc -b against "
                     "schemas/vkgraph/schema.fbs",
            "inputs": "torch.randn with torch.manual_seed(2), encoded as ONNX TensorProto by protoc --encode",
            "outputs": "PyTorch %s: torch.ops.%s, encoded by protoc --encode" % (torch.__version__, op),
            "command": "/usr/bin/python3 %s" % SCRIPT}})
    # An Arm NN model (written by Arm NN 20.08) with its inputs and CpuRef outputs as TensorProto.
    for case in ["add_float", "conv2d_nhwc_same", "softmax", "add_qasymmu8"]:
        src = os.path.join(GOLDEN, "armnn", case)
        if not os.path.isdir(src):
            continue
        c = json.load(open(os.path.join(src, "case.json")))
        dst = os.path.join(GOLDEN, "onnx_style", "armnn_" + case)
        fresh(dst)
        shutil.copy(os.path.join(src, "model.armnn"), os.path.join(dst, "model.armnn"))
        ds = os.path.join(dst, "test_data_set_0")
        os.makedirs(ds)
        for i, n in enumerate(c["inputs"]):
            tensor_pb(os.path.join(ds, "input_%d.pb" % i), np.load(os.path.join(src, "inputs", n + ".npy")), n)
        for j, n in enumerate(c["outputs"]):
            tensor_pb(os.path.join(ds, "output_%d.pb" % j), np.load(os.path.join(src, "outputs", n + ".npy")), n)
        write_json(os.path.join(dst, "case.json"), {"provenance": {
            "model": "tests/golden/armnn/%s/model.armnn (%s)" % (case, c["model_written_by"]),
            "inputs": "tests/golden/armnn/%s/inputs, in binding order, encoded as ONNX TensorProto by protoc --encode" % case,
            "outputs": "tests/golden/armnn/%s/outputs (%s), encoded by protoc --encode" % (case, c["outputs_computed_by"]),
            "command": "/usr/bin/python3 %s" % SCRIPT}})


def main():
    with tempfile.TemporaryDirectory() as tmp:
        vkgraph_cases(os.path.join(tmp, "torch"))
        vkdelegate_cases(tmp)
        onnx_style_cases(tmp)


if __name__ == "__main__":
    main()
