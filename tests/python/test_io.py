"""load / save / convert / detect_format / formats: a round trip through Python writes the
same bytes as the CLI (`nnbridge convert`), for every graph format this build writes."""

import os
import pathlib

import pytest

import nnbridge
from conftest import GOLDEN, run_cli

CASES = ["add_float", "constant_add", "conv2d_nhwc_stride2_dilated_pad2", "softmax", "lstm_cifg", "add_qasymmu8"]
TARGETS = ["json", "armnn", "vkgraph", "vkdelegate"]


def test_formats_lists_the_graph_formats():
    names = [f.name for f in nnbridge.formats()]
    for name in ["armnn", "json", "vkgraph", "vkdelegate", "afcm"]:
        assert name in names
    armnn = next(f for f in nnbridge.formats() if f.name == "armnn")
    assert "armnn" in armnn.extensions and armnn.can_read and armnn.can_write
    assert "armnn.bindingIdsScheme" in armnn.writer_options


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("to", TARGETS)
def test_convert_writes_the_cli_bytes(cli, tmp_path, case, to):
    src = GOLDEN / case / "model.armnn"
    ext = {"json": ".json", "armnn": ".armnn", "vkgraph": ".vkgraph", "vkdelegate": ".vkdelegate"}[to]
    by_cli = tmp_path / ("cli" + ext)
    r = run_cli(cli, "convert", src, by_cli)
    by_py = tmp_path / ("py" + ext)
    if r.returncode != 0:
        # The CLI refuses (exit 3: an op the target cannot express): Python raises the same error.
        assert r.returncode == 3, r.stderr
        with pytest.raises(nnbridge.Error) as e:
            nnbridge.convert(src, by_py)
        assert str(e.value) in r.stderr.replace(str(by_cli), str(by_py))
        assert not by_py.exists()
        return
    assert nnbridge.convert(str(src), by_py) == ("armnn", to)
    assert by_py.read_bytes() == by_cli.read_bytes()
    # load + save gives the same bytes as convert.
    by_save = tmp_path / ("save" + ext)
    nnbridge.save(nnbridge.load(src), by_save)
    assert by_save.read_bytes() == by_cli.read_bytes()


def test_writer_options_match_the_cli(cli, tmp_path):
    src = GOLDEN / "add_float" / "model.armnn"
    r = run_cli(cli, "convert", src, tmp_path / "cli.armnn", "-O", "armnn.bindingIdsScheme=0")
    assert r.returncode == 0, r.stderr
    nnbridge.save(nnbridge.load(src), tmp_path / "py.armnn", bindingIdsScheme=0)
    assert (tmp_path / "py.armnn").read_bytes() == (tmp_path / "cli.armnn").read_bytes()
    nnbridge.save(nnbridge.load(src), tmp_path / "py2.armnn", **{"armnn.bindingIdsScheme": "0"})
    assert (tmp_path / "py2.armnn").read_bytes() == (tmp_path / "cli.armnn").read_bytes()
    nnbridge.convert(src, tmp_path / "py3.bin", to="armnn", writer_options={"bindingIdsScheme": 0})
    assert (tmp_path / "py3.bin").read_bytes() == (tmp_path / "cli.armnn").read_bytes()


def test_to_names_the_format_when_the_extension_does_not(cli, tmp_path):
    src = GOLDEN / "add_float" / "model.armnn"
    r = run_cli(cli, "convert", src, tmp_path / "cli.out", "--to", "json")
    assert r.returncode == 0, r.stderr
    assert nnbridge.convert(src, tmp_path / "py.out", to="json") == ("armnn", "json")
    assert (tmp_path / "py.out").read_bytes() == (tmp_path / "cli.out").read_bytes()
    with pytest.raises(nnbridge.UnsupportedError) as e:
        nnbridge.convert(src, tmp_path / "x.unknown")
    assert e.value.id == "nnbridge.unsupported.301"  # no format for the extension
    assert not (tmp_path / "x.unknown").exists()


def test_other_formats_round_trip_like_the_cli(cli, shared, tmp_path):
    for src, ext in [(shared / "afcm" / "smoke_equivalent.flow", ".flow"), (shared / "vkgraph" / "add_example.bin", ".vkgraph"),
                     (shared / "vkgraph" / "add_example_delegate.bin", ".vkdelegate")]:
        for out_ext in (ext, ".json"):
            r = run_cli(cli, "convert", src, tmp_path / ("cli" + out_ext))
            assert r.returncode == 0, r.stderr
            nnbridge.convert(src, tmp_path / ("py" + out_ext))
            assert (tmp_path / ("py" + out_ext)).read_bytes() == (tmp_path / ("cli" + out_ext)).read_bytes(), (src, out_ext)


def test_load_accepts_str_pathlib_and_bytes():
    src = GOLDEN / "add_float" / "model.armnn"
    for source in (str(src), pathlib.Path(src), src.read_bytes(), bytearray(src.read_bytes()), memoryview(src.read_bytes())):
        g = nnbridge.load(source)
        assert [v.name for v in g.inputs] == ["a", "b"] and [v.name for v in g.outputs] == ["y"]
    g = nnbridge.load(src.read_bytes(), format="armnn")
    assert g.source_format == "armnn"


def test_detect_format():
    assert nnbridge.detect_format(GOLDEN / "add_float" / "model.armnn") == "armnn"


def test_json_round_trip_is_exact(tmp_path):
    g = nnbridge.load(GOLDEN / "lstm_cifg" / "model.armnn")
    nnbridge.save(g, tmp_path / "a.json")
    g2 = nnbridge.load(tmp_path / "a.json")
    nnbridge.save(g2, tmp_path / "b.armnn")
    nnbridge.save(g, tmp_path / "a.armnn")
    assert (tmp_path / "a.armnn").read_bytes() == (tmp_path / "b.armnn").read_bytes()


def test_save_over_the_loaded_file_is_safe(tmp_path):
    p = tmp_path / "m.armnn"
    p.write_bytes((GOLDEN / "constant_add" / "model.armnn").read_bytes())
    g = nnbridge.load(p)
    before = next(v for v in g.values if v.is_constant).constant.copy()
    nnbridge.save(g, p)
    assert (next(v for v in g.values if v.is_constant).constant == before).all()
    assert nnbridge.load(p).values[1].name == g.values[1].name


def test_unknown_option_and_format_are_refused(tmp_path):
    src = GOLDEN / "add_float" / "model.armnn"
    with pytest.raises(nnbridge.UnsupportedError, match="armnn.nosuch"):
        nnbridge.load(src, nosuch="1")
    with pytest.raises(nnbridge.UnsupportedError, match="onnx-nope") as e:
        nnbridge.load(src, format="onnx-nope")
    assert e.value.id == "nnbridge.unsupported.301"  # no format of that name
    with pytest.raises(nnbridge.UnsupportedError):
        nnbridge.save(nnbridge.load(src), tmp_path / "out.armnn", nosuch=1)
    assert not os.listdir(tmp_path)
