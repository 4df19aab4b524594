#!/usr/bin/python3
"""Files with N repeated elements for the scale benchmark (bench/scale.py, bench/README.md).

Every file is made from the format's own facts, never by nnbridge: FlatBuffers from flatc's JSON
form compiled by `flatc -b` against the schema in schemas/ (file headers packed with struct by the
layout rules gen_vk.py and gen_pte.py document), protobuf binary by `protoc --encode` from text
form, JSON and XML text written here. Each generator returns a Case: the file to read, the
command of the named baseline that decodes the same bytes, and what the element is.
"""
import hashlib
import json
import os
import struct
import subprocess
import tempfile
from dataclasses import dataclass, field


@dataclass
class Tools:
    root: str      # the repository
    build: str     # the CMake build folder
    flatc: str = "flatc"
    protoc: str = "protoc"
    python: str = "/usr/bin/python3"

    def schema(self, *parts):
        return os.path.join(self.root, "schemas", *parts)

    @property
    def settings_fbs(self):
        # The FlatBuffer twin of configuration.proto, generated at build time (flatc --proto).
        return os.path.join(self.build, "generated", "tflite_accel", "configuration.fbs")


@dataclass
class Case:
    path: str                  # the file nnbridge reads
    baseline: list             # argv of the baseline decoder
    baseline_stdin: str = None  # a file fed to the baseline's standard input
    extra: list = field(default_factory=list)  # more baseline commands, timed together


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


def flatc_b(tools, schema, doc, out_dir, stem, includes=(), extra=()):
    """flatc -b of `doc`; returns the binary's bytes."""
    d = tempfile.mkdtemp(dir=out_dir)
    jpath = os.path.join(d, stem + ".json")
    write_json(jpath, doc)
    cmd = [tools.flatc, "--no-warnings", "-b", *extra, "-o", d]
    for inc in includes:
        cmd += ["-I", inc]
    subprocess.run(cmd + [schema, jpath], check=True)
    (binary,) = [f for f in os.listdir(d) if f != stem + ".json"]
    with open(os.path.join(d, binary), "rb") as f:
        data = f.read()
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    os.rmdir(d)
    return data


def flatc_json_cmd(tools, schema, binary, out_dir, includes=(), extra=()):
    """The baseline: flatc decoding `binary` to JSON (into out_dir)."""
    cmd = [tools.flatc, "--no-warnings", "--json", "--strict-json", "--raw-binary", *extra, "-o", out_dir]
    for inc in includes:
        cmd += ["-I", inc]
    return cmd + [schema, "--", binary]


def json_load_cmd(tools, path):
    return [tools.python, "-c", "import json, sys; json.load(open(sys.argv[1]))", path]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def align(n, a):
    return (n + a - 1) // a * a


# ---------------------------------------------------------------------------------------------
# Arm NN (schemas/armnn/ArmnnSchema.fbs): Input -> N Activation (ReLu) layers -> Output, as
# Arm NN's serializer lays out a chain (both slot vectors on every layer).

def _armnn_info():
    return {"dimensions": [1, 4], "dataType": "Float32"}


def armnn_doc(n):
    def slot_in(src):
        return [{"index": 0, "connection": {"sourceLayerIndex": src, "outputSlotIndex": 0}}]
    out_slot = [{"index": 0, "tensorInfo": _armnn_info()}]
    layers = [{"layer_type": "InputLayer", "layer": {"base": {"base": {
        "index": 0, "layerName": "x", "layerType": "Input", "inputSlots": [], "outputSlots": out_slot},
        "layerBindingId": 0}}}]
    for i in range(1, n + 1):
        layers.append({"layer_type": "ActivationLayer", "layer": {
            "base": {"index": i, "layerName": "relu%d" % i, "layerType": "Activation", "inputSlots": slot_in(i - 1),
                     "outputSlots": out_slot},
            "descriptor": {"activationFunction": "ReLu"}}})
    layers.append({"layer_type": "OutputLayer", "layer": {"base": {"base": {
        "index": n + 1, "layerName": "y", "layerType": "Output", "inputSlots": slot_in(n), "outputSlots": []},
        "layerBindingId": 0}}})
    return {"layers": layers, "inputIds": [0], "outputIds": [n + 1]}


def gen_armnn(tools, n, d):
    data = flatc_b(tools, tools.schema("armnn", "ArmnnSchema.fbs"), armnn_doc(n), d, "chain")
    path = write(os.path.join(d, "chain.armnn"), data)
    # Arm NN 20.08's deserializer (bench/load_bench.cc), one load in its own process.
    bench = os.path.join(tools.build, "bin", "nnbridge-bench-load")
    return Case(path, [bench, "child", "armnn", path, "0"])


def gen_armnn_json(tools, n, d):
    path = os.path.join(d, "chain.armnn.json")
    write_json(path, armnn_doc(n))
    return Case(path, json_load_cmd(tools, path))


# ---------------------------------------------------------------------------------------------
# VkGraph (schemas/vkgraph/schema.fbs): N aten.relu.default OperatorCalls in a chain, laid out
# as ExecuTorch's VkGraphBuilder does (tests/formats/vkgraph/torch_cases.py).

def _vk_tensor():
    return {"value_type": "VkTensor", "value": {"datatype": "FLOAT32", "dims": [3, 4], "constant_id": -1,
                                                 "mem_obj_id": -1, "staging_datatype": "FLOAT32"}}


def vkgraph_doc(n):
    return {"version": "0", "chain": [{"node_id": i, "name": "aten.relu.default", "args": [i, i + 1]} for i in range(n)],
            "values": [_vk_tensor() for _ in range(n + 1)], "input_ids": [0], "output_ids": [n],
            "constants": [], "shaders": []}


def gen_vkgraph(tools, n, d):
    schema = tools.schema("vkgraph", "schema.fbs")
    path = write(os.path.join(d, "chain.vkgraph"), flatc_b(tools, schema, vkgraph_doc(n), d, "chain"))
    return Case(path, flatc_json_cmd(tools, schema, path, d))


def delegate_payload(fb, segment):
    """ExecuTorch's VH00 layout (gen_vk.py delegate_payload): 30-byte header, the flatbuffer at a
    16-aligned offset, then the constant segment at a 16-aligned offset."""
    fb_offset = align(30, 16)
    bytes_offset = align(fb_offset + len(fb), 16)
    head = b"\0\0\0\0VH00" + struct.pack("<HIIIQ", 30, fb_offset, len(fb), bytes_offset, len(segment))
    out = head + b"\0" * (fb_offset - len(head)) + fb
    return out + b"\0" * (bytes_offset - len(out)) + segment


def gen_vkdelegate(tools, n, d):
    schema = tools.schema("vkgraph", "schema.fbs")
    fb = flatc_b(tools, schema, vkgraph_doc(n), d, "chain")
    path = write(os.path.join(d, "chain.vkdelegate"), delegate_payload(fb, b""))
    bare = write(os.path.join(d, "baseline_fb.bin"), fb)
    return Case(path, flatc_json_cmd(tools, schema, bare, d))


# ---------------------------------------------------------------------------------------------
# ExecuTorch .pte (schemas/executorch/program.fbs; gen_pte.py's layout): one method, one
# VulkanBackend DelegateCall whose payload (segment 1) chains N aten.add.Tensor nodes, each
# adding its own [3, 4] float32 constant stored as named data (key: SHA-256 of the bytes) in the
# .pte's segments. .ptd (flat_tensor.fbs): N named-data entries of 48 bytes.

NAMED_OFFSET = 0xFFFFFFFFFFFFFFFF


def _const_bytes(i):
    """12 float32 (a [3, 4] tensor), distinct per i so that no two entries share bytes."""
    return struct.pack("<12f", *(i + k / 16 for k in range(12)))


def pte_vkgraph(n):
    values = [_vk_tensor(), {"value_type": "Int", "value": {"int_val": 1}}]
    chain, constants, named = [], [], []
    x = 0
    for i in range(n):
        data = _const_bytes(i)
        key = hashlib.sha256(data).hexdigest()
        c = len(values)
        t = _vk_tensor()
        t["value"]["constant_id"] = len(constants)
        values.append(t)
        constants.append({"offset": NAMED_OFFSET, "length": len(data), "named_key": key})
        named.append((key, data))
        y = len(values)
        values.append(_vk_tensor())
        chain.append({"node_id": i, "name": "aten.add.Tensor", "args": [x, c, 1, y]})
        x = y
    doc = {"version": "0", "chain": chain, "values": values, "input_ids": [0], "output_ids": [x],
           "constants": constants, "shaders": []}
    return doc, named


def _et_tensor(offset):
    return {"val_type": "Tensor", "val": {
        "scalar_type": "FLOAT", "storage_offset": 0, "sizes": [3, 4], "dim_order": [0, 1], "requires_grad": False,
        "data_buffer_idx": 0, "allocation_info": {"memory_id": 1, "memory_offset_low": offset, "memory_offset_high": 0},
        "layout": 0, "shape_dynamism": "STATIC"}}


def program_doc(segments, named_data):
    plan = {"name": "forward", "container_meta_type": {"encoded_inp_str": "", "encoded_out_str": ""},
            "values": [_et_tensor(0), _et_tensor(48)], "inputs": [0], "outputs": [1],
            "chains": [{"inputs": [0], "outputs": [1], "instructions": [
                {"instr_args_type": "DelegateCall", "instr_args": {"delegate_index": 0, "args": [0, 1]}}]}],
            "operators": [],
            "delegates": [{"id": "VulkanBackend", "processed": {"location": "SEGMENT", "index": 1}, "compile_specs": []}],
            "non_const_buffer_sizes": [0, 96]}
    return {"version": 0, "execution_plan": [plan], "constant_buffer": [], "backend_delegate_data": [],
            "segments": segments, "constant_segment": {"segment_index": 0, "offsets": [0]}, "named_data": named_data}


def layout_segments(blobs, alignments, base_alignment=128):
    segs, end = [], 0
    for blob, a in zip(blobs, alignments):
        off = align(end, base_alignment * a // _gcd(base_alignment, a))
        segs.append({"offset": off, "size": len(blob)})
        end = off + len(blob)
    return segs, end


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def pack_segments(head, base, segs, blobs):
    out = bytearray(head) + b"\0" * (base - len(head))
    for s, blob in zip(segs, blobs):
        out += b"\0" * (base + s["offset"] - len(out)) + blob
    return bytes(out)


def gen_pte(tools, n, d):
    et = tools.schema("executorch")
    vk_schema = tools.schema("vkgraph", "schema.fbs")
    doc, named = pte_vkgraph(n)
    fb = flatc_b(tools, vk_schema, doc, d, "graph")
    payload = delegate_payload(fb, b"")
    blobs = [b"", payload] + [data for _, data in named]
    segs, seg_end = layout_segments(blobs, [1, 1] + [16] * len(named))
    named_data = [{"key": k, "segment_index": 2 + i} for i, (k, _) in enumerate(named)]
    prog = flatc_b(tools, os.path.join(et, "program.fbs"), program_doc(segs, named_data), d, "program", includes=[et])
    assert prog[4:8] == b"ET12"
    program_size = len(prog) + 32
    base = align(program_size, 128)
    header = b"eh00" + struct.pack("<IQQQ", 32, program_size, base, seg_end)
    (root,) = struct.unpack_from("<I", prog, 0)
    head = struct.pack("<I", root + 32) + prog[4:8] + header + prog[8:]
    path = write(os.path.join(d, "chain.pte"), pack_segments(head, base, segs, blobs))
    # Baseline: flatc decodes the Program and the VkGraph it carries.
    prog_bin = write(os.path.join(d, "baseline_program.bin"), prog)
    vk_bin = write(os.path.join(d, "baseline_vk.bin"), fb)
    return Case(path, flatc_json_cmd(tools, os.path.join(et, "program.fbs"), prog_bin, d, includes=[et]),
                extra=[flatc_json_cmd(tools, vk_schema, vk_bin, d)])


def gen_ptd(tools, n, d):
    schema = tools.schema("executorch", "flat_tensor.fbs")
    blobs = [_const_bytes(i) for i in range(n)]
    segs, seg_end = layout_segments(blobs, [16] * n)
    doc = {"version": 0, "segments": segs, "named_data": [{"key": "w%d" % i, "segment_index": i} for i in range(n)]}
    fb = flatc_b(tools, schema, doc, d, "named", includes=[tools.schema("executorch")])
    assert fb[4:8] == b"FT01"
    padded = 48  # the 40-byte FH01 header, padded to 16
    base = align(len(fb) + padded, 128)
    header = b"FH01" + struct.pack("<IQQQQ", 40, padded, len(fb), base, seg_end) + b"\0" * 8
    (root,) = struct.unpack_from("<I", fb, 0)
    head = struct.pack("<I", root + padded) + fb[4:8] + header + fb[8:]
    path = write(os.path.join(d, "named.ptd"), pack_segments(head, base, segs, blobs))
    bare = write(os.path.join(d, "baseline_fb.bin"), fb)
    return Case(path, flatc_json_cmd(tools, schema, bare, d, includes=[tools.schema("executorch")]))


# ---------------------------------------------------------------------------------------------
# TFLite GL compiled model (schemas/afcm/compiled_model.fbs): N objects in one program
# (alternately ObjectData of 4 bytes and ObjectRef), or N programs of one object each.

def _afcm_object(j, data):
    o = {"access": "READ" if data else "READ_WRITE", "binding": j, "data_type": "FLOAT32", "type": "BUFFER",
         "size_type": "Uint1", "size": {"x": 1}}
    if data:
        o.update(object_type="ObjectData", object={"data": [j % 256, 0, 0, 0]})
    else:
        o.update(object_type="ObjectRef", object={"global_id": j})
    return o


def _afcm_program(objects, shader):
    return {"objects": objects, "parameters": [{"name": "n", "type": "INT32", "data_type": "DataInt32",
                                                "data": {"data": [len(objects)]}}],
            "number_workgroups": {"x": 1, "y": 1, "z": 1}, "workgroup_size": {"x": 8, "y": 1, "z": 1},
            "shader_index": shader}


def _afcm(tools, doc, d, stem):
    schema = tools.schema("afcm", "compiled_model.fbs")
    path = write(os.path.join(d, stem + ".flow"), flatc_b(tools, schema, doc, d, stem))
    return Case(path, flatc_json_cmd(tools, schema, path, d))


def gen_afcm_objects(tools, n, d):
    doc = {"parameters": {"dynamic_batch": False}, "shaders": ["\nvoid main() { }\n"],
           "programs": [_afcm_program([_afcm_object(j, j % 2 == 0) for j in range(n)], 0)]}
    return _afcm(tools, doc, d, "objects")


def gen_afcm_programs(tools, n, d):
    shaders = ["\nvoid main() { /* %d */ }\n" % k for k in range(16)]
    doc = {"parameters": {"dynamic_batch": False}, "shaders": shaders,
           "programs": [_afcm_program([_afcm_object(i % 64, False)], i % 16) for i in range(n)]}
    return _afcm(tools, doc, d, "programs")


# ---------------------------------------------------------------------------------------------
# nnbridge's IR JSON (sdk/core/include/nnbridge/json.h): N Relu nodes in a chain; or one node
# and N metadata keys.

def _ir_value(i):
    return {"name": "v%d" % i, "type": {"dtype": "float32", "shape": [3, 4]}}


def gen_ir_nodes(tools, n, d):
    doc = {"format": "nnbridge-ir", "version": 1, "values": [_ir_value(i) for i in range(n + 1)],
           "nodes": [{"op": "Relu", "name": "relu%d" % i, "inputs": [i], "outputs": [i + 1]} for i in range(n)],
           "inputs": [0], "outputs": [n]}
    path = os.path.join(d, "nodes.json")
    write_json(path, doc)
    return Case(path, json_load_cmd(tools, path))


def gen_ir_metadata(tools, n, d):
    doc = {"format": "nnbridge-ir", "version": 1, "metadata": {"key%07d" % i: {"string": "v%d" % i} for i in range(n)},
           "values": [_ir_value(0), _ir_value(1)], "nodes": [{"op": "Relu", "inputs": [0], "outputs": [1]}],
           "inputs": [0], "outputs": [1]}
    path = os.path.join(d, "metadata.json")
    write_json(path, doc)
    return Case(path, json_load_cmd(tools, path))


# ---------------------------------------------------------------------------------------------
# TFLite acceleration settings (schemas/tflite_accel/configuration.proto): a MinibenchmarkSettings
# whose repeated settings_to_test holds N TFLiteSettings { cpu_settings { num_threads } }.

SETTINGS_MESSAGE = "MinibenchmarkSettings"


def _threads(i):
    return i % 8 + 1


def _proto_text(n):
    return "".join("settings_to_test { cpu_settings { num_threads: %d } }\n" % _threads(i) for i in range(n))


def _protoc(tools, mode, stdin_path):
    proto = tools.schema("tflite_accel", "configuration.proto")
    return [tools.protoc, "--%s=tflite.proto.%s" % (mode, SETTINGS_MESSAGE), "-I", os.path.dirname(proto), proto]


def gen_settings(form):
    def gen(tools, n, d):
        if form == "proto-text":
            path = os.path.join(d, "settings.txtpb")
            with open(path, "w") as f:
                f.write(_proto_text(n))
            return Case(path, _protoc(tools, "encode", path), baseline_stdin=path)
        if form == "proto-binary":
            text = os.path.join(d, "settings_src.txtpb")
            with open(text, "w") as f:
                f.write(_proto_text(n))
            path = os.path.join(d, "settings.pb")
            with open(text) as fin, open(path, "wb") as fout:
                subprocess.run(_protoc(tools, "encode", text), stdin=fin, stdout=fout, check=True)
            os.remove(text)
            return Case(path, _protoc(tools, "decode", path), baseline_stdin=path)
        if form == "proto-json":
            path = os.path.join(d, "settings.pb.json")
            write_json(path, {"settingsToTest": [{"cpuSettings": {"numThreads": _threads(i)}} for i in range(n)]})
            return Case(path, json_load_cmd(tools, path))
        doc = {"settings_to_test": [{"cpu_settings": {"num_threads": _threads(i)}} for i in range(n)]}
        if form == "fb-json":
            path = os.path.join(d, "settings.fb.json")
            write_json(path, doc)
            return Case(path, json_load_cmd(tools, path))
        assert form == "fb"
        root = ["--root-type", "tflite." + SETTINGS_MESSAGE]
        path = write(os.path.join(d, "settings.fb"), flatc_b(tools, tools.settings_fbs, doc, d, "settings", extra=root))
        return Case(path, flatc_json_cmd(tools, tools.settings_fbs, path, d, extra=root))
    return gen


# ---------------------------------------------------------------------------------------------
# OpenVINO custom-layer XML (GPU plugin's SimpleGPU layers; tests/config/openvino_custom/data):
# N CustomLayer elements, all naming one kernel source file.

def gen_custom_layers(tools, n, d):
    with open(os.path.join(d, "k.cl"), "w") as f:
        f.write("__kernel void k(const __global float* x, __global float* y) { y[get_global_id(0)] = x[get_global_id(0)]; }\n")
    path = os.path.join(d, "layers.xml")
    with open(path, "w") as f:
        for i in range(n):
            f.write('<CustomLayer name="Op%d" type="SimpleGPU" version="1">\n'
                    '  <Kernel entry="k"><Source filename="k.cl"/><Define name="N" default="%d"/></Kernel>\n'
                    '  <Buffers><Tensor arg-index="0" type="input" port-index="0" format="BFYX"/>'
                    '<Tensor arg-index="1" type="output" port-index="0" format="BFYX"/></Buffers>\n'
                    '  <WorkSizes global="B*F*Y*X"/>\n</CustomLayer>\n' % (i, i))
    # The file has no root element (OpenVINO's layout): ElementTree parses it inside one.
    code = "import sys, xml.etree.ElementTree as E; E.fromstring('<r>' + open(sys.argv[1]).read() + '</r>')"
    return Case(path, [tools.python, "-c", code, path])


# ---------------------------------------------------------------------------------------------
# By name, for bench/scale.py and for the bounded scale tests (tests/io/scale_test.cc), which run
#   scale_gen.py --build BUILD_DIR NAME N OUT_DIR
# and read the path of the file made from standard output.

GENERATORS = {
    "armnn": gen_armnn, "armnn-json": gen_armnn_json, "vkgraph": gen_vkgraph, "vkdelegate": gen_vkdelegate,
    "pte": gen_pte, "ptd": gen_ptd, "afcm-objects": gen_afcm_objects, "afcm-programs": gen_afcm_programs,
    "json-nodes": gen_ir_nodes, "json-metadata": gen_ir_metadata,
    "settings-proto-binary": gen_settings("proto-binary"), "settings-proto-text": gen_settings("proto-text"),
    "settings-proto-json": gen_settings("proto-json"), "settings-fb": gen_settings("fb"),
    "settings-fb-json": gen_settings("fb-json"), "custom-layers": gen_custom_layers,
}


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Writes one file of N repeated elements; prints its path.")
    ap.add_argument("--build", required=True, help="the CMake build folder (for the settings' FlatBuffer schema)")
    ap.add_argument("name", choices=sorted(GENERATORS))
    ap.add_argument("n", type=int)
    ap.add_argument("out_dir")
    a = ap.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(a.out_dir, exist_ok=True)
    print(GENERATORS[a.name](Tools(root=root, build=os.path.abspath(a.build)), a.n, a.out_dir).path)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
