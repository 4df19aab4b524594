// nnbridge._nnbridge._custom_layers: OpenVINO custom-layer XML (nnbridge/config/openvino_custom.h),
// loaded into a set the opencl backend runs (prepare/run/validate take it as custom_layers=).
#include "common.h"
#ifdef NNBRIDGE_PY_HAVE_OPENVINO_CUSTOM
#include "nnbridge/config/openvino_custom.h"
#endif

namespace nnbridge::py_bind {

#ifdef NNBRIDGE_PY_HAVE_OPENVINO_CUSTOM
namespace ov = nnbridge::config::openvino_custom;

namespace {

std::filesystem::path fspath(py::handle h) { return py::module_::import("os").attr("fspath")(h).cast<std::filesystem::path>(); }

py::dict layer_dict(const ov::SimpleGpuLayer& l) {
  py::dict d;
  d["name"] = l.name;
  d["entry"] = l.entry;
  py::list sources;
  for (const auto& s : l.sources) sources.append(s.string());
  d["sources"] = sources;
  py::list defines;
  for (const ov::Define& x : l.defines) {
    py::dict e;
    e["name"] = x.name, e["param"] = x.param, e["type"] = x.type, e["default"] = x.default_value;
    defines.append(e);
  }
  d["defines"] = defines;
  py::list tensors;
  for (const ov::TensorBinding& t : l.tensors) {
    py::dict e;
    e["arg_index"] = t.arg_index;
    e["type"] = t.type == ov::TensorBinding::Direction::Input    ? "input"
                : t.type == ov::TensorBinding::Direction::Output ? "output"
                                                                 : "internal";
    e["port_index"] = t.port_index;
    e["format"] = ov::to_string(t.format);
    if (t.type == ov::TensorBinding::Direction::Internal) e["size"] = t.size;
    tensors.append(e);
  }
  d["tensors"] = tensors;
  py::list data;
  for (const ov::DataBinding& b : l.data) {
    py::dict e;
    e["arg_index"] = b.arg_index, e["name"] = b.name;
    data.append(e);
  }
  d["data"] = data;
  d["compiler_options"] = l.compiler_options;
  d["global"] = l.global;
  d["local"] = l.local;
  d["where"] = l.where.text();
  return d;
}

}  // namespace

std::shared_ptr<const CustomKernelSet> custom_kernel_set(py::handle h) {
  if (py::isinstance<ov::CustomLayerSet>(h)) return h.cast<std::shared_ptr<const ov::CustomLayerSet>>();
  throw py::type_error("custom_layers: a set from nnbridge.custom_layers.load(), not " + std::string(py::str(py::type::of(h))));
}

void bind_custom_layers(py::module_& parent) {
  py::module_ m = parent.def_submodule("_custom_layers", "OpenVINO custom-layer XML (see nnbridge.custom_layers).");
  py::class_<ov::CustomLayerSet, std::shared_ptr<ov::CustomLayerSet>>(m, "CustomLayers", R"doc(
OpenVINO custom layers loaded from XML: the GPU plugin's SimpleGPU layers, which the opencl
backend runs for nodes whose op is the layer's name, and MYRIAD MVCL layers (parsed and checked,
not run). Pass it to nnbridge.prepare/run/validate as ``custom_layers=``.
)doc")
      .def_property_readonly("gpu_layers", [](const ov::CustomLayerSet& s) {
        py::list l;
        for (const auto& x : s.config().gpu_layers) l.append(layer_dict(x));
        return l;
      }, "list[dict]: SimpleGPU layers (name, entry, sources, defines, tensors, data, compiler_options, global, local, where).")
      .def_property_readonly("mvcl_layers", [](const ov::CustomLayerSet& s) {
        py::list l;
        for (const auto& x : s.config().mvcl_layers) {
          py::dict d;
          d["name"] = x.name;
          d["kernels"] = x.kernels.size();
          d["where"] = x.where.text();
          l.append(d);
        }
        return l;
      }, "list[dict]: MVCL layers (name, number of kernels, where).")
      .def_property_readonly("warnings", [](const ov::CustomLayerSet& s) { return s.config().warnings; }, "list[Issue]")
      .def("names", [](const ov::CustomLayerSet& s) {
        std::vector<std::string> n;
        for (const auto& x : s.config().gpu_layers) n.push_back(x.name);
        return n;
      }, "The SimpleGPU layer names (the ops they implement).")
      .def("__repr__", [](const ov::CustomLayerSet& s) {
        return "<nnbridge.custom_layers.CustomLayers " + std::to_string(s.config().gpu_layers.size()) + " SimpleGPU, " +
               std::to_string(s.config().mvcl_layers.size()) + " MVCL>";
      });

  m.def("load", [](py::args files, bool allow_override, bool require_sources) {
    std::vector<std::filesystem::path> paths;
    for (auto f : files) paths.push_back(fspath(f));
    if (paths.empty()) throw py::type_error("load() needs at least one XML file");
    ov::LoadCustomLayersOptions o{allow_override, require_sources};
    py::gil_scoped_release nogil;
    return std::const_pointer_cast<ov::CustomLayerSet>(ov::custom_layer_set(paths, o));
  }, py::kw_only(), py::arg("allow_override") = false, py::arg("require_sources") = true, R"doc(
Loads one or more custom-layer XML files (later files may override earlier layers only with
``allow_override``). ``require_sources``: read every kernel source now. Raises nnbridge.Error
(IoError, MalformedError, InvalidError...) whose message lists every problem as ``file:line: text``.
)doc");
  m.def("parse", [](std::string_view xml, py::handle file, bool allow_override, bool require_sources) {
    ov::LoadCustomLayersOptions o{allow_override, require_sources};
    return std::make_shared<ov::CustomLayerSet>(ov::parse_custom_layers(xml, fspath(file), o));
  }, py::arg("xml"), py::arg("file") = "custom_layers.xml", py::kw_only(), py::arg("allow_override") = false,
     py::arg("require_sources") = true,
     "Reads XML text; ``file`` labels locations and its folder resolves kernel sources. Raises as load().");
}
#else
std::shared_ptr<const CustomKernelSet> custom_kernel_set(py::handle) {
  throw py::type_error("custom_layers: this build has no OpenVINO custom-layer support");
}
void bind_custom_layers(py::module_&) {}
#endif

}  // namespace nnbridge::py_bind
