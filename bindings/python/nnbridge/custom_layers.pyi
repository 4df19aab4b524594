# Type hints for nnbridge.custom_layers (OpenVINO custom-layer XML).
import os
from typing import Any, Dict, List, Union

from ._nnbridge import Issue

PathLike = Union[str, "os.PathLike[str]"]

class CustomLayers:
    @property
    def gpu_layers(self) -> List[Dict[str, Any]]: ...
    @property
    def mvcl_layers(self) -> List[Dict[str, Any]]: ...
    @property
    def warnings(self) -> List[Issue]: ...
    def names(self) -> List[str]: ...

def load(*files: PathLike, allow_override: bool = False, require_sources: bool = True) -> CustomLayers: ...
def parse(xml: str, file: PathLike = "custom_layers.xml", *, allow_override: bool = False,
          require_sources: bool = True) -> CustomLayers: ...
