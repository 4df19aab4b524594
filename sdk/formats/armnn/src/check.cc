// Arm NN's rules for `check` beyond core's: the identity fields the reader keeps as `armnn.*`
// attributes and metadata must fit the schema's field types (ArmnnSchema.fbs: LayerBindingId and
// inputIds/outputIds are int, LayerBase.index and the FeatureCompatibilityVersions are uint), and
// with bindingIdsScheme 1 every inputIds/outputIds entry must name an Input/Output layer's
// binding id, as Arm NN's deserializer looks them up (SetupInputLayers/SetupOutputLayers).
// The writer refuses the same values (narrow_field), so check and write agree.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "internal.h"
#include "nnbridge/attr.h"
#include "nnbridge/check.h"
#include "nnbridge/error.h"

namespace nnbridge::formats::armnn {
namespace {

// Adds an error issue, and its identifier when `out` is given (one per issue).
void add(std::vector<Issue>& issues, std::vector<ErrorId>* out, ErrorId id, std::string where, std::string message) {
  issues.push_back({Issue::Severity::Error, std::move(where), std::move(message), id});
  if (out) out->push_back(id);
}


template <class T>
bool fits(int64_t v) {
  if (v < 0) return std::is_signed_v<T> && v >= int64_t(std::numeric_limits<T>::min());
  return uint64_t(v) <= uint64_t(std::numeric_limits<T>::max());
}

template <class T>
void range(std::vector<Issue>& issues, std::vector<ErrorId>* out, const std::string& where, int64_t v,
           const char* field) {
  if (fits<T>(v)) return;
  add(issues, out, ErrorId::Narrowing, where,
      std::to_string(v) + " does not fit Arm NN's " + field + " (" + std::to_string(+std::numeric_limits<T>::min()) +
          ".." + std::to_string(+std::numeric_limits<T>::max()) + ")");
}

}  // namespace

void check_graph(const Graph& g, std::vector<Issue>& issues) { check_graph_ids(g, issues, nullptr); }

void check_graph_ids(const Graph& g, std::vector<Issue>& issues, std::vector<ErrorId>* out) {
  // Binding ids the writer derives or keeps: the attribute, else the position in inputs/outputs.
  std::set<int64_t> in_ids, out_ids;
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    if (g.inputs[k] >= g.values.size()) continue;  // core reports the id
    const Value& v = g.values[g.inputs[k]];
    auto id = attr_int(v.attrs, "armnn.layerBindingId");
    in_ids.insert(id ? *id : int64_t(k));
  }
  for (size_t i = 0; i < g.values.size(); ++i)
    if (auto id = attr_int(g.values[i].attrs, "armnn.layerBindingId"))
      range<int32_t>(issues, out, "values[" + std::to_string(i) + "].attrs.armnn.layerBindingId", *id, "LayerBindingId (int)");
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const AttrMap& a = g.nodes[i].attrs;
    const std::string at = "nodes[" + std::to_string(i) + "].attrs.";
    if (auto id = attr_int(a, "armnn.layerBindingId")) {
      range<int32_t>(issues, out, at + "armnn.layerBindingId", *id, "LayerBindingId (int)");
      out_ids.insert(*id);
    }
    if (auto x = attr_int(a, "armnn.index")) range<uint32_t>(issues, out, at + "armnn.index", *x, "LayerBase.index (uint)");
    if (auto x = attr_int(a, "armnn.layerType")) range<uint32_t>(issues, out, at + "armnn.layerType", *x, "LayerBase.layerType (uint)");
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    bool has = std::any_of(g.nodes.begin(), g.nodes.end(), [&](const Node& n) {
      return n.outputs.size() == 1 && n.outputs[0] == g.outputs[k] && attr_int(n.attrs, "armnn.layerBindingId");
    });
    if (!has) out_ids.insert(int64_t(k));
  }
  int64_t scheme = 1;
  for (const char* key : {"armnn.bindingIdsScheme", "armnn.weightsLayoutScheme", "armnn.constantTensorsAsInputs"})
    if (auto x = attr_int(g.metadata, key)) {
      range<uint32_t>(issues, out, std::string("metadata.") + key, *x, "FeatureCompatibilityVersions field (uint)");
      if (std::string_view(key) == "armnn.bindingIdsScheme") scheme = *x;
    }
  for (const char* key : {"armnn.inputIds", "armnn.outputIds"}) {
    const Attr* a = find_attr(g.metadata, key);
    if (!a) continue;
    const std::string where = std::string("metadata.") + key;
    if (!a->is<std::vector<int64_t>>()) {
      add(issues, out, ErrorId::AttributeValue, where, "must be a list of integers");
      continue;
    }
    const auto& ids = a->get<std::vector<int64_t>>();
    const bool inputs = std::string_view(key) == "armnn.inputIds";
    const std::set<int64_t>& known = inputs ? in_ids : out_ids;
    for (size_t k = 0; k < ids.size(); ++k) {
      const std::string at = where + "[" + std::to_string(k) + "]";
      if (!fits<int32_t>(ids[k])) {
        range<int32_t>(issues, out, at, ids[k], "inputIds/outputIds element (int)");
      } else if (scheme != 0 && !known.count(ids[k])) {
        add(issues, out, ErrorId::DanglingReference, at,
            std::to_string(ids[k]) + " names no " + (inputs ? "input" : "output") +
                "'s armnn.layerBindingId (bindingIdsScheme " + std::to_string(scheme) +
                ": Arm NN's deserializer looks the layer up by binding id)");
      }
    }
  }
}

}  // namespace nnbridge::formats::armnn
