"""What run() and validate() refuse rather than silently accept: inputs of another dtype (unless
cast=True), a validation with nothing to compare, and tiny outputs passed by a fixed atol.

Oracles: hand values. Identity returns its input (ONNX Identity), Relu of a positive value is
the value itself (ONNX Relu); NumPy's astype rules written out by hand: float -> uint8 truncates
toward zero (0.3 -> 0, 2.7 -> 2), int64 -> uint8 keeps the value modulo 256 (300 -> 44)."""

import numpy as np
import pytest

import nnbridge


def one_op_graph(op: str, dtype: str) -> nnbridge.Graph:
    g = nnbridge.Graph()
    x = g.add_value("x", dtype, (2,))
    y = g.add_value("y", dtype, (2,))
    g.add_node(op, [x], [y])
    g.inputs, g.outputs = [x], [y]
    return g


def test_run_refuses_an_input_of_another_dtype_naming_it_and_both_dtypes():
    g = one_op_graph("Identity", "uint8")
    with pytest.raises(nnbridge.InvalidError, match=r'graph input "x"') as e:
        nnbridge.run(g, {"x": np.array([0.3, 2.7])})
    assert isinstance(e.value, ValueError) and "cast=True" in str(e.value)
    assert e.value.id == "nnbridge.invalid.408"  # a dtype other than the one required
    with pytest.raises(nnbridge.InvalidError, match="the array is int64"):
        nnbridge.run(g, {"x": [300, 7]})  # a list has the dtype numpy.asarray gives it
    with pytest.raises(nnbridge.InvalidError, match="the array is float64"):
        nnbridge.prepare(g).run({"x": np.array([0.3, 2.7])})
    np.testing.assert_array_equal(nnbridge.run(g, {"x": np.array([5, 6], np.uint8)})["y"], [5, 6])


def test_run_with_cast_converts_as_numpy_astype():
    g = one_op_graph("Identity", "uint8")
    np.testing.assert_array_equal(nnbridge.run(g, {"x": np.array([0.3, 2.7])}, cast=True)["y"], [0, 2])
    np.testing.assert_array_equal(nnbridge.run(g, {"x": np.array([300, 7], np.int64)}, cast=True)["y"], [44, 7])
    np.testing.assert_array_equal(nnbridge.prepare(g).run({"x": [300, 7]}, cast=True)["y"], [44, 7])


def test_validate_with_one_backend_and_nothing_expected_raises():
    g = one_op_graph("Relu", "float32")
    x = {"x": np.array([1.0, 2.0], np.float32)}
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.validate(g, x)
    assert isinstance(e.value, ValueError)
    assert e.value.id == "nnbridge.invalid.402"  # one side of the comparison missing
    with pytest.raises(nnbridge.InvalidError) as e:
        nnbridge.validate(g, x, backends=["cpu", "cpu"])
    assert e.value.id == "nnbridge.invalid.407"  # a backend named twice
    assert nnbridge.validate(g, x, expected={"y": np.array([1.0, 2.0], np.float32)}).passed
    # Expected arrays follow the same dtype rule as inputs.
    with pytest.raises(nnbridge.InvalidError, match=r'expected output "y" is float32 \(numpy float32\), the array is float64'):
        nnbridge.validate(g, x, expected={"y": np.array([1.0, 2.0])})


def test_validate_default_tolerance_scales_with_tiny_outputs():
    g = one_op_graph("Relu", "float32")
    x = {"x": np.array([1e-16, 2e-16], np.float32)}
    wrong = {"y": np.array([0.0, 3e-16], np.float32)}  # off by 100% and 50%, under a fixed atol of 1e-5
    r = nnbridge.validate(g, x, expected=wrong)
    assert not r.passed
    assert r.outputs[0].atol == pytest.approx(1e-5 * 3e-16, rel=1e-6)  # 1e-5 * max|expected|
    assert nnbridge.validate(g, x, expected={"y": x["x"]}).passed
    # An explicit atol is applied as given (numpy.allclose's rule), and admits them.
    given = nnbridge.validate(g, x, expected=wrong, atol=1e-5)
    assert given.passed and given.outputs[0].atol == 1e-5
