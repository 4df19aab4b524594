"""The shipped type hints (.pyi) cover the extension's public API: every public function, class
and class member of nnbridge._nnbridge (and its settings / custom_layers parts) has a stub."""

import ast
from pathlib import Path

import pytest

import nnbridge
from nnbridge import _nnbridge

PKG = Path(nnbridge.__file__).parent


def stub_names(path: Path):
    tree = ast.parse(path.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
            members[node.name] = names
    return top, members


def public(obj):
    """Public names defined by nnbridge itself (not imports such as typing.Optional)."""
    return {n for n in dir(obj) if not n.startswith("_") and (not hasattr(obj, "__spec__") or
            str(getattr(getattr(obj, n), "__module__", "") or "").startswith("nnbridge"))}


@pytest.mark.parametrize("module, stub", [(_nnbridge, "_nnbridge.pyi"),
                                          (getattr(nnbridge, "settings", None), "settings.pyi"),
                                          (getattr(nnbridge, "custom_layers", None), "custom_layers.pyi")])
def test_stubs_cover_the_module(module, stub):
    if module is None:
        pytest.skip(f"this build has no {stub[:-4]}")
    assert (PKG / "py.typed").exists()
    top, members = stub_names(PKG / stub)
    missing = sorted(n for n in public(module) if n not in top)
    assert missing == []
    for cls_name, names in members.items():
        cls = getattr(module, cls_name, None)
        if not isinstance(cls, type):
            continue
        assert sorted(public(cls) - names) == [], cls_name


def test_docstrings_name_dtypes_and_errors():
    for fn in (nnbridge.load, nnbridge.save, nnbridge.convert, nnbridge.run, nnbridge.prepare, nnbridge.validate):
        assert "Raises" in fn.__doc__ or "raises" in fn.__doc__, fn.__name__
    assert "dtype" in nnbridge.Plan.run.__doc__ and "shape" in nnbridge.Plan.run.__doc__
