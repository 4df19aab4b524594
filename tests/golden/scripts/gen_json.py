#!/usr/bin/python3
"""Writes the IR-JSON golden cases (tests/golden/README.md): graphs written by hand in nnbridge's
JSON form (layout: sdk/core/include/nnbridge/json.h), expected outputs computed by NumPy from the
ONNX operator definitions. `model.json` repeats the graph as the expected IR. Nothing here runs
nnbridge.

Usage: /usr/bin/python3 tests/golden/scripts/gen_json.py [REPO_ROOT]
"""
import json
import os
import shutil
import sys

import numpy as np

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden", "json")
SCRIPT = "tests/golden/scripts/gen_json.py"


def value(name, shape):
    return {"name": name, "type": {"dtype": "float32", "shape": list(shape)}}


def graph(values, nodes, inputs, outputs):
    return {"format": "nnbridge-ir", "version": 1, "values": values, "nodes": nodes, "inputs": inputs, "outputs": outputs}


def cases(rng):
    a, b = rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((1, 3)).astype(np.float32)
    yield ("add_broadcast", graph([value("a", a.shape), value("b", b.shape), value("y", (2, 3))],
                                  [{"op": "Add", "name": "add", "inputs": [0, 1], "outputs": [2]}], [0, 1], [2]),
           {"a": a, "b": b}, {"y": a + b}, "ONNX Add (multidirectional broadcasting): numpy a + b")
    x = rng.standard_normal((3, 4)).astype(np.float32)
    yield ("relu_then_mul", graph([value("x", x.shape), value("r", x.shape), value("y", x.shape)],
                                  [{"op": "Relu", "name": "relu", "inputs": [0], "outputs": [1]},
                                   {"op": "Mul", "name": "mul", "inputs": [1, 0], "outputs": [2]}], [0], [2]),
           {"x": x}, {"y": np.maximum(x, 0) * x}, "ONNX Relu then Mul: numpy maximum(x, 0) * x")
    m, n = rng.standard_normal((2, 5)).astype(np.float32), rng.standard_normal((5, 3)).astype(np.float32)
    yield ("matmul", graph([value("m", m.shape), value("n", n.shape), value("y", (2, 3))],
                           [{"op": "MatMul", "name": "mm", "inputs": [0, 1], "outputs": [2]}], [0, 1], [2]),
           {"m": m, "n": n}, {"y": (m.astype(np.float64) @ n.astype(np.float64)).astype(np.float32)},
           "ONNX MatMul: numpy matmul in float64, rounded to float32")


def main():
    rng = np.random.default_rng(7)
    for name, g, inputs, outputs, how in cases(rng):
        d = os.path.join(GOLDEN, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "inputs"))
        os.makedirs(os.path.join(d, "outputs"))
        # The expected IR is the graph as written plus source_format "json": nnbridge/io.h, load():
        # "Graph::source_format is the reader's, else the format's name" (the document names none).
        expected = dict(g, source_format="json")
        for f, doc in [("graph.json", g), ("model.json", expected)]:
            with open(os.path.join(d, f), "w") as out:
                json.dump(doc, out, indent=2)
                out.write("\n")
        for k, v in inputs.items():
            np.save(os.path.join(d, "inputs", k + ".npy"), v)
        for k, v in outputs.items():
            np.save(os.path.join(d, "outputs", k + ".npy"), v)
        case = {"format": "json", "model": "graph.json", "conversions": ["vkgraph"],
                "provenance": {"model": "written by hand in the IR's JSON form (%s)" % SCRIPT,
                               "inputs": "numpy.random.default_rng(7).standard_normal",
                               "outputs": how, "command": "/usr/bin/python3 %s" % SCRIPT},
                "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}}}
        with open(os.path.join(d, "case.json"), "w") as out:
            json.dump(case, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main()
