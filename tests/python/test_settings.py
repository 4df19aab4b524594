"""nnbridge.settings: TFLite acceleration settings in five forms; conversions write the same
bytes as `nnbridge config convert`; inputs are TFLite's own settings files (shared samples)."""

import pytest

import nnbridge
from nnbridge import settings
from conftest import run_cli

EXT = {"proto-binary": ".pb", "proto-text": ".txtpb", "proto-json": ".pb.json", "fb": ".fb", "fb-json": ".json"}


def test_forms_and_messages():
    assert settings.forms() == list(EXT)
    for form, ext in EXT.items():
        assert settings.form_from_path("x" + ext) == form
    assert settings.form_from_path("x.txt") is None
    names = settings.message_names()
    assert "TFLiteSettings" in names and "ComputeSettings" in names


def test_every_form_converts_like_the_cli(cli, shared, tmp_path):
    src = shared / "tflite_settings" / "test_xnnpack_settings.json"
    s = settings.load(src)
    assert s.message_name == "TFLiteSettings"
    for form, ext in EXT.items():
        r = run_cli(cli, "config", "convert", src, tmp_path / ("cli" + ext))
        assert r.returncode == 0, r.stderr
        settings.convert(src, tmp_path / ("py" + ext))
        assert (tmp_path / ("py" + ext)).read_bytes() == (tmp_path / ("cli" + ext)).read_bytes(), form
        assert s.serialize(form) == (tmp_path / ("cli" + ext)).read_bytes()
        back = settings.load(tmp_path / ("py" + ext))
        assert back == s
        assert settings.parse((tmp_path / ("py" + ext)).read_bytes(), form) == s


def test_check_matches_the_cli(cli, shared):
    src = shared / "tflite_settings" / "test_invalid_settings.json"
    r = run_cli(cli, "config", "check", src)
    try:
        s = settings.load(src)
    except nnbridge.Error as e:
        assert r.returncode == 3 and str(e) in r.stderr
        return
    findings = list(s.warnings) + s.check()
    for f in findings:
        assert f"{src}: {f}" in r.stdout
    assert (r.returncode == 1) == any(f.severity == "error" for f in findings)


def test_empty_settings_and_errors(tmp_path):
    s = settings.Settings("ComputeSettings")
    assert s.message_name == "ComputeSettings" and s.check() == [] and s.serialize("proto-binary") == b""
    with pytest.raises(nnbridge.UnsupportedError):
        settings.Settings("NoSuchMessage")
    with pytest.raises(nnbridge.UnsupportedError) as e:
        s.serialize("yaml")
    assert e.value.id == "nnbridge.unsupported.301"  # no settings form of that name
    with pytest.raises(nnbridge.IoError) as e:
        settings.load(tmp_path / "missing.json")
    assert e.value.id == "nnbridge.io.101"
    (tmp_path / "bad.txtpb").write_text("cpu_settings { num_threads: \n")
    with pytest.raises(nnbridge.MalformedError) as e:
        settings.load(tmp_path / "bad.txtpb")
    assert e.value.path == str(tmp_path / "bad.txtpb")
    assert e.value.id == "nnbridge.malformed.204"  # protobuf text that does not parse
    settings.save(settings.parse("cpu_settings { num_threads: 4 }", "proto-text"), tmp_path / "t.fb")
    assert "num_threads: 4" in settings.load(tmp_path / "t.fb").debug_text()


def test_resource_limits_as_keywords(tmp_path):
    # "delegate: GPU" is 13 bytes; cpu_settings nests one message below the root.
    (tmp_path / "s.txtpb").write_text("delegate: GPU")
    assert settings.load(tmp_path / "s.txtpb", max_size=13).message_name == "TFLiteSettings"
    with pytest.raises(nnbridge.IoError, match="settings.max_size") as e:
        settings.load(tmp_path / "s.txtpb", max_size=12)
    assert e.value.id == "nnbridge.io.106"  # larger than the reader's size limit
    assert settings.parse("cpu_settings { num_threads: 4 }", "proto-text", max_depth=1)
    with pytest.raises(nnbridge.MalformedError) as e:
        settings.parse("tflite_settings { cpu_settings { num_threads: 4 } }", "proto-text", "ComputeSettings",
                       max_depth=1)
    assert e.value.id == "nnbridge.malformed.204"  # protobuf's text parser refuses the nesting
    with pytest.raises(nnbridge.UnsupportedError, match="settings.max_tables") as e:
        settings.load(tmp_path / "s.txtpb", max_nodes=3)
    assert e.value.id == "nnbridge.unsupported.305"  # settings.max_nodes is no reader option
