"""Every C++ error code reaches Python as its own exception class, with the SDK's message
(identifier, file and place) and the attributes code / id / path / where / detail."""

import numpy as np
import pytest

import nnbridge
from nnbridge import exceptions
from conftest import GOLDEN

# docs/errors.md: the hundreds digit of an identifier is its code, x00 the code's "other".
HUNDREDS = {"io": 1, "malformed": 2, "unsupported": 3, "invalid": 4, "backend": 5}
CODES = {"io": nnbridge.IoError, "malformed": nnbridge.MalformedError, "unsupported": nnbridge.UnsupportedError,
         "invalid": nnbridge.InvalidError, "backend": nnbridge.BackendError}


def test_one_class_per_cpp_error_code():
    # nnbridge::ErrorCode, in enum order, as the extension reports it.
    codes = nnbridge._nnbridge._error_codes()
    assert [c for c, _ in codes] == ["io", "malformed", "unsupported", "invalid", "backend"]
    for code, cls_name in codes:
        cls = getattr(nnbridge, cls_name)
        assert cls is CODES[code] and cls.code == code and issubclass(cls, nnbridge.Error)
        assert exceptions.CLASS_BY_CODE[code] is cls


@pytest.mark.parametrize("code", list(CODES))
def test_each_code_is_translated(code):
    with pytest.raises(CODES[code]) as e:
        nnbridge._nnbridge._raise_error(code, "it broke", "model.armnn", "layers[3].layer")
    err = e.value
    other = f"nnbridge.{code}.{HUNDREDS[code]}00"
    assert str(err) == f"[{other}] model.armnn: layers[3].layer: it broke"
    assert (err.code, err.id, err.path, err.where, err.detail) == (code, other, "model.armnn", "layers[3].layer",
                                                                    "it broke")
    with pytest.raises(CODES[code]) as e2:
        nnbridge._nnbridge._raise_error(code, "in memory")
    assert (str(e2.value), e2.value.path, e2.value.where) == (f"[{other}] in memory", None, None)
    # A specific identifier travels unchanged: x01 exists for every code.
    specific = HUNDREDS[code] * 100 + 1
    with pytest.raises(CODES[code]) as e3:
        nnbridge._nnbridge._raise_error(code, "x", id=specific)
    assert e3.value.id == f"nnbridge.{code}.{specific}" and str(e3.value) == f"[nnbridge.{code}.{specific}] x"
    with pytest.raises(ValueError):
        nnbridge._nnbridge._raise_error(code, "x", id=(HUNDREDS[code] % 5 + 1) * 100 + 1)  # another code's


def test_python_base_classes():
    assert issubclass(nnbridge.IoError, OSError)
    assert issubclass(nnbridge.InvalidError, ValueError) and issubclass(nnbridge.MalformedError, ValueError)
    assert issubclass(nnbridge.BackendError, RuntimeError)


def test_io_error_names_the_file(tmp_path):
    missing = tmp_path / "nope.armnn"
    with pytest.raises(nnbridge.IoError) as e:
        nnbridge.load(missing)
    assert e.value.path == str(missing) and str(missing) in str(e.value)
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(nnbridge.IoError):
        nnbridge.save(nnbridge.load(GOLDEN / "add_float" / "model.armnn"), tmp_path / "dir.json")


def test_malformed_error_names_the_place(tmp_path):
    data = (GOLDEN / "conv2d_nhwc_same" / "model.armnn").read_bytes()
    bad = tmp_path / "truncated.armnn"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(nnbridge.MalformedError) as e:
        nnbridge.load(bad, format="armnn")
    assert e.value.path == str(bad) and str(e.value).startswith(f"[{e.value.id}] {bad}: ")
    assert e.value.id == "nnbridge.malformed.201"  # truncated
    # A JSON form with a wrong type names the JSON path.
    text = nnbridge.load(GOLDEN / "add_float" / "model.armnn").to_json().replace('"shape": [', '"shape": ["x", ', 1)
    with pytest.raises(nnbridge.MalformedError) as e:
        nnbridge.Graph.from_json(text)
    assert e.value.where and "shape" in e.value.where


def test_unsupported_error(tmp_path):
    g = nnbridge.load(GOLDEN / "add_float" / "model.armnn")
    with pytest.raises(nnbridge.UnsupportedError):
        nnbridge.save(g, tmp_path / "model.unknown-extension")
    g2 = nnbridge.Graph()
    x = g2.add_value("x", "float32", (1,))
    y = g2.add_value("y", "float32", (1,))
    g2.add_node("vk.no_such_kernel", [x], [y], name="mystery")
    g2.inputs, g2.outputs = [x], [y]
    with pytest.raises(nnbridge.UnsupportedError, match="mystery"):
        nnbridge.prepare(g2)


def test_invalid_error():
    g = nnbridge.Graph()
    with pytest.raises(nnbridge.InvalidError):
        g.outputs = ["nothing"]
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.run(nnbridge.load(GOLDEN / "add_float" / "model.armnn"), {"a": np.zeros(1), "b": np.zeros(1)})
    assert 'graph input "a"' in str(e.value)


def test_prepare_and_run_errors_name_the_file_the_graph_was_loaded_from(tmp_path):
    # As `nnbridge run` names the model in a backend's error, so do prepare() and Plan.run() on
    # a Graph that nnbridge.load(path) returned; the place is the node's index in Graph.nodes.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    # ONNX Conv takes W as [M, C / group, kH, kW]: W's 4 input channels do not fit X's 3.
    w = numpy_helper.from_array(np.zeros((2, 4, 1, 1), np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv1")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 4])], [w])
    conv = tmp_path / "conv.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(conv))
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.prepare(nnbridge.load(conv), "cpu")
    assert (e.value.path, e.value.where) == (str(conv), "nodes[0]")
    assert str(e.value).startswith(f'[{e.value.id}] {conv}: nodes[0]: node 0 "conv1" (Conv): ')
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.run(nnbridge.load(conv), {"x": np.zeros((1, 3, 4, 4), np.float32)})
    assert e.value.path == str(conv)
    # The same bytes loaded from memory come from no file.
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.prepare(nnbridge.load(conv.read_bytes()), "cpu")
    assert e.value.path is None and e.value.where == "nodes[0]"

    # Integer Div by zero, which ONNX leaves undefined, is refused when the plan runs: that error
    # names the file too; a missing input is about the caller's arrays, not the file.
    graph = helper.make_graph(
        [helper.make_node("Div", ["a", "b"], ["q"], name="div")], "g",
        [helper.make_tensor_value_info(n, TensorProto.INT32, [2]) for n in ("a", "b")],
        [helper.make_tensor_value_info("q", TensorProto.INT32, [2])])
    div = tmp_path / "div.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(div))
    plan = nnbridge.prepare(nnbridge.load(div), "cpu", threads=1)
    assert plan.run({"a": np.array([6, 7], np.int32), "b": np.array([3, 2], np.int32)})["q"].tolist() == [2, 3]
    with pytest.raises(nnbridge.InvalidError) as e:
        plan.run({"a": np.array([6, 7], np.int32), "b": np.array([3, 0], np.int32)})
    assert e.value.path == str(div) and str(e.value).startswith(f"[{e.value.id}] {div}: ")
    with pytest.raises(nnbridge.InvalidError) as e:
        plan.run({"a": np.array([6, 7], np.int32)})
    assert e.value.path is None
