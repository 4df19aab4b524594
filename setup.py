"""Builds and installs the Python package nnbridge (bindings/python) with CMake.

    /usr/bin/python3 -m pip install --no-build-isolation --break-system-packages .
    # or, in a venv made with `/usr/bin/python3 -m venv --system-site-packages VENV`:
    VENV/bin/python -m pip install --no-build-isolation .

Needs only what scripts/install-deps.sh installs (Debian's cmake, ninja, pybind11, setuptools,
NumPy): nothing is downloaded. There is deliberately no pyproject.toml: with one, pip would build
in an isolated environment and try to fetch setuptools from an index.

The extension is configured in build-pip/py<X.Y>/ with tests, benchmarks and the Arm NN peer
off, and only its target (and the SDK libraries it links) is built. Set NNBRIDGE_CMAKE_BUILD_DIR
to an already configured build folder (e.g. build/) to build the target there instead, without
reconfiguring it; NNBRIDGE_CMAKE_ARGS adds arguments to a fresh configure.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
(ROOT / "build-pip").mkdir(exist_ok=True)  # egg_info writes there (see options below)


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(nnbridge VERSION ([0-9.]+)", text).group(1)


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        given = os.environ.get("NNBRIDGE_CMAKE_BUILD_DIR")
        if given and (Path(given) / "CMakeCache.txt").exists():
            build_dir = Path(given).resolve()
        else:
            build_dir = Path(given).resolve() if given else ROOT / "build-pip" / f"py{sys.version_info[0]}.{sys.version_info[1]}"
            args = ["cmake", "-S", str(ROOT), "-B", str(build_dir),
                    "-DCMAKE_BUILD_TYPE=Release", "-DNNBRIDGE_BUILD_TESTS=OFF", "-DNNBRIDGE_BUILD_BENCH=OFF",
                    "-DNNBRIDGE_BUILD_PEERS=OFF", "-DNNBRIDGE_BUILD_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
                args += ["-G", "Ninja"]
            args += shlex.split(os.environ.get("NNBRIDGE_CMAKE_ARGS", ""))
            subprocess.run(args, check=True)
        build = ["cmake", "--build", str(build_dir), "--target", "nnbridge_python"]
        if os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") is None:
            build += ["--parallel", str(os.cpu_count() or 2)]
        subprocess.run(build, check=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "nnbridge" / f"_nnbridge{suffix}"
        if not built.exists():
            found = sorted(p.name for p in (build_dir / "python" / "nnbridge").glob("_nnbridge*"))
            raise RuntimeError(f"{built} was not built (found: {found}): is {build_dir} configured for {sys.executable}?")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # A reused development build carries debug info (RelWithDebInfo: over 100 MB); an installed
        # module does not need it.
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-debug", str(target)], check=True)


setup(
    name="nnbridge",
    version=project_version(),
    description="Read, write, convert and run neural-network graph files",
    packages=["nnbridge"],
    package_dir={"nnbridge": "bindings/python/nnbridge"},
    package_data={"nnbridge": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("nnbridge._nnbridge")],
    cmdclass={"build_ext": CMakeBuild},
    install_requires=["numpy"],
    python_requires=">=3.8",
    zip_safe=False,
    # Keep setuptools' own folders out of the source tree's build/ (the Makefile's build folder).
    options={"build": {"build_base": "build-pip/setuptools"}, "egg_info": {"egg_base": "build-pip"}},
)
