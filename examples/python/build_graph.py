#!/usr/bin/env python3
"""Builds a small graph from scratch (y = Relu(x * w + b), a Mul, an Add and a Relu with two
constants), runs it, and saves it in every graph format that can hold it.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/build_graph.py /tmp/built
"""

import argparse
import sys
from pathlib import Path

import numpy as np

import nnbridge


def build() -> nnbridge.Graph:
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (1, 4))
    w = g.add_value("w", "float32", constant=np.array([[0.5, -1.0, 2.0, 0.0]], np.float32))
    b = g.add_value("b", "float32", constant=np.array([[1.0, 1.0, -1.0, 0.25]], np.float32))
    xw = g.add_value("xw", "float32", (1, 4))
    xwb = g.add_value("xwb", "float32", (1, 4))
    y = g.add_value("y", "float32", (1, 4))
    g.add_node("Mul", [x, w], [xw], name="scale")
    g.add_node("Add", [xw, b], [xwb], name="shift")
    g.add_node("Relu", [xwb], [y], name="relu")
    g.inputs = [x]
    g.outputs = [y]
    return g


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    args = parser.parse_args()
    g = build()
    issues = nnbridge.check(g)
    if issues:
        print("\n".join(map(str, issues)))
        return 1
    x = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
    y = nnbridge.run(g, {"x": x})["y"]
    print(f"run: x = {x.tolist()} -> y = {y.tolist()}")  # [[1.5, 0.0, 5.0, 0.25]] by hand
    args.out_dir.mkdir(parents=True, exist_ok=True)
    saved = 0
    for fmt in nnbridge.formats():
        if not fmt.can_write:
            continue
        path = args.out_dir / f"model.{fmt.extensions[0]}"
        try:
            nnbridge.save(g, path, format=fmt.name)
        except nnbridge.Error as e:
            print(f"{fmt.name}: cannot hold this graph: {e}")
            continue
        back = nnbridge.load(path)
        same = np.array_equal(nnbridge.run(back, {back.inputs[0].name: x})[back.outputs[0].name], y)
        print(f"{fmt.name}: {path} ({path.stat().st_size} bytes), reloaded and ran: {'same outputs' if same else 'DIFFERENT outputs'}")
        saved += same
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main())
