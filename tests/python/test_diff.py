"""nnbridge.diff (sdk/diff/include/nnbridge/diff.h): hand-built graphs whose differences are
known by construction (ULP distances from IEEE 754 bit patterns, computed by NumPy), and a golden
Arm NN model against its conversions."""

import json

import numpy as np
import pytest

import nnbridge

from conftest import GOLDEN

MODEL = GOLDEN / "conv2d_nchw_stride2" / "model.armnn"


def small_graph(w):
    """x [1, 2] -> MatMul(W [2, 2]) -> Relu -> y."""
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", [1, 2])
    W = g.add_value("W", "float32", [2, 2], constant=np.asarray(w, np.float32))
    m = g.add_value("m", "float32", [1, 2])
    y = g.add_value("y", "float32", [1, 2])
    g.add_node("MatMul", [x, W], [m], name="matmul")
    g.add_node("Relu", [m], [y], name="relu")
    g.inputs = [x]
    g.outputs = [y]
    return g


def test_same_graph_is_same():
    d = nnbridge.diff(small_graph([[1, 2], [3, 4]]), small_graph([[1, 2], [3, 4]]))
    assert d.same
    assert len(d) == 0
    assert d.nodes == [(0, 0, "name"), (1, 1, "name")]
    assert d.counts == {"semantic": 0, "name": 0, "metadata": 0}


def test_changed_constant_reports_abs_and_ulp():
    a = np.array([[1, 2], [3, 4]], np.float32)
    b = a.copy()
    b[1, 0] = np.nextafter(np.float32(3), np.float32(4))  # one ULP above 3
    b[1, 1] = np.float32(4.5)
    d = nnbridge.diff(small_graph(a), small_graph(b))
    assert not d.same
    (x,) = d.differences
    assert (x.category, x.kind, x.subject, x.place) == ("semantic", "constant", "node", "inputs[1]")
    assert (x.a_name, x.a_op, x.a, x.b) == ("matmul", "MatMul", "W", "W")
    assert x.elements == 4 and x.elements_differing == 2
    assert x.first_index == 2 and x.first_a == 3.0
    assert x.max_abs_diff == 0.5
    # 4.0 and 4.5 as float32 bit patterns, read as integers by NumPy: their distance in ULPs.
    expected_ulp = int(np.float32(4.5).view(np.int32)) - int(np.float32(4.0).view(np.int32))
    assert expected_ulp == 0x100000
    assert x.max_ulp == expected_ulp
    assert "max ULP 1048576" in x.message
    doc = json.loads(d.to_json())
    assert doc["format"] == "nnbridge-diff" and doc["same"] is False
    assert doc["differences"][0]["max_ulp"] == expected_ulp


def test_renamed_nodes_pair_by_topology_and_ignore_names():
    a = small_graph([[1, 2], [3, 4]])
    b = small_graph([[1, 2], [3, 4]])
    for n, new in zip(b.nodes, ("n0", "n1")):
        n.name = new
    d = nnbridge.diff(a, b)
    assert [k for _, _, k in d.nodes] == ["topology", "topology"]
    assert {x.kind for x in d} == {"name"}
    assert nnbridge.diff(a, b, ignore_names=True).same


def test_converted_files_compute_the_same(tmp_path):
    vk = tmp_path / "model.vkdelegate"
    onnx = tmp_path / "model.onnx"
    nnbridge.convert(MODEL, vk)
    nnbridge.convert(MODEL, onnx)
    assert nnbridge.diff(MODEL, vk, ignore_names=True, ignore_metadata=True).same
    assert nnbridge.diff(str(MODEL), onnx, ignore_metadata=True).same
    d = nnbridge.diff(nnbridge.load(MODEL), vk)
    assert d.counts["semantic"] == 0 and d.counts["metadata"] > 0
    assert "format vocabulary" in str(d)
    # A path's text header names the file's own format and its graph's (as `nnbridge info`); a
    # Graph given as such has no file: its source format only.
    js = tmp_path / "model.json"
    nnbridge.convert(MODEL, js)
    text = str(nnbridge.diff(nnbridge.load(MODEL), js))
    assert "A: A (armnn, " in text and f"B: {js} (json from armnn, " in text


def test_errors():
    with pytest.raises(nnbridge.IoError):
        nnbridge.diff(MODEL, GOLDEN / "no_such_model.armnn")
    with pytest.raises(TypeError):
        nnbridge.diff(MODEL, 42)
