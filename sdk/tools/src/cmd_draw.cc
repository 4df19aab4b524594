// `nnbridge draw MODEL -o OUT.{svg,png,pdf,dot}`: a picture of the graph, laid out and rendered by
// Graphviz (nnbridge/draw.h).
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "progress.h"
#include "nnbridge/draw.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {
namespace {

struct DrawArgs {
  std::string model, out, from, rankdir = "TB";
  std::vector<std::string> reader_options;
  bool native = false;
  std::size_t max_nodes = DrawOptions{}.max_nodes;
  int scopes = DrawOptions{}.scopes;
};

int run_draw(const DrawArgs& a) {
  // The picture format comes from OUT's extension; a wrong one is a usage error, found before
  // the model is read.
  const std::string format = draw_format_of(a.out);
  if (format.empty()) {
    std::cerr << "nnbridge: error: " << a.out << ": cannot tell the picture format from the extension"
              << " (use .svg, .png, .pdf or .dot)\n";
    return kUsage;
  }
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  lo.options = key_values(a.reader_options);
  // On a terminal, for a large file: reading, then Graphviz's layout.
  const std::uint64_t bytes = file_bytes(a.model);
  PhaseProgress progress(bytes);
  progress.phase("reading " + a.model + " (" + size_text(bytes) + ")");
  Graph g = load(a.model, lo);
  const std::size_t boxes = drawn_node_count(g);
  if (a.max_nodes != 0 && boxes > a.max_nodes) {
    progress.stop();
    std::cerr << "nnbridge: error: " << a.model << ": the picture would hold " << boxes << " boxes (" << g.nodes.size()
              << " nodes, " << boxes - g.nodes.size() << (boxes - g.nodes.size() == 1 ? " graph input" : " graph inputs")
              << "), more than --max-nodes " << a.max_nodes
              << ": pass --max-nodes " << boxes << " (or 0 for no limit) to draw it anyway; Graphviz's layout of a"
              << " large graph takes long\n";
    return kBadInput;
  }
  DrawOptions o;
  o.native = a.native;
  o.max_nodes = a.max_nodes;
  o.rankdir = a.rankdir;
  o.scopes = a.scopes;
  progress.phase("drawing " + std::to_string(boxes) + " boxes of " + a.model + " into " + a.out);
  render(g, a.out, o);  // a temporary file renamed into place: no partial picture on failure
  progress.stop();
  std::cout << a.model << " -> " << a.out << " (" << format << ", " << boxes << " boxes)\n";
  return kOk;
}

}  // namespace

void add_draw(CLI::App& app, Action& action) {
  auto args = std::make_shared<DrawArgs>();
  auto* sub = app.add_subcommand("draw", "Draw a graph with Graphviz: SVG, PNG, PDF or DOT, by OUT's extension");
  sub->add_option("MODEL", args->model, "The graph file")->required();
  sub->add_option("-o,--output", args->out, "The picture: .svg, .png, .pdf or .dot (written atomically)")->required();
  sub->add_flag("--native", args->native,
                "Name ops in the file's own vocabulary (Arm NN layer types, VkGraph operators) instead of canonical ops");
  sub->add_option("--max-nodes", args->max_nodes,
                  "Refuse a graph of more boxes (nodes plus graph inputs) than this; 0: no limit")
      ->capture_default_str();
  sub->add_option("--rankdir", args->rankdir, "Graphviz's direction of the layout")
      ->check(CLI::IsMember({"TB", "LR", "BT", "RL"}))
      ->capture_default_str();
  sub->add_option("--scopes", args->scopes,
                  "Box nodes whose names share a '/'-separated scope (\"/layer1/layer1.0/conv1/Conv\") in nested "
                  "clusters labelled with the scope, this many levels deep; -1: every level, 0: no boxes")
      ->check(CLI::Range(-1, 1000000))
      ->capture_default_str();
  sub->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  sub->add_option("-I,--reader-option", args->reader_options, "A reader option key=value, e.g. armnn.layout=seed")
      ->check(check_key_value);
  sub->callback([&action, args] { action = [args] { return run_draw(*args); }; });
}

}  // namespace nnbridge::cli
