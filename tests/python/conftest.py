"""Shared fixtures of the Python binding tests (tests/python).

Run through ctest (tests/python/CMakeLists.txt), which sets PYTHONPATH to the build tree's
package and NNBRIDGE_CLI / NNBRIDGE_SHARED_DIR; by hand:

    PYTHONPATH=build/python NNBRIDGE_CLI=build/bin/nnbridge /usr/bin/python3 -m pytest tests/python
"""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "armnn"
SHARED = Path(os.environ.get("NNBRIDGE_SHARED_DIR", ROOT.parent / "shared"))


def read_npy_dir(folder: Path) -> dict:
    """{stem: array} for every .npy in folder (read by NumPy, not by nnbridge)."""
    return {p.stem: np.load(p) for p in sorted(folder.glob("*.npy"))} if folder.is_dir() else {}


def case_tolerance(case_dir: Path):
    c = json.loads((case_dir / "case.json").read_text())
    t = c.get("tolerance", {})
    f = t.get("float32", {})
    return f.get("atol", 1e-5), f.get("rtol", 1e-4), t.get("quantized", {}).get("max_abs_diff_in_steps", 1)


@pytest.fixture(scope="session")
def cli() -> Path:
    path = Path(os.environ.get("NNBRIDGE_CLI", ROOT / "build" / "bin" / "nnbridge"))
    if not path.exists():
        pytest.skip(f"the nnbridge CLI is not built ({path}): set NNBRIDGE_CLI")
    return path


def run_cli(cli: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "samples").is_dir():
        pytest.skip(f"the shared sample folder is absent ({SHARED}/samples): samples written by real tools are not checked")
    return SHARED / "samples"


@pytest.fixture
def golden() -> Path:
    return GOLDEN
