"""Name scopes boxed in drawings (issue 22, "subgraphs boxed"): nodes whose names share a
'/'-separated prefix are drawn inside nested Graphviz clusters labelled with the scope. The graphs
are built here (with the onnx package's helper, and by torch.onnx.export of a small module) so the
scopes are known by hand; Graphviz's own gvpr reads the DOT text back (an independent reader)."""

import re
import shutil
import subprocess

import pytest

import nnbridge

# gvpr: every cluster as "name <TAB> label <TAB> parent <TAB> node labels" (nodes at any depth).
GVPR = r"""
BEG_G {
  graph_t sg, c, stack[int]; string up[int]; int top = 0; node_t n; string s, p;
  for (sg = fstsubg($G); sg; sg = nxtsubg(sg)) { stack[top] = sg; up[top] = "-"; top++; }
  while (top > 0) {
    top--; sg = stack[top]; p = up[top];
    s = "";
    for (n = fstnode(sg); n; n = nxtnode_sg(sg, n)) s = s + "\t" + n.label;
    printf("%s\t%s\t%s%s\n", sg.name, sg.label, p, s);
    for (c = fstsubg(sg); c; c = nxtsubg(c)) { stack[top] = c; up[top] = sg.name; top++; }
  }
}
"""


def clusters(dot, tmp_path):
    """{label: (parent label or None, set of node names inside, at any depth)} as gvpr reads `dot`."""
    gvpr = shutil.which("gvpr")
    if not gvpr:
        pytest.skip("gvpr (Debian graphviz) is not installed")
    (tmp_path / "q.gvpr").write_text(GVPR)
    (tmp_path / "g.dot").write_text(dot)
    out = subprocess.run([gvpr, "-f", str(tmp_path / "q.gvpr"), str(tmp_path / "g.dot")],
                         capture_output=True, text=True, check=True).stdout
    by_name, rows = {}, []
    for line in out.splitlines():
        name, label, parent, *labels = line.split("\t")
        assert name.startswith("cluster_")
        # A node's label holds its name in italics: <I>/stage/stage.0/conv1/Conv</I>.
        names = {re.search(r"<I>([^<]*)</I>", l).group(1) for l in labels}
        by_name[name] = label
        rows.append((label, parent, names))
    return {label: (by_name.get(parent), names) for label, parent, names in rows}


def export_module(path):
    torch = pytest.importorskip("torch")

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = torch.nn.Conv2d(4, 4, 3, padding=1)
            self.relu = torch.nn.ReLU()
            self.conv2 = torch.nn.Conv2d(4, 4, 3, padding=1)

        def forward(self, x):
            return self.relu(self.conv2(self.relu(self.conv1(x)))) + x

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = torch.nn.Conv2d(3, 4, 3, padding=1)
            self.stage = torch.nn.Sequential(Block(), Block())
            self.pool = torch.nn.AdaptiveAvgPool2d(1)

        def forward(self, x):
            return self.pool(self.stage(self.stem(x)))

    torch.onnx.export(Net().eval(), torch.randn(1, 3, 8, 8), str(path), input_names=["x"], output_names=["y"],
                      opset_version=13)


# PyTorch names each node by the module path that made it (torch 1.13):
BLOCK = ["conv1/Conv", "relu/Relu", "conv2/Conv", "relu_1/Relu", "Add"]
STAGE0 = {f"/stage/stage.0/{n}" for n in BLOCK}
STAGE1 = {f"/stage/stage.1/{n}" for n in BLOCK}


def test_torch_export_modules_become_nested_clusters(tmp_path):
    onnx = pytest.importorskip("onnx")
    path = tmp_path / "net.onnx"
    export_module(path)
    # The exporter's names, read by the onnx package: the hand count below rests on them.
    assert [n.name for n in onnx.load(str(path)).graph.node] == \
        ["/stem/Conv"] + [f"/stage/stage.{k}/{b}" for k in (0, 1) for b in BLOCK] + ["/pool/GlobalAveragePool"]
    g = nnbridge.load(path)
    # stage: 10 nodes, in stage.0 (5) and stage.1 (5); stem and pool hold one node each: no box.
    assert clusters(g.to_dot(), tmp_path) == {
        "stage": (None, STAGE0 | STAGE1),
        "stage.0": ("stage", STAGE0),
        "stage.1": ("stage", STAGE1),
    }
    # One level: the outer box only; 0: none.
    assert clusters(g.to_dot(scopes=1), tmp_path) == {"stage": (None, STAGE0 | STAGE1)}
    assert "subgraph" not in g.to_dot(scopes=0)
    # The picture still renders, one cluster group per box, labelled.
    svg = g._repr_svg_()
    assert svg.count('class="cluster"') == 3
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    for label in ("stage", "stage.0", "stage.1"):
        assert label in texts


def scoped_onnx(path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    names = ["/enc/a/Relu", "/enc/b/Relu", "/enc/Relu", "dec/x/y/Relu", "dec/x/z/Relu", "/single/Relu", "Relu"]
    nodes, prev = [], "x"
    for i, name in enumerate(names):
        out = "y" if i == len(names) - 1 else f"t{i}"
        nodes.append(helper.make_node("Relu", [prev], [out], name=name))
        prev = out
    graph = helper.make_graph(nodes, "scoped", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


def test_scopes_from_names_with_and_without_a_leading_slash(tmp_path, cli):
    scoped_onnx(tmp_path / "s.onnx")
    g = nnbridge.load(tmp_path / "s.onnx")
    # enc: 3 nodes (its a and b hold one each: no box); dec: 2, all in dec/x (2), whose y and z hold
    # one each; /single holds one: no box; "Relu" has no scope.
    expected = {
        "enc": (None, {"/enc/a/Relu", "/enc/b/Relu", "/enc/Relu"}),
        "dec": (None, {"dec/x/y/Relu", "dec/x/z/Relu"}),
        "x": ("dec", {"dec/x/y/Relu", "dec/x/z/Relu"}),
    }
    assert clusters(g.to_dot(), tmp_path) == expected
    with pytest.raises(nnbridge.InvalidError, match="scopes"):
        g.to_dot(scopes=-2)
    # The CLI: the same boxes by default, none with --scopes 0.
    p = subprocess.run([str(cli), "draw", str(tmp_path / "s.onnx"), "-o", str(tmp_path / "s.dot")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert clusters((tmp_path / "s.dot").read_text(), tmp_path) == expected
    p = subprocess.run([str(cli), "draw", str(tmp_path / "s.onnx"), "-o", str(tmp_path / "s0.dot"), "--scopes", "0"],
                       capture_output=True, text=True)
    assert p.returncode == 0 and "subgraph" not in (tmp_path / "s0.dot").read_text()
    p = subprocess.run([str(cli), "draw", str(tmp_path / "s.onnx"), "-o", str(tmp_path / "s.svg"), "--scopes", "1"],
                       capture_output=True, text=True)
    assert p.returncode == 0 and (tmp_path / "s.svg").read_text().count('class="cluster"') == 2
