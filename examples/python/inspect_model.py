#!/usr/bin/env python3
"""Prints what a graph file holds: format, inputs and outputs (name, dtype, shape, quantization),
an op histogram, the constants' total size, and the checker's findings.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/inspect_model.py tests/golden/armnn/conv2d_qasymmu8/model.armnn
"""

import argparse
import collections
import sys

import nnbridge


def describe(v: nnbridge.Value) -> str:
    q = v.quantization
    quant = f" scale={q.scales} zero_point={q.zero_points}" + (f" axis={q.axis}" if q.axis is not None else "") if q else ""
    return f"{v.name}: {v.dtype} {list(v.shape)}{quant}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    args = parser.parse_args()
    try:
        g = nnbridge.load(args.model)
    except nnbridge.Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 3
    print(f"{args.model}: {g.source_format}, {len(g.values)} values, {len(g.nodes)} nodes")
    print("inputs:")
    for v in g.inputs:
        print("  " + describe(v))
    print("outputs:")
    for v in g.outputs:
        print("  " + describe(v))
    ops = collections.Counter(n.op for n in g.nodes)
    print("ops: " + ", ".join(f"{op} x{count}" for op, count in sorted(ops.items())))
    constants = [v for v in g.values if v.is_constant]
    print(f"constants: {len(constants)}, {sum(v.constant.nbytes for v in constants)} bytes (viewed, not copied)")
    issues = nnbridge.check(g)
    for issue in issues:
        print(f"  {issue}")
    print(f"check: {sum(i.severity == 'error' for i in issues)} error(s), {sum(i.severity == 'warning' for i in issues)} warning(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
