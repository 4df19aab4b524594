"""run / prepare / Plan against outputs written by Arm NN 20.08 CpuRef (the golden corpus and
the shared samples), and the NumPy zero-copy and conversion rules."""

import json
from pathlib import Path

import numpy as np
import pytest

import nnbridge
from conftest import GOLDEN, case_tolerance, read_npy_dir

# Outputs whose expected values cannot follow the file (the same list as
# tests/cpu_ref/armnn_case_runner.cc, with the same reasons).
KNOWN_MISMATCH = {
    "activation_zoo/y_softrelu": "Arm NN 20.08 writes SoftReLu as Sigmoid; the sample's outputs come from the in-memory network",
    "rank/y": "Arm NN 20.08 CpuRef outputs Rank as shape [1]; the core Rank schema infers a 0-d tensor",
}


def dequantize(a: np.ndarray, v: nnbridge.Value) -> np.ndarray:
    q = v.quantization
    if v.dtype not in ("qasymmu8", "qasymms8", "qsymms8", "qsymms16") or q is None:
        return a.astype(np.float64)
    scales = np.asarray(q.scales, np.float64)
    zps = np.asarray(q.zero_points or [0], np.float64)
    if q.axis is not None:
        shape = [1] * a.ndim
        shape[q.axis] = -1
        scales, zps = scales.reshape(shape), (zps.reshape(shape) if zps.size > 1 else zps)
    return scales * (a.astype(np.float64) - zps)


def compare_case(case_dir: Path):
    """Runs one Arm NN case on cpu through Python; returns the failures (list of str)."""
    c = json.loads((case_dir / "case.json").read_text())
    if c.get("outputs_absent_because") or not (case_dir / "outputs").is_dir():
        return None
    atol, rtol, steps = case_tolerance(case_dir)
    g = nnbridge.load(case_dir / "model.armnn")
    inputs = read_npy_dir(case_dir / "inputs")
    expected = read_npy_dir(case_dir / "outputs")
    out = nnbridge.run(g, inputs)
    failures = []
    for name, e in expected.items():
        key = f"{case_dir.name}/{name}"
        a = out[name]
        v = g.value(name)
        if key in KNOWN_MISMATCH:
            continue
        if a.shape != e.shape:
            failures.append(f"{key}: shape {a.shape} != {e.shape}")
        elif v.dtype in ("qasymmu8", "qasymms8", "qsymms8", "qsymms16"):
            d = np.abs(a.astype(np.int64) - e.astype(np.int64)).max(initial=0)
            if d > steps:
                failures.append(f"{key}: {d} steps")
        elif np.issubdtype(e.dtype, np.floating):
            if not np.allclose(a.astype(np.float64), e.astype(np.float64), atol=atol, rtol=rtol):
                failures.append(f"{key}: max abs {np.abs(a.astype(np.float64) - e).max()}")
        elif not np.array_equal(a, e):
            failures.append(f"{key}: differs")
    return failures


def test_golden_corpus_outputs_equal_arm_nn_cpuref():
    ran, failures = 0, []
    for case in sorted(p for p in GOLDEN.iterdir() if p.is_dir()):
        f = compare_case(case)
        if f is None:
            continue
        ran += 1
        failures += f
    assert ran > 100
    assert failures == []


def test_shared_samples_outputs_equal_arm_nn_cpuref(shared):
    ran, failures = 0, []
    for case in sorted(p for p in (shared / "armnn").iterdir() if p.is_dir()):
        f = compare_case(case)
        if f is None:
            continue
        ran += 1
        failures += f
    assert ran >= 10
    assert failures == []


def add_case():
    case = GOLDEN / "add_float"
    return nnbridge.load(case / "model.armnn"), read_npy_dir(case / "inputs"), read_npy_dir(case / "outputs")["y"]


def test_outputs_are_read_only_views_of_the_backend_buffer():
    g, inputs, expected = add_case()
    out = nnbridge.run(g, inputs)
    y = out["y"]
    np.testing.assert_allclose(y, expected, atol=1e-5, rtol=1e-4)
    assert isinstance(y.base, nnbridge.Buffer) and len(y.base) == y.nbytes
    assert np.shares_memory(y, np.frombuffer(y.base, np.uint8))
    assert not y.flags.writeable and y.flags.c_contiguous


def test_matching_inputs_are_read_in_place():
    g, inputs, _ = add_case()
    a = np.ascontiguousarray(inputs["a"], np.float32)
    # The conversion run() applies: a C-contiguous float32 array is fed as it is, anything else
    # (another dtype with cast=True, a strided view) through one converted copy.
    addr = nnbridge._nnbridge._input_addresses(g, {"a": a, "b": inputs["b"].astype(np.float64)}, cast=True)
    assert addr["a"] == a.ctypes.data
    assert addr["b"] != inputs["b"].ctypes.data
    strided = np.repeat(a, 2, axis=-1)[..., ::2]
    assert nnbridge._nnbridge._input_addresses(g, {"a": strided, "b": a})["a"] != strided.ctypes.data


def test_inputs_of_any_layout_and_with_cast_any_array_like():
    g, inputs, expected = add_case()
    as_lists = {k: v.astype(np.float64).tolist() for k, v in inputs.items()}
    out = nnbridge.run(g, as_lists, cast=True)
    np.testing.assert_allclose(out["y"], expected, atol=1e-5, rtol=1e-4)
    fortran = {k: np.asfortranarray(v) for k, v in inputs.items()}
    np.testing.assert_allclose(nnbridge.run(g, fortran)["y"], expected, atol=1e-5, rtol=1e-4)
    strided = {k: np.repeat(v, 2, axis=-1)[..., ::2] for k, v in inputs.items()}
    np.testing.assert_allclose(nnbridge.run(g, strided)["y"], expected, atol=1e-5, rtol=1e-4)


def test_shape_and_name_errors_name_the_input():
    g, inputs, _ = add_case()
    bad = dict(inputs)
    bad["a"] = np.zeros((7,), np.float32)
    with pytest.raises(ValueError, match=r'graph input "a"') as e:
        nnbridge.run(g, bad)
    assert isinstance(e.value, nnbridge.InvalidError) and e.value.code == "invalid"
    assert e.value.id == "nnbridge.invalid.403"  # shapes that do not fit
    with pytest.raises(nnbridge.InvalidError, match=r'"b"') as e:
        nnbridge.run(g, {"a": inputs["a"]})
    assert e.value.id == "nnbridge.invalid.410"  # a graph input not supplied
    with pytest.raises(nnbridge.InvalidError, match=r'"c"') as e:
        nnbridge.run(g, {**inputs, "c": inputs["a"]})
    assert e.value.id == "nnbridge.invalid.410"  # a supplied input the graph does not have
    with pytest.raises(nnbridge.InvalidError, match=r'graph input "a"') as e:
        nnbridge.run(g, {**inputs, "a": [["x", "y"]]}, cast=True)
    assert e.value.id == "nnbridge.invalid.408"  # strings do not convert to float32


def test_plan_runs_many_times():
    g, inputs, expected = add_case()
    plan = nnbridge.prepare(g, "cpu", threads=1)
    assert plan.backend == "cpu"
    assert [n for n, _ in plan.inputs] == ["a", "b"] and [n for n, _ in plan.outputs] == ["y"]
    assert plan.inputs[0][1].dtype == "float32"
    for _ in range(3):
        np.testing.assert_allclose(plan.run(inputs)["y"], expected, atol=1e-5, rtol=1e-4)
    g.values[0].name = "renamed"  # the plan holds its own copy of the graph
    np.testing.assert_allclose(plan.run(inputs)["y"], expected, atol=1e-5, rtol=1e-4)


def test_quantized_inputs_and_outputs_use_storage_integers():
    case = GOLDEN / "add_qasymmu8"
    g = nnbridge.load(case / "model.armnn")
    out = nnbridge.run(g, read_npy_dir(case / "inputs"))
    e = read_npy_dir(case / "outputs")["y"]
    assert out["y"].dtype == np.uint8
    assert np.abs(out["y"].astype(int) - e.astype(int)).max() <= 1


def test_unknown_backend_and_option():
    g, inputs, _ = add_case()
    with pytest.raises(nnbridge.InvalidError, match='"nope"') as e:
        nnbridge.run(g, inputs, backend="nope")
    assert e.value.id == "nnbridge.invalid.409"  # an argument outside its domain
    assert "cpu" in nnbridge.backends()
    # A misspelt backend option is an error, not a run with the default (docs/errors.md 305).
    with pytest.raises(nnbridge.UnsupportedError, match='"cpu.bogus"') as e:
        nnbridge.run(g, inputs, bogus=1)
    assert e.value.id == "nnbridge.unsupported.305"
    with pytest.raises(nnbridge.UnsupportedError, match="names no backend") as e:
        nnbridge.run(g, inputs, **{"nosuchbackend.threads": 1})
    assert e.value.id == "nnbridge.unsupported.305"
    if "opencl" in nnbridge.backends():  # another registered backend's key is left to it
        out = nnbridge.run(g, inputs, **{"opencl.fallback": "cpu"})
        assert set(out) == {"y"}


def test_validate_against_arm_nn_outputs():
    g, inputs, expected = add_case()
    report = nnbridge.validate(g, inputs, expected={"y": expected})
    assert report.passed and bool(report) and len(report) == 1
    r = report.outputs[0]
    assert (r.output, r.backend, r.passed, r.message) == ("y", "cpu", True, "")
    assert r.max_abs_error <= 1e-5
    wrong = expected + 1.0
    bad = nnbridge.validate(g, inputs, expected={"y": wrong})
    assert not bad.passed
    assert bad.outputs[0].max_abs_error == pytest.approx(1.0, abs=1e-5)  # hand calculation: off by exactly 1
    assert "FAILED" in str(bad)
    assert "(max abs 1," in str(bad)  # 3 significant digits, not std::to_string's fixed 6 decimals
    with pytest.raises(nnbridge.InvalidError, match='"zz"') as e:
        nnbridge.validate(g, inputs, expected={"zz": wrong})
    assert e.value.id == "nnbridge.invalid.401"  # a name that refers to no graph output
    unknown = nnbridge.validate(g, inputs, backends=["cpu", "nope"])
    assert not unknown.passed and any("nope" in r.message for r in unknown if not r.passed)


def test_validate_on_cpu_and_opencl():
    if "opencl" not in nnbridge.backends() or not nnbridge.opencl_devices():
        pytest.skip("no OpenCL backend or device in this build/machine")
    g, inputs, expected = add_case()
    report = nnbridge.validate(g, inputs, backends=("cpu", "opencl"), expected={"y": expected})
    assert [r.backend for r in report] == ["cpu", "opencl"]
    assert report.passed, str(report)
    out = nnbridge.run(g, inputs, backend="opencl", fallback="cpu")
    np.testing.assert_allclose(out["y"], expected, atol=1e-5, rtol=1e-4)
    with pytest.raises(nnbridge.UnsupportedError) as e:
        nnbridge.run(g, inputs, backend="opencl", nosuch="1")
    assert e.value.id == "nnbridge.unsupported.305"  # an option key the backend does not have


def _conv_relu_add_plan(tmp_path):
    # Conv (1x1, weights ones, 1 -> 2 channels) -> Relu -> Add of x2, named "conv", "relu",
    # "add", prepared for cpu on one thread. Built with the onnx package's helper.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    w = numpy_helper.from_array(np.ones((2, 1, 1, 1), np.float32), "w")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("Add", ["r", "x2"], ["y"], name="add"),
    ]
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2]),
         helper.make_tensor_value_info("x2", TensorProto.FLOAT, [1, 2, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 2, 2])], [w])
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    return nnbridge.prepare(nnbridge.load(path), "cpu", threads=1)


def test_plan_placement_names_each_node_its_backend_and_fusion(tmp_path):
    # The cpu backend folds the Relu into the Conv (docs/api.md, "Numerics of the cpu backend");
    # the Add runs on its own.
    placement = _conv_relu_add_plan(tmp_path).placement
    assert [(p["node"], p["name"], p["op"], p["backend"]) for p in placement] == [
        (0, "conv", "Conv", "cpu"), (1, "relu", "Relu", "cpu"), (2, "add", "Add", "cpu")]
    assert [p["fused_into"] for p in placement] == ["", "conv", ""]
    assert [p["fused_into_node"] for p in placement] == [None, 0, None]


def test_run_profiled_times_each_step_and_computes_what_run_does(tmp_path):
    # Two steps (the Relu runs inside the Conv's), in graph order. The expected values: x * 1
    # (the 1x1 weights are ones) through Relu, plus x2, by hand.
    plan = _conv_relu_add_plan(tmp_path)
    x = np.array([[[[-1.0, 2.0], [3.0, -4.0]]]], np.float32)
    x2 = np.full((1, 2, 2, 2), 0.5, np.float32)
    outputs, steps = plan.run_profiled({"x": x, "x2": x2})
    expected = np.maximum(np.broadcast_to(x, (1, 2, 2, 2)), 0) + 0.5
    np.testing.assert_array_equal(outputs["y"], expected)
    assert [(s["node"], s["name"], s["op"], s["backend"]) for s in steps] == [
        (0, "conv", "Conv", "cpu"), (2, "add", "Add", "cpu")]
    assert all(isinstance(s["ms"], float) and 0.0 <= s["ms"] < 60_000 for s in steps)


def test_placement_documents_how_to_tell_a_node_that_is_not_fused():
    # fused_into is a str, "" both for a node that is not fused and for one fused into an unnamed
    # node (as the test below shows); fused_into_node is None only when the node is not fused.
    doc = " ".join(nnbridge.Plan.placement.__doc__.split())
    assert '``fused_into`` (str:' in doc and '``""``, never None, when the node is not fused' in doc
    assert "``fused_into_node`` (int:" in doc and "None when the node is not fused" in doc
    assert 'test ``p["fused_into_node"] is None`` for "not fused"' in doc


def test_placement_names_an_unnamed_fusing_node_by_index(tmp_path):
    # DequantizeLinear -> Clip -> QuantizeLinear, no node names (as quantization tools often
    # write them): the cpu plan runs the three as one step, and fused_into_node says which.
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    x = helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 8])
    y = helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 8])
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s1"),
             numpy_helper.from_array(np.array(100, np.uint8), "z1"),
             numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
             numpy_helper.from_array(np.array(6.0, np.float32), "hi"),
             numpy_helper.from_array(np.array(0.03, np.float32), "s2"),
             numpy_helper.from_array(np.array(2, np.uint8), "z2")]
    nodes = [helper.make_node("DequantizeLinear", ["x", "s1", "z1"], ["f"]),
             helper.make_node("Clip", ["f", "lo", "hi"], ["c"]),
             helper.make_node("QuantizeLinear", ["c", "s2", "z2"], ["y"])]
    path = tmp_path / "qdq.onnx"
    onnx.save(helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits),
                                opset_imports=[helper.make_opsetid("", 13)]), str(path))
    plan = nnbridge.prepare(nnbridge.load(path), "cpu", threads=1)
    assert [(p["op"], p["fused_into"], p["fused_into_node"]) for p in plan.placement] == [
        ("DequantizeLinear", "", None), ("Clip", "", 0), ("QuantizeLinear", "", 0)]
    xs = np.array([[0, 50, 99, 100, 101, 180, 220, 255]], np.uint8)
    # ONNX's formulas in float32: (x - 100) * 0.05, clipped to [0, 6], / 0.03, rounded half to
    # even, + 2, saturated to uint8.
    f = np.clip((xs.astype(np.float32) - np.float32(100)) * np.float32(0.05), np.float32(0), np.float32(6))
    want = np.clip(np.rint(f / np.float32(0.03)) + 2, 0, 255).astype(np.uint8)
    assert want.tolist() == [[2, 2, 2, 2, 4, 135, 202, 202]]
    np.testing.assert_array_equal(plan.run({"x": xs})["y"], want)
