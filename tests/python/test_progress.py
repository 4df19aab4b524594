"""Progress on a terminal (issue 22): `nnbridge convert`, `info`, `draw` (and the other commands that
load a model) show a phase line on stderr for a file of 100 MB or more when stderr is a terminal (a
pseudo-terminal here, Python's pty module), nothing when stderr is a pipe or the file is smaller;
NNBRIDGE_PROGRESS_MIN_BYTES lowers the threshold so that a small file stands in for a large one.
examples/zoo/zoo.py shows models done/total, failures, elapsed time and ETA the same way."""

import importlib.util
import io
import os
import subprocess
import sys
import tempfile

import pytest

from conftest import ROOT

MODEL = ROOT / "examples" / "models" / "conv_relu_fc.armnn"
ERASE = b"\r\x1b[K"


def si_size(n):
    """The size as the CLI prints it: decimal units (1 kB = 1000 bytes), one decimal."""
    if n < 1000:
        return f"{n} B"
    if n < 1_000_000:
        return f"{n / 1e3:.1f} kB"
    return f"{n / 1e6:.1f} MB"


def run_with_stderr_on_pty(argv, env):
    """(exit code, stdout bytes, stderr bytes) with stderr a pseudo-terminal and stdout a file."""
    master, slave = os.openpty()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([str(a) for a in argv], stdin=subprocess.DEVNULL, stdout=out, stderr=slave, env=env)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        rc = p.wait()
        os.close(master)
        out.seek(0)
        return rc, out.read(), b"".join(chunks)


def env_with(min_bytes):
    env = dict(os.environ)
    env.pop("NNBRIDGE_PROGRESS_MIN_BYTES", None)
    if min_bytes is not None:
        env["NNBRIDGE_PROGRESS_MIN_BYTES"] = str(min_bytes)
    return env


def test_info_on_a_terminal_names_the_phase_and_size_and_erases_the_line(cli):
    rc, out, err = run_with_stderr_on_pty([cli, "info", MODEL], env_with(0))
    assert rc == 0
    line = f"reading {MODEL} ({si_size(MODEL.stat().st_size)}), 0s elapsed".encode()
    assert err.startswith(ERASE + line), err
    assert err.endswith(ERASE), err  # nothing left on the terminal
    # The result on stdout is the one a run without a terminal prints.
    plain = subprocess.run([str(cli), "info", str(MODEL)], capture_output=True, env=env_with(0))
    assert plain.returncode == 0 and out == plain.stdout


def test_no_line_below_the_threshold_or_without_a_terminal(cli, tmp_path):
    size = MODEL.stat().st_size
    rc, _, err = run_with_stderr_on_pty([cli, "info", MODEL], env_with(size + 1))
    assert rc == 0 and err == b""
    rc, _, err = run_with_stderr_on_pty([cli, "info", MODEL], env_with(None))  # default: 100 MB
    assert rc == 0 and err == b""
    p = subprocess.run([str(cli), "info", str(MODEL)], capture_output=True, env=env_with(0))
    assert p.returncode == 0 and p.stderr == b""  # a pipe: nothing
    p = subprocess.run([str(cli), "convert", str(MODEL), str(tmp_path / "m.json")], capture_output=True, env=env_with(0))
    assert p.returncode == 0 and p.stderr == b""


def test_convert_shows_reading_then_converting(cli, tmp_path):
    out_file = tmp_path / "m.json"
    rc, out, err = run_with_stderr_on_pty([cli, "convert", MODEL, out_file], env_with(0))
    assert rc == 0 and out_file.exists()
    size = si_size(MODEL.stat().st_size)
    assert ERASE + f"reading {MODEL} ({size}), ".encode() in err
    assert ERASE + f"converting {MODEL} ({size}) to json, ".encode() in err
    assert err.endswith(ERASE)
    assert out.startswith(str(MODEL).encode())  # the result line comes after the erased one
    # A failing convert erases the line before the error message.
    rc, _, err = run_with_stderr_on_pty([cli, "convert", MODEL, tmp_path / "absent" / "m.json"], env_with(0))
    assert rc == 3
    tail = err[err.rindex(ERASE) + len(ERASE):]
    assert tail.startswith(b"nnbridge: error:") and b"absent" in tail


def test_draw_shows_reading_then_drawing(cli, tmp_path):
    model = ROOT / "examples" / "models" / "add_softmax.armnn"
    rc, _, err = run_with_stderr_on_pty([cli, "draw", model, "-o", tmp_path / "m.svg"], env_with(0))
    assert rc == 0
    assert ERASE + f"reading {model} ({si_size(model.stat().st_size)}), ".encode() in err
    # Its Arm NN layers (examples/models/README.md): Input a, Input b, Addition, Softmax and the Output
    # layer; one box each (none is a Constant layer, test_draw.py).
    assert ERASE + f"drawing 5 boxes of {model} into {tmp_path / 'm.svg'}, ".encode() in err
    assert err.endswith(ERASE)


# examples/zoo/zoo.py's progress line.

def load_zoo():
    spec = importlib.util.spec_from_file_location("zoo", ROOT / "examples" / "zoo" / "zoo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_zoo_progress_counts_failures_and_eta_at_the_mean_pace():
    zoo = load_zoo()
    now = [100.0]
    stream = Terminal()
    p = zoo.Progress(21, stream, clock=lambda: now[0], period=3600)
    p.show("resnet18")
    assert stream.getvalue() == "\r\x1b[K[0/21] 0s elapsed: resnet18"
    for failed in (False, True, False):
        p.step(failed)
    now[0] += 130
    p.show("resnet50")
    # 3 models in 130 s, 18 left: 130 / 3 * 18 = 780 s.
    assert stream.getvalue().endswith("\r\x1b[K[3/21] 1 failed, 2m10s elapsed, ETA 13m00s: resnet50")
    p.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_zoo_progress_is_quiet_off_a_terminal():
    zoo = load_zoo()
    stream = io.StringIO()
    p = zoo.Progress(2, stream, period=0.01)
    p.show("a")
    p.step(True)
    p.close()
    assert stream.getvalue() == ""


def test_zoo_on_a_terminal(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("torchvision")
    pytest.importorskip("nnbridge")
    argv = [sys.executable, ROOT / "examples" / "zoo" / "zoo.py", "--build", os.environ.get("NNBRIDGE_BUILD_DIR", ROOT / "build"),
            "--models", "squeezenet1_1", "--backends", "cpu", "--runs", "1", "--formats", "armnn", "--no-peer",
            "--out", tmp_path]
    rc, out, err = run_with_stderr_on_pty(argv, dict(os.environ))
    assert rc == 0, (out, err)
    # PyTorch's exporter may warn on stderr too: look for the line, and for its erasure after the last one.
    assert b"\r\x1b[K[0/1] 0s elapsed: squeezenet1_1" in err, err
    assert err.rindex(ERASE) > err.rindex(b"elapsed")
    assert b"| squeezenet1_1" in out
    p = subprocess.run([str(a) for a in argv], capture_output=True, env=dict(os.environ))
    assert p.returncode == 0 and b"\x1b[K" not in p.stderr
