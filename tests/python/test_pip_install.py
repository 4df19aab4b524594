"""`pip install` of the repository works without an index: setup.py drives CMake. The test
installs into a temporary --target reusing the already configured build folder
(NNBRIDGE_CMAKE_BUILD_DIR, set by ctest) so it only re-links what is stale; a from-scratch
build is what a user's `pip install .` does (minutes on 2 cores), not what this test repeats.
setup.py's rules: one CMake tree (setuptools' files inside it, under pip/, none beside it), the
build's progress said (on stdout here: the test runs pip in a session without a terminal), and
the installed package exports no `annotations`."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def test_pip_install_into_a_target_folder(tmp_path):
    build_dir = os.environ.get("NNBRIDGE_BUILD_DIR")
    if not build_dir or not (Path(build_dir) / "CMakeCache.txt").exists():
        pytest.skip("run through ctest (NNBRIDGE_BUILD_DIR names the configured build folder to reuse)")
    env = dict(os.environ, NNBRIDGE_CMAKE_BUILD_DIR=build_dir, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-v", "--no-build-isolation", "--no-deps", "--no-cache-dir",
                        "--target", str(target), str(ROOT)], capture_output=True, text=True, env=env, timeout=600,
                       start_new_session=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"nnbridge: building the extension in {Path(build_dir).resolve()}" in r.stdout + r.stderr
    assert (Path(build_dir) / "pip" / "nnbridge.egg-info").is_dir()
    pkg = target / "nnbridge"
    for name in ("__init__.py", "exceptions.py", "settings.py", "py.typed", "_nnbridge.pyi"):
        assert (pkg / name).exists(), name
    assert list(pkg.glob("_nnbridge*.so"))
    # The installed package imports and works on its own (the build tree is not on the path).
    code = ("import nnbridge, numpy as np; g = nnbridge.Graph(); x = g.add_value('x', 'float32', (2,)); "
            "y = g.add_value('y', 'float32', (2,)); g.add_node('Relu', [x], [y]); g.inputs = [x]; g.outputs = [y]; "
            "print(nnbridge.__file__); print(nnbridge.run(g, {'x': np.array([-1.0, 2.0], np.float32)})['y'].tolist()); "
            "print(hasattr(nnbridge, 'annotations'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env=dict(env, PYTHONPATH=str(target)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(pkg / "__init__.py"), "[0.0, 2.0]", "False"]
