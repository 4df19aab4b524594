#!/usr/bin/env python3
"""Checks an installed include tree: the public headers expose no generated code.

usage: check_headers.py INCLUDE_DIR CXX

Fails when a header under INCLUDE_DIR includes FlatBuffers or protobuf headers or any
flatc/protoc output (`flatbuffers/`, `google/protobuf`, `*_generated.h`, `*.pb.h`) or declares
into those libraries' or the generated code's namespaces, when a
quoted include does not resolve inside INCLUDE_DIR (a header that needs the source tree), or
when one translation unit including every header does not compile with CXX -std=c++20 and
only INCLUDE_DIR on the include path. Before that, the scanner checks itself on a made-up
leaking header, so a scanner that matches nothing fails too.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
LEAK = re.compile(r'(^|/)(flatbuffers/|google/protobuf/)|_generated\.h$|\.pb\.h$')
# A forward declaration of a generated or third-party namespace leaks its types just the same.
FOREIGN_NS = re.compile(r'^\s*namespace\s+(google|flatbuffers|pugi|armnnSerializer|tflite|cl)\b', re.M)


def findings(root):
    out = []
    headers = sorted(p for p in root.rglob("*") if p.is_file())
    for h in headers:
        text = h.read_text(errors="replace")
        for m in FOREIGN_NS.finditer(text):
            out.append(f"{h.relative_to(root)}: declares into namespace {m.group(1)}")
        for m in INCLUDE.finditer(text):
            kind, name = m.group(1), m.group(2)
            rel = h.relative_to(root)
            if LEAK.search(name):
                out.append(f"{rel}: includes generated or third-party serialization code: {name}")
            elif kind == '"' and not (root / name).is_file() and not (h.parent / name).is_file():
                out.append(f"{rel}: includes {name}, which is not installed")
    return headers, out


def self_test():
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        (root / "nnbridge").mkdir()
        (root / "nnbridge/ok.h").write_text('#include <vector>\n#include "nnbridge/ok.h"\n')
        for i, inc in enumerate(['<flatbuffers/flatbuffers.h>', '"google/protobuf/message.h"',
                                 '"armnn/ArmnnSchema_generated.h"', '"configuration.pb.h"',
                                 '"../src/convert.h"']):
            (root / f"nnbridge/leak{i}.h").write_text(f"#pragma once\n  #  include {inc}\n")
        (root / "nnbridge/leak5.h").write_text("namespace tflite::proto { class TFLiteSettings; }\n")
        _, found = findings(root)
        if len(found) != 6:
            print("check_headers: the scanner itself is broken:", found)
            return False
    return True


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root, cxx = pathlib.Path(argv[1]), argv[2]
    if not self_test():
        return 1
    headers, found = findings(root)
    if not any(h.name == "io.h" for h in headers):
        print(f"check_headers: no nnbridge/io.h under {root}: nothing was installed")
        return 1
    for f in found:
        print(f)
    print(f"check_headers: {len(headers)} headers, {len(found)} problems")
    if found:
        return 1
    with tempfile.TemporaryDirectory() as d:
        tu = pathlib.Path(d) / "all_headers.cc"
        tu.write_text("".join(f'#include "{h.relative_to(root)}"\n' for h in headers if h.suffix == ".h"))
        r = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-I", str(root), str(tu)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("check_headers: the installed headers do not compile on their own:\n" + r.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
