// The graph IR (nnbridge/graph.h) as Python objects: Graph owns the C++ graph; Value and Node
// are views (graph + index) that read and write it in place; TensorType and Quantization are
// plain values. Constants come out as read-only NumPy arrays viewing the graph's Buffer.
#include <sstream>

#include "common.h"
#include "nnbridge/check.h"
#include "nnbridge/json.h"
#include "nnbridge/order.h"

namespace nnbridge::py_bind {

Value& ValueRef::get() const {
  if (id >= graph->values.size())
    throw Error(ErrorId::DanglingReference, "value " + std::to_string(id) + " no longer exists (the graph has " +
                                        std::to_string(graph->values.size()) + " values)");
  return graph->values[id];
}

Node& NodeRef::get() const {
  if (layout != node_layout(*graph))
    throw Error(ErrorId::DanglingReference, "this view of nodes[" + std::to_string(index) +
                                        "] is out of date: Graph.insert_node / remove_node has shifted the node indices since it "
                                        "was taken; take the node again from Graph.nodes");
  if (index >= graph->nodes.size())
    throw Error(ErrorId::DanglingReference, "node " + std::to_string(index) + " no longer exists (the graph has " +
                                        std::to_string(graph->nodes.size()) + " nodes)");
  return graph->nodes[index];
}

namespace {

std::string shape_str(const TensorType& t) {
  if (t.unknown_rank) return "[?]";
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) o << (i ? ", " : "") << t.shape[i];
  o << "]";
  return o.str();
}

DataType dtype_from_py(py::handle h) {
  std::string name;
  if (py::isinstance<py::str>(h)) {
    name = h.cast<std::string>();
  } else {
    // A NumPy dtype or scalar type: its name ("float32", "bool").
    name = py::str(py::module_::import("numpy").attr("dtype")(h).attr("name"));
  }
  if (auto t = parse_data_type(name)) return *t;
  throw Error(ErrorId::OptionValue, "\"" + name + "\" is not a dtype (float32, float16, bfloat16, float64, int8, int16, int32, int64, "
                                                "uint8, bool, qasymmu8, qasymms8, qsymms8, qsymms16)");
}

std::vector<int64_t> shape_from_py(py::handle h) {
  std::vector<int64_t> s;
  for (auto d : py::iter(h)) s.push_back(d.is_none() ? -1 : d.cast<int64_t>());
  return s;
}

py::tuple shape_to_py(const std::vector<int64_t>& s) {
  py::tuple t(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) t[i] = py::int_(s[i]);
  return t;
}

ListView value_list(const std::shared_ptr<Graph>& g, const std::vector<ValueId>& ids, std::string hint) {
  py::list l;
  for (ValueId id : ids) {
    if (id == kNoValue) l.append(py::none());
    else l.append(ValueRef{g, id});
  }
  return ListView{std::move(l), std::move(hint)};
}

std::string assign_hint(const std::string& cls, const std::string& var, const std::string& field) {
  return cls + "." + field + " is a read-only snapshot: assign a whole new list to change it (" + var + "." + field +
         " = [...], of Values, names or ids)";
}

std::vector<ValueId> ids_from_py(const Graph& g, py::handle seq, const std::string& what, bool allow_none) {
  std::vector<ValueId> ids;
  std::size_t i = 0;
  for (auto item : py::iter(seq)) ids.push_back(value_id(g, item, what + "[" + std::to_string(i++) + "]", allow_none));
  return ids;
}

// A node index from a Node view of `g` or an int (negative: from the end, as Python lists).
std::size_t node_index(const std::shared_ptr<Graph>& g, py::handle h, const std::string& what) {
  if (py::isinstance<NodeRef>(h)) {
    const NodeRef& r = h.cast<const NodeRef&>();
    if (r.graph != g) throw Error(ErrorId::DanglingReference, what + ": the node belongs to another graph");
    r.get();  // refuses an out-of-date view
    return r.index;
  }
  if (py::isinstance<py::int_>(h) && !py::isinstance<py::bool_>(h)) {
    int64_t i = h.cast<int64_t>(), n = static_cast<int64_t>(g->nodes.size());
    if (i < -n || i >= n)
      throw py::index_error(what + ": node index " + std::to_string(i) + " out of range (" + std::to_string(n) + " nodes)");
    return static_cast<std::size_t>(i < 0 ? i + n : i);
  }
  throw py::type_error(what + ": a Node or a node index (int), not " + std::string(py::str(py::type::of(h))));
}

// A Node from Python arguments, as add_node / insert_node take them; `where` names it in errors.
Node node_from_py(const Graph& g, std::string op, py::handle inputs, py::handle outputs, std::string name, py::handle attrs,
                  const std::string& where) {
  Node n;
  n.op = std::move(op);
  n.name = std::move(name);
  n.inputs = ids_from_py(g, inputs, where + ".inputs", true);
  n.outputs = ids_from_py(g, outputs, where + ".outputs", false);
  n.attrs = attrs_from_py(attrs);
  return n;
}

}  // namespace

ValueId value_id(const Graph& g, py::handle h, const std::string& what, bool allow_none) {
  if (h.is_none()) {
    if (allow_none) return kNoValue;
    throw Error(ErrorId::OptionValue, what + ": None is only allowed for an absent optional node input");
  }
  if (py::isinstance<ValueRef>(h)) {
    const ValueRef& r = h.cast<const ValueRef&>();
    if (r.graph.get() != &g) throw Error(ErrorId::DanglingReference, what + ": the value belongs to another graph");
    return r.id;
  }
  if (py::isinstance<py::str>(h)) {
    std::string name = h.cast<std::string>();
    if (auto id = g.find_value(name)) return *id;
    throw Error(ErrorId::DanglingReference, what + ": no value named \"" + name + "\"");
  }
  if (py::isinstance<py::int_>(h)) {
    int64_t id = h.cast<int64_t>();
    if (id < 0 || static_cast<std::size_t>(id) >= g.values.size())
      throw Error(ErrorId::DanglingReference, what + ": value id " + std::to_string(id) + " out of range (" + std::to_string(g.values.size()) +
                                          " values)");
    return static_cast<ValueId>(id);
  }
  throw py::type_error(what + ": a Value, a value name or a value id, not " + std::string(py::str(py::type::of(h))));
}

void bind_graph(py::module_& m) {
  py::class_<Quantization>(m, "Quantization", R"doc(
Quantization parameters: real = scale * (q - zero_point) (Arm NN / TFLite affine quantization).

Per-tensor when ``scales`` has one element and ``axis`` is None; per-axis (Arm NN
``quantizationScales`` + ``quantizationDim``) when ``axis`` is set, one scale per slice.
)doc")
      .def(py::init([](std::vector<double> scales, std::vector<int64_t> zero_points, std::optional<int64_t> axis) {
             return Quantization{std::move(scales), std::move(zero_points), axis};
           }),
           py::arg("scales"), py::arg("zero_points") = std::vector<int64_t>{}, py::arg("axis") = py::none())
      .def_readwrite("scales", &Quantization::scales, "list[float]: one scale, or one per slice along ``axis``.")
      .def_readwrite("zero_points", &Quantization::zero_points, "list[int]: empty, one, or one per scale.")
      .def_readwrite("axis", &Quantization::axis, "int | None: the per-axis dimension, None for per-tensor.")
      .def("__eq__", [](const Quantization& a, const Quantization& b) { return a == b; })
      .def("__repr__", [](const Quantization& q) {
        return "Quantization(scales=" + std::string(py::repr(py::cast(q.scales))) + ", zero_points=" +
               std::string(py::repr(py::cast(q.zero_points))) + ", axis=" + (q.axis ? std::to_string(*q.axis) : "None") + ")";
      });

  py::class_<TensorType>(m, "TensorType", R"doc(
Element type, shape and quantization of a tensor (nnbridge::TensorType).

``dtype`` is the SDK's name ("float32", "float16", "bfloat16", "float64", "int8", "int16",
"int32", "int64", "uint8", "bool", "qasymmu8", "qasymms8", "qsymms8", "qsymms16"); ``shape`` a
tuple of ints, outermost first, -1 for an unknown dimension; ``numpy_dtype`` the NumPy dtype that
stores the elements (quantized types: their storage integers; bfloat16: uint16).
)doc")
      .def(py::init([](py::handle dtype, py::handle shape, std::optional<Quantization> q, bool unknown_rank) {
             TensorType t;
             t.dtype = dtype_from_py(dtype);
             if (!shape.is_none()) t.shape = shape_from_py(shape);
             t.quantization = std::move(q);
             t.unknown_rank = unknown_rank;
             return t;
           }),
           py::arg("dtype") = "float32", py::arg("shape") = py::tuple(), py::arg("quantization") = py::none(),
           py::arg("unknown_rank") = false)
      .def_property("dtype", [](const TensorType& t) { return std::string(to_string(t.dtype)); },
                    [](TensorType& t, py::handle d) { t.dtype = dtype_from_py(d); }, "str: the element type's name.")
      .def_property("shape", [](const TensorType& t) { return shape_to_py(t.shape); },
                    [](TensorType& t, py::handle s) { t.shape = shape_from_py(s); }, "tuple[int, ...]: dimensions, -1 unknown.")
      .def_readwrite("unknown_rank", &TensorType::unknown_rank, "bool: even the rank is unknown (shape is then empty).")
      .def_readwrite("quantization", &TensorType::quantization, "Quantization | None.")
      .def_property_readonly("numpy_dtype", [](const TensorType& t) { return numpy_dtype(t.dtype); },
                             "numpy.dtype storing the elements. Raises UnsupportedError for an undefined dtype.")
      .def_property_readonly("element_count", &TensorType::element_count, "int | None: None when a dimension is unknown.")
      .def_property_readonly("byte_size", &TensorType::byte_size, "int | None: element_count times the element size.")
      .def("__eq__", [](const TensorType& a, const TensorType& b) { return a == b; })
      .def("__repr__", [](const TensorType& t) {
        return "TensorType('" + std::string(to_string(t.dtype)) + "', " + shape_str(t) + (t.quantization ? ", quantized" : "") + ")";
      });

  py::class_<ValueRef>(m, "Value", R"doc(
A view of one value (tensor) of a Graph: graph input, intermediate, output or constant.

Reads and writes the graph in place; keeps the graph alive. ``constant`` is a read-only NumPy
array of ``type.numpy_dtype`` and ``type.shape`` that shares memory with the graph (its
``.base`` is the nnbridge.Buffer holding the bytes; a memory-mapped model stays mapped while it
lives), or None for a non-constant value.
)doc")
      .def_property_readonly("id", [](const ValueRef& r) { return r.id; }, "int: the index in Graph.values.")
      .def_property_readonly("graph", [](const ValueRef& r) { return r.graph; })
      .def_property("name", [](const ValueRef& r) { return r.get().name; },
                    [](const ValueRef& r, std::string n) { r.get().name = std::move(n); }, "str: unique within the graph.")
      .def_property("type", [](const ValueRef& r) { return r.get().type; },
                    [](const ValueRef& r, TensorType t) { r.get().type = std::move(t); }, "TensorType (a copy; assign to change).")
      .def_property_readonly("dtype", [](const ValueRef& r) { return std::string(to_string(r.get().type.dtype)); }, "str: type.dtype.")
      .def_property_readonly("shape", [](const ValueRef& r) { return shape_to_py(r.get().type.shape); }, "tuple[int, ...]: type.shape.")
      .def_property_readonly("quantization", [](const ValueRef& r) { return r.get().type.quantization; }, "Quantization | None.")
      .def_property_readonly("is_constant", [](const ValueRef& r) { return r.get().is_constant(); })
      .def_property_readonly("constant", [](const ValueRef& r) -> py::object {
        const Value& v = r.get();
        if (!v.constant) return py::none();
        return array_view(*v.constant, v.type.dtype, v.type.shape, "values[" + std::to_string(r.id) + "] (\"" + v.name + "\")");
      }, "numpy.ndarray | None: the constant's data, read-only, no copy. Raises InvalidError when its size disagrees with the type.")
      .def_property_readonly("buffer", [](const ValueRef& r) -> py::object {
        const Value& v = r.get();
        return v.constant ? py::cast(*v.constant) : py::none();
      }, "Buffer | None: the constant's raw bytes (little-endian, C order).")
      .def_property("attrs", [](const ValueRef& r) { return value_attrs_view(r.graph, r.id); },
                    [](const ValueRef& r, py::handle d) { r.get().attrs = attrs_from_py(d); },
                    "AttrsView: format-specific fields, a live mapping (``v.attrs[k] = x`` writes to the graph); "
                    "assigning a mapping replaces them all.")
      .def("__eq__", [](const ValueRef& a, const ValueRef& b) { return a.graph == b.graph && a.id == b.id; })
      .def("__hash__", [](const ValueRef& r) { return std::hash<const void*>()(r.graph.get()) ^ r.id; })
      .def("__repr__", [](const ValueRef& r) {
        const Value& v = r.get();
        return "<nnbridge.Value " + std::to_string(r.id) + " '" + v.name + "' " + std::string(to_string(v.type.dtype)) + " " +
               shape_str(v.type) + (v.is_constant() ? " constant" : "") + ">";
      });

  py::class_<NodeRef>(m, "Node", R"doc(
A view of one node of a Graph: ``op`` (canonical ONNX name, or a format-native op such as
``armnn.StandIn``), ``name``, ``inputs`` (Values; None for an absent optional input),
``outputs`` and ``attrs`` (Python ints, floats, bools, strs, bytes and lists of them).

Reads and writes the graph in place (``attrs`` is a live AttrsView; ``inputs`` / ``outputs``
are read-only ListViews: assign whole lists). A view names its node by index: once
Graph.insert_node / remove_node shift the indices, a view taken before raises InvalidError
("out of date") when used.
)doc")
      .def_property_readonly("index", [](const NodeRef& r) {
                               r.get();  // refuses an out-of-date view
                               return r.index;
                             },
                             "int: the index in Graph.nodes. Raises InvalidError when the view is out of date (insert_node / "
                             "remove_node shifted the indices since it was taken).")
      .def_property_readonly("graph", [](const NodeRef& r) { return r.graph; })
      .def_property("op", [](const NodeRef& r) { return r.get().op; }, [](const NodeRef& r, std::string s) { r.get().op = std::move(s); })
      .def_property("name", [](const NodeRef& r) { return r.get().name; }, [](const NodeRef& r, std::string s) { r.get().name = std::move(s); })
      .def_property("inputs", [](const NodeRef& r) { return value_list(r.graph, r.get().inputs, assign_hint("Node", "node", "inputs")); },
                    [](const NodeRef& r, py::handle seq) {
                      r.get().inputs = ids_from_py(*r.graph, seq, "nodes[" + std::to_string(r.index) + "].inputs", true);
                    }, "ListView[Value | None]: read-only; assign a whole list to rewire.")
      .def_property("outputs", [](const NodeRef& r) { return value_list(r.graph, r.get().outputs, assign_hint("Node", "node", "outputs")); },
                    [](const NodeRef& r, py::handle seq) {
                      r.get().outputs = ids_from_py(*r.graph, seq, "nodes[" + std::to_string(r.index) + "].outputs", false);
                    }, "ListView[Value]: read-only; assign a whole list to change.")
      .def_property("attrs", [](const NodeRef& r) { return node_attrs_view(r); },
                    [](const NodeRef& r, py::handle d) {
                      AttrMap a = attrs_from_py(d);
                      r.get().attrs = std::move(a);
                    },
                    "AttrsView: a live mapping (``node.attrs[k] = x`` and ``del node.attrs[k]`` write to the graph); "
                    "assigning a mapping replaces them all.")
      .def("__eq__", [](const NodeRef& a, const NodeRef& b) { return a.graph == b.graph && a.index == b.index && a.layout == b.layout; })
      .def("__hash__", [](const NodeRef& r) { return std::hash<const void*>()(r.graph.get()) ^ r.index; })
      .def("__repr__", [](const NodeRef& r) {
        if (r.layout != node_layout(*r.graph) || r.index >= r.graph->nodes.size())
          return "<nnbridge.Node " + std::to_string(r.index) + " (out of date)>";
        const Node& n = r.get();
        return "<nnbridge.Node " + std::to_string(r.index) + " " + n.op + (n.name.empty() ? "" : " '" + n.name + "'") + ">";
      });

  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph", R"doc(
A format-neutral graph (nnbridge::Graph): values, nodes (in the source file's order, which need
not be topological: the graph is valid when its data flow is acyclic), graph inputs and outputs,
metadata and the name of the format it was read from.

Build one from scratch with add_value() / add_node() and by assigning ``inputs`` / ``outputs``;
check it with nnbridge.check(); save it with nnbridge.save().
)doc")
      .def(py::init([] { return std::make_shared<Graph>(); }))
      .def_property("values", [](const std::shared_ptr<Graph>& g) {
        py::list l;
        for (ValueId i = 0; i < g->values.size(); ++i) l.append(ValueRef{g, i});
        return ListView{std::move(l), "Graph.values is a read-only snapshot: add a value with Graph.add_value (values "
                                      "are never removed or reordered: a value's id is its index)"};
      }, [](const std::shared_ptr<Graph>&, py::handle) {
        throw py::attribute_error("Graph.values cannot be assigned: add a value with Graph.add_value");
      }, "ListView[Value]: every value, by id (read-only; Graph.add_value appends).")
      .def_property("nodes", [](const std::shared_ptr<Graph>& g) {
        py::list l;
        for (std::size_t i = 0; i < g->nodes.size(); ++i) l.append(NodeRef{g, i});
        return ListView{std::move(l), "Graph.nodes is a read-only snapshot: change it with Graph.add_node, insert_node "
                                      "and remove_node (the stored order does not change what the graph computes)"};
      }, [](const std::shared_ptr<Graph>&, py::handle) {
        throw py::attribute_error("Graph.nodes cannot be assigned (nor reordered): change it with Graph.add_node, insert_node "
                                  "and remove_node");
      }, "ListView[Node]: in the source's order (not necessarily topological; see topological_order()). Read-only: "
         "item assignment, del, append, reverse, sort... raise TypeError, assigning the attribute AttributeError.")
      .def_property("inputs", [](const std::shared_ptr<Graph>& g) { return value_list(g, g->inputs, assign_hint("Graph", "g", "inputs")); },
                    [](const std::shared_ptr<Graph>& g, py::handle seq) { g->inputs = ids_from_py(*g, seq, "inputs", false); },
                    "ListView[Value]: the graph inputs (read-only); assign a list of Values, names or ids.")
      .def_property("outputs", [](const std::shared_ptr<Graph>& g) { return value_list(g, g->outputs, assign_hint("Graph", "g", "outputs")); },
                    [](const std::shared_ptr<Graph>& g, py::handle seq) { g->outputs = ids_from_py(*g, seq, "outputs", false); },
                    "ListView[Value]: the graph outputs, in the source format's order (read-only); assign a list of "
                    "Values, names or ids.")
      .def_property("metadata", [](const std::shared_ptr<Graph>& g) { return metadata_view(g); },
                    [](Graph& g, py::handle d) { g.metadata = attrs_from_py(d); },
                    "AttrsView: graph-level fields, a live mapping (``g.metadata[k] = x`` writes to the graph); assigning a "
                    "mapping replaces them all.")
      .def_readwrite("source_format", &Graph::source_format, "str: the format it was read from (\"armnn\", ...), or empty.")
      .def("value", [](const std::shared_ptr<Graph>& g, std::string_view name) {
        auto id = g->find_value(name);
        if (!id) throw py::key_error("no value named \"" + std::string(name) + "\"");
        return ValueRef{g, *id};
      }, py::arg("name"), "The value named ``name``. Raises KeyError when there is none.")
      .def("find_value", [](const std::shared_ptr<Graph>& g, std::string_view name) -> py::object {
        auto id = g->find_value(name);
        return id ? py::cast(ValueRef{g, *id}) : py::none();
      }, py::arg("name"), "The value named ``name``, or None.")
      .def("add_value", [](const std::shared_ptr<Graph>& g, std::string name, py::handle dtype, py::handle shape, py::handle constant,
                           std::optional<Quantization> quantization, py::handle attrs) {
        if (g->find_value(name)) throw Error(ErrorId::DuplicateName, "values: a value named \"" + name + "\" exists already");
        Value v;
        v.name = std::move(name);
        v.type.dtype = dtype_from_py(dtype);
        v.type.quantization = std::move(quantization);
        const std::string what = "constant of value \"" + v.name + "\"";
        if (!constant.is_none()) {
          py::array a = as_storage_array(constant, v.type.dtype, what, /*cast=*/true);
          if (shape.is_none()) v.type.shape.assign(a.shape(), a.shape() + a.ndim());
          else v.type.shape = shape_from_py(shape);
          HostTensor t = tensor_view(a, v.type, what);  // checks the shape
          v.constant = Buffer::copy_of(t.bytes());
        } else if (!shape.is_none()) {
          v.type.shape = shape_from_py(shape);
        }
        v.attrs = attrs_from_py(attrs);
        return ValueRef{g, g->add_value(std::move(v))};
      }, py::arg("name"), py::arg("dtype") = "float32", py::arg("shape") = py::none(), py::kw_only(), py::arg("constant") = py::none(),
         py::arg("quantization") = py::none(), py::arg("attrs") = py::none(), R"doc(
Appends a value and returns it.

``dtype``: a dtype name or a NumPy dtype; ``shape``: ints (-1 or None: unknown), default () or
the constant's shape; ``constant``: array-like, converted to the dtype's storage type and
copied into the graph (the graph never aliases a caller's mutable array). Raises InvalidError
for a duplicate name, an unknown dtype or a constant whose shape does not fit ``shape``.
)doc")
      .def("add_node", [](const std::shared_ptr<Graph>& g, std::string op, py::handle inputs, py::handle outputs, std::string name,
                          py::handle attrs) {
        const std::string where = "nodes[" + std::to_string(g->nodes.size()) + "]";
        return NodeRef{g, g->add_node(node_from_py(*g, std::move(op), inputs, outputs, std::move(name), attrs, where))};
      }, py::arg("op"), py::arg("inputs"), py::arg("outputs"), py::arg("name") = "", py::arg("attrs") = py::none(), R"doc(
Appends a node and returns it (in any order: backends and writers order the nodes themselves).

``inputs``/``outputs``: Values, value names or ids (None in ``inputs`` for an absent optional
input); ``attrs``: dict of Python values (int, float, bool, str, bytes, lists of them; an empty
list is an int list). The op's schema is checked by nnbridge.check(), not here. Raises
InvalidError naming the input/output that names no value, TypeError for an attribute of no
attribute type.
)doc")
      .def("insert_node", [](const std::shared_ptr<Graph>& g, int64_t index, std::string op, py::handle inputs, py::handle outputs,
                             std::string name, py::handle attrs) {
        const int64_t n = static_cast<int64_t>(g->nodes.size());
        if (index < -n || index > n)
          throw py::index_error("insert_node: index " + std::to_string(index) + " out of range (" + std::to_string(n) +
                                " nodes: -" + std::to_string(n) + ".." + std::to_string(n) + ")");
        const std::size_t at = static_cast<std::size_t>(index < 0 ? index + n : index);
        Node node = node_from_py(*g, std::move(op), inputs, outputs, std::move(name), attrs, "nodes[" + std::to_string(at) + "]");
        g->nodes.insert(g->nodes.begin() + static_cast<std::ptrdiff_t>(at), std::move(node));
        if (at + 1 < g->nodes.size()) node_layout_changed(*g);  // the nodes after it moved
        return NodeRef{g, at};
      }, py::arg("index"), py::arg("op"), py::arg("inputs"), py::arg("outputs"), py::arg("name") = "", py::arg("attrs") = py::none(),
         R"doc(
Inserts a node before position ``index`` of Graph.nodes (0..len(nodes); negative: from the end,
as list.insert) and returns it. Arguments as add_node(). The stored order does not change what
the graph computes (backends and writers order nodes by data flow), only the order writers keep.

When nodes after it move, every Node view taken before (from Graph.nodes, add_node...) is out of
date and raises InvalidError when used: take the nodes again from Graph.nodes. Raises IndexError
for an index out of range, InvalidError for an input/output that names no value, TypeError for
an attribute of no attribute type (the graph is then unchanged).
)doc")
      .def("remove_node", [](const std::shared_ptr<Graph>& g, py::handle node) {
        const std::size_t at = node_index(g, node, "remove_node");
        g->nodes.erase(g->nodes.begin() + static_cast<std::ptrdiff_t>(at));
        node_layout_changed(*g);
      }, py::arg("node"), R"doc(
Removes a node, given as a Node of this graph or its index in Graph.nodes (negative: from the end).

Only the node goes: the values it produced stay in Graph.values (ids never change) with no
producer, so nnbridge.check() reports any node input or graph output that still uses one until
it is rewired (node.inputs = [...], g.outputs = [...]) or given data (set_constant). Every Node
view taken before is then out of date and raises InvalidError when used. Raises IndexError for an
index out of range, InvalidError for a node of another graph or an out-of-date view, TypeError
for anything else.
)doc")
      .def("set_constant", [](const std::shared_ptr<Graph>& g, py::handle value, py::handle data, bool cast) {
        const ValueId id = value_id(*g, value, "set_constant");
        Value& v = g->values[id];
        const std::string what = "set_constant: value \"" + v.name + "\"";
        for (ValueId in : g->inputs)
          if (in == id)
            throw Error(ErrorId::OptionValue, what + " is a graph input (a constant is not fed by the caller): remove it from "
                                                   "Graph.inputs first");
        const std::size_t producer = g->producers()[id];
        if (producer != SIZE_MAX)
          throw Error(ErrorId::OptionValue, what + " is produced by nodes[" + std::to_string(producer) + "] (" + g->nodes[producer].op +
                                              "): a constant has no producer; remove or rewire that node first");
        if (v.type.dtype == DataType::Undefined)
          throw Error(ErrorId::TypeMismatch, what + " has no dtype: assign value.type first");
        py::array a = as_storage_array(data, v.type.dtype, what, cast);  // may run Python code: `v` is looked up again below
        HostTensor t = tensor_view(a, g->values[id].type, what);  // checks the shape against the value's (-1: any size)
        Value& target = g->values[id];
        target.type.shape = t.shape();
        target.type.unknown_rank = false;
        target.constant = Buffer::copy_of(t.bytes());
        return ValueRef{g, id};
      }, py::arg("value"), py::arg("data"), py::kw_only(), py::arg("cast") = false, R"doc(
Makes ``value`` (a Value, name or id) a constant holding a copy of ``data`` and returns it.

The value keeps its type: ``data`` must have its shape (a -1 dimension, or an unknown rank,
takes the array's size, which becomes the value's shape) and, unless ``cast`` is True, its
storage dtype (TensorType.numpy_dtype: quantized types as their integers, bfloat16 as uint16);
with ``cast`` any dtype is converted (numpy astype, unsafe casting). To change the dtype or
shape, assign ``value.type`` first. Arrays read from ``value.constant`` before keep the old data.
Raises InvalidError naming the value for a graph input, a value some node produces, an undefined
dtype, a dtype or shape that does not fit (the graph is then unchanged).
)doc")
      .def("to_json", [](const Graph& g, int indent) {
        JsonWriteOptions o;
        o.indent = indent;
        return to_json(g, o);
      }, py::arg("indent") = 2, "The IR's JSON form (nnbridge/json.h), every constant inline. Raises UnsupportedError for non-UTF-8 strings.")
      .def_static("from_json", [](std::string_view text) { return std::make_shared<Graph>(from_json(text)); }, py::arg("text"),
                  "Parses the JSON form. Raises MalformedError naming the JSON path.")
      .def("copy", [](const Graph& g) { return std::make_shared<Graph>(g); },
           "A copy: values, nodes and attributes are copied; constant bytes are shared (they are immutable).")
      .def("__copy__", [](const Graph& g) { return std::make_shared<Graph>(g); })
      .def("__deepcopy__", [](const Graph& g, py::dict) { return std::make_shared<Graph>(g); }, py::arg("memo"))
      .def("__repr__", [](const Graph& g) {
        auto names = [&](const std::vector<ValueId>& ids) {
          std::string s;
          for (ValueId id : ids) s += (s.empty() ? "" : ", ") + (id < g.values.size() ? g.values[id].name : "?");
          return s;
        };
        return "<nnbridge.Graph" + (g.source_format.empty() ? "" : " " + g.source_format) + ": " + std::to_string(g.values.size()) +
               " values, " + std::to_string(g.nodes.size()) + " nodes, inputs [" + names(g.inputs) + "], outputs [" + names(g.outputs) +
               "]>";
      });

  py::class_<Issue>(m, "Issue", "One finding of nnbridge.check() or Settings.check(): severity, where (a field path), message, id.")
      .def_property_readonly("severity", [](const Issue& i) { return i.severity == Issue::Severity::Error ? "error" : "warning"; },
                             "str: \"error\" or \"warning\".")
      .def_readonly("where", &Issue::where, "str: the place, e.g. \"nodes[3].inputs[1]\".")
      .def_readonly("message", &Issue::message)
      .def_property_readonly("id", [](const Issue& i) { return to_string(i.id); },
                             "str: the finding's stable identifier (docs/errors.md), e.g. \"nnbridge.invalid.402\" for an\n"
                             "Add with three inputs, as `nnbridge check` prints it and as Error.id gives it when\n"
                             "prepare refuses the graph; \"nnbridge.invalid.400\" for warnings and findings no\n"
                             "specific identifier describes.")
      .def("__str__", [](const Issue& i) {
        return std::string(i.severity == Issue::Severity::Error ? "error" : "warning") + ": " + (i.where.empty() ? "" : i.where + ": ") +
               i.message;
      })
      .def("__repr__", [](const Issue& i) {
        return "<nnbridge.Issue " + std::string(i.severity == Issue::Severity::Error ? "error" : "warning") + " " + to_string(i.id) + " " +
               i.where + ": " + i.message + ">";
      });

  m.def("check", [](const Graph& g) { return check(g); }, py::arg("graph"), R"doc(
The checker's findings for ``graph`` (nnbridge::check): dangling ids, arity outside the op
schema, bad attributes, constants whose size disagrees with their type, declared output types
that disagree with shape inference, and the format's own rules for its native ops.
Never raises; returns list[Issue] (empty when the graph is clean).
)doc");
  m.def("topological_order", [](const Graph& g) { return topological_order(g); }, py::arg("graph"), R"doc(
The node indices of ``graph`` in a stable topological order (nnbridge::topological_order):
producers before consumers, and among nodes ready at once the one stored first (a graph stored
in topological order gives 0, 1, 2, ...). Raises InvalidError naming a node on a cycle
(``where``: ``nodes[i]``).
)doc");
}

}  // namespace nnbridge::py_bind
