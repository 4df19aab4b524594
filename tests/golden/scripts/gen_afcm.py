#!/usr/bin/python3
"""Writes the TFLite GPU OpenGL compiled-model (afcm) golden cases (tests/golden/README.md).

Each model is a CompiledModel document in flatc's JSON form compiled by flatc -b against
schemas/afcm/compiled_model.fbs (TFLite's gl/compiled_model.fbs field for field). The cases check
decode and the same-format round-trip (a gl.Program graph has no cpu kernels, so nothing runs).
Nothing here runs nnbridge.

Usage: /usr/bin/python3 tests/golden/scripts/gen_afcm.py [REPO_ROOT]
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden")
SCHEMA = os.path.join(ROOT, "schemas", "afcm", "compiled_model.fbs")
SCRIPT = "tests/golden/scripts/gen_afcm.py"


def obj(access, binding, dtype, kind, size, variant, body):
    size_type = "Uint%d" % len(size)
    return {"access": access, "binding": binding, "data_type": dtype, "type": kind, "size_type": size_type,
            "size": dict(zip("xyz", size)), "object_type": variant, "object": body}


def param(name, ptype, tag, data):
    return {"name": name, "type": ptype, "data_type": tag, "data": {"data": data}}


def program(objects, parameters, groups, wg, shader, binary=None):
    p = {"objects": objects, "parameters": parameters, "number_workgroups": dict(zip("xyz", groups)),
         "workgroup_size": dict(zip("xyz", wg)), "shader_index": shader}
    if binary is not None:
        p["binary"] = binary
    return p


SHADER_ADD = "\nlayout(std430) buffer;\nvoid main() {\n  ivec3 gid = ivec3(gl_GlobalInvocationID.xyz);\n}\n"
SHADER_COPY = "\nvoid main() { }\n"


def models():
    one_byte_data = {"data": [0, 0, 128, 63, 0, 0, 0, 64]}
    base = {"parameters": {"dynamic_batch": False},
            "shaders": [SHADER_ADD, SHADER_COPY],
            "programs": [
                program([obj("READ", 0, "FLOAT32", "BUFFER", [2], "ObjectData", one_byte_data),
                         obj("READ", 1, "FLOAT16", "TEXTURE", [2, 2], "ObjectRef", {"global_id": 3}),
                         obj("WRITE", 2, "FLOAT32", "BUFFER", [1, 2, 3], "ObjectRef", {"global_id": 4})],
                        [param("i", "INT32", "DataInt32", [7]), param("u", "UINT32", "DataUint32", [1, 2, 3, 4]),
                         param("f", "FLOAT32", "DataFloat", [0.5, -0.5]), param("p", "INT32_2", "DataInt32", [1, 2])],
                        [4, 1, 1], [8, 4, 2], 0),
                program([obj("READ_WRITE", 0, "FLOAT32", "BUFFER", [6], "ObjectRef", {"global_id": 4})], [],
                        [1, 1, 1], [1, 1, 1], 1)]}
    out = {"two_programs": base}
    m = copy.deepcopy(base)
    m["parameters"]["dynamic_batch"] = True
    out["dynamic_batch"] = m
    m = copy.deepcopy(base)
    m["programs"][1]["binary"] = {"format": 0x8B9E, "binary": [1, 2, 3, 4, 5, 6, 7, 8]}
    out["program_binary"] = m
    m = copy.deepcopy(base)
    m["programs"] = m["programs"][:1]
    m["shaders"] = m["shaders"][:1]
    out["one_program"] = m
    m = copy.deepcopy(base)
    m["programs"].append(program([obj("READ", 0, "INT32", "BUFFER", [4], "ObjectRef", {"global_id": 4}),
                                  obj("WRITE", 1, "INT16", "TEXTURE", [2, 2, 1], "ObjectRef", {"global_id": 5})],
                                 [param("scale", "FLOAT32", "DataFloat", [0.25])], [2, 2, 1], [4, 4, 1], 0))
    out["three_programs_shared_shader"] = m
    m = copy.deepcopy(base)
    del m["parameters"]
    out["no_parameters_table"] = m
    return out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for name, doc in models().items():
            jpath = os.path.join(tmp, name + ".json")
            with open(jpath, "w") as f:
                json.dump(doc, f)
            subprocess.run(["flatc", "--no-warnings", "-b", "-o", tmp, SCHEMA, jpath], check=True)
            dst = os.path.join(GOLDEN, "afcm", name)
            shutil.rmtree(dst, ignore_errors=True)
            os.makedirs(dst)
            shutil.copy(os.path.join(tmp, name + ".flow"), os.path.join(dst, "model.flow"))
            case = {"format": "afcm", "model": "model.flow",
                    "provenance": {"model": "CompiledModel JSON (see the command) compiled by flatc -b against "
                                            "schemas/afcm/compiled_model.fbs",
                                   "command": "/usr/bin/python3 %s" % SCRIPT},
                    "roundtrip": True,
                    # gl.Program nodes are TFLite GL compute shaders: no backend runs them, so
                    # these cases check decoding and the round-trip only (docs/conformance.md).
                    "checks": ["decode", "roundtrip"]}
            with open(os.path.join(dst, "case.json"), "w") as f:
                json.dump(case, f, indent=2)
                f.write("\n")


if __name__ == "__main__":
    main()
