"""Graph, Value, Node, TensorType, constants and check() against independent sources: the Arm NN
files' content as flatc decodes it (schemas/armnn/ArmnnSchema.fbs), hand-built graphs."""

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
    subprocess.run([flatc, "--json", "--raw-binary", "--strict-json", "--defaults-json", "-o", str(tmp_path),
                    str(ROOT / "schemas" / "armnn" / "ArmnnSchema.fbs"), "--", str(model)],
                   check=True, capture_output=True)
    return json.loads((tmp_path / (model.stem + ".json")).read_text())


def test_inputs_outputs_and_types_match_the_file(tmp_path):
    model = GOLDEN / "add_qasymmu8" / "model.armnn"
    fb = flatc_json(model, tmp_path)
    g = nnbridge.load(model)
    assert g.source_format == "armnn"
    layers = [layer["layer"] for layer in fb["layers"]]
    inputs = [layer["base"]["base"] for layer in layers if layer["base"].get("base", {}).get("layerType") == "Input"]
    assert [v.name for v in g.inputs] == [b["layerName"] for b in inputs]
    for v, b in zip(g.inputs, inputs):
        info = b["outputSlots"][0]["tensorInfo"]
        assert v.shape == tuple(info["dimensions"])
        assert v.dtype == "qasymmu8" and info["dataType"] == "QAsymmU8"
        assert v.quantization.scales == [pytest.approx(info["quantizationScale"])]
        assert v.quantization.zero_points == [info["quantizationOffset"]]
        assert v.type.numpy_dtype == np.uint8
    outputs = [layer["base"]["base"]["layerName"] for layer in layers
               if layer["base"].get("base", {}).get("layerType") == "Output"]
    assert [v.name for v in g.outputs] == outputs


def test_constant_is_a_read_only_view_equal_to_the_file(tmp_path):
    model = GOLDEN / "constant_add" / "model.armnn"
    fb = flatc_json(model, tmp_path)
    words = next(layer["layer"]["input"]["data"]["data"] for layer in fb["layers"] if layer["layer_type"] == "ConstantLayer")
    expected = np.array(words, dtype=np.int32).view(np.float32).reshape(2, 3)
    g = nnbridge.load(model)
    const = [v for v in g.values if v.is_constant]
    assert len(const) == 1
    a = const[0].constant
    np.testing.assert_array_equal(a, expected)
    assert a.dtype == np.float32 and a.shape == (2, 3)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0, 0] = 1
    # No copy: the array's base is the graph's Buffer, and a second view shares its memory.
    assert isinstance(a.base, nnbridge.Buffer)
    assert np.shares_memory(a, const[0].constant)
    assert np.shares_memory(a, np.frombuffer(const[0].buffer, np.uint8))
    assert bytes(memoryview(const[0].buffer)) == expected.tobytes() == const[0].buffer.tobytes()
    assert len(const[0].buffer) == expected.nbytes
    assert const[0].buffer.is_view  # a view of the loaded file's bytes, not a copy


def test_constants_loaded_from_bytes_view_those_bytes():
    data = (GOLDEN / "constant_add" / "model.armnn").read_bytes()
    g = nnbridge.load(data)
    a = next(v for v in g.values if v.is_constant).constant
    assert np.shares_memory(a, np.frombuffer(data, np.uint8))
    del data  # the graph keeps the bytes alive
    assert a.sum() == a.sum()
    # A mutable buffer is copied once: the graph must not change under it.
    ba = bytearray((GOLDEN / "constant_add" / "model.armnn").read_bytes())
    g2 = nnbridge.load(ba)
    b = next(v for v in g2.values if v.is_constant).constant
    assert not np.shares_memory(b, np.frombuffer(ba, np.uint8))
    np.testing.assert_array_equal(a, b)


def test_node_attributes_are_python_values(tmp_path):
    model = GOLDEN / "conv2d_nhwc_stride2_dilated_pad2" / "model.armnn"
    fb = flatc_json(model, tmp_path)
    desc = next(layer["layer"]["descriptor"] for layer in fb["layers"] if layer["layer_type"] == "Convolution2dLayer")
    g = nnbridge.load(model)
    conv = next(n for n in g.nodes if n.op == "Conv")
    a = conv.attrs
    # ONNX Conv attributes (strides/dilations [y, x]; pads [top, left, bottom, right]) from Arm NN's descriptor.
    assert a["strides"] == [desc["strideY"], desc["strideX"]]
    assert a["dilations"] == [desc["dilationY"], desc["dilationX"]]
    assert a["pads"] == [desc["padTop"], desc["padLeft"], desc["padBottom"], desc["padRight"]]
    assert a["data_layout"] == "NHWC"
    assert all(isinstance(x, int) for x in a["strides"])
    assert conv.inputs[0] == g.inputs[0]
    assert conv.outputs[0].name
    assert conv.index == g.nodes.index(conv)
    assert conv.graph is not None


def test_metadata_holds_the_file_feature_versions(tmp_path):
    model = GOLDEN / "add_float" / "model.armnn"
    fb = flatc_json(model, tmp_path)
    md = nnbridge.load(model).metadata
    # armnn.h: featureVersions fields become armnn.<field>, its presence armnn.featureVersions.
    assert md["armnn.featureVersions"] is True
    for key in ("bindingIdsScheme", "weightsLayoutScheme", "constantTensorsAsInputs"):
        assert md["armnn." + key] == fb["featureVersions"][key], key
    assert isinstance(md["armnn.bindingIdsScheme"], int)


def build_add_graph():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2, 3))
    b = g.add_value("b", np.float32, constant=[[1, 2, 3], [4, 5, 6]])
    y = g.add_value("y", "float32", (2, 3))
    g.add_node("Add", [x, "b"], [y], name="add")
    g.inputs = [x]
    g.outputs = ["y"]
    return g


def test_build_a_graph_from_scratch_and_run_it():
    g = build_add_graph()
    assert nnbridge.check(g) == []
    assert [v.name for v in g.values] == ["x", "b", "y"]
    assert g.values[1].constant.dtype == np.float32
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = nnbridge.run(g, {"x": x})
    np.testing.assert_array_equal(out["y"], x + np.array([[1, 2, 3], [4, 5, 6]], np.float32))  # hand calculation
    assert "Graph" in repr(g) and "add" in repr(g.nodes[0])


def test_constant_is_copied_into_the_graph():
    src = np.ones((2, 2), np.float32)
    g = nnbridge.Graph()
    v = g.add_value("c", "float32", constant=src)
    src[0, 0] = 7
    assert v.constant[0, 0] == 1
    assert not np.shares_memory(v.constant, src)
    assert not v.buffer.is_view  # the graph owns its copy


def test_attributes_round_trip_through_the_graph():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (1,))
    attrs = {"i": 3, "f": 0.5, "b": True, "s": "NHWC", "ints": [1, 2], "floats": [0.5, 1.5], "bools": [True, False],
             "strings": ["a", "b"], "bytes": b"\x00\x01", "empty": [], "np": np.int64(4)}
    n = g.add_node("vk.custom", [x], [x], attrs=attrs)
    got = n.attrs
    assert got["i"] == 3 and type(got["i"]) is int
    assert got["f"] == 0.5 and type(got["f"]) is float
    assert got["b"] is True
    assert got["s"] == "NHWC"
    assert got["ints"] == [1, 2] and got["floats"] == [0.5, 1.5] and got["bools"] == [True, False]
    assert got["strings"] == ["a", "b"] and got["bytes"] == b"\x00\x01" and got["empty"] == [] and got["np"] == 4
    with pytest.raises(TypeError, match="attribute \"bad\""):
        g.add_node("X", [x], [x], attrs={"bad": object()})
    n.attrs = {"k": 1}
    assert g.nodes[0].attrs == {"k": 1}
    g.metadata = {"m": "v"}
    assert g.metadata == {"m": "v"}


def test_tensor_type_and_quantization():
    q = nnbridge.Quantization([0.5], [3])
    t = nnbridge.TensorType("qasymmu8", (1, -1, 4), q)
    assert t.dtype == "qasymmu8" and t.shape == (1, -1, 4) and t.quantization == q
    assert t.element_count is None
    assert t.numpy_dtype == np.uint8
    assert nnbridge.TensorType("bfloat16", (2,)).numpy_dtype == np.uint16
    assert nnbridge.TensorType("float16", (2, 3)).byte_size == 12
    assert nnbridge.TensorType(np.int8, (1,)).dtype == "int8"
    with pytest.raises(nnbridge.InvalidError, match="float128") as e:
        nnbridge.TensorType("float128")
    assert e.value.id == "nnbridge.invalid.409"  # an argument outside its domain


def test_lookup_and_views():
    g = build_add_graph()
    assert g.value("b").id == 1
    assert g.find_value("nope") is None
    with pytest.raises(KeyError):
        g.value("nope")
    v = g.value("x")
    v.name = "input"
    assert g.inputs[0].name == "input"
    assert hash(v) == hash(g.values[0]) and v == g.values[0]
    c = g.copy()
    c.values[0].name = "other"
    assert g.values[0].name == "input"


def test_graph_json_form_round_trips():
    g = build_add_graph()
    text = g.to_json()
    assert json.loads(text)["format"] == "nnbridge-ir"
    g2 = nnbridge.Graph.from_json(text)
    assert g2.to_json() == text
    np.testing.assert_array_equal(g2.value("b").constant, g.value("b").constant)


def test_check_reports_findings_with_places():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2,))
    y = g.add_value("y", "float32", (2,))
    g.add_node("Add", [x], [y])  # Add takes two inputs (ONNX)
    g.inputs = [x]
    g.outputs = [y]
    issues = nnbridge.check(g)
    assert issues, "an Add with one input must be reported"
    assert all(isinstance(i, nnbridge.Issue) for i in issues)
    assert any(i.severity == "error" and i.where.startswith("nodes[0]") for i in issues)
    assert "nodes[0]" in str(issues[0])
    # docs/errors.md: an input count outside the op's schema is Arity, nnbridge.invalid.402.
    assert any(i.id == "nnbridge.invalid.402" for i in issues)
    assert "nnbridge.invalid.402" in repr([i for i in issues if i.id == "nnbridge.invalid.402"][0])


def test_bad_references_name_the_place():
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (1,))
    with pytest.raises(nnbridge.InvalidError, match=r"nodes\[0\].inputs\[1\]: ") as e:
        g.add_node("Add", [x, "missing"], [x])
    assert e.value.id == "nnbridge.invalid.401"  # "missing" names no value
    with pytest.raises(nnbridge.InvalidError, match='"x"') as e:
        g.add_value("x")
    assert e.value.id == "nnbridge.invalid.407"
    with pytest.raises(nnbridge.InvalidError, match=r"outputs\[0\]: ") as e:
        g.outputs = [9]
    assert e.value.id == "nnbridge.invalid.401"
    other = nnbridge.Graph()
    with pytest.raises(nnbridge.InvalidError) as e:
        other.add_value("z")
        other.inputs = [x]
    assert e.value.id == "nnbridge.invalid.401"  # x belongs to another graph
