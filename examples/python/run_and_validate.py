#!/usr/bin/env python3
"""Runs a model on the cpu backend and, when this build and machine have one, on opencl, and
compares the outputs with each other and with expected .npy files.

INPUTS holds <graph input name>.npy; EXPECTED (optional) <graph output name>.npy, e.g. a golden
case written by Arm NN 20.08 CpuRef:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/run_and_validate.py \\
        tests/golden/armnn/softmax/model.armnn tests/golden/armnn/softmax/inputs tests/golden/armnn/softmax/outputs
"""

import argparse
import sys
from pathlib import Path

import numpy as np

import nnbridge


def read_dir(folder: Path) -> dict:
    # File names spell tensor names with '/' as %2F and '%' as %25 (nnbridge.tensor_name).
    return {nnbridge.tensor_name(p.name) or p.stem: np.load(p) for p in sorted(folder.glob("*.npy"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("inputs", type=Path)
    parser.add_argument("expected", type=Path, nargs="?")
    parser.add_argument("--atol", type=float, default=None,
                        help="absolute tolerance as given (default: 1e-5 * min(1, max|expected|) per output)")
    parser.add_argument("--rtol", type=float, default=1e-4)
    args = parser.parse_args()
    g = nnbridge.load(args.model)
    inputs = read_dir(args.inputs)
    backends = ["cpu"]
    if "opencl" in nnbridge.backends() and nnbridge.opencl_devices():
        backends.append("opencl")
    else:
        print("opencl: not available here (no backend or no device); cpu only")
    outputs = nnbridge.run(g, inputs, backend="cpu")
    for name, a in outputs.items():
        print(f"cpu {name}: {a.dtype} {list(a.shape)} min {a.min()} max {a.max()}")
    expected = read_dir(args.expected) if args.expected else None
    if expected is None and len(backends) == 1:
        # validate() refuses to compare cpu with itself (it would always pass).
        print("validate: nothing to compare with (no EXPECTED folder and one backend)")
        return 0
    # Backend options carry the backend's name: opencl runs ops it has no kernel for on cpu.
    report = nnbridge.validate(g, inputs, backends, expected, atol=args.atol, rtol=args.rtol, **{"opencl.fallback": "cpu"})
    print(report)
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
