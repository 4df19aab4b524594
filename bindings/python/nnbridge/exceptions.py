"""nnbridge's exceptions: one class per C++ error code (nnbridge::ErrorCode, sdk/core error.h).

Every error the SDK raises is an :class:`Error`; its ``str()`` is the SDK's message,
``"[<id>] <file>: <where>: <message>"`` with empty parts left out, e.g.
``"[nnbridge.invalid.401] model.armnn: layers[12].layer.base.index: refers to layer 40 of 12"``:
the same text the C++ API and the CLI print. ``id`` is the stable identifier (nnbridge::ErrorId,
listed in docs/errors.md); match on it, not on the prose.
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "Error",
    "IoError",
    "MalformedError",
    "UnsupportedError",
    "InvalidError",
    "BackendError",
    "CLASS_BY_CODE",
]


class Error(Exception):
    """Base class of every nnbridge error.

    Attributes:
        code: the C++ error code's name: "io", "malformed", "unsupported", "invalid", "backend".
        id: the stable identifier, e.g. "nnbridge.malformed.201" (docs/errors.md), or None for
            an error raised outside the C++ SDK.
        path: the file the error is about, or None (in-memory input). Errors of prepare(),
            run() and Plan.run() on a Graph that nnbridge.load(path) returned carry that path
            (their ``where``, ``"nodes[3]"``, is the node's index in Graph.nodes); on a graph
            loaded from bytes, built in Python, copied or read from JSON text, None.
        where: the place inside the document, in the format's own field names
            (``"values[12].tensor.dims"``), or None.
        detail: the message without file and place.
    """

    code: str = ""

    def __init__(self, message: str, *, code: Optional[str] = None, path: Optional[str] = None,
                 where: Optional[str] = None, detail: Optional[str] = None,
                 id: Optional[str] = None) -> None:  # noqa: A002 (the field's own name)
        super().__init__(message)
        if code is not None:
            self.code = code
        self.id = id
        self.path = path
        self.where = where
        self.detail = detail if detail is not None else message

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class IoError(Error, OSError):
    """ErrorCode::Io: a file could not be opened, read, mapped or written (also an OSError)."""

    code = "io"


class MalformedError(Error, ValueError):
    """ErrorCode::Malformed: bytes that do not decode: bad offsets, failed verification, truncation."""

    code = "malformed"


class UnsupportedError(Error):
    """ErrorCode::Unsupported: well-formed input that nnbridge or the target format cannot express."""

    code = "unsupported"


class InvalidError(Error, ValueError):
    """ErrorCode::Invalid: well-formed but inconsistent content (dangling ids, wrong arity, bad
    shapes), or arguments that do not fit the graph, e.g. an input array of the wrong shape
    (also a ValueError)."""

    code = "invalid"


class BackendError(Error, RuntimeError):
    """ErrorCode::Backend: a backend failed to prepare or run a graph."""

    code = "backend"


#: The class raised for each C++ error code name.
CLASS_BY_CODE = {cls.code: cls for cls in (IoError, MalformedError, UnsupportedError, InvalidError, BackendError)}
