"""nnbridge.custom_layers: OpenVINO SimpleGPU layers loaded from XML, inspected, and run by the
opencl backend (expected values from the operator's formula, computed with NumPy)."""

from pathlib import Path

import numpy as np
import pytest

import nnbridge
from conftest import ROOT

custom_layers = pytest.importorskip("nnbridge.custom_layers", reason="this build has no OpenVINO custom-layer support")
RELU_CL = ROOT / "tests" / "config" / "openvino_custom" / "data" / "relu.cl"


def relu_xml(source: Path) -> str:
    return ("<CustomLayer name=\"ReLU\" type=\"SimpleGPU\" version=\"1\">\n"
            f"  <Kernel entry=\"example_relu_kernel\"><Source filename=\"{source}\"/>\n"
            "    <Define name=\"neg_slope\" type=\"float\" param=\"negative_slope\" default=\"0.0\"/></Kernel>\n"
            "  <Buffers><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\" format=\"BFYX\"/>\n"
            "    <Tensor arg-index=\"1\" type=\"output\" port-index=\"0\" format=\"BFYX\"/></Buffers>\n"
            "  <WorkSizes global=\"X,Y,B*F\"/>\n"
            "</CustomLayer>\n")


@pytest.fixture
def relu_file(tmp_path):
    if not RELU_CL.exists():
        pytest.skip(f"{RELU_CL} is absent")
    p = tmp_path / "relu.xml"
    p.write_text(relu_xml(RELU_CL))
    return p


def test_load_describes_the_layers(relu_file):
    layers = custom_layers.load(relu_file)
    assert layers.names() == ["ReLU"]
    l = layers.gpu_layers[0]
    assert (l["name"], l["entry"], l["global"]) == ("ReLU", "example_relu_kernel", ["X", "Y", "B*F"])
    assert l["defines"] == [{"name": "neg_slope", "param": "negative_slope", "type": "float", "default": "0.0"}]
    assert [t["type"] for t in l["tensors"]] == ["input", "output"]
    assert l["where"] == f"{relu_file}:1"
    assert layers.mvcl_layers == [] and layers.warnings == []
    assert custom_layers.parse(relu_xml(RELU_CL)).names() == ["ReLU"]


def test_internal_buffers_show_their_size():
    # tests/config/openvino_custom/data/functional/layers.xml, layer 2 (values read off the file).
    layers = custom_layers.load(RELU_CL.parent / "functional" / "layers.xml")
    l = layers.gpu_layers[1]
    assert l["name"] == "ScratchTwice"
    assert [t["type"] for t in l["tensors"]] == ["input", "output", "internal"]
    assert l["tensors"][2]["size"] == "INPUT0_DIMS[0] * INPUT0_DIMS[1]*INPUT0_DIMS[2]*INPUT0_DIMS[3]"
    assert "size" not in l["tensors"][0]


def test_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<CustomLayer name=\"X\" type=\"SimpleGPU\" version=\"1\">\n  <Kernel/>\n</CustomLayer>\n")
    with pytest.raises(nnbridge.Error) as e:
        custom_layers.load(bad)
    assert f"{bad}:" in str(e.value)
    assert e.value.code == "invalid"
    with pytest.raises(nnbridge.IoError) as e:
        custom_layers.load(tmp_path / "missing.xml")
    assert e.value.id == "nnbridge.io.101"


def test_opencl_runs_the_layer(relu_file):
    if "opencl" not in nnbridge.backends() or not nnbridge.opencl_devices():
        pytest.skip("no OpenCL backend or device")
    g = nnbridge.Graph()
    x = g.add_value("x", "float32", (2, 3, 2, 4))
    y = g.add_value("y", "float32", (2, 3, 2, 4))
    g.add_node("ReLU", [x], [y], attrs={"negative_slope": 0.125})
    g.inputs, g.outputs = [x], [y]
    a = (np.arange(48, dtype=np.float32) - 20).reshape(2, 3, 2, 4)
    out = nnbridge.run(g, {"x": a}, backend="opencl", custom_layers=custom_layers.load(relu_file))
    np.testing.assert_array_equal(out["y"], np.where(a < 0, a * np.float32(0.125), a))  # the layer's formula
    with pytest.raises(nnbridge.UnsupportedError) as e:
        nnbridge.run(g, {"x": a}, backend="opencl")  # without the layer no kernel implements ReLU
    assert e.value.id == "nnbridge.unsupported.306"
    with pytest.raises(TypeError):
        nnbridge.run(g, {"x": a}, backend="opencl", custom_layers="relu.xml")
