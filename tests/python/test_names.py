"""Out-of-order layers, shared layer names and '/' in tensor names, in Python.

Oracles: the case tests/golden/armnn_wild/tflite_order_names (compiled by flatc from hand-written
JSON; expected outputs by NumPy, tests/golden/scripts/gen_armnn_order.py); the order worked out by
hand; the file spelling of README.md ('%' -> %25, '/' -> %2F, NUL -> %00)."""

import subprocess
from pathlib import Path

import numpy as np
import pytest

import nnbridge
from conftest import ROOT

CASE = ROOT / "tests" / "golden" / "armnn_wild" / "tflite_order_names"


def test_out_of_order_file_runs_and_keeps_its_order():
    g = nnbridge.load(CASE / "model.armnn")
    # Stored: FullyConnected, Reshape, Output(dense/Softmax), Softmax, Output(raw_outputs/...).
    assert [n.op for n in g.nodes] == ["Gemm", "Reshape", "Identity", "Softmax", "Identity"]
    assert g.nodes[0].name == g.nodes[1].name == "FullyConnected:0:5"
    assert nnbridge.topological_order(g) == [1, 0, 3, 2, 4]
    assert [i for i in nnbridge.check(g) if i.severity == "error"] == []
    out = nnbridge.run(g, {"input": np.load(CASE / "inputs" / "input.npy")})
    for name, file in zip([v.name for v in g.outputs], nnbridge.tensor_file_names(g, "output")):
        np.testing.assert_allclose(out[name], np.load(CASE / "outputs" / file), rtol=1e-5, atol=1e-6)


def test_file_names_spell_slash_and_percent():
    g = nnbridge.load(CASE / "model.armnn")
    assert [v.name for v in g.outputs] == ["dense/Softmax", "raw_outputs/box_encodings"]
    assert nnbridge.tensor_file_names(g, "output") == ["dense%2FSoftmax.npy", "raw_outputs%2Fbox_encodings.npy"]
    assert nnbridge.tensor_file_names(g) == ["input.npy"]
    assert nnbridge.tensor_name("dense%2FSoftmax.npy") == "dense/Softmax"
    assert nnbridge.tensor_name("100%25") == "100%"
    assert nnbridge.tensor_name("dense%2fSoftmax.npy") is None
    with pytest.raises(nnbridge.InvalidError):
        nnbridge.tensor_file_names(g, "outputs")


def test_positional_fallback_and_clash():
    g = nnbridge.Graph()
    a = g.add_value("", "float32", [1])
    b = g.add_value("..", "float32", [1])
    g.add_node("Relu", [a], [b])
    g.inputs, g.outputs = [a], [b]
    assert nnbridge.tensor_file_names(g, "input") == ["input_0.npy"]
    assert nnbridge.tensor_file_names(g, "output") == ["output_0.npy"]


def test_cycle_is_invalid_naming_a_node():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", [1])
    y = g.add_value("y", "float32", [1])
    z = g.add_value("z", "float32", [1])
    g.add_node("Add", [x, z], [y], name="first")
    g.add_node("Relu", [y], [z], name="second")
    g.inputs, g.outputs = [x], [z]
    with pytest.raises(nnbridge.InvalidError, match="cycle") as e:
        nnbridge.topological_order(g)
    assert e.value.where in ("nodes[0]", "nodes[1]")
    assert any(i.where in ("nodes[0]", "nodes[1]") and "cycle" in i.message for i in nnbridge.check(g))
