#!/usr/bin/env python3
"""ctest: the committed Arm NN golden corpus is reproducible and agrees with Arm NN 20.08 itself.

usage: check_golden.py PEER GOLDEN_DIR WORK_DIR

1. `PEER generate` into WORK_DIR succeeds and every file is byte-identical to the committed corpus
   (Arm NN 20.08's serializer and the harness's input generator are deterministic).
2. For every case, Arm NN 20.08's deserializer (`PEER inspect`, in a child process) loads it exactly
   when case.json says so; when it loads, the layer types it reports equal case.json's layer_types
   and its input/output binding names equal case.json's inputs/outputs.
3. For every case it loads whose outputs were computed, `PEER run` on the deserialized network
   reproduces the committed outputs byte for byte (CpuRef is deterministic), except where case.json
   records an Arm NN 20.08 deserializer defect, which must still show.

The generated cases stay in WORK_DIR/out: the ctest fixture armnn_generated hands them to the cpu
backend's test (tests/cpu_ref/armnn_generated_test.cc) as expected values made at test time.
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys


def same_tree(a, b):
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(os.path.join(a, d), os.path.join(b, d)) for d in cmp.common_dirs)


def main():
    peer, golden, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    gen = subprocess.run([peer, "generate", out], capture_output=True, text=True)
    if gen.returncode != 0:
        print(gen.stdout, gen.stderr)
        print("generate failed")
        return 1
    failures = []
    committed = sorted(d for d in os.listdir(golden) if os.path.isdir(os.path.join(golden, d)))
    generated = sorted(os.listdir(out))
    failures += [f"{c}: generated but not committed" for c in set(generated) - set(committed)]
    ran = 0
    for case in committed:
        cdir = os.path.join(golden, case)
        if case not in generated:
            failures.append(f"{case}: no longer generated")
            continue
        if not same_tree(cdir, os.path.join(out, case)):
            failures.append(f"{case}: differs from the committed golden")
        meta = json.load(open(os.path.join(cdir, "case.json")))
        ins = subprocess.run([peer, "inspect", os.path.join(cdir, "model.armnn")], capture_output=True, text=True)
        loads = ins.returncode == 0
        if loads != meta["armnn_20_08_deserializer_loads_it"]:
            failures.append(f"{case}: Arm NN deserializer loads it = {loads}, case.json says the opposite")
            continue
        if not loads:
            continue
        seen = json.loads(ins.stdout)
        types = {layer["type"] for layer in seen["layers"]}
        if types != set(meta["layer_types"]):
            failures.append(f"{case}: deserializer sees layer types {sorted(types)}, case.json says {meta['layer_types']}")
        if [b["name"] for b in seen.get("inputs", [])] != meta["inputs"] or \
           [b["name"] for b in seen.get("outputs", [])] != meta["outputs"]:
            failures.append(f"{case}: binding names differ from case.json")
        if meta["outputs_computed_by"] is None:
            continue
        rundir = os.path.join(work, "run", case)
        r = subprocess.run([peer, "run", os.path.join(cdir, "model.armnn"), os.path.join(cdir, "inputs"), rundir],
                           capture_output=True, text=True)
        ran += 1
        if r.returncode != 0:
            failures.append(f"{case}: run failed: {r.stderr.strip()}")
        else:
            agree = same_tree(os.path.join(cdir, "outputs"), rundir)
            # A recorded deserializer defect (outputs from the built network) must still show.
            expect = "armnn_20_08_defect" not in meta or "deserialized" in meta["outputs_computed_by"]
            if agree != expect:
                failures.append(f"{case}: run on the deserialized network " +
                                ("agrees, though case.json records a defect" if agree else "gives other outputs"))
    for f in failures:
        print(f)
    if failures:
        return 1
    print(f"golden corpus reproduced: {len(committed)} cases; {ran} re-run through Arm NN's deserializer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
