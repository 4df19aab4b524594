"""The examples in examples/python run and print what they should (values by hand or from
Arm NN 20.08 CpuRef's outputs in the golden corpus)."""

import os
import subprocess
import sys

import pytest

import nnbridge
from conftest import GOLDEN, ROOT

EXAMPLES = ROOT / "examples" / "python"


def run_example(name, *args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=240)


def test_inspect_model():
    r = run_example("inspect_model.py", GOLDEN / "conv2d_qasymmu8" / "model.armnn")
    assert r.returncode == 0, r.stderr
    assert "armnn" in r.stdout and "Conv x1" in r.stdout and "qasymmu8" in r.stdout and "check: 0 error(s)" in r.stdout
    bad = run_example("inspect_model.py", GOLDEN / "no-such-case" / "model.armnn")
    assert bad.returncode == 3 and "error:" in bad.stderr


def test_convert_folder(tmp_path):
    src = tmp_path / "src"
    for case in ("add_float", "softmax", "constant_add"):
        (src / case).mkdir(parents=True)
        (src / case / "model.armnn").write_bytes((GOLDEN / case / "model.armnn").read_bytes())
    r = run_example("convert_folder.py", src, tmp_path / "out", "--to", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    # stdout is a pipe here: the summary, no carriage-return progress bar in the log.
    assert "\r" not in r.stdout and "3 of 3 converted" in r.stdout
    for case in ("add_float", "softmax", "constant_add"):
        assert nnbridge.load(tmp_path / "out" / case / "model.json").source_format == "armnn"


def test_run_and_validate():
    case = GOLDEN / "softmax"
    r = run_example("run_and_validate.py", case / "model.armnn", case / "inputs", case / "outputs")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "cpu" in r.stdout and r.stdout.rstrip().endswith("passed")


def test_build_graph(tmp_path):
    r = run_example("build_graph.py", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "y = [[1.5, 0.0, 5.0, 0.25]]" in r.stdout  # Relu(x * w + b) by hand
    assert "armnn: " in r.stdout and "json: " in r.stdout
    assert "DIFFERENT" not in r.stdout
    assert (tmp_path / "model.armnn").exists() and (tmp_path / "model.json").exists()


def test_pytorch_to_armnn(tmp_path):
    pytest.importorskip("torch")
    r = run_example("pytorch_to_armnn.py", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    # Both converted files are compared with PyTorch's own output (nnbridge.validate, expected=).
    assert "net.armnn: y [cpu]" in r.stdout and "net.vkdelegate: output_0 [cpu]" in r.stdout
    assert r.stdout.count(": pass") == 2
    assert (tmp_path / "net.armnn").exists() and (tmp_path / "net.vkdelegate").exists()
