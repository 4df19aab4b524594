"""TFLite acceleration settings: the messages of TFLite's configuration.proto (TFLiteSettings,
ComputeSettings, ...) in five forms, converted without loss, and checked.

Forms: ``"proto-binary"`` (.pb, .binpb), ``"proto-text"`` (.txtpb, .textproto, .pbtxt),
``"proto-json"`` (.pb.json), ``"fb"`` (the FlatBuffer twin TFLite embeds, .fb) and ``"fb-json"``
(TFLite's own settings files, .json). The conversion rules (presence kept, the one default that
differs between forms, out-of-enum values) are those of the C++ API,
sdk/config/tflite_accel/include/nnbridge/config/tflite_accel.h, which this module binds.
"""

from __future__ import annotations

import os
from typing import Optional, Union

from . import _nnbridge

_impl = getattr(_nnbridge, "_settings", None)
if _impl is None:  # pragma: no cover - a build without sdk/config/tflite_accel
    raise ImportError("this nnbridge build has no TFLite acceleration settings support")

Settings = _impl.Settings
forms = _impl.forms
form_from_path = _impl.form_from_path
message_names = _impl.message_names
load = _impl.load
parse = _impl.parse

__all__ = ["Settings", "forms", "form_from_path", "message_names", "load", "parse", "save", "convert"]


def save(settings: Settings, path: Union[str, os.PathLike], form: Optional[str] = None) -> None:
    """Writes ``settings`` to ``path`` in ``form``, else the form of the path's extension.

    Written atomically (temporary file, then rename). Raises UnsupportedError when the form
    cannot express a field the settings hold (naming it) or cannot be told, IoError.
    """
    settings.save(path, form)


def convert(src: Union[str, os.PathLike], dst: Union[str, os.PathLike], *, from_form: Optional[str] = None,
            to: Optional[str] = None, message: str = "TFLiteSettings") -> Settings:
    """Converts a settings file between forms, as ``nnbridge config convert SRC DST`` does.

    ``from_form``/``to``: form names, else told from the file names; ``message``: the root
    message (default TFLiteSettings). Returns the settings read. Raises as :func:`load` and
    :func:`save`.
    """
    s = load(src, from_form, message)
    s.save(dst, to)
    return s
