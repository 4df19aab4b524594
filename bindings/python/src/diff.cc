// nnbridge.diff (nnbridge/diff.h): the semantic diff of two graphs or graph files.
#include "common.h"
#include "nnbridge/diff.h"
#include "nnbridge/io.h"

namespace nnbridge::py_bind {

namespace {

// A GraphDiff with the labels its text and JSON forms name the two graphs by.
struct DiffResult {
  GraphDiff d;
  std::string a_label, b_label;
  std::string a_file_format, b_file_format;  // of a graph given as a path, else empty
};

// A Graph, or a path (str / os.PathLike) loaded as `nnbridge.load` does without options.
std::shared_ptr<Graph> graph_of(py::handle h, std::string& label, std::string& file_format, const char* side) {
  if (py::isinstance<Graph>(h)) {
    label = side;
    return h.cast<std::shared_ptr<Graph>>();
  }
  if (!py::isinstance<py::str>(h) && !py::hasattr(h, "__fspath__"))
    throw py::type_error(std::string("diff(): ") + side + " must be a Graph or a path (str or os.PathLike)");
  std::filesystem::path path = py::module_::import("os").attr("fspath")(h).cast<std::filesystem::path>();
  label = path.string();
  py::gil_scoped_release nogil;
  auto g = std::make_shared<Graph>(load(path));
  file_format = detect_format(path);  // load() found the format the same way
  return g;
}

py::object optional_index(const std::optional<std::size_t>& i) { return i ? py::cast(*i) : py::none(); }

}  // namespace

void bind_diff(py::module_& m) {
  py::class_<Difference>(m, "Difference", R"doc(
One difference found by nnbridge.diff(). Strings as in the JSON form (docs/api.md "Semantic diff"):
``category`` "semantic", "name" or "metadata"; ``kind`` "only_in_a", "only_in_b", "name", "op",
"attribute", "arity", "wiring", "type", "constant" or "metadata"; ``subject`` "graph", "input",
"output" or "node". ``a_index`` / ``b_index``: the subject's position in each graph (None on a side
without it). ``place``: "inputs[i]" / "outputs[i]" of a node, or "". ``key``: the attribute or
metadata name, "dtype" / "shape" / "quantization" for a type, "inputs" / "outputs" for an arity.
``a`` / ``b``: each side as text. For kind "constant": ``elements``, ``elements_differing``,
``first_index`` (flat, C order), ``first_a`` / ``first_b``, ``max_abs_diff`` (real values) and
``max_ulp`` (units in the last place; integer and quantized types: storage integers).
)doc")
      .def_property_readonly("category", [](const Difference& d) { return std::string(to_string(d.category)); })
      .def_property_readonly("kind", [](const Difference& d) { return std::string(to_string(d.kind)); })
      .def_property_readonly("subject", [](const Difference& d) { return std::string(to_string(d.subject)); })
      .def_property_readonly("a_index", [](const Difference& d) { return optional_index(d.a_index); })
      .def_property_readonly("b_index", [](const Difference& d) { return optional_index(d.b_index); })
      .def_readonly("a_name", &Difference::a_name)
      .def_readonly("b_name", &Difference::b_name)
      .def_readonly("a_op", &Difference::a_op)
      .def_readonly("b_op", &Difference::b_op)
      .def_readonly("place", &Difference::place)
      .def_readonly("key", &Difference::key)
      .def_readonly("a", &Difference::a)
      .def_readonly("b", &Difference::b)
      .def_readonly("elements", &Difference::elements)
      .def_readonly("elements_differing", &Difference::elements_differing)
      .def_readonly("first_index", &Difference::first_index)
      .def_readonly("first_a", &Difference::first_a)
      .def_readonly("first_b", &Difference::first_b)
      .def_readonly("max_abs_diff", &Difference::max_abs_diff)
      .def_readonly("max_ulp", &Difference::max_ulp)
      .def_property_readonly("message", &Difference::message, "str: one line for people")
      .def("__str__", &Difference::message)
      .def("__repr__", [](const Difference& d) { return "<nnbridge.Difference " + d.message() + ">"; });

  py::class_<DiffResult>(m, "Diff", R"doc(
The result of nnbridge.diff(): ``same`` (nothing reported), ``differences`` (list[Difference]:
graph-level, inputs, nodes in A's order, outputs, then what is only in B), ``counts`` ({"semantic",
"name", "metadata": int}), the pairing (``inputs`` / ``outputs``: [(a_position, b_position)],
``nodes``: [(a_index, b_index, "name" | "topology")]), ``to_json()`` (the CLI's ``--json``
document) and ``str()`` (the CLI's text). Iterating yields the differences.
)doc")
      .def_property_readonly("same", [](const DiffResult& r) { return r.d.same(); })
      .def_property_readonly("differences", [](const DiffResult& r) { return r.d.differences; })
      .def_property_readonly("counts", [](const DiffResult& r) {
        py::dict c;
        for (DiffCategory k : {DiffCategory::Semantic, DiffCategory::Name, DiffCategory::Metadata})
          c[py::str(std::string(to_string(k)))] = r.d.count(k);
        return c;
      })
      .def_property_readonly("inputs", [](const DiffResult& r) { return r.d.inputs; })
      .def_property_readonly("outputs", [](const DiffResult& r) { return r.d.outputs; })
      .def_property_readonly("nodes", [](const DiffResult& r) {
        py::list l;
        for (const NodeMatch& n : r.d.nodes)
          l.append(py::make_tuple(n.a, n.b, n.by == NodeMatch::By::Name ? "name" : "topology"));
        return l;
      })
      .def("to_json", [](const DiffResult& r, int indent) { return to_json(r.d, r.a_label, r.b_label, indent); },
           py::arg("indent") = 2, "The report as JSON text (the schema of `nnbridge diff --json`).")
      .def("__str__", [](const DiffResult& r) { return to_text(r.d, r.a_label, r.b_label, r.a_file_format, r.b_file_format); })
      .def("__len__", [](const DiffResult& r) { return r.d.differences.size(); })
      .def("__iter__", [](const DiffResult& r) { return py::iter(py::cast(r.d.differences)); })
      .def("__repr__", [](const DiffResult& r) {
        return "<nnbridge.Diff " + std::string(r.d.same() ? "same" : "different") + ": " +
               std::to_string(r.d.count(DiffCategory::Semantic)) + " semantic, " +
               std::to_string(r.d.count(DiffCategory::Name)) + " name, " +
               std::to_string(r.d.count(DiffCategory::Metadata)) + " metadata>";
      });

  m.def(
      "diff",
      [](py::handle a, py::handle b, bool ignore_names, bool ignore_metadata) {
        DiffResult r;
        std::shared_ptr<Graph> ga = graph_of(a, r.a_label, r.a_file_format, "A"), gb = graph_of(b, r.b_label, r.b_file_format, "B");
        DiffOptions o;
        o.ignore_names = ignore_names;
        o.ignore_metadata = ignore_metadata;
        py::gil_scoped_release nogil;
        r.d = diff(*ga, *gb, o);
        return r;
      },
      py::arg("a"), py::arg("b"), py::arg("ignore_names") = false, py::arg("ignore_metadata") = false, R"doc(
Compares two graphs semantically (`nnbridge diff A B`): each of ``a`` and ``b`` is a Graph or a
path (str or os.PathLike, loaded as nnbridge.load() does). Both are compared in one normal form
(the format-neutral rewrites writers apply), inputs / outputs / nodes paired by name, then by
topology; what differs is reported as semantic (ops, canonical attributes with schema defaults,
wiring, dtypes, shapes, quantization, constant values with max abs and ULP differences), name
(graph inputs, outputs, nodes; ``ignore_names=True`` pairs without names and leaves them out) or
metadata (format vocabulary: source format, metadata, ``armnn.*`` / ``vk.*`` / ``onnx.*``
attributes; ``ignore_metadata=True`` leaves them out). Returns a Diff (``.same``). Neither graph
is changed. Raises what nnbridge.load() raises for a path that cannot be read, TypeError for
anything else. Rules: sdk/diff/include/nnbridge/diff.h.
)doc");
}

}  // namespace nnbridge::py_bind
