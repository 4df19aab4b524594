"""OpenVINO custom-layer XML: kernels for ops the opencl backend has no built-in kernel for.

The rules (which OpenVINO source defines each, and where nnbridge is stricter) are those of the
C++ API this module binds, sdk/config/openvino_custom/include/nnbridge/config/openvino_custom.h::

    layers = nnbridge.custom_layers.load("custom_layers.xml")
    out = nnbridge.run(graph, inputs, backend="opencl", custom_layers=layers)
"""

from __future__ import annotations

from . import _nnbridge

_impl = getattr(_nnbridge, "_custom_layers", None)
if _impl is None:  # pragma: no cover - a build without sdk/config/openvino_custom
    raise ImportError("this nnbridge build has no OpenVINO custom-layer support")

CustomLayers = _impl.CustomLayers
load = _impl.load
parse = _impl.parse

__all__ = ["CustomLayers", "load", "parse"]
