// PYBIND11_MODULE(_nnbridge): the extension behind the Python package nnbridge. Everything it
// binds is the SDK's public C++ API (docs/architecture.md "Layers"); the package adds only Python glue.
#include "common.h"
#include "nnbridge/io.h"
#include "nnbridge/version.h"

PYBIND11_MODULE(_nnbridge, m) {
  using namespace nnbridge::py_bind;
  // The linked SDK's nnbridge::version(), which `nnbridge --version` prints too.
  m.attr("__version__") = std::string(nnbridge::version());
  m.doc() = "The nnbridge C++ SDK, bound with pybind11. Use the package nnbridge, not this module.";
  // The format registry registers each format's check rules on first use (nnbridge/check.h).
  nnbridge::find_format("json");
  register_backends();
  bind_errors(m);
  bind_arrays(m);
  bind_views(m);
  bind_graph(m);
  bind_draw(m);
  bind_io(m);
  bind_exec(m);
  bind_settings(m);
  bind_custom_layers(m);
  bind_diff(m);
#ifdef NNBRIDGE_PY_HAVE_OPENCL
  m.attr("_has_opencl") = true;
#else
  m.attr("_has_opencl") = false;
#endif
}
