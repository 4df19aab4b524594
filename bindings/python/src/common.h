// Shared pieces of the nnbridge._nnbridge extension: NumPy dtype mapping, array <-> tensor
// conversion, attribute conversion, and the graph view types.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nnbridge/attr.h"
#include "nnbridge/buffer.h"
#include "nnbridge/dtype.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/graph.h"

namespace nnbridge::py_bind {

namespace py = pybind11;

// Registration of each part of the module (one per source file).
void bind_errors(py::module_& m);
void bind_arrays(py::module_& m);
void bind_graph(py::module_& m);
void bind_io(py::module_& m);
void bind_exec(py::module_& m);
void bind_settings(py::module_& m);
void bind_custom_layers(py::module_& m);
void bind_diff(py::module_& m);
void bind_draw(py::module_& m);  ///< Graph.to_dot / draw / _repr_svg_ (after bind_graph)
/// The custom-kernel set behind a nnbridge.custom_layers.CustomLayers object; py::type_error otherwise.
std::shared_ptr<const CustomKernelSet> custom_kernel_set(py::handle h);
/// Registers the backends this build has (cpu, opencl) with the SDK registry.
void register_backends();

/// The NumPy dtype that stores `t`'s elements: quantized types as their storage integers,
/// bfloat16 as uint16 (NumPy has no bfloat16), bool as numpy.bool_. Throws Error(Unsupported)
/// for Undefined.
py::dtype numpy_dtype(DataType t);

/// A shared_ptr that keeps a Python object alive; its deleter takes the GIL.
std::shared_ptr<const void> keep_alive(py::object obj);

/// A read-only NumPy array over `data` (no copy), with a Python nnbridge.Buffer holding `data`
/// as its base. Throws Error(Invalid) naming `what` when the sizes disagree.
py::array array_view(const Buffer& data, DataType dtype, const std::vector<int64_t>& shape, const std::string& what);

/// `obj` as a C-contiguous, aligned array of `dtype`'s storage type: the same object when it
/// already is one (zero-copy), else a copy. With `cast`, any dtype is converted (numpy
/// forcecast); without, `obj`'s own dtype (numpy.asarray's for a list) must be the storage
/// dtype. Throws Error(Invalid) naming `what` and both dtypes when it is not, or when it cannot
/// be converted.
py::array as_storage_array(py::handle obj, DataType dtype, const std::string& what, bool cast);

/// A HostTensor viewing `arr` (kept alive by the tensor) with `type`'s dtype and quantization
/// and the array's shape, after checking the shape against `type` (-1 matches any size).
/// Throws Error(Invalid) naming `what`.
HostTensor tensor_view(const py::array& arr, const TensorType& type, const std::string& what);

/// Tensors by name from a mapping of name -> array-like, for the graph values named in `types`.
/// Throws Error(Invalid) for a missing or unknown name, a shape that does not fit, or (without
/// `cast`) an array whose dtype is not the value's storage dtype (as_storage_array).
TensorMap tensors_from_dict(const py::dict& d, const std::vector<std::pair<std::string, TensorType>>& types,
                            const char* what, bool cast);
/// A dict name -> read-only array viewing each tensor's bytes (no copy).
py::dict tensors_to_dict(const TensorMap& tensors);

py::object attr_to_py(const Attr& a);
/// Throws py::type_error naming `name` for a value of no attribute type.
Attr attr_from_py(py::handle h, const std::string& name);
py::dict attrs_to_py(const AttrMap& attrs);
AttrMap attrs_from_py(const py::handle& d);

/// The Graph nnbridge.load(path) returns: the C++ Graph records no file, so the binding keeps
/// `path` beside it (until the Graph is destroyed) for loaded_path().
std::shared_ptr<Graph> loaded_graph(Graph g, std::string path);
/// The file `g` was read from when nnbridge.load(path) returned it, else "" (a graph loaded from
/// bytes, built in Python, copied, or read from JSON text): what prepare() and Plan.run() put in
/// an error that names no file, as the CLI names the model.
std::string loaded_path(const Graph& g);

/// A view of one value of a graph (the graph stays alive while a view exists).
struct ValueRef {
  std::shared_ptr<Graph> graph;
  ValueId id = 0;
  Value& get() const;
};
/// How many times Graph.insert_node / remove_node shifted the node indices of `g` (0 when never):
/// a NodeRef taken before such an edit is out of date and refuses to be used.
uint64_t node_layout(const Graph& g);
/// Marks the node indices of `g` as shifted (after inserting or removing a node).
void node_layout_changed(const Graph& g);

/// A view of one node of a graph. get() throws Error(Invalid) when the node no longer exists or
/// when an insert/remove has shifted the indices since the view was taken.
struct NodeRef {
  NodeRef(std::shared_ptr<Graph> g, std::size_t i) : graph(std::move(g)), index(i), layout(node_layout(*graph)) {}
  std::shared_ptr<Graph> graph;
  std::size_t index = 0;
  uint64_t layout = 0;  ///< node_layout(*graph) when the view was taken
  Node& get() const;
};

/// A live, writable view of an attribute map (Node.attrs, Value.attrs, Graph.metadata): reads and
/// writes go to the graph (views.cc).
struct AttrsView {
  enum class Kind { Node, Value, Metadata };
  std::shared_ptr<Graph> graph;
  Kind kind = Kind::Metadata;
  std::size_t index = 0;  ///< node index or value id
  uint64_t layout = 0;    ///< for a node: node_layout() when the view was taken
  AttrMap& get() const;
  std::string where() const;  ///< "nodes[3].attrs", "values[2].attrs", "metadata"
};
AttrsView node_attrs_view(const NodeRef& r);
AttrsView value_attrs_view(const std::shared_ptr<Graph>& g, ValueId id);
AttrsView metadata_view(const std::shared_ptr<Graph>& g);

/// A read-only sequence (collections.abc.Sequence) over a snapshot `items`; every mutating method
/// raises TypeError with `hint` (how to make the change instead) (views.cc).
struct ListView {
  py::list items;
  std::string hint;
};
void bind_views(py::module_& m);  ///< AttrsView, ListView (before bind_graph)

/// A value id from a ValueRef (of the same graph), a name, an int, or None (kNoValue when
/// `allow_none`). Throws Error(Invalid) / py::type_error naming `what`.
ValueId value_id(const Graph& g, py::handle h, const std::string& what, bool allow_none = false);

/// Format-specific options from Python keyword arguments: a key with a dot is taken as is
/// ("armnn.layout"), one without is namespaced by `format` ("layout" -> "armnn.layout").
/// Values: str, bool (written "true"/"false"), int or float.
std::map<std::string, std::string, std::less<>> options_from_kwargs(const py::dict& kw, const std::string& format);

}  // namespace nnbridge::py_bind
