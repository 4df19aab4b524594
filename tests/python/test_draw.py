"""Graph.to_dot(), Graph.draw() and Graph._repr_svg_(): pictures rendered by Graphviz, judged by the
known structure of the bundled example models (examples/models/README.md) and flatc's JSON of them."""

import json
import re
import shutil
import subprocess

import pytest

import nnbridge
from conftest import ROOT

EXAMPLES = ROOT / "examples" / "models"


def flatc_layers(model, tmp_path):
    """The layers of an Arm NN file as flatc decodes it (an independent reader)."""
    flatc = shutil.which("flatc")
    if not flatc:
        pytest.skip("flatc is not installed")
    subprocess.run([flatc, "--json", "--raw-binary", "--strict-json", "--defaults-json", "-o", str(tmp_path),
                    str(ROOT / "schemas" / "armnn" / "ArmnnSchema.fbs"), "--", str(model)],
                   check=True, capture_output=True)
    return json.loads((tmp_path / (model.stem + ".json")).read_text())["layers"]


def test_repr_svg_has_a_box_per_non_constant_layer(tmp_path):
    model = EXAMPLES / "conv_relu_fc.armnn"
    layers = flatc_layers(model, tmp_path)
    svg = nnbridge.load(model)._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    assert svg.count('class="node"') == sum(l["layer_type"] != "ConstantLayer" for l in layers)
    # README: image [1,8,8,1] -> Convolution2d -> ReLU -> MaxPool -> FullyConnected -> Softmax -> probs
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    for op in ("Conv", "Relu", "MaxPool", "Gemm", "Softmax"):
        assert op in texts
    assert "float32 [1, 8, 8, 1]" in texts


def test_to_dot_native_names_and_rankdir(tmp_path):
    model = EXAMPLES / "conv_relu_fc.armnn"
    g = nnbridge.load(model)
    dot = g.to_dot(native=True, rankdir="LR")
    assert dot.startswith("digraph") and "rankdir=LR" in dot
    for l in flatc_layers(model, tmp_path):
        if l["layer_type"] not in ("InputLayer", "ConstantLayer"):
            assert "<B>" + l["layer_type"][:-len("Layer")] + "</B>" in dot
    with pytest.raises(nnbridge.InvalidError, match="rankdir"):
        g.to_dot(rankdir="up")


def test_draw_writes_by_extension_and_refuses_the_rest(tmp_path):
    g = nnbridge.load(EXAMPLES / "add_softmax.armnn")
    g.draw(tmp_path / "m.png")
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(nnbridge.UnsupportedError, match="m.gif"):
        g.draw(tmp_path / "m.gif")
    with pytest.raises(nnbridge.IoError, match="m.svg"):
        g.draw(tmp_path / "absent" / "m.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.png"]


def test_max_nodes_and_repr_svg_of_a_large_graph():
    g = nnbridge.Graph()
    prev = g.add_value("x", "float32", [4])
    g.inputs = [prev]
    for i in range(2000):
        nxt = g.add_value(f"t{i}", "float32", [4])
        g.add_node("Relu", [prev], [nxt])
        prev = nxt
    g.outputs = [prev]
    # 2001 boxes: over the default limit of 2000
    with pytest.raises(nnbridge.UnsupportedError, match="2001 boxes"):
        g.to_dot()
    assert g._repr_svg_() is None
    assert g.to_dot(max_nodes=0).count("->") == 2000
