#!/usr/bin/python3
"""Writes the ExecuTorch program (.pte) golden cases with a Vulkan delegate (tests/golden/README.md).

Models: a Program in flatc's JSON form (fields in schemas/executorch/program.fbs declaration order)
laid out as ExecuTorch's serialize_pte_binary writes one with extract_delegate_segments=True
(exir/_serialize/_program.py), compiled by flatc -b; the 32-byte "eh00" extended header and the
128-aligned segments (the empty constant segment, the delegate payload, the named data) are packed
here with struct. The delegate payload is gen_vk.py's VH00 layout around a flatc-compiled VkGraph
whose constants are named data (VkBytes offset UINT64_MAX, named_key = SHA-256 hex digest of the
bytes, as ExecuTorch's VkGraphBuilder stores them); the bytes go into the .pte's named data or a
FlatTensor .ptd file (extension/flat_tensor/serialize/serialize.py: "FH01" header, 128-aligned
segments). One case keeps the payload INLINE (backend_delegate_data, no extended header).
Expected outputs: PyTorch 1.13 running the same ATen operators (torch.ops.aten.*).
Nothing here runs nnbridge.

Usage: /usr/bin/python3 tests/golden/scripts/gen_pte.py [REPO_ROOT]
"""
import hashlib
import importlib.util
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden")
OUT = os.path.join(GOLDEN, "pte")
ET_SCHEMAS = os.path.join(ROOT, "schemas", "executorch")
PROGRAM_FBS = os.path.join(ET_SCHEMAS, "program.fbs")
FLAT_TENSOR_FBS = os.path.join(ET_SCHEMAS, "flat_tensor.fbs")
SCRIPT = "tests/golden/scripts/gen_pte.py"

spec = importlib.util.spec_from_file_location("gen_vk", os.path.join(GOLDEN, "scripts", "gen_vk.py"))
gen_vk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_vk)
torch_cases = gen_vk.torch_cases
TOL = gen_vk.TOL

SEGMENT_ALIGNMENT = 128      # serialize_pte_binary / FlatTensor default segment_alignment
NAMED_DATA_ALIGNMENT = 16    # the Vulkan backend's named-data entries
NAMED_OFFSET = 0xFFFFFFFFFFFFFFFF  # VkBytes.offset of a constant that lives in named data
ET_SCALAR = {torch.float32: "FLOAT", torch.int64: "LONG"}
ET_HEADER_LEN = 32           # "eh00" extended header (align(32, 16): largest force_align is 16)
FT_HEADER_LEN = 40           # "FH01" header fields, padded to FT_HEADER_PADDED
FT_HEADER_PADDED = 48


def lcm(a, b):
    import math
    return a * b // math.gcd(a, b)


def align(n, a):
    return (n + a - 1) // a * a


def flatc(schema, doc, tmp):
    """flatc -b of `doc` against `schema` (includes resolved from schemas/executorch)."""
    d = tempfile.mkdtemp(dir=tmp)
    jpath = os.path.join(d, "doc.json")
    gen_vk.write_json(jpath, doc)
    subprocess.run(["flatc", "--no-warnings", "-b", "-I", ET_SCHEMAS, "-o", d, schema, jpath], check=True)
    (binary,) = [f for f in os.listdir(d) if f != "doc.json"]
    return open(os.path.join(d, binary), "rb").read()


def tensor_bytes(t):
    a = t.detach().numpy()
    return np.ascontiguousarray(a.astype(a.dtype.newbyteorder("<"))).tobytes()


class VkDoc:
    """A VkGraph laid out as ExecuTorch's VkGraphBuilder does, several nodes allowed."""

    def __init__(self):
        self.g = torch_cases.Graph()
        self.chain, self.input_ids, self.output_ids = [], [], []
        self.inputs, self.outputs = [], []  # tensors, in input_ids / output_ids order
        self.constants, self.segment = [], b""  # VkBytes, the payload's own constant segment
        self.named = []  # (key, bytes) in the order keys were added

    def input(self, t):
        vid = self.g.tensor(t)
        self.input_ids.append(vid)
        self.inputs.append(t)
        return vid

    def const(self, t, named=True):
        vid = self.g.tensor(t)
        data = tensor_bytes(t)
        self.g.values[vid]["value"]["constant_id"] = len(self.constants)
        if named:
            key = hashlib.sha256(data).hexdigest()
            self.constants.append({"offset": NAMED_OFFSET, "length": len(data), "named_key": key})
            if key not in [k for k, _ in self.named]:
                self.named.append((key, data))
        else:
            self.segment += b"\0" * (gen_vk.align(len(self.segment)) - len(self.segment))
            self.constants.append({"offset": len(self.segment), "length": len(data)})
            self.segment += data
        return vid

    def tensor(self, t):
        return self.g.tensor(t)

    def scalar(self, a):
        assert not isinstance(a, torch.Tensor)
        self.g.arg(a)
        return self.g.args.pop()

    def value_list(self, ids):
        return self.g._add("ValueList", {"items": list(ids)})

    def node(self, name, args):
        self.chain.append({"node_id": len(self.chain), "name": name, "args": list(args)})

    def output(self, vid, t):
        self.output_ids.append(vid)
        self.outputs.append(t)

    def json(self):
        return {"version": "0", "chain": self.chain, "values": self.g.values, "input_ids": self.input_ids,
                "output_ids": self.output_ids, "constants": self.constants, "shaders": []}

    def payload(self, tmp):
        jpath = os.path.join(tempfile.mkdtemp(dir=tmp), "graph.json")
        gen_vk.write_json(jpath, self.json())
        fb = open(gen_vk.flatc_binary(jpath, tmp), "rb").read()
        # Named constants: the payload's constant segment is empty (bytes_offset = end of the
        # 16-padded flatbuffer, bytes_size 0).
        return gen_vk.delegate_payload(fb, self.segment)


def tensor_evalue(t, offset):
    return {"val_type": "Tensor", "val": {
        "scalar_type": ET_SCALAR[t.dtype], "storage_offset": 0, "sizes": list(t.shape),
        "dim_order": list(range(t.dim())), "requires_grad": False, "data_buffer_idx": 0,
        "allocation_info": {"memory_id": 1, "memory_offset_low": offset, "memory_offset_high": 0},
        "layout": 0, "shape_dynamism": "STATIC"}}


def program_json(doc, delegate_ref, segments, named_data, inline_data):
    values, offset = [], 0
    for t in doc.inputs + doc.outputs:
        values.append(tensor_evalue(t, offset))
        offset += t.numel() * t.element_size()
    ins = list(range(len(doc.inputs)))
    outs = list(range(len(doc.inputs), len(doc.inputs) + len(doc.outputs)))
    plan = {
        "name": "forward",
        "container_meta_type": {"encoded_inp_str": "", "encoded_out_str": ""},
        "values": values,
        "inputs": ins,
        "outputs": outs,
        "chains": [{"inputs": ins, "outputs": outs, "instructions": [
            {"instr_args_type": "DelegateCall", "instr_args": {"delegate_index": 0, "args": ins + outs}}]}],
        "operators": [],
        "delegates": [{"id": "VulkanBackend", "processed": delegate_ref, "compile_specs": []}],
        "non_const_buffer_sizes": [0, offset],
    }
    prog = {"version": 0, "execution_plan": [plan], "constant_buffer": [],
            "backend_delegate_data": [{"data": list(inline_data)}] if inline_data is not None else [],
            "segments": segments}
    if inline_data is None:
        prog["constant_segment"] = {"segment_index": 0, "offsets": [0]}
    else:
        # No segments at all: the emitter's default SubsegmentOffsets (no constant entries).
        prog["constant_segment"] = {"segment_index": 0, "offsets": []}
    prog["named_data"] = named_data
    return prog


def layout_segments(blobs, alignments):
    """Offsets from the segment base: each at align(prev end, lcm(128, its alignment))."""
    segs, end = [], 0
    for blob, a in zip(blobs, alignments):
        off = align(end, lcm(SEGMENT_ALIGNMENT, a))
        segs.append({"offset": off, "size": len(blob)})
        end = off + len(blob)
    return segs, end


def pack_segments(head, base, segs, blobs):
    out = bytearray(head) + b"\0" * (base - len(head))
    for s, blob in zip(segs, blobs):
        out += b"\0" * (base + s["offset"] - len(out)) + blob
    return bytes(out)


def dedup(named):
    """Named entries -> (blobs, [(key, blob index)]); identical bytes share one blob."""
    blobs, entries = [], []
    for key, data in named:
        if data not in blobs:
            blobs.append(data)
        entries.append((key, blobs.index(data)))
    return blobs, entries


def write_pte(doc, tmp, named_in_pte=True, inline=False):
    """Returns (pte bytes, layout notes, named entries left for a .ptd)."""
    payload = doc.payload(tmp)
    if inline:
        assert not doc.named
        fb = flatc(PROGRAM_FBS, program_json(doc, {"location": "INLINE", "index": 0}, [], [], payload), tmp)
        return fb, {"flatbuffer_size": len(fb), "extended_header": None}, []
    named_blobs, named_entries = dedup(doc.named) if named_in_pte else ([], [])
    blobs = [b"", payload] + named_blobs
    aligns = [1, 1] + [NAMED_DATA_ALIGNMENT] * len(named_blobs)
    segs, seg_end = layout_segments(blobs, aligns)
    named_data = [{"key": k, "segment_index": 2 + i} for k, i in named_entries]
    fb = flatc(PROGRAM_FBS, program_json(doc, {"location": "SEGMENT", "index": 1}, segs, named_data, None), tmp)
    assert fb[4:8] == b"ET12"
    program_size = len(fb) + ET_HEADER_LEN
    base = align(program_size, SEGMENT_ALIGNMENT)
    header = b"eh00" + struct.pack("<IQQQ", ET_HEADER_LEN, program_size, base, seg_end)
    assert len(header) == ET_HEADER_LEN
    (root,) = struct.unpack_from("<I", fb, 0)
    head = struct.pack("<I", root + ET_HEADER_LEN) + fb[4:8] + header + fb[8:]
    layout = {"flatbuffer_size": len(fb), "program_size": program_size, "segment_base_offset": base,
              "segment_data_size": seg_end, "segments": segs, "root_offset": root + ET_HEADER_LEN}
    return pack_segments(head, base, segs, blobs), layout, ([] if named_in_pte else doc.named)


def write_ptd(named, tmp):
    blobs, entries = dedup(named)
    segs, seg_end = layout_segments(blobs, [NAMED_DATA_ALIGNMENT] * len(blobs))
    fb = flatc(FLAT_TENSOR_FBS, {"version": 0, "segments": segs,
                                 "named_data": [{"key": k, "segment_index": i} for k, i in entries]}, tmp)
    assert fb[4:8] == b"FT01"
    base = align(len(fb) + FT_HEADER_PADDED, SEGMENT_ALIGNMENT)
    header = b"FH01" + struct.pack("<IQQQQ", FT_HEADER_LEN, FT_HEADER_PADDED, len(fb), base, seg_end)
    assert len(header) == FT_HEADER_LEN
    header += b"\0" * (FT_HEADER_PADDED - FT_HEADER_LEN)
    (root,) = struct.unpack_from("<I", fb, 0)
    head = struct.pack("<I", root + FT_HEADER_PADDED) + fb[4:8] + header + fb[8:]
    return pack_segments(head, base, segs, blobs)


# ---------------------------------------------------------------------------------------------
# Cases: each returns (VkDoc, ATen ops used, inputs note).

def add_named(inline=False):
    torch.manual_seed(10)
    x, c = torch.randn(2, 3, 4, 5), torch.randn(2, 3, 4, 5)
    d = VkDoc()
    xi = d.input(x)
    ci = d.const(c, named=not inline)
    alpha = d.scalar(1)
    y = torch.ops.aten.add.Tensor(x, c, alpha=1)
    yi = d.tensor(y)
    d.node("aten.add.Tensor", [xi, ci, alpha, yi])
    d.output(yi, y)
    return d, "torch.ops.aten.add.Tensor(x, c, alpha=1)", "torch.randn with torch.manual_seed(10)"


def conv_clamp():
    torch.manual_seed(11)
    x, w, b = torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3), torch.randn(4)
    d = VkDoc()
    xi = d.input(x)
    wi, bi = d.const(w), d.const(b)
    rest = [d.scalar(a) for a in ([1, 1], [1, 1], [1, 1], False, [0, 0], 1, 0.0, 6.0)]
    y = torch.clamp(torch.ops.aten.convolution(x, w, b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), 0.0, 6.0)
    yi = d.tensor(y)
    d.node("et_vk.conv_with_clamp.default", [xi, wi, bi] + rest + [yi])
    d.output(yi, y)
    return (d, "torch.clamp(torch.ops.aten.convolution(x, w, b, [1,1], [1,1], [1,1], False, [0,0], 1), 0.0, 6.0)",
            "torch.randn with torch.manual_seed(11)")


def maxpool(shape, kernel, stride, padding, ceil_mode, seed):
    torch.manual_seed(seed)
    n = int(np.prod(shape))
    x = ((torch.randperm(n).to(torch.float32) - n / 2) / 8).reshape(shape)  # distinct values: no ties
    d = VkDoc()
    xi = d.input(x)
    args = [d.scalar(a) for a in (kernel, stride, padding, [1, 1], ceil_mode)]
    vals, idx = torch.ops.aten.max_pool2d_with_indices(x, kernel, stride, padding, [1, 1], ceil_mode)
    vi, ii = d.tensor(vals), d.tensor(idx)
    d.node("aten.max_pool2d_with_indices.default", [xi] + args + [d.value_list([vi, ii])])
    d.output(vi, vals)
    d.output(ii, idx)
    return (d, "torch.ops.aten.max_pool2d_with_indices(x, %s, %s, %s, [1, 1], %s)" % (kernel, stride, padding, ceil_mode),
            "(torch.randperm(%d) - %g) / 8 with torch.manual_seed(%d) (distinct values, no ties)" % (n, n / 2, seed))


def prepack_mm():
    torch.manual_seed(12)
    w, x = torch.randn(5, 4), torch.randn(3, 5)
    d = VkDoc()
    wi = d.const(w)
    xi = d.input(x)
    pi = d.tensor(w)
    d.node("et_vk.prepack.default", [wi, pi])
    y = torch.ops.aten.mm.default(x, w)
    yi = d.tensor(y)
    d.node("aten.mm.default", [xi, pi, yi])
    d.output(yi, y)
    return d, "torch.ops.aten.mm.default(x, W) (et_vk.prepack.default is the identity on W)", \
        "torch.randn with torch.manual_seed(12)"


def add_sub_alpha():
    torch.manual_seed(13)
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    d = VkDoc()
    xi, yi = d.input(x), d.input(y)
    a1 = d.scalar(2.5)
    t = torch.ops.aten.add.Tensor(x, y, alpha=2.5)
    ti = d.tensor(t)
    d.node("aten.add.Tensor", [xi, yi, a1, ti])
    a2 = d.scalar(3)
    z = torch.ops.aten.sub.Tensor(t, y, alpha=3)
    zi = d.tensor(z)
    d.node("aten.sub.Tensor", [ti, yi, a2, zi])
    d.output(zi, z)
    return d, "t = torch.ops.aten.add.Tensor(x, y, alpha=2.5); torch.ops.aten.sub.Tensor(t, y, alpha=3)", \
        "torch.randn with torch.manual_seed(13)"


CASES = {
    # name: (builder, where the named data goes: "pte" | "ptd" | "inline", ptd file name, conversions)
    "add_named": (lambda: add_named(), "pte", None, ["json", "pte"]),
    "conv_clamp_ptd": (conv_clamp, "ptd", "model.ptd", ["json"]),
    "conv_clamp_ptd_keyed": (conv_clamp, "ptd", "weights.ptd", []),
    "maxpool_indices": (lambda: maxpool([1, 2, 7, 7], [3, 3], [2, 2], [1, 1], True, 14), "pte", None, []),
    "maxpool_indices_floor": (lambda: maxpool([1, 3, 6, 6], [2, 2], [2, 2], [0, 0], False, 15), "pte", None, []),
    "prepack_mm": (prepack_mm, "pte", None, ["json", "pte"]),
    "add_sub_alpha": (add_sub_alpha, "pte", None, []),
    "inline_add": (lambda: add_named(inline=True), "inline", None, ["vkdelegate", "json", "pte"]),
}


def flatc_version():
    return subprocess.run(["flatc", "--version"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()


def main():
    fv = flatc_version()
    layouts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (build, where, ptd_name, conversions) in CASES.items():
            d, expected, inputs_note = build()
            pte, layout, ptd_named = write_pte(d, tmp, named_in_pte=(where == "pte"), inline=(where == "inline"))
            dst = os.path.join(OUT, name)
            gen_vk.fresh(dst)
            os.makedirs(os.path.join(dst, "inputs"))
            os.makedirs(os.path.join(dst, "outputs"))
            with open(os.path.join(dst, "model.pte"), "wb") as f:
                f.write(pte)
            if where == "ptd":
                with open(os.path.join(dst, ptd_name), "wb") as f:
                    f.write(write_ptd(ptd_named, tmp))
            for k, t in enumerate(d.inputs):
                np.save(os.path.join(dst, "inputs", "input_%d.npy" % k), t.numpy())
            for k, t in enumerate(d.outputs):
                np.save(os.path.join(dst, "outputs", "output_%d.npy" % k), t.numpy())
            if where == "inline":
                model = ("Program JSON compiled by %s (flatc -b against schemas/executorch/program.fbs), the Vulkan "
                         "delegate INLINE in backend_delegate_data (no extended header, no segments); payload: "
                         "gen_vk.py's VH00 layout around a flatc-compiled VkGraph, the constant in the payload's own "
                         "16-aligned constant segment; by %s" % (fv, SCRIPT))
            else:
                store = {"pte": "the .pte's named data (128-aligned segments after the delegate segment)",
                         "ptd": "%s, a FlatTensor file (flatc -b against schemas/executorch/flat_tensor.fbs, "
                                "FH01 header and 128-aligned segments packed with struct)" % ptd_name}[where]
                model = ("Program JSON laid out as ExecuTorch's serialize_pte_binary (extract_delegate_segments=True) "
                         "writes it, compiled by %s (flatc -b against schemas/executorch/program.fbs), eh00 extended "
                         "header and 128-aligned segments (empty constant segment, VH00 delegate payload%s) packed "
                         "with struct by %s; VkGraph compiled by flatc against schemas/vkgraph/schema.fbs, constants "
                         "as named data keyed by SHA-256 in %s"
                         % (fv, ", named data" if where == "pte" else "", SCRIPT, store))
            case = {"format": "pte", "model": "model.pte"}
            if ptd_name and ptd_name != "model.ptd":
                case["load_options"] = {"pte.named_data": ptd_name}
            case["provenance"] = {"model": model, "inputs": inputs_note,
                                  "outputs": "PyTorch %s: %s" % (torch.__version__, expected),
                                  "command": "/usr/bin/python3 %s" % SCRIPT}
            case["conversions"] = conversions
            case["tolerance"] = TOL
            gen_vk.write_json(os.path.join(dst, "case.json"), case)
            layouts[name] = layout
    return layouts


if __name__ == "__main__":
    for name, layout in main().items():
        print(name, json.dumps(layout))
