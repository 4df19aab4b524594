// load / save / convert / detect_format / formats (nnbridge/io.h), as the CLI's `convert` does
// them, so a conversion through Python writes the same bytes as `nnbridge convert`.
#include <mutex>
#include <unordered_map>

#include "common.h"
#include "nnbridge/io.h"

namespace nnbridge::py_bind {

namespace {

// loaded_graph's files, by Graph address; an entry leaves with its Graph (the deleter), so a
// later Graph at the same address has none.
struct LoadedPaths {
  std::mutex mutex;
  std::unordered_map<const Graph*, std::string> by_graph;
};

LoadedPaths& loaded_paths() {
  static LoadedPaths* p = new LoadedPaths;  // never destroyed: a Graph may outlive static destruction
  return *p;
}

std::string format_name(const std::string& name) {
  if (name.empty()) return name;
  if (find_format(name)) return name;
  if (const FormatHandler* h = find_format_by_extension(name)) return h->name;
  std::string names;
  for (const FormatHandler* h : all_formats()) names += (names.empty() ? "" : ", ") + h->name;
  throw Error(ErrorId::UnknownFormat, "no format named \"" + name + "\" (formats: " + names + ")");
}

// The format the bytes would be read as, for namespacing options; empty when none sniffs them.
std::string sniff(std::span<const std::byte> bytes) {
  for (const FormatHandler* h : all_formats())
    if (h->sniff && h->sniff(bytes)) return h->name;
  return {};
}

bool has_plain_keys(const py::kwargs& kw) {
  for (auto item : kw)
    if (std::string(py::str(item.first)).find('.') == std::string::npos) return true;
  return false;
}

std::shared_ptr<Graph> load_any(py::handle source, const std::optional<std::string>& format, const py::kwargs& kw) {
  LoadOptions lo;
  lo.format = format_name(format.value_or(""));
  if (py::isinstance<py::bytes>(source) || py::isinstance<py::bytearray>(source) || py::isinstance<py::memoryview>(source)) {
    // bytes are immutable: the graph's constants view them (the graph keeps them alive).
    // Anything mutable is copied, since a Buffer's bytes never change.
    py::buffer buf = py::reinterpret_borrow<py::buffer>(source);
    py::buffer_info info = buf.request();
    if (info.ndim > 1 || (info.ndim == 1 && info.strides[0] != info.itemsize))
      throw py::type_error("load(): the bytes must be contiguous");
    std::span<const std::byte> bytes(static_cast<const std::byte*>(info.ptr), static_cast<std::size_t>(info.size * info.itemsize));
    std::string fmt = lo.format.empty() && has_plain_keys(kw) ? sniff(bytes) : lo.format;
    lo.options = options_from_kwargs(kw, fmt);
    std::shared_ptr<const void> owner = py::isinstance<py::bytes>(source) ? keep_alive(py::reinterpret_borrow<py::object>(source)) : nullptr;
    return std::make_shared<Graph>(load(bytes, lo.format, lo, owner));
  }
  std::filesystem::path path = py::module_::import("os").attr("fspath")(source).cast<std::filesystem::path>();
  std::string fmt = lo.format.empty() && has_plain_keys(kw) ? detect_format(path) : lo.format;
  lo.options = options_from_kwargs(kw, fmt);
  py::gil_scoped_release nogil;
  return loaded_graph(load(path, lo), path.string());
}

SaveOptions save_options(const std::filesystem::path& path, const std::optional<std::string>& format, const py::kwargs& kw,
                         const Graph& g) {
  SaveOptions so;
  so.format = format_name(format.value_or(""));
  std::string fmt = so.format;
  if (fmt.empty()) {
    if (const FormatHandler* h = find_format_by_path(path)) fmt = h->name;
  }
  so.options = options_from_kwargs(kw, fmt);
  return so;
}

}  // namespace

std::shared_ptr<Graph> loaded_graph(Graph g, std::string path) {
  std::shared_ptr<Graph> out(new Graph(std::move(g)), [](Graph* p) {
    {
      LoadedPaths& l = loaded_paths();
      std::lock_guard lock(l.mutex);
      l.by_graph.erase(p);
    }
    delete p;
  });
  LoadedPaths& l = loaded_paths();
  std::lock_guard lock(l.mutex);
  l.by_graph[out.get()] = std::move(path);
  return out;
}

std::string loaded_path(const Graph& g) {
  LoadedPaths& l = loaded_paths();
  std::lock_guard lock(l.mutex);
  auto it = l.by_graph.find(&g);
  return it == l.by_graph.end() ? std::string() : it->second;
}

void bind_io(py::module_& m) {
  py::class_<FormatHandler>(m, "Format", "A graph file format this build reads and/or writes (nnbridge/io.h).")
      .def_readonly("name", &FormatHandler::name, "str: \"armnn\", \"json\", ...")
      .def_readonly("description", &FormatHandler::description)
      .def_readonly("extensions", &FormatHandler::extensions, "list[str]: without the dot.")
      .def_readonly("reader_options", &FormatHandler::reader_options, "list[str]: full option names (\"armnn.layout\").")
      .def_readonly("writer_options", &FormatHandler::writer_options)
      .def_property_readonly("can_read", [](const FormatHandler& h) { return static_cast<bool>(h.read); })
      .def_property_readonly("can_write", [](const FormatHandler& h) { return static_cast<bool>(h.write); })
      .def("__repr__", [](const FormatHandler& h) { return "<nnbridge.Format " + h.name + ">"; });

  m.def("formats", [] {
    std::vector<const FormatHandler*> all = all_formats();
    py::list l;
    for (const FormatHandler* h : all) l.append(py::cast(h, py::return_value_policy::reference));
    return l;
  }, "Every registered graph format (list[Format]), in registration order.");

  m.def("load", &load_any, py::arg("source"), py::arg("format") = py::none(), R"doc(
Loads a graph from a file path (str or os.PathLike) or from bytes.

The format is sniffed from the content, then the extension, unless ``format`` names one (a
format name or extension). Keyword arguments are reader options: ``layout="seed"`` means
``armnn.layout=seed`` for an armnn file; dotted names pass through as given
(``**{"armnn.layout": "seed"}``). Constants are not copied: from a path they view the file's
bytes (memory-mapped from 64 KiB up, read once below: nnbridge::MappedFile), from ``bytes``
they view (and keep alive) that object; bytearray and memoryview are copied once. Raises IoError (cannot open/read), MalformedError (bytes that do not
decode, message naming the file and the field path), UnsupportedError (no format recognised, an
unknown format or option), InvalidError (inconsistent content).
)doc");

  m.def("save", [](const Graph& g, py::handle path_like, const std::optional<std::string>& format, const py::kwargs& kw) {
    std::filesystem::path path = py::module_::import("os").attr("fspath")(path_like).cast<std::filesystem::path>();
    SaveOptions so = save_options(path, format, kw, g);
    py::gil_scoped_release nogil;
    save(g, path, so);
  }, py::arg("graph"), py::arg("path"), py::arg("format") = py::none(), R"doc(
Writes ``graph`` to ``path`` in ``format``, else the format of the path's extension (never
guessed). Keyword arguments are writer options (``bindingIdsScheme=1`` means
``armnn.bindingIdsScheme=1`` when writing armnn). Writes a temporary file then renames it: on
error nothing is left and an existing file is untouched. Raises UnsupportedError (no format for
the extension, an option the format does not declare, an op the format cannot express, naming
the node), IoError (cannot write).
)doc");

  m.def("convert", [](py::handle src, py::handle dst, const std::optional<std::string>& to, const std::optional<std::string>& from_format,
                      const std::optional<py::dict>& reader_options, const std::optional<py::dict>& writer_options) {
    py::module_ os = py::module_::import("os");
    std::filesystem::path in = os.attr("fspath")(src).cast<std::filesystem::path>();
    std::filesystem::path out = os.attr("fspath")(dst).cast<std::filesystem::path>();
    // The CLI's order: the output format first (never guessed), then the input's.
    SaveOptions so;
    so.format = format_name(to.value_or(""));
    if (so.format.empty() && !find_format_by_path(out))
      throw Error(ErrorId::UnknownFormat, "cannot tell the output format from its extension: pass to=FORMAT", out.string());
    LoadOptions lo;
    lo.format = format_name(from_format.value_or(""));
    if (lo.format.empty()) lo.format = detect_format(in);
    lo.options = options_from_kwargs(reader_options ? *reader_options : py::dict(), lo.format);
    const std::string out_format = so.format.empty() ? find_format_by_path(out)->name : so.format;
    so.options = options_from_kwargs(writer_options ? *writer_options : py::dict(), out_format);
    {
      py::gil_scoped_release nogil;
      Graph g = load(in, lo);
      save(g, out, so);
    }
    return py::make_tuple(lo.format, out_format);
  }, py::arg("src"), py::arg("dst"), py::arg("to") = py::none(), py::kw_only(), py::arg("from_format") = py::none(),
     py::arg("reader_options") = py::none(), py::arg("writer_options") = py::none(), R"doc(
Converts the graph file ``src`` into ``dst``, as ``nnbridge convert SRC DST [--to TO]`` does
(same bytes). The output format is ``to``, else dst's extension; the input's is ``from_format``,
else sniffed. ``reader_options`` / ``writer_options``: dicts as load()/save() take as keywords.
Returns (input format, output format). Raises as load() and save(); ``dst`` is written
atomically and may equal ``src``.
)doc");

  m.def("detect_format", [](py::handle path_like) {
    return detect_format(py::module_::import("os").attr("fspath")(path_like).cast<std::filesystem::path>());
  }, py::arg("path"), "The name of the format ``path`` would be read as (content, then extension). Raises UnsupportedError, IoError.");
}

}  // namespace nnbridge::py_bind
