"""Editing a Graph from Python does what it looks like, or raises: live attribute mappings,
read-only node/value lists, Graph.insert_node / remove_node / set_constant, renamed outputs in
Arm NN files. Expected values come from hand calculation, NumPy arithmetic, the json module
and flatc's decoding of the written Arm NN files (schemas/armnn/ArmnnSchema.fbs)."""

import json
import shutil
import subprocess

import numpy as np
import pytest

import nnbridge
from conftest import GOLDEN, ROOT


def flatc_json(model, tmp_path):
    """The Arm NN file decoded by flatc (an independent reader)."""
    flatc = shutil.which("flatc")
    if not flatc:
        pytest.skip("flatc is not installed")
    out = tmp_path / "flatc"
    out.mkdir(exist_ok=True)
    subprocess.run([flatc, "--json", "--raw-binary", "--strict-json", "--defaults-json", "-o", str(out),
                    str(ROOT / "schemas" / "armnn" / "ArmnnSchema.fbs"), "--", str(model)],
                   check=True, capture_output=True)
    return json.loads((out / (model.stem + ".json")).read_text())


def relu_neg_graph():
    """x -> Relu -> r -> Neg -> y, plus an unused Identity (dead) node."""
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2, 2))
    r = g.add_value("r", "float32", (2, 2))
    y = g.add_value("y", "float32", (2, 2))
    d = g.add_value("dead", "float32", (2, 2))
    g.add_node("Relu", [x], [r], name="relu")
    g.add_node("Neg", [r], [y], name="neg")
    g.add_node("Identity", [x], [d], name="unused")
    g.inputs, g.outputs = [x], [y]
    return g


# --- attributes ---------------------------------------------------------------------------------

def test_node_attrs_item_assignment_is_saved_to_json(tmp_path):
    g = relu_neg_graph()
    n = g.nodes[0]
    n.attrs["test.note"] = "kept"  # a dotted name: a format-specific field, which check() allows on any op
    n.attrs["test.k"] = [1, 2]
    assert g.nodes[0].attrs == {"test.note": "kept", "test.k": [1, 2]}
    del n.attrs["test.k"]
    assert "test.k" not in g.nodes[0].attrs
    path = tmp_path / "g.json"
    nnbridge.save(g, path)
    # The json module's reading of the file (independent of nnbridge's reader; sdk json.h's layout).
    doc = json.loads(path.read_text())
    assert doc["nodes"][0]["attrs"] == {"test.note": {"string": "kept"}}
    assert nnbridge.load(path).nodes[0].attrs["test.note"] == "kept"
    assert nnbridge.check(g) == []


def test_leaky_relu_alpha_set_in_place_reaches_the_armnn_file_and_the_result(tmp_path):
    g = nnbridge.load(GOLDEN / "activation_leaky_relu" / "model.armnn")
    act = next(n for n in g.nodes if n.op == "LeakyRelu")
    act.attrs["alpha"] = 0.25
    out = tmp_path / "m.armnn"
    nnbridge.save(g, out)
    fb = flatc_json(out, tmp_path)
    desc = next(layer["layer"]["descriptor"] for layer in fb["layers"] if layer["layer_type"] == "ActivationLayer")
    assert desc["activationFunction"] == "LeakyReLu" and desc["a"] == pytest.approx(0.25)
    g2 = nnbridge.load(out)
    assert next(n for n in g2.nodes if n.op == "LeakyRelu").attrs["alpha"] == pytest.approx(0.25)
    x_val = g2.inputs[0]
    x = np.linspace(-2, 2, int(np.prod(x_val.shape)), dtype=np.float32).reshape(x_val.shape)
    got = nnbridge.run(g2, {x_val.name: x})[g2.outputs[0].name]
    np.testing.assert_allclose(got, np.where(x > 0, x, 0.25 * x), rtol=1e-6)  # LeakyReLU: x if x > 0 else a*x


def test_attrs_mapping_methods_write_through_and_refuse_bad_input():
    g = relu_neg_graph()
    a = g.nodes[1].attrs
    a.update({"i": 3}, f=0.5)
    assert dict(g.nodes[1].attrs) == {"i": 3, "f": 0.5}
    assert a.setdefault("i", 9) == 3 and a.setdefault("s", "x") == "x"
    assert a.pop("s") == "x" and a.pop("missing", 7) == 7
    assert sorted(a) == ["f", "i"] and len(a) == 2 and a.get("nope") is None
    with pytest.raises(KeyError):
        a["nope"]
    with pytest.raises(KeyError):
        del a["nope"]
    with pytest.raises(TypeError, match="attribute names are str"):
        a[1] = 2
    with pytest.raises(TypeError, match='attribute "bad"'):
        a["bad"] = object()
    with pytest.raises(TypeError, match='attribute "bad"'):
        a.update(ok=1, bad=object())  # converted before any write: "ok" is not set either
    assert dict(a) == {"i": 3, "f": 0.5}
    snapshot = a.copy()
    a.clear()
    assert g.nodes[1].attrs == {} and snapshot == {"i": 3, "f": 0.5}
    g.nodes[0].attrs = snapshot  # assigning a mapping replaces them all
    assert g.nodes[0].attrs == {"i": 3, "f": 0.5}
    g.nodes[1].attrs = g.nodes[0].attrs  # a view is a mapping too
    assert g.nodes[1].attrs == {"i": 3, "f": 0.5}


def test_value_attrs_and_metadata_write_through(tmp_path):
    g = relu_neg_graph()
    g.value("r").attrs["origin"] = "test"
    g.metadata["producer"] = "pytest"
    path = tmp_path / "g.json"
    nnbridge.save(g, path)
    doc = json.loads(path.read_text())
    assert doc["values"][1]["attrs"] == {"origin": {"string": "test"}}
    assert doc["metadata"] == {"producer": {"string": "pytest"}}
    g2 = nnbridge.load(path)
    assert g2.value("r").attrs["origin"] == "test"
    assert g2.metadata["producer"] == "pytest"


# --- read-only lists ----------------------------------------------------------------------------

def test_node_and_value_lists_refuse_changes_that_would_be_lost():
    g = relu_neg_graph()
    nodes = g.nodes
    for change in (nodes.reverse, nodes.sort, nodes.clear, lambda: nodes.append(nodes[0]),
                   lambda: nodes.insert(0, nodes[1]), lambda: nodes.pop(), lambda: nodes.remove(nodes[0])):
        with pytest.raises(TypeError, match="insert_node"):
            change()
    with pytest.raises(TypeError, match="insert_node"):
        nodes[0] = nodes[1]
    with pytest.raises(TypeError, match="remove_node"):
        del nodes[0]
    with pytest.raises(AttributeError, match="insert_node"):
        g.nodes = list(reversed(g.nodes))
    with pytest.raises(TypeError, match="add_value"):
        g.values.append(g.values[0])
    with pytest.raises(AttributeError, match="add_value"):
        g.values = []
    assert [n.op for n in g.nodes] == ["Relu", "Neg", "Identity"]  # nothing changed
    # Reading works as on a list.
    assert len(nodes) == 3 and nodes[-1].op == "Identity" and [n.op for n in nodes[1:]] == ["Neg", "Identity"]
    assert nodes.index(nodes[1]) == 1 and nodes[1] in nodes and [n.op for n in reversed(nodes)][0] == "Identity"


def test_input_output_lists_refuse_item_assignment_and_accept_whole_lists():
    g = relu_neg_graph()
    with pytest.raises(TypeError, match=r"g\.outputs = \[\.\.\.\]"):
        g.outputs[0] = "r"
    with pytest.raises(TypeError, match=r"g\.inputs = \[\.\.\.\]"):
        g.inputs.append("r")
    with pytest.raises(TypeError, match=r"node\.inputs = \[\.\.\.\]"):
        g.nodes[1].inputs[0] = "x"
    assert [v.name for v in g.outputs] == ["y"] and g.outputs == [g.value("y")]
    g.outputs += ["r"]  # + gives a list, which the setter takes
    assert [v.name for v in g.outputs] == ["y", "r"]
    g.nodes[1].inputs = ["x"]
    assert g.nodes[1].inputs == [g.value("x")]


def test_read_only_value_views_raise_on_assignment():
    g = nnbridge.Graph()
    v = g.add_value("c", "float32", constant=[[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        v.constant[0, 0] = 9
    with pytest.raises(TypeError):
        v.shape[0] = 5  # a tuple
    with pytest.raises(AttributeError):
        v.shape = (4,)
    with pytest.raises(AttributeError):
        v.constant = np.zeros((2, 2), np.float32)
    np.testing.assert_array_equal(v.constant, [[1, 2], [3, 4]])


# --- remove_node / insert_node ------------------------------------------------------------------

def test_remove_node_then_check_and_reload(tmp_path):
    g = relu_neg_graph()
    g.remove_node(g.nodes[2])  # the unused Identity: the graph stays clean
    assert [n.op for n in g.nodes] == ["Relu", "Neg"]
    assert nnbridge.check(g) == []
    path = tmp_path / "g.json"
    nnbridge.save(g, path)
    doc = json.loads(path.read_text())
    assert [n["op"] for n in doc["nodes"]] == ["Relu", "Neg"]
    assert [n.op for n in nnbridge.load(path).nodes] == ["Relu", "Neg"]

    g.remove_node(-1)  # Neg: the graph output "y" now has no producer
    issues = nnbridge.check(g)
    assert any(i.severity == "error" and "y" in str(i) for i in issues), issues
    g.outputs = ["r"]
    assert nnbridge.check(g) == []
    x = np.array([[-1, 2], [3, -4]], np.float32)
    np.testing.assert_array_equal(nnbridge.run(g, {"x": x})["r"], [[0, 2], [3, 0]])  # relu by hand


def test_remove_node_makes_older_node_views_refuse():
    g = relu_neg_graph()
    neg = g.nodes[1]
    attrs = neg.attrs
    g.remove_node(0)
    for use in (lambda: neg.op, lambda: neg.index, lambda: attrs["x"], lambda: neg.inputs):
        with pytest.raises(nnbridge.InvalidError) as e:
            use()
        assert e.value.id == "nnbridge.invalid.401"  # the view refers to a node no longer there
    assert "out of date" in repr(neg)
    assert g.nodes[0].op == "Neg"  # a fresh view works
    with pytest.raises(IndexError, match="out of range"):
        g.remove_node(5)
    with pytest.raises(TypeError, match="a Node or a node index"):
        g.remove_node("neg")
    with pytest.raises(nnbridge.InvalidError) as e:
        g.remove_node(relu_neg_graph().nodes[0])
    assert e.value.id == "nnbridge.invalid.401"  # a node of another graph
    with pytest.raises(nnbridge.InvalidError) as e:
        g.remove_node(neg)
    assert e.value.id == "nnbridge.invalid.401"


def test_insert_node_add_runs_on_cpu():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2, 3))
    c = g.add_value("c", "float32", constant=np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    m = g.add_value("m", "float32", (2, 3))
    s = g.add_value("s", "float32", (2, 3))
    mul = g.add_node("Mul", [x, c], [m], name="mul")
    g.inputs, g.outputs = [x], [s]
    added = g.insert_node(0, "Add", [m, x], [s], name="add", attrs={"test.note": "inserted"})
    assert added.index == 0 and added.attrs["test.note"] == "inserted"
    assert [n.op for n in g.nodes] == ["Add", "Mul"]  # stored before its producer: still valid
    with pytest.raises(nnbridge.InvalidError) as e:
        mul.op
    assert e.value.id == "nnbridge.invalid.401"
    assert nnbridge.check(g) == []
    xv = np.array([[1, -2, 3], [0.5, 0, -1]], np.float32)
    expected = xv * np.array([[1, 2, 3], [4, 5, 6]], np.float32) + xv  # NumPy arithmetic
    np.testing.assert_allclose(nnbridge.run(g, {"x": xv})["s"], expected, rtol=1e-6)
    # Appending (index == len) keeps existing views valid; out-of-range indices raise.
    a = g.nodes[0]
    t = g.add_value("t", "float32", (2, 3))
    g.insert_node(len(g.nodes), "Relu", [s], [t])
    assert a.op == "Add"
    with pytest.raises(IndexError):
        g.insert_node(9, "Relu", [s], [t])
    with pytest.raises(nnbridge.InvalidError, match=r"nodes\[0\]\.inputs\[0\]") as e:
        g.insert_node(0, "Relu", ["missing"], [t])
    assert e.value.id == "nnbridge.invalid.401"  # "missing" names no value
    assert len(g.nodes) == 3


# --- set_constant -------------------------------------------------------------------------------

def add_graph():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2, 3))
    b = g.add_value("b", np.float32, constant=[[1, 2, 3], [4, 5, 6]])
    y = g.add_value("y", "float32", (2, 3))
    g.add_node("Add", [x, b], [y], name="add")
    g.inputs, g.outputs = [x], [y]
    return g


def test_set_constant_then_run():
    g = add_graph()
    old = g.value("b").constant
    new = np.array([[10, 20, 30], [40, 50, 60]], np.float32)
    g.set_constant("b", new)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(nnbridge.run(g, {"x": x})["y"], x + new)
    np.testing.assert_array_equal(old, [[1, 2, 3], [4, 5, 6]])  # arrays read before keep the old data
    new[0, 0] = -1  # the graph holds a copy
    assert g.value("b").constant[0, 0] == 10
    g.set_constant(g.value("b"), [[1, 1, 1], [1, 1, 1]], cast=True)  # a list of ints, converted
    np.testing.assert_array_equal(nnbridge.run(g, {"x": x})["y"], x + 1)


def test_set_constant_refuses_what_does_not_fit():
    g = add_graph()
    with pytest.raises(nnbridge.InvalidError, match=r'value "b"') as e:
        g.set_constant("b", np.zeros((2, 3), np.float64))
    assert e.value.id == "nnbridge.invalid.408"  # float64 where float32 is required
    with pytest.raises(nnbridge.InvalidError, match=r'value "b"') as e:
        g.set_constant("b", np.zeros((3, 2), np.float32))
    assert e.value.id == "nnbridge.invalid.403"  # [3, 2] where [2, 3] is required
    with pytest.raises(nnbridge.InvalidError, match='value "x"') as e:
        g.set_constant("x", np.zeros((2, 3), np.float32))
    assert e.value.id == "nnbridge.invalid.409"  # a graph input cannot be a constant
    with pytest.raises(nnbridge.InvalidError, match=r'value "y"') as e:
        g.set_constant("y", np.zeros((2, 3), np.float32))
    assert e.value.id == "nnbridge.invalid.409"  # a node's output cannot be a constant
    with pytest.raises(nnbridge.InvalidError, match='"nope"') as e:
        g.set_constant("nope", np.zeros(1, np.float32))
    assert e.value.id == "nnbridge.invalid.401"
    np.testing.assert_array_equal(g.value("b").constant, [[1, 2, 3], [4, 5, 6]])  # unchanged


def test_set_constant_fills_unknown_dimensions():
    g = nnbridge.Graph()
    v = g.add_value("w", "int32", (-1, 2))
    assert not v.is_constant
    g.set_constant(v, np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    assert v.is_constant and v.shape == (3, 2)
    np.testing.assert_array_equal(v.constant, [[1, 2], [3, 4], [5, 6]])


# --- Arm NN output names ------------------------------------------------------------------------

def test_renamed_graph_output_is_the_armnn_output_layer_name(tmp_path):
    g = nnbridge.load(GOLDEN / "activation_relu" / "model.armnn")
    x_val = g.inputs[0]
    g.outputs[0].name = "renamed"
    out = tmp_path / "m.armnn"
    nnbridge.save(g, out)
    fb = flatc_json(out, tmp_path)
    names = [layer["layer"]["base"]["base"]["layerName"] for layer in fb["layers"] if layer["layer_type"] == "OutputLayer"]
    assert names == ["renamed"]
    g2 = nnbridge.load(out)
    assert [v.name for v in g2.outputs] == ["renamed"]
    x = np.linspace(-1, 1, int(np.prod(x_val.shape)), dtype=np.float32).reshape(x_val.shape)
    np.testing.assert_array_equal(nnbridge.run(g2, {x_val.name: x})["renamed"], np.maximum(x, 0))


def test_output_named_as_an_input_keeps_its_layer_name_through_a_round_trip(tmp_path):
    # Arm NN layer names need not be unique; the reader makes value names unique and keeps the
    # layer's own name in armnn.layerName, which the writer uses (armnn.h).
    g = nnbridge.load(GOLDEN / "activation_relu" / "model.armnn")
    g.outputs[0].name = g.inputs[0].name  # "x" twice: check() warns, the file allows it
    first = tmp_path / "a.armnn"
    nnbridge.save(g, first)
    g2 = nnbridge.load(first)
    out = g2.outputs[0]
    assert out.name == "x_1" and out.attrs["armnn.layerName"] == "x"
    second = tmp_path / "b.armnn"
    nnbridge.save(g2, second)
    for path in (first, second):
        fb = flatc_json(path, tmp_path)
        assert [layer["layer"]["base"]["base"]["layerName"] for layer in fb["layers"]
                if layer["layer_type"] == "OutputLayer"] == ["x"], path
