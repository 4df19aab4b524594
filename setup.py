"""Builds and installs the Python package nnbridge (bindings/python) with CMake.

Run it from the repository's root folder (the one holding this file), with Debian's Python:

    /usr/bin/python3 -m pip install --no-build-isolation --break-system-packages .
    # or, in a venv made with `/usr/bin/python3 -m venv --system-site-packages VENV`:
    VENV/bin/python -m pip install --no-build-isolation .

Needs only what scripts/install-deps.sh installs (Debian's cmake, ninja, pybind11, setuptools,
NumPy): nothing is downloaded. There is deliberately no pyproject.toml: with one, pip would build
in an isolated environment and try to fetch setuptools from an index.

One CMake build: the extension is built in build/, the folder `make` uses (NNBRIDGE_CMAKE_BUILD_DIR
names another), configured as `make` configures it when it is not yet (NNBRIDGE_CMAKE_ARGS adds
arguments to that configure); only the extension's target and the SDK libraries it links are
built, so a later `make` reuses them and a `make` before reuses its work. setuptools' own files
go to build/pip/. pip hides a build's output: the build's progress (steps done of the total) is
written to the terminal (/dev/tty) when there is one; `pip install -v .` shows CMake's output.
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
BUILD = Path(os.environ.get("NNBRIDGE_CMAKE_BUILD_DIR") or ROOT / "build").resolve()
(BUILD / "pip").mkdir(parents=True, exist_ok=True)  # egg_info writes there (see options below)


def project_version() -> str:
    """MAJOR.MINOR.PATCH of `project(nnbridge VERSION ...)` in CMakeLists.txt, padded with 0 as
    sdk/core/CMakeLists.txt pads it for nnbridge/version.h, so the wheel's version is the
    nnbridge.__version__ (nnbridge::version()) the extension reports."""
    text = (ROOT / "CMakeLists.txt").read_text()
    parts = re.search(r"project\(nnbridge VERSION ([0-9.]+)", text).group(1).split(".")
    return ".".join((parts + ["0", "0"])[:3])


def cache_value(build_dir: Path, name: str) -> str:
    """A variable of build_dir's CMakeCache.txt ("" when absent)."""
    for line in (build_dir / "CMakeCache.txt").read_text(errors="replace").splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return ""


class Progress:
    """What is being built, then Ninja's "[k/n]" steps every tenth of the way, on the terminal
    (/dev/tty, which pip does not capture) or, without one, on stdout; every line of the build
    also goes to stdout (shown by `pip install -v`)."""

    def __init__(self, what: str) -> None:
        self.what, self.shown = what, -1
        try:
            self.tty = open("/dev/tty", "w") if not sys.stdout.isatty() else None
        except OSError:
            self.tty = None
        self.say(f"nnbridge: {what}")

    def say(self, text: str) -> None:
        out = self.tty or sys.stdout
        out.write(text + "\n")
        out.flush()

    def line(self, text: str) -> None:
        sys.stdout.write(text)
        m = re.match(r"\[(\d+)/(\d+)\]", text)
        if not m:
            return
        done, total = int(m.group(1)), int(m.group(2))
        tenth = done * 10 // max(total, 1)
        if tenth != self.shown or done == total:
            self.shown = tenth
            self.say(f"nnbridge: {self.what}: {done}/{total} build steps")

    def close(self) -> None:
        if self.tty:
            self.tty.close()


def run_build(args: list, what: str) -> None:
    progress = Progress(what)
    try:
        with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace") as p:
            for text in p.stdout:
                progress.line(text)
        if p.returncode:
            raise subprocess.CalledProcessError(p.returncode, args)
    finally:
        progress.close()


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build_dir = BUILD
        if (build_dir / "CMakeCache.txt").exists():
            configured = cache_value(build_dir, "Python_EXECUTABLE")
            if cache_value(build_dir, "NNBRIDGE_BUILD_PYTHON") in ("OFF", "0", "FALSE") or (
                    configured and Path(configured).resolve() != Path(sys.executable).resolve()):
                raise RuntimeError(f"{build_dir} is configured without the Python bindings or for another Python "
                                   f"({configured or 'none'}, not {sys.executable}): run pip with that Python, or name "
                                   "another build folder with NNBRIDGE_CMAKE_BUILD_DIR")
        else:
            # As `make` configures build/, so that it and `make` share one tree.
            args = ["cmake", "-S", str(ROOT), "-B", str(build_dir), f"-DPython_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            args += shlex.split(os.environ.get("NNBRIDGE_CMAKE_ARGS", ""))
            subprocess.run(args, check=True)
        build = ["cmake", "--build", str(build_dir), "--target", "nnbridge_python"]
        if os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") is None:
            build += ["--parallel", str(os.cpu_count() or 2)]
        run_build(build, f"building the extension in {build_dir}")
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
    # setuptools' own folders inside the CMake build folder, not beside it.
    options={"build": {"build_base": str(BUILD / "pip" / "setuptools")}, "egg_info": {"egg_base": str(BUILD / "pip")}},
)
