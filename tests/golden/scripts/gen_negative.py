#!/usr/bin/python3
"""Writes the negative golden cases (tests/golden/README.md): damaged copies of peer-written models.

Every damaged file comes from a model in tests/golden/{armnn,vkgraph,vkdelegate,afcm} (written by
Arm NN 20.08, or by flatc from JSON) through one of:
  - truncation (what `head -c N` does),
  - a byte patch at a documented place (the FlatBuffers root offset at bytes 0..3, the file
    identifier at bytes 4..7, a field of ExecuTorch's VH00 header),
  - flatc: decode to JSON (flatc --json --raw-binary), edit one field, encode again (flatc -b), or
    encode with a copy of the schema that gained an enum value or union member (a newer writer),
  - removing or replacing an input file of a case.
The expected error identifier follows docs/errors.md from what the damage is (a cut file or an offset
past the end: nnbridge.malformed.201; a wrong magic or file identifier: .202; an unknown union member:
.206; a dangling id: nnbridge.invalid.401; ...), its code is the identifier's; the message fragment is
the file name or the field path every nnbridge message must name, in the format's own field names.
Nothing here runs nnbridge.

Usage: /usr/bin/python3 tests/golden/scripts/gen_negative.py [REPO_ROOT]
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden")
OUT = os.path.join(GOLDEN, "negative")
SCRIPT = "tests/golden/scripts/gen_negative.py"
SCHEMAS = {"armnn": "schemas/armnn/ArmnnSchema.fbs", "vkgraph": "schemas/vkgraph/schema.fbs",
           "afcm": "schemas/afcm/compiled_model.fbs"}
EXT = {"armnn": "armnn", "vkgraph": "vkgraph", "vkdelegate": "vkdelegate", "afcm": "flow"}


def source(fmt, case):
    return os.path.join(GOLDEN, fmt, case, "model." + EXT[fmt])


CODE_OF = {"io": "Io", "malformed": "Malformed", "unsupported": "Unsupported", "invalid": "Invalid",
           "backend": "Backend"}
TRUNCATED = "nnbridge.malformed.201"      # the input ends, or an offset points, past its end
BAD_IDENTIFIER = "nnbridge.malformed.202"  # a magic, file identifier or header that is not the format's
BAD_ENCODING = "nnbridge.malformed.206"    # a field that decodes to nothing valid (an unknown union member)
MALFORMED_OTHER = "nnbridge.malformed.200"
DANGLING = "nnbridge.invalid.401"
SHAPE = "nnbridge.invalid.403"
TYPE_MISMATCH = "nnbridge.invalid.408"
MISSING_INPUT = "nnbridge.invalid.410"     # an input not supplied, or one the graph does not have


def write_case(fmt, name, data, error_id, fragment, how, origin, stage="load", extra=None):
    code = CODE_OF[error_id.split(".")[1]]
    d = os.path.join(OUT, fmt, name)
    os.makedirs(d)
    model = "model." + EXT[fmt]
    with open(os.path.join(d, model), "wb") as f:
        f.write(data)
    case = {"format": fmt, "model": model,
            "expect_error": {"code": code, "id": error_id, "message_contains": fragment, "stage": stage},
            "provenance": {"model": "%s, damaged: %s" % (origin, how),
                           "expected_error": "docs/errors.md: %s (%s); the message names %s" % (error_id, how, fragment),
                           "command": "/usr/bin/python3 %s" % SCRIPT}}
    case.update(extra or {})
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(case, f, indent=2)
        f.write("\n")
    return d


def origin_of(fmt, case):
    return "tests/golden/%s/%s/model.%s" % (fmt, case, EXT[fmt])


def truncations(fmt, cases, fractions):
    for case in cases:
        data = open(source(fmt, case), "rb").read()
        for frac in fractions:
            n = int(len(data) * frac)
            write_case(fmt, "%s_truncated_%d" % (case, n), data[:n], TRUNCATED, "model." + EXT[fmt],
                       "the first %d of %d bytes (head -c %d)" % (n, len(data), n), origin_of(fmt, case))


def patched(fmt, case, name, offset, new, error_id, fragment, how):
    data = bytearray(open(source(fmt, case), "rb").read())
    data[offset:offset + len(new)] = new
    write_case(fmt, name, bytes(data), error_id, fragment, how, origin_of(fmt, case))


def root_offset_past_end(fmt, cases):
    for case in cases:
        size = os.path.getsize(source(fmt, case))
        base = 0
        patched(fmt, case, case + "_root_offset_past_end", base, struct.pack("<I", size + 64), TRUNCATED,
                "model." + EXT[fmt], "root uoffset (bytes 0..3) set to %d, past the %d-byte file" % (size + 64, size))


def flatc_edit(fmt, case, name, edit, error_id, fragment, how, schema=None, tmp=None):
    """Decodes with flatc, applies `edit` to the JSON, encodes again (optionally with another schema)."""
    schema = schema or os.path.join(ROOT, SCHEMAS[fmt])
    src = source(fmt, case)
    subprocess.run(["flatc", "--no-warnings", "--raw-binary", "--json", "--strict-json", "-o", tmp,
                    os.path.join(ROOT, SCHEMAS[fmt]), "--", src], check=True)
    doc = json.load(open(os.path.join(tmp, "model.json")))
    edit(doc)
    jpath = os.path.join(tmp, name + ".json")
    with open(jpath, "w") as f:
        json.dump(doc, f)
    outdir = tempfile.mkdtemp(dir=tmp)
    subprocess.run(["flatc", "--no-warnings", "-b", "-o", outdir, schema, jpath], check=True)
    (binary,) = os.listdir(outdir)
    data = open(os.path.join(outdir, binary), "rb").read()
    write_case(fmt, name, data, error_id, fragment, how + " (flatc --json, edit, flatc -b)", origin_of(fmt, case))


def schema_variant(fmt, tmp, old, new):
    """A copy of the format's schema (and its includes) with `old` replaced by `new`."""
    d = tempfile.mkdtemp(dir=tmp)
    src_dir = os.path.dirname(os.path.join(ROOT, SCHEMAS[fmt]))
    for f in os.listdir(src_dir):
        if f.endswith(".fbs"):
            shutil.copy(os.path.join(src_dir, f), d)
    path = os.path.join(d, os.path.basename(SCHEMAS[fmt]))
    text = open(path).read()
    assert old in text, old
    open(path, "w").write(text.replace(old, new, 1))
    return path


def input_cases(fmt, case, inputs):
    """Cases whose data set is wrong: executed, they must fail with Invalid naming the input."""
    ids = {"_missing_input": MISSING_INPUT, "_input_wrong_shape": SHAPE, "_input_wrong_dtype": TYPE_MISMATCH,
           "_extra_input": MISSING_INPUT}
    src = os.path.join(GOLDEN, fmt, case)
    first = inputs[0]

    def copy(name):
        d = write_case(fmt, name, open(source(fmt, case), "rb").read(), ids[name[len(case):]], "", "",
                       origin_of(fmt, case), stage="run")
        shutil.copytree(os.path.join(src, "inputs"), os.path.join(d, "inputs"))
        shutil.copytree(os.path.join(src, "outputs"), os.path.join(d, "outputs"))
        return d

    def fix(d, fragment, how):
        c = json.load(open(os.path.join(d, "case.json")))
        c["expect_error"]["message_contains"] = fragment
        c["provenance"]["model"] = origin_of(fmt, case) + " (unchanged); inputs: " + how
        c["provenance"]["expected_error"] = "docs/errors.md: %s (%s); the message names %s" % (
            c["expect_error"]["id"], how, fragment)
        json.dump(c, open(os.path.join(d, "case.json"), "w"), indent=2)

    d = copy(case + "_missing_input")
    os.remove(os.path.join(d, "inputs", first + ".npy"))
    fix(d, first + ".npy", "%s.npy removed (rm)" % first)
    d = copy(case + "_input_wrong_shape")
    a = np.load(os.path.join(d, "inputs", first + ".npy"))
    np.save(os.path.join(d, "inputs", first + ".npy"), np.concatenate([a.reshape(-1), a.reshape(-1)[:1]]))
    fix(d, first, "%s.npy replaced by its values flattened plus one element (numpy)" % first)
    d = copy(case + "_input_wrong_dtype")
    a = np.load(os.path.join(d, "inputs", first + ".npy"))
    np.save(os.path.join(d, "inputs", first + ".npy"), a.astype(np.float64))
    fix(d, first + ".npy", "%s.npy cast to float64 (numpy)" % first)
    d = copy(case + "_extra_input")
    shutil.copy(os.path.join(d, "inputs", first + ".npy"), os.path.join(d, "inputs", "not_an_input.npy"))
    fix(d, "not_an_input.npy", "an extra not_an_input.npy (cp)")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        # Arm NN (files written by Arm NN 20.08's serializer; no file identifier).
        armnn = ["activation_relu", "add_float", "conv2d_nhwc_same", "softmax", "fully_connected", "concat_axis1",
                 "maxpool_nhwc", "reshape", "transpose", "lstm", "detection_post_process", "mean_keep_dims",
                 "add_qasymmu8", "depthwise_nhwc_m1", "resize_bilinear_nhwc"]
        armnn = [c for c in armnn if os.path.exists(source("armnn", c))]
        truncations("armnn", armnn, [0.02, 0.5, 0.95])
        root_offset_past_end("armnn", armnn[:6])
        def dangling_source(doc):
            for layer in doc["layers"]:
                for slot in layer["layer"]["base"].get("inputSlots", []):
                    slot["connection"]["sourceLayerIndex"] = 4000
                    return
        for case in armnn[:2]:
            flatc_edit("armnn", case, case + "_dangling_source_layer", dangling_source, DANGLING, "sourceLayerIndex",
                       "the first input slot's connection.sourceLayerIndex set to 4000", tmp=tmp)
        # VkGraph (flatc-compiled, identifier VK00 at bytes 4..7).
        vk = ["add", "relu", "conv", "softmax", "linear_bias", "cat", "layer_norm", "embedding"]
        truncations("vkgraph", vk, [0.03, 0.6])
        for case in vk[:4]:
            patched("vkgraph", case, case + "_wrong_identifier", 4, b"VK99", BAD_IDENTIFIER, "model.vkgraph",
                    "file identifier (bytes 4..7) VK00 -> VK99")
        root_offset_past_end("vkgraph", vk[:4])
        def dangling_input(doc):
            doc["input_ids"][0] = 9999
        def dangling_arg(doc):
            doc["chain"][0]["args"][0] = 9999
        for case in vk[:4]:
            flatc_edit("vkgraph", case, case + "_dangling_input_id", dangling_input, DANGLING, "input_ids[0]",
                       "input_ids[0] set to 9999", tmp=tmp)
            flatc_edit("vkgraph", case, case + "_dangling_arg", dangling_arg, DANGLING, "chain[0].args[0]",
                       "chain[0].args[0] set to 9999", tmp=tmp)
        newer_union = schema_variant("vkgraph", tmp, "  SymInt,\n}", "  SymInt,\n  FutureKind,\n}\ntable FutureKind {}")
        def future_kind(doc):
            doc["values"][0] = {"value_type": "FutureKind", "value": {}}
        for case in vk[:2]:
            flatc_edit("vkgraph", case, case + "_union_tag_out_of_range", future_kind, BAD_ENCODING, "values[0]",
                       "values[0].value_type 12 (one past SymInt) via a schema copy with one more union member",
                       schema=newer_union, tmp=tmp)
        # Vulkan delegate payloads (VH00 header, tests/golden/vkdelegate, packed by gen_vk.py).
        for case in ["linear_const_weight", "conv_const_weight"]:
            size = os.path.getsize(source("vkdelegate", case))
            truncations("vkdelegate", [case], [0.5, 0.9])
            patched("vkdelegate", case, case + "_wrong_magic", 4, b"VH01", BAD_IDENTIFIER, "header.magic",
                    "magic (bytes 4..7) VH00 -> VH01")
            patched("vkdelegate", case, case + "_header_size_29", 8, struct.pack("<H", 29), BAD_IDENTIFIER,
                    "header.header_size", "header_size (bytes 8..9) 30 -> 29")
            patched("vkdelegate", case, case + "_flatbuffer_past_end", 14, struct.pack("<I", size), TRUNCATED,
                    "header.flatbuffer_size", "flatbuffer_size (bytes 14..17) set to the file size %d" % size)
            patched("vkdelegate", case, case + "_bytes_offset_inside_flatbuffer", 18, struct.pack("<I", 40),
                    MALFORMED_OTHER, "header.bytes_offset", "bytes_offset (bytes 18..21) set to 40")
            patched("vkdelegate", case, case + "_bytes_size_past_end", 22, struct.pack("<Q", size), TRUNCATED,
                    "header.bytes_size", "bytes_size (bytes 22..29) set to the file size %d" % size)
        # TFLite GL compiled models (flatc-compiled, identifier AFCM).
        afcm = ["two_programs", "program_binary", "three_programs_shared_shader"]
        truncations("afcm", afcm, [0.1, 0.7])
        for case in afcm:
            patched("afcm", case, case + "_wrong_identifier", 4, b"AFCX", BAD_IDENTIFIER, "model.flow",
                    "file identifier (bytes 4..7) AFCM -> AFCX")
        root_offset_past_end("afcm", afcm[:2])
        newer = schema_variant("afcm", tmp, "  ObjectRef,\n}", "  ObjectRef,\n  FutureObject,\n}\ntable FutureObject {}")
        def future_object(doc):
            doc["programs"][0]["objects"][0]["object_type"] = "FutureObject"
            doc["programs"][0]["objects"][0]["object"] = {}
        flatc_edit("afcm", "two_programs", "two_programs_union_tag_out_of_range", future_object, BAD_ENCODING,
                   "programs[0].objects[0].object", "programs[0].objects[0].object_type 3 (one past ObjectRef) via a "
                   "schema copy with one more union member", schema=newer, tmp=tmp)
        # Wrong data sets (the model is fine).
        input_cases("armnn", "add_float", ["a"])
        input_cases("vkgraph", "mul", ["input_0"])
        input_cases("vkdelegate", "linear_const_weight", ["input_0"])


if __name__ == "__main__":
    main()
