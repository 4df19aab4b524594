// The ONNX format's rules for its native ops (FormatHandler::check, run by nnbridge::check): a
// node of ONNX's own domain that the reader kept as onnx.<op_type> (no canonical form: an
// attribute or arity the canonical op does not take) must still have the number of inputs and
// outputs its ONNX schema allows, as onnx::checker requires (ONNX 1.12's schemas at opset 17,
// the opset the reader converts every model to).
#include <onnx/defs/schema.h>

#include <cstring>
#include <limits>

#include "internal.h"

namespace nnbridge::formats::onnx {

void check_graph(const Graph& g, std::vector<Issue>& out) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.op.rfind("onnx.", 0) != 0) continue;
    if (auto it = n.attrs.find(keys::kNodeDomain); it != n.attrs.end() && it->second.is<std::string>()) {
      const std::string& domain = it->second.get<std::string>();
      if (!domain.empty() && domain != "ai.onnx") continue;  // another domain's op: no ONNX schema
    }
    const std::string op_type = n.op.substr(5);
    const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(op_type, int(kOpset), "");
    if (!schema) continue;
    int64_t outputs = static_cast<int64_t>(n.outputs.size());
    if (auto it = n.attrs.find(keys::kTrailingAbsent); it != n.attrs.end() && it->second.is<int64_t>()) outputs += it->second.get<int64_t>();
    auto count = [&](const char* what, int64_t k, int lo, int hi) {
      if (k >= lo && k <= hi) return;
      const std::string range = lo == hi ? std::to_string(lo) : hi == std::numeric_limits<int>::max()
                                                                     ? "at least " + std::to_string(lo)
                                                                     : std::to_string(lo) + " to " + std::to_string(hi);
      const std::string noun = lo == 1 && hi == 1 ? std::string(what).substr(0, std::strlen(what) - 1) : what;  // "1 output"
      out.push_back({Issue::Severity::Error, "nodes[" + std::to_string(i) + "]." + what,
                     op_type + " takes " + range + " " + noun + " (ONNX opset " + std::to_string(kOpset) + "), got " + std::to_string(k),
                     ErrorId::Arity});
    };
    count("inputs", static_cast<int64_t>(n.inputs.size()), schema->min_input(), schema->max_input());
    count("outputs", outputs, schema->min_output(), schema->max_output());
  }
}

}  // namespace nnbridge::formats::onnx
