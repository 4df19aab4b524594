#!/usr/bin/env python3
"""Runs examples/cpp's program, built against an installed nnbridge, on a golden case and checks
what it prints and writes against what Arm NN 20.08 wrote for that case (tests/golden/armnn).

usage: check_consumer.py PROGRAM CASE_DIR WORK_DIR

Expected values, none of them from nnbridge:
- input and output names, in order: CASE_DIR/case.json ("inputs", "outputs"; the peer harness);
- dtypes and shapes: the .npy files the harness wrote (inputs/<name>.npy) and Arm NN CpuRef
  computed (outputs/<name>.npy), read with NumPy; nnbridge's quantized dtypes are compared
  through their storage type (qasymmu8 is stored as uint8, as Arm NN's QAsymmU8);
- output values: outputs/<name>.npy under case.json's tolerance;
- the converted JSON file: parsed by Python's json module, its graph inputs and outputs named
  as case.json says.
A run without --inputs (zero-filled inputs) must succeed and print every output.
"""
import json
import pathlib
import re
import subprocess
import sys

import numpy as np

STORAGE = {"float32": "float32", "float16": "float16", "float64": "float64", "int8": "int8",
           "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "bool": "bool",
           "qasymmu8": "uint8", "qasymms8": "int8", "qsymms8": "int8", "qsymms16": "int16"}
LINE = re.compile(r"^(input|output|result) (\S+) (\S+) \[([-0-9,?]*)\]")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    print("$", " ".join(map(str, cmd)))
    print(r.stdout + r.stderr, end="")
    return r


def parsed(stdout):
    out = {"input": [], "output": [], "result": []}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            dims = [int(d) for d in m.group(4).split(",") if d]
            out[m.group(1)].append((m.group(2), m.group(3), dims))
    return out


def expect(cond, what, problems):
    if not cond:
        problems.append(what)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    program, case, work = argv[1], pathlib.Path(argv[2]), pathlib.Path(argv[3])
    spec = json.loads((case / "case.json").read_text())
    model = case / spec["model"]
    problems = []

    r = run([program, model, "--inputs", case / "inputs", "--outputs", work / "outputs", "--convert",
             work / "model.json"])
    expect(r.returncode == 0, f"exit status {r.returncode}", problems)
    got = parsed(r.stdout)
    for role, folder, names in (("input", "inputs", spec["inputs"]), ("output", "outputs", spec["outputs"])):
        expect([n for n, _, _ in got[role]] == names,
               f"{role} names {[n for n, _, _ in got[role]]}, case.json says {names}", problems)
        for name, dtype, dims in got[role]:
            ref = np.load(case / folder / f"{name}.npy")
            expect(STORAGE.get(dtype) == str(ref.dtype), f"{role} {name}: dtype {dtype}, Arm NN's file {ref.dtype}",
                   problems)
            expect(dims == list(ref.shape), f"{role} {name}: shape {dims}, Arm NN's file {list(ref.shape)}",
                   problems)
    expect(sorted(n for n, _, _ in got["result"]) == sorted(spec["outputs"]),
           f"results {[n for n, _, _ in got['result']]}", problems)

    tol = spec.get("tolerance", {})
    atol = tol.get("float32", {}).get("atol", 1e-5)
    rtol = tol.get("float32", {}).get("rtol", 1e-4)
    steps = tol.get("quantized", {}).get("max_abs_diff_in_steps", 1)
    for name in spec["outputs"]:
        path = work / "outputs" / f"{name}.npy"
        if not path.exists():
            problems.append(f"no {path}")
            continue
        a, e = np.load(path), np.load(case / "outputs" / f"{name}.npy")
        if a.dtype != e.dtype or a.shape != e.shape:
            problems.append(f"output {name}: {a.dtype}{list(a.shape)}, Arm NN CpuRef {e.dtype}{list(e.shape)}")
        elif np.issubdtype(e.dtype, np.floating):
            expect(np.allclose(a, e, atol=atol, rtol=rtol), f"output {name}: values differ from Arm NN CpuRef's",
                   problems)
        else:
            diff = np.abs(a.astype(np.int64) - e.astype(np.int64)).max(initial=0)
            expect(diff <= (0 if e.dtype == np.bool_ else steps), f"output {name}: {diff} steps from Arm NN CpuRef",
                   problems)

    converted = work / "model.json"
    expect(f"converted {converted} format json nodes " in r.stdout, "no 'converted ... format json' line", problems)
    if converted.exists():
        ir = json.loads(converted.read_text())
        expect(ir.get("format") == "nnbridge-ir", "converted file is not nnbridge-ir JSON", problems)
        names = [v["name"] for v in ir.get("values", [])]
        expect([names[i] for i in ir.get("inputs", [])] == spec["inputs"], "converted inputs", problems)
        expect([names[i] for i in ir.get("outputs", [])] == spec["outputs"], "converted outputs", problems)
    else:
        problems.append(f"no {converted}")

    r = run([program, model])
    expect(r.returncode == 0, f"zero-filled run: exit status {r.returncode}", problems)
    expect(sorted(n for n, _, _ in parsed(r.stdout)["result"]) == sorted(spec["outputs"]),
           "zero-filled run: results", problems)

    r = run([program, case / "case.json"])
    expect(r.returncode == 3 and "case.json" in r.stderr, "a file that is no model: exit 3 naming it", problems)

    for p in problems:
        print("FAIL:", p)
    print(f"check_consumer: {case.name}: {'ok' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
