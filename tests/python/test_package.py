"""The package's namespace: `import nnbridge` exposes what __all__ lists and its submodules, and
nothing a module imports for itself (no `annotations` from `from __future__ import annotations`,
no `os` or `sys`)."""

import types

import nnbridge


def test_public_names_are_all_or_submodules():
    public = {n for n in dir(nnbridge) if not n.startswith("_")}
    extra = {n for n in public - set(nnbridge.__all__)
             if not (isinstance(getattr(nnbridge, n), types.ModuleType) and
                     getattr(nnbridge, n).__name__.startswith("nnbridge."))}
    assert extra == set()
    assert not hasattr(nnbridge, "annotations")


def test_all_names_exist():
    # custom_layers is absent from a build without sdk/config/openvino_custom (the import is guarded).
    missing = [n for n in nnbridge.__all__ if not hasattr(nnbridge, n) and n != "custom_layers"]
    assert missing == []
