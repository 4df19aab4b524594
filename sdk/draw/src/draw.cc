// Drawing a Graph with Graphviz (nnbridge/draw.h): cgraph holds the drawing, gvc lays it out
// with `dot` and renders it. Graphviz keeps global state (its error handler, its string
// dictionaries), so every call into it holds one lock.
#include "nnbridge/draw.h"

#include <gvc.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>
#include <span>

#include "labels.h"
#include "scopes.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "nnbridge/io.h"
#include "nnbridge/op_schema.h"
#include "nnbridge/rewrite.h"

namespace nnbridge {

namespace {

using namespace draw_detail;

std::mutex& graphviz_lock() {
  static std::mutex m;
  return m;
}

// Graphviz's messages while the lock is held (agseterrf handler).
std::string& graphviz_messages() {
  static std::string s;
  return s;
}
int collect_message(char* text) {
  graphviz_messages() += text ? text : "";
  return 0;
}

// cgraph's API takes char* for strings it only reads or copies.
char* c(const std::string& s) { return const_cast<char*>(s.c_str()); }
char* c(const char* s) { return const_cast<char*>(s); }

/// agwrite's output channel: the DOT text into a std::string.
int put_string(void* chan, const char* text) {
  static_cast<std::string*>(chan)->append(text);
  return 0;
}
int flush_nothing(void*) { return 0; }

/// cgraph's ID discipline: its default uses the address of each name's string as the object's
/// ID, and agwrite orders subgraphs by ID, so the order of the clusters in the DOT text changed
/// from call to call. This one declines every name (cgraph then keeps names in its internal map)
/// and hands out IDs in creation order, so the DOT text is a function of the graph alone.
struct SequentialIds {
  IDTYPE next = 1;
};
void* ids_open(Agraph_t*, Agdisc_t*) { return new SequentialIds; }
long ids_map(void* state, int, char* name, IDTYPE* id, int create) {
  if (name || !create) return 0;  // names: cgraph's internal map; lookups of unnamed: none
  auto* s = static_cast<SequentialIds*>(state);
  *id = s->next;
  s->next += 2;  // odd, as cgraph expects of IDs without a name of the discipline's own
  return 1;
}
long ids_alloc(void*, int, IDTYPE) { return 0; }
void ids_free(void*, int, IDTYPE) {}
char* ids_print(void*, int, IDTYPE) { return nullptr; }
void ids_close(void* state) { delete static_cast<SequentialIds*>(state); }
void ids_register(void*, int, void*) {}
Agiddisc_t sequential_id_disc = {ids_open, ids_map, ids_alloc, ids_free, ids_print, ids_close, ids_register};

/// The drawing as a cgraph graph (closed by the destructor), with Graphviz's error handler
/// collecting messages for its lifetime. Build and use it with graphviz_lock() held.
class Drawing {
 public:
  Drawing() {
    graphviz_messages().clear();
    previous_handler_ = agseterrf(collect_message);
    io_ = {AgIoDisc.afread, put_string, flush_nothing};
    disc_ = {&AgMemDisc, &sequential_id_disc, &io_};
    g_ = agopen(c("nnbridge"), Agdirected, &disc_);
    if (!g_) throw Error(ErrorCode::Invalid, "Graphviz cannot create a graph: " + graphviz_messages());
  }
  ~Drawing() {
    if (g_) agclose(g_);
    agseterrf(previous_handler_);
  }
  Drawing(const Drawing&) = delete;
  Drawing& operator=(const Drawing&) = delete;

  Agraph_t* graph() const { return g_; }

  Agsym_t* declare(int kind, const char* name, const char* default_value) {
    return agattr(g_, kind, c(name), c(default_value));
  }
  Agnode_t* node(const std::string& id) { return agnode(g_, c(id), 1); }
  Agedge_t* edge(Agnode_t* tail, Agnode_t* head) { return agedge(g_, tail, head, nullptr, 1); }
  void set(void* obj, Agsym_t* sym, const std::string& value) { agxset(obj, sym, c(value)); }
  void set_html(void* obj, Agsym_t* sym, const std::string& html) {
    char* h = agstrdup_html(g_, c(html));
    agxset(obj, sym, h);
    agstrfree(g_, h);
  }

 private:
  Agraph_t* g_ = nullptr;
  Agiodisc_t io_{};
  Agdisc_t disc_{};
  agusererrf previous_handler_ = nullptr;
};

void check_options(const Graph& g, const DrawOptions& o) {
  static const std::set<std::string, std::less<>> kRankdirs = {"TB", "LR", "BT", "RL"};
  if (!kRankdirs.count(o.rankdir))
    throw Error(ErrorId::OptionValue, "rankdir \"" + clean_utf8(o.rankdir) + "\" is none of TB, LR, BT, RL");
  if (o.scopes < -1)
    throw Error(ErrorId::OptionValue, "scopes = " + std::to_string(o.scopes) +
                                        " is below -1 (-1: every level of name scopes boxed, 0: none)");
  const std::size_t n = drawn_node_count(g);
  if (o.max_nodes != 0 && n > o.max_nodes)
    throw Error(ErrorCode::Unsupported, "the drawing would hold " + std::to_string(n) + " boxes (" +
                                            std::to_string(g.nodes.size()) + " nodes, " + std::to_string(g.inputs.size()) +
                                            " graph inputs), more than max_nodes = " + std::to_string(o.max_nodes) +
                                            ": raise max_nodes (0: no limit); Graphviz's layout of a large graph is slow");
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    for (const auto* ids : {&n.inputs, &n.outputs})
      for (std::size_t k = 0; k < ids->size(); ++k)
        if ((*ids)[k] != kNoValue && (*ids)[k] >= g.values.size())
          throw Error(ErrorId::DanglingReference, "value id " + std::to_string((*ids)[k]) + " outside the graph's " +
                                              std::to_string(g.values.size()) + " values",
                      {}, "nodes[" + std::to_string(i) + "]." + (ids == &n.inputs ? "inputs" : "outputs") + "[" +
                              std::to_string(k) + "]");
  }
  for (const auto* ids : {&g.inputs, &g.outputs})
    for (std::size_t k = 0; k < ids->size(); ++k)
      if ((*ids)[k] >= g.values.size())
        throw Error(ErrorId::DanglingReference, "value id " + std::to_string((*ids)[k]) + " outside the graph's " +
                                            std::to_string(g.values.size()) + " values",
                    {}, std::string(ids == &g.inputs ? "inputs" : "outputs") + "[" + std::to_string(k) + "]");
}

/// The op as the file names it (DrawOptions::native); `op` itself where the file has no other name.
std::string native_name(const FormatHandler* format, const Node& n) {
  if (format && format->native_op) {
    std::string s = format->native_op(n);
    if (!s.empty()) return s;
  }
  // VkGraph operators keep their name as `vk.name` (nnbridge/formats/vkgraph.h), also inside .pte.
  if (auto it = n.attrs.find("vk.name"); it != n.attrs.end() && it->second.is<std::string>()) return it->second.get<std::string>();
  if (n.op == "gl.Program") return "Program";
  // A format-native op without its namespace: armnn.StandIn -> StandIn, vk.et_vk.foo -> et_vk.foo.
  for (const char* prefix : {"armnn.", "vk.", "gl.", "onnx."})
    if (n.op.rfind(prefix, 0) == 0) return n.op.substr(std::char_traits<char>::length(prefix));
  return n.op;
}

std::string small(const std::string& html_lines) { return "<FONT POINT-SIZE=\"9\">" + html_lines + "</FONT>"; }

/// The HTML-like label of node `n`.
std::string node_label(const Graph& g, const Node& n, const std::string& title, const std::vector<std::string>& notes,
                       const std::vector<ValueId>& graph_outputs, bool native) {
  std::string s = "<B>" + html_escape(cut_keep_end(title)) + "</B>";
  std::vector<std::string> lines;
  if (native && title != n.op) lines.push_back("(" + cut_keep_end(n.op) + ")");
  if (!n.name.empty() && n.name != title && n.name != n.op) lines.push_back("<I>" + html_escape(cut_keep_end(n.name)) + "</I>");
  std::size_t shown = 0, attrs = 0;
  const OpSchema* schema = find_schema(n.op);
  for (const auto& [key, value] : n.attrs) {
    if (key.find('.') != std::string::npos) continue;  // format fields (armnn.*, vk.*, gl.*): not the op's meaning
    if (const AttrSpec* spec = schema ? schema->find_attr(key) : nullptr; spec && spec->default_value == value)
      continue;  // what the op means without it
    ++attrs;
    if (shown == kMaxAttrs) continue;
    lines.push_back(html_escape(cut_keep_end(key, 24) + "=" + attr_value_text(value)));
    ++shown;
  }
  if (attrs > shown) lines.push_back("+" + std::to_string(attrs - shown) + " more attributes");
  if (n.op == "gl.Program") {
    // A compiled-model program has only format fields (nnbridge/formats/afcm.h): its shader and
    // its dispatch are what tells one from another.
    for (const char* key : {"gl.shader_index", "gl.number_workgroups"})
      if (auto it = n.attrs.find(key); it != n.attrs.end())
        lines.push_back(html_escape(std::string(key + 3) + "=" + attr_value_text(it->second)));
  }
  for (std::size_t i = 0; i < notes.size() && i < kMaxNotes; ++i) lines.push_back(html_escape(notes[i]));
  if (notes.size() > kMaxNotes) lines.push_back("+" + std::to_string(notes.size() - kMaxNotes) + " more constants");
  for (ValueId o : graph_outputs) {
    const std::string type = type_text(g.values[o].type);
    lines.push_back("<B>output</B> " + html_escape(cut_keep_end(g.values[o].name) + (type.empty() ? "" : "  " + type)));
  }
  std::string body;
  for (const std::string& l : lines) body += (body.empty() ? "" : "<BR/>") + l;
  return body.empty() ? s : s + "<BR/>" + small(body);
}

/// Builds the drawing of `g` into `d`.
void build_typed(const Graph& g, const DrawOptions& o, Drawing& d);

// Edge labels show types: what the file leaves unknown is inferred first (on a copy; the ids
// are checked before inference walks them).
void build(const Graph& g, const DrawOptions& o, Drawing& d) {
  check_options(g, o);
  const bool known = std::all_of(g.values.begin(), g.values.end(), [](const Value& v) { return v.type.fully_known(); });
  if (known) return build_typed(g, o, d);
  Graph typed = g;
  infer_missing_types(typed);
  build_typed(typed, o, d);
}

void build_typed(const Graph& g, const DrawOptions& o, Drawing& d) {
  Agraph_t* root = d.graph();
  agattr(root, AGRAPH, c("rankdir"), c(o.rankdir));
  agattr(root, AGRAPH, c("ranksep"), c("0.3"));
  agattr(root, AGRAPH, c("nodesep"), c("0.25"));
  agattr(root, AGRAPH, c("fontname"), c("Helvetica"));
  Agsym_t* label = d.declare(AGNODE, "label", "\\N");
  Agsym_t* shape = d.declare(AGNODE, "shape", "box");
  Agsym_t* style = d.declare(AGNODE, "style", "rounded,filled");
  Agsym_t* fill = d.declare(AGNODE, "fillcolor", "#eeeeee");
  Agsym_t* penwidth = d.declare(AGNODE, "penwidth", "1");
  d.declare(AGNODE, "fontname", "Helvetica");
  d.declare(AGNODE, "fontsize", "11");
  d.declare(AGNODE, "margin", "0.08,0.04");
  Agsym_t* elabel = d.declare(AGEDGE, "label", "");
  d.declare(AGEDGE, "fontname", "Helvetica");
  d.declare(AGEDGE, "fontsize", "9");
  d.declare(AGEDGE, "fontcolor", "#444444");
  d.declare(AGEDGE, "color", "#555555");
  d.declare(AGEDGE, "arrowsize", "0.6");

  const FormatHandler* format = o.native && !g.source_format.empty() ? find_format(g.source_format) : nullptr;
  std::vector<Agnode_t*> drawn_value(g.values.size(), nullptr);  // input box or producing node, per value
  std::vector<char> is_input(g.values.size(), 0);

  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ValueId id = g.inputs[k];
    const Value& v = g.values[id];
    if (is_input[id]) continue;  // listed twice: one box
    is_input[id] = 1;
    Agnode_t* box = d.node("input" + std::to_string(k));
    d.set(box, shape, "ellipse");
    d.set(box, style, "filled");
    d.set(box, fill, "#d6e6f5");
    const std::string type = type_text(v.type);
    std::string lines = html_escape(type);
    if (std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end()) {
      lines += (lines.empty() ? "" : "<BR/>") + std::string("<B>also a graph output</B>");
      d.set(box, penwidth, "2");
    }
    d.set_html(box, label, "<B>" + html_escape(cut_keep_end(v.name)) + "</B>" + (lines.empty() ? "" : "<BR/>" + small(lines)));
    drawn_value[id] = box;
  }
  // Name scopes as nested clusters: a node is created at the top and then added to its innermost
  // cluster (cgraph adds it to the enclosing ones too).
  const ScopeTree scopes = scope_tree(g, o.scopes);
  std::vector<Agraph_t*> clusters(scopes.scopes.size(), nullptr);
  for (std::size_t k = 0; k < scopes.scopes.size(); ++k) {
    const Scope& sc = scopes.scopes[k];
    Agraph_t* parent = sc.parent == kNoScope ? root : clusters[sc.parent];
    clusters[k] = agsubg(parent, c("cluster_" + std::to_string(k)), 1);
    char* html = agstrdup_html(root, c(html_escape(cut_keep_end(sc.label))));
    agsafeset(clusters[k], c("label"), html, c(""));
    agstrfree(root, html);
    agsafeset(clusters[k], c("style"), c("rounded"), c(""));
    agsafeset(clusters[k], c("color"), c("#8a9bb0"), c(""));
    agsafeset(clusters[k], c("fontcolor"), c("#4a5a70"), c(""));
    agsafeset(clusters[k], c("fontsize"), c("10"), c(""));
    agsafeset(clusters[k], c("labeljust"), c("l"), c(""));
  }
  std::vector<Agnode_t*> boxes(g.nodes.size(), nullptr);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    boxes[i] = d.node("node" + std::to_string(i));
    if (scopes.node_scope[i] != kNoScope) agsubnode(clusters[scopes.node_scope[i]], boxes[i], 1);
    for (ValueId out : g.nodes[i].outputs)
      if (out != kNoValue && !drawn_value[out]) drawn_value[out] = boxes[i];
  }
  std::vector<char> is_output(g.values.size(), 0);
  for (ValueId id : g.outputs) is_output[id] = 1;

  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    std::vector<std::string> notes;
    for (ValueId in : n.inputs) {
      if (in == kNoValue) continue;
      const Value& v = g.values[in];
      const bool external = v.attrs.count(kExternalDataKey) != 0;
      if (drawn_value[in]) {  // a graph input or a node's output
        Agedge_t* e = agedge(root, drawn_value[in], boxes[i], nullptr, 1);
        d.set(e, elabel, type_text(v.type));
      } else if (v.is_constant() || external) {
        notes.push_back(constant_note(v, n.name));
      } else {
        notes.push_back(cut_keep_end(v.name, 28) + " (no producer)");
      }
    }
    std::vector<ValueId> outputs;
    for (ValueId out : n.outputs)
      if (out != kNoValue && is_output[out] && drawn_value[out] == boxes[i]) outputs.push_back(out);
    const std::string title = o.native ? native_name(format, n) : n.op;
    d.set_html(boxes[i], label, node_label(g, n, title, notes, outputs, o.native));
    if (!outputs.empty()) {
      d.set(boxes[i], fill, "#d9f0d9");
      d.set(boxes[i], penwidth, "2");
    } else if (!find_schema(n.op)) {
      d.set(boxes[i], fill, "#fbe5c8");  // a format-native op: no canonical form
    }
  }
}

std::string to_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

std::string dot_text(Drawing& d) {
  std::string text;
  if (agwrite(d.graph(), &text) != 0) throw Error(ErrorCode::Invalid, "Graphviz cannot write DOT text: " + graphviz_messages());
  return text;
}

}  // namespace

std::vector<std::string> draw_formats() { return {"svg", "png", "pdf", "dot", "gv"}; }

std::string draw_format_of(const std::filesystem::path& path) {
  std::string ext = to_lower(path.extension().string());
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  if (ext == "gv") return "dot";
  const auto all = draw_formats();
  return std::find(all.begin(), all.end(), ext) != all.end() ? ext : std::string();
}

std::size_t drawn_node_count(const Graph& g) {
  const std::set<ValueId> inputs(g.inputs.begin(), g.inputs.end());
  return g.nodes.size() + inputs.size();
}

std::string to_dot(const Graph& g, const DrawOptions& options) {
  std::lock_guard<std::mutex> lock(graphviz_lock());
  Drawing d;
  build(g, options, d);
  return dot_text(d);
}

std::string render_bytes(const Graph& g, std::string_view format, const DrawOptions& options) {
  const std::string fmt = to_lower(std::string(format));
  if (fmt == "dot" || fmt == "gv") return to_dot(g, options);
  if (fmt != "svg" && fmt != "png" && fmt != "pdf")
    throw Error(ErrorId::UnknownFormat, "cannot draw as \"" + clean_utf8(format) + "\": formats are svg, png, pdf, dot");
  std::lock_guard<std::mutex> lock(graphviz_lock());
  // One Graphviz context for the process: it loads the plugin list once.
  static GVC_t* gvc = gvContext();
  if (!gvc) throw Error(ErrorCode::Unsupported, "Graphviz cannot start (gvContext failed)");
  Drawing d;
  build(g, options, d);
  // Bitmaps at 1.5 times Graphviz's 96 dpi: the 9-point notes stay legible.
  if (fmt == "png") agattr(d.graph(), AGRAPH, c("dpi"), c("144"));
  if (gvLayout(gvc, d.graph(), "dot") != 0)
    throw Error(ErrorCode::Invalid, "Graphviz's dot layout failed: " + graphviz_messages());
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc, d.graph(), fmt.c_str(), &data, &length);
  std::string bytes;
  if (rc == 0 && data) bytes.assign(data, length);
  if (data) gvFreeRenderData(data);
  gvFreeLayout(gvc, d.graph());
  if (rc != 0 || bytes.empty())
    throw Error(ErrorCode::Unsupported, "Graphviz cannot render " + fmt + " (is its plugin installed?): " +
                                            (graphviz_messages().empty() ? "no message" : graphviz_messages()));
  return bytes;
}

void render(const Graph& g, const std::filesystem::path& path, const DrawOptions& options) {
  const std::string fmt = draw_format_of(path);
  if (fmt.empty())
    throw Error(ErrorId::UnknownFormat,
                "cannot tell the picture format from the extension \"" + path.extension().string() +
                    "\": use .svg, .png, .pdf or .dot",
                path.string());
  std::string bytes;
  try {
    bytes = render_bytes(g, fmt, options);
  } catch (const Error& e) {
    throw e.file().empty() ? e.with_file(path.string()) : e;
  }
  write_file_atomic(path, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

}  // namespace nnbridge
