"""nnbridge: read, write, convert and run neural-network graph files.

The Python face of the nnbridge C++ SDK (a pybind11 extension, ``nnbridge._nnbridge``, over the
SDK's public API; nothing is implemented twice). In brief::

    import nnbridge, numpy as np
    g = nnbridge.load("model.armnn")                 # Graph; constants stay in the mapped file
    for v in g.inputs: print(v.name, v.dtype, v.shape)
    out = nnbridge.run(g, {"x": np.zeros((1, 4), np.float32)})   # {name: read-only ndarray}
    nnbridge.save(g, "model.json")                   # format from the extension
    nnbridge.convert("model.armnn", "model.vkgraph") # same bytes as `nnbridge convert`
    report = nnbridge.validate(g, inputs, backends=("cpu", "opencl"))
    d = nnbridge.diff("model.armnn", "model.onnx")  # semantic diff: d.same, d.differences

Errors are :class:`nnbridge.Error` subclasses, one per C++ error code (nnbridge.exceptions), each
with a stable identifier ``.id`` such as ``"nnbridge.malformed.201"`` (docs/errors.md).
TFLite acceleration settings live in :mod:`nnbridge.settings`, OpenVINO custom-layer XML in
:mod:`nnbridge.custom_layers`.
"""

# No `from __future__ import annotations` here: it would make `annotations` an attribute of the
# package (nnbridge.annotations); nothing in this file needs it.
from .exceptions import (BackendError, Error, InvalidError, IoError, MalformedError,  # noqa: F401
                         UnsupportedError)
from . import _nnbridge
from ._nnbridge import (Buffer, Format, Graph, Issue, Node, OutputReport, Plan, Quantization,  # noqa: F401
                        TensorType, ValidationReport, Value, backends, check, convert, detect_format,
                        formats, load, opencl_devices, prepare, run, save, tensor_file_names, tensor_name,
                        topological_order, validate)
from ._nnbridge import Diff, Difference, diff  # noqa: F401
# The live views Node.attrs / Value.attrs / Graph.metadata and Graph.nodes / values / inputs / outputs
# return: exported so that user code can name them in isinstance checks and annotations.
from ._nnbridge import AttrsView, ListView  # noqa: F401
from . import settings  # noqa: F401

try:  # a build without sdk/config/openvino_custom has no custom_layers
    from . import custom_layers  # noqa: F401
except ImportError:  # pragma: no cover
    pass

# "MAJOR.MINOR.PATCH": the linked SDK's nnbridge::version(), made from project(nnbridge VERSION ...)
# in CMakeLists.txt, as setup.py's wheel version and `nnbridge --version` are.
__version__: str = _nnbridge.__version__

__all__ = [
    "Error", "IoError", "MalformedError", "UnsupportedError", "InvalidError", "BackendError",
    "Buffer", "Format", "Graph", "Issue", "Node", "OutputReport", "Plan", "Quantization", "TensorType",
    "ValidationReport", "Value",
    "backends", "check", "convert", "detect_format", "formats", "load", "opencl_devices", "prepare", "run",
    "save", "tensor_file_names", "tensor_name", "topological_order", "validate", "settings", "custom_layers",
    "Diff", "Difference", "diff", "AttrsView", "ListView",
]
