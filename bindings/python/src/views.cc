// Views that make the Python graph editing API do what it looks like or refuse:
// AttrsView, a live mapping over Node.attrs / Value.attrs / Graph.metadata whose writes go to the
// graph; ListView, a read-only sequence (Graph.nodes, Graph.values, inputs/outputs lists) whose
// mutating methods raise TypeError saying how to make the change; and the node-layout counter
// that makes a Node view taken before an insert_node/remove_node refuse to be used.
#include <unordered_map>

#include "common.h"

namespace nnbridge::py_bind {

namespace {

// Keyed by address: a Node view keeps its graph alive, so no view can see a reused address.
std::unordered_map<const Graph*, uint64_t>& layouts() {
  static std::unordered_map<const Graph*, uint64_t> m;
  return m;
}

std::string key_of(py::handle k, const AttrsView& v) {
  if (!py::isinstance<py::str>(k))
    throw py::type_error(v.where() + ": attribute names are str, not " + std::string(py::str(py::type::of(k))));
  return k.cast<std::string>();
}

[[noreturn]] void refuse(const ListView& l) { throw py::type_error(l.hint); }

py::list as_list(py::handle h) { return py::module_::import("builtins").attr("list")(h); }

}  // namespace

uint64_t node_layout(const Graph& g) {
  auto it = layouts().find(&g);
  return it == layouts().end() ? 0 : it->second;
}

void node_layout_changed(const Graph& g) { ++layouts()[&g]; }

AttrMap& AttrsView::get() const {
  switch (kind) {
    case Kind::Node: {
      NodeRef r(graph, index);
      r.layout = layout;
      return r.get().attrs;
    }
    case Kind::Value: return ValueRef{graph, static_cast<ValueId>(index)}.get().attrs;
    case Kind::Metadata: break;
  }
  return graph->metadata;
}

std::string AttrsView::where() const {
  switch (kind) {
    case Kind::Node: return "nodes[" + std::to_string(index) + "].attrs";
    case Kind::Value: return "values[" + std::to_string(index) + "].attrs";
    case Kind::Metadata: break;
  }
  return "metadata";
}

AttrsView node_attrs_view(const NodeRef& r) {
  r.get();  // refuses an out-of-date view now rather than at first use
  return AttrsView{r.graph, AttrsView::Kind::Node, r.index, r.layout};
}
AttrsView value_attrs_view(const std::shared_ptr<Graph>& g, ValueId id) {
  ValueRef{g, id}.get();
  return AttrsView{g, AttrsView::Kind::Value, id, 0};
}
AttrsView metadata_view(const std::shared_ptr<Graph>& g) { return AttrsView{g, AttrsView::Kind::Metadata, 0, 0}; }

void bind_views(py::module_& m) {
  py::class_<AttrsView> attrs(m, "AttrsView", R"doc(
A live view of a node's or value's attributes or of the graph metadata (a
collections.abc.MutableMapping of str -> attribute value): ``view[k] = v`` and ``del view[k]``
change the graph at once, and reads always show the graph's current attributes.

Values: int, float, bool, str, bytes, or a list of int, float, bool or str (an empty list is an
int list). Raises TypeError for a non-str key or a value of no attribute type (the graph is
left unchanged), KeyError for a missing key, InvalidError when the node it belongs to was
removed or shifted by Graph.insert_node / remove_node. ``copy()`` (or ``dict(view)``) gives a
plain dict snapshot.
)doc");
  attrs
      .def("__getitem__", [](const AttrsView& v, py::handle k) {
        const AttrMap& a = v.get();
        auto it = a.find(key_of(k, v));
        if (it == a.end()) throw py::key_error(py::repr(k).cast<std::string>());
        return attr_to_py(it->second);
      })
      .def("__setitem__", [](const AttrsView& v, py::handle k, py::handle value) {
        std::string key = key_of(k, v);
        Attr a = attr_from_py(value, key);  // before touching the graph: a bad value changes nothing
        v.get()[key] = std::move(a);
      })
      .def("__delitem__", [](const AttrsView& v, py::handle k) {
        AttrMap& a = v.get();
        auto it = a.find(key_of(k, v));
        if (it == a.end()) throw py::key_error(py::repr(k).cast<std::string>());
        a.erase(it);
      })
      .def("__len__", [](const AttrsView& v) { return v.get().size(); })
      .def("__contains__", [](const AttrsView& v, py::handle k) {
        return py::isinstance<py::str>(k) && v.get().count(k.cast<std::string>()) > 0;
      })
      .def("__iter__", [](const AttrsView& v) { return py::iter(attrs_to_py(v.get()).attr("keys")()); })
      .def("keys", [](const AttrsView& v) { return attrs_to_py(v.get()).attr("keys")(); },
           "A snapshot of the names (dict_keys of a copy).")
      .def("values", [](const AttrsView& v) { return attrs_to_py(v.get()).attr("values")(); }, "A snapshot of the values.")
      .def("items", [](const AttrsView& v) { return attrs_to_py(v.get()).attr("items")(); }, "A snapshot of (name, value) pairs.")
      .def("get", [](const AttrsView& v, py::handle k, py::object dflt) -> py::object {
        if (!py::isinstance<py::str>(k)) return dflt;
        const AttrMap& a = v.get();
        auto it = a.find(k.cast<std::string>());
        return it == a.end() ? dflt : attr_to_py(it->second);
      }, py::arg("key"), py::arg("default") = py::none())
      .def("pop", [](const AttrsView& v, py::handle k, py::args dflt) -> py::object {
        if (dflt.size() > 1) throw py::type_error("pop expected at most 2 arguments");
        AttrMap& a = v.get();
        auto it = a.find(key_of(k, v));
        if (it == a.end()) {
          if (dflt.size() == 1) return dflt[0];
          throw py::key_error(py::repr(k).cast<std::string>());
        }
        py::object out = attr_to_py(it->second);
        a.erase(it);
        return out;
      }, py::arg("key"))
      .def("setdefault", [](const AttrsView& v, py::handle k, py::handle dflt) -> py::object {
        std::string key = key_of(k, v);
        AttrMap& a = v.get();
        if (auto it = a.find(key); it != a.end()) return attr_to_py(it->second);
        Attr value = attr_from_py(dflt, key);
        a[key] = value;
        return attr_to_py(value);
      }, py::arg("key"), py::arg("default"))
      .def("update", [](const AttrsView& v, py::handle other, py::kwargs kw) {
        // Every value is converted before any is written: a bad one leaves the graph unchanged.
        AttrMap add = other.is_none() ? AttrMap{} : attrs_from_py(other);
        for (auto& [k, a] : attrs_from_py(kw)) add[k] = std::move(a);
        AttrMap& a = v.get();
        for (auto& [k, x] : add) a[k] = std::move(x);
      }, py::arg("other") = py::none())
      .def("clear", [](const AttrsView& v) { v.get().clear(); })
      .def("copy", [](const AttrsView& v) { return attrs_to_py(v.get()); }, "A plain dict snapshot.")
      .def("__eq__", [](const AttrsView& v, py::object other) -> py::object {
        if (py::isinstance<AttrsView>(other)) other = attrs_to_py(other.cast<const AttrsView&>().get());
        return py::bool_(attrs_to_py(v.get()).equal(other));
      })
      .def("__repr__", [](const AttrsView& v) { return std::string(py::repr(attrs_to_py(v.get()))); });
  attrs.attr("__hash__") = py::none();
  py::module_::import("collections.abc").attr("MutableMapping").attr("register")(attrs);

  py::class_<ListView> list(m, "ListView", R"doc(
A read-only sequence (collections.abc.Sequence) taken from the graph when the attribute was read:
Graph.nodes, Graph.values, Graph.inputs / outputs, Node.inputs / outputs. Indexing, slicing
(gives a list), iteration, ``len``, ``in``, ``index``, ``count``, ``==`` with a list or tuple
and ``+`` (gives a list) work; item assignment, ``del``, ``append``, ``insert``, ``reverse``,
``sort`` and the other list mutators raise TypeError naming what changes the graph instead
(e.g. ``g.outputs = [...]``, Graph.insert_node / remove_node).
)doc");
  list.def("__len__", [](const ListView& l) { return l.items.size(); })
      .def("__getitem__", [](const ListView& l, py::handle i) { return l.items.attr("__getitem__")(i); })
      .def("__iter__", [](const ListView& l) { return py::iter(l.items); })
      .def("__reversed__", [](const ListView& l) { return l.items.attr("__reversed__")(); })
      .def("__contains__", [](const ListView& l, py::handle x) { return l.items.contains(x); })
      .def("index", [](const ListView& l, py::handle x) { return l.items.attr("index")(x); }, py::arg("value"))
      .def("count", [](const ListView& l, py::handle x) { return l.items.attr("count")(x); }, py::arg("value"))
      .def("__eq__", [](const ListView& l, py::handle other) -> py::object {
        if (py::isinstance<ListView>(other)) return py::bool_(l.items.equal(other.cast<const ListView&>().items));
        if (py::isinstance<py::list>(other) || py::isinstance<py::tuple>(other)) return py::bool_(l.items.equal(as_list(other)));
        return py::reinterpret_borrow<py::object>(Py_NotImplemented);
      })
      .def("__add__", [](const ListView& l, py::handle other) { return l.items + as_list(other); })
      .def("__radd__", [](const ListView& l, py::handle other) { return as_list(other) + l.items; })
      .def("__repr__", [](const ListView& l) { return std::string(py::repr(l.items)); })
      .def("__setitem__", [](const ListView& l, py::args) { refuse(l); })
      .def("__delitem__", [](const ListView& l, py::args) { refuse(l); });
  for (const char* name : {"append", "extend", "insert", "remove", "pop", "reverse", "sort", "clear"})
    list.def(name, [](const ListView& l, py::args, py::kwargs) { refuse(l); });
  list.attr("__hash__") = py::none();
  py::module_::import("collections.abc").attr("Sequence").attr("register")(list);
}

}  // namespace nnbridge::py_bind
