#!/usr/bin/env python3
"""Compares the .npy files of two folders with NumPy (an independent checker for `make demo`).

usage: compare_npy.py ACTUAL_DIR EXPECTED_DIR

Every EXPECTED_DIR/<name>.npy must exist in ACTUAL_DIR with the same dtype and shape.
Floating point: |a - e| <= 1e-5 + 1e-4 * |e| elementwise (the tolerance of issue 3).
Integer and quantized types: |a - e| <= 1 (one quantization step). Boolean: exact.
Prints one line per output; exit status 0 when all match, 1 otherwise, 2 on usage errors.
"""
import pathlib
import sys

import numpy as np


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    actual, expected = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    files = sorted(expected.glob("*.npy"))
    if not files:
        print(f"compare_npy: no .npy files in {expected}", file=sys.stderr)
        return 2
    ok = True
    for e_path in files:
        a_path = actual / e_path.name
        if not a_path.exists():
            print(f"   {e_path.stem}: MISSING from {actual}")
            ok = False
            continue
        a, e = np.load(a_path), np.load(e_path)
        if a.dtype != e.dtype or a.shape != e.shape:
            print(f"   {e_path.stem}: {a.dtype}{list(a.shape)} vs expected {e.dtype}{list(e.shape)}")
            ok = False
            continue
        if e.dtype == np.bool_:
            bad, worst, rule = int(np.sum(a != e)), int(np.sum(a != e)), "exact"
        elif np.issubdtype(e.dtype, np.integer):
            diff = np.abs(a.astype(np.int64) - e.astype(np.int64))
            bad, worst, rule = int(np.sum(diff > 1)), int(diff.max(initial=0)), "<= 1 step"
        else:
            a64, e64 = a.astype(np.float64), e.astype(np.float64)
            diff = np.abs(a64 - e64)
            bad = int(np.sum(~(diff <= 1e-5 + 1e-4 * np.abs(e64))))
            worst, rule = float(diff.max(initial=0.0)), "<= 1e-5 + 1e-4*|e|"
        verdict = "equal" if bad == 0 else f"DIFFERENT ({bad} of {e.size} elements)"
        print(f"   {e_path.stem} {e.dtype}{list(e.shape)}: {verdict}, max |diff| {worst:g} ({rule})")
        ok = ok and bad == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
