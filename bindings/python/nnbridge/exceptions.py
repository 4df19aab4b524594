"""nnbridge's exceptions: one class per C++ error code (nnbridge::ErrorCode, sdk/core error.h).

Every error the SDK raises is an :class:`Error`; its ``str()`` is the SDK's message,
``"<file>: <where>: <message>"`` with empty parts left out, e.g.
``"model.armnn: layers[12].layer.base.index: refers to layer 40 of 12"``: the same text the
C++ API and the CLI print.
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
        path: the file the error is about, or None (in-memory input).
        where: the place inside the document, in the format's own field names
            (``"values[12].tensor.dims"``), or None.
        detail: the message without file and place.
    """

    code: str = ""

    def __init__(self, message: str, *, code: Optional[str] = None, path: Optional[str] = None,
                 where: Optional[str] = None, detail: Optional[str] = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
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
