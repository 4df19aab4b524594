// Pictures of a graph (nnbridge/draw.h) as methods of nnbridge.Graph: to_dot(), draw(path) and
// _repr_svg_(), which Jupyter calls to show a Graph as its picture.
#include "common.h"
#include "nnbridge/draw.h"

namespace nnbridge::py_bind {

namespace {

DrawOptions draw_options(bool native, std::size_t max_nodes, const std::string& rankdir, int scopes) {
  DrawOptions o;
  o.native = native;
  o.max_nodes = max_nodes;
  o.rankdir = rankdir;
  o.scopes = scopes;
  return o;
}

}  // namespace

void bind_draw(py::module_& m) {
  auto graph = py::reinterpret_borrow<py::class_<Graph, std::shared_ptr<Graph>>>(m.attr("Graph"));
  graph
      .def("to_dot", [](const Graph& g, bool native, std::size_t max_nodes, const std::string& rankdir, int scopes) {
        return to_dot(g, draw_options(native, max_nodes, rankdir, scopes));
      }, py::kw_only(), py::arg("native") = false, py::arg("max_nodes") = DrawOptions{}.max_nodes, py::arg("rankdir") = "TB",
      py::arg("scopes") = DrawOptions{}.scopes,
      R"doc(
The graph as Graphviz DOT text (str), built with Graphviz's cgraph library (nnbridge::to_dot):
graph inputs as ellipses (name, dtype, shape), nodes as boxes (op, name, canonical attributes,
one note per constant input, the graph outputs a node produces), edges labelled with the tensor's
dtype and shape ("float32 [1, 8, 8, 1]").

native: name ops in the file's own vocabulary (Arm NN layer types such as "Convolution2d",
VkGraph operator names such as "aten.convolution.default") instead of canonical ops.
max_nodes: refuse a graph of more boxes (nodes plus graph inputs) than this; 0: no limit.
rankdir: "TB", "LR", "BT" or "RL" (Graphviz's layout direction).
scopes: how many levels of name scopes are boxed (-1: every level, 0: none). Nodes whose names
share a '/'-separated prefix (PyTorch's "/layer1/layer1.0/conv1/Conv": every part but the last is
a scope) are drawn inside a Graphviz cluster ``cluster_<k>`` labelled with the scope's own part
("layer1.0"), nested as the names nest; a scope of a single node is no box.

Raises nnbridge.UnsupportedError over max_nodes, nnbridge.InvalidError for another rankdir,
scopes below -1 or a value id outside the graph.
)doc")
      .def("draw", [](const Graph& g, const std::filesystem::path& path, bool native, std::size_t max_nodes,
                      const std::string& rankdir, int scopes) {
             render(g, path, draw_options(native, max_nodes, rankdir, scopes));
           },
           py::arg("path"), py::kw_only(), py::arg("native") = false, py::arg("max_nodes") = DrawOptions{}.max_nodes,
           py::arg("rankdir") = "TB", py::arg("scopes") = DrawOptions{}.scopes, R"doc(
Draws the graph into ``path`` (str or os.PathLike), laid out and rendered by Graphviz; the format
from its extension: .svg, .png, .pdf, or .dot (to_dot's text). Written to a temporary file and
renamed: a failure leaves no partial file. Options as to_dot().

Raises nnbridge.UnsupportedError for another extension or over max_nodes, nnbridge.IoError
naming the file when it cannot be written, and as to_dot().
)doc")
      .def("_repr_svg_", [](const Graph& g) -> py::object {
        const DrawOptions o;
        // Jupyter shows the text repr instead when this returns None: a graph too large to lay
        // out quickly is not drawn.
        if (drawn_node_count(g) > o.max_nodes) return py::none();
        return py::str(render_bytes(g, "svg", o));
      }, "The graph as an SVG document (str), for Jupyter; None for a graph of more than 2000 boxes.");
}

}  // namespace nnbridge::py_bind
