// channels_last_input (layout_hint.h).
#include "layout_hint.h"

#include <string>
#include <variant>

namespace nnbridge::cpu_ref {

namespace {

bool keeps_layout(const std::string& op) {
  return op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Relu" || op == "Clip" || op == "Sigmoid" ||
         op == "Tanh" || op == "HardSwish" || op == "LeakyRelu";
}

}  // namespace

bool channels_last_input(const Graph& g, const Node& n, const std::vector<std::size_t>& producer) {
  for (ValueId v : n.inputs)
    for (int depth = 0; depth < 8 && v != kNoValue && v < producer.size() && producer[v] < g.nodes.size(); ++depth) {
      const Node& p = g.nodes[producer[v]];
      if (const auto it = p.attrs.find("data_layout"); it != p.attrs.end()) {
        const auto* s = std::get_if<std::string>(&it->second.value);
        if (s && *s == "NHWC") return true;
        break;
      }
      if (!keeps_layout(p.op) || p.inputs.empty()) break;
      v = p.inputs[0];
    }
  return false;
}

}  // namespace nnbridge::cpu_ref
