"""nnbridge.__version__: the numbers of `project(nnbridge VERSION ...)` in the top-level
CMakeLists.txt (read here with a regular expression), and what `nnbridge --version` prints."""

import re

import nnbridge
from conftest import ROOT, run_cli


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\(nnbridge\s+VERSION\s+(\d+)\.(\d+)(?:\.(\d+))?", text)
    assert m, "no project(nnbridge VERSION ...) in CMakeLists.txt"
    return f"{m[1]}.{m[2]}.{m[3] or 0}"


def test_version_is_the_project_version():
    assert isinstance(nnbridge.__version__, str)
    assert re.fullmatch(r"\d+\.\d+\.\d+", nnbridge.__version__)
    assert nnbridge.__version__ == project_version()


def test_version_is_what_the_cli_prints(cli):
    r = run_cli(cli, "--version")
    assert r.returncode == 0
    assert r.stdout == f"nnbridge {nnbridge.__version__}\n"
