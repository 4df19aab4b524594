// Graph-editing helpers shared by the rewrite files (rewrite_patterns.cc, rewrite_fold.cc):
// attribute reads with defaults, value creation with unique names, reader/producer indexes and
// node removal with renumbering. Private to sdk/core.
#pragma once

#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::rewrite_detail {

using Ints = std::vector<int64_t>;

inline const Attr* find(const Node& n, const char* k) {
  auto it = n.attrs.find(k);
  return it == n.attrs.end() ? nullptr : &it->second;
}
inline int64_t int_or(const Node& n, const char* k, int64_t def) {
  const Attr* a = find(n, k);
  return a && a->is<int64_t>() ? a->get<int64_t>() : def;
}
inline double float_or(const Node& n, const char* k, double def) {
  const Attr* a = find(n, k);
  return a && a->is<double>() ? a->get<double>() : def;
}
inline std::string str_or(const Node& n, const char* k, const char* def) {
  const Attr* a = find(n, k);
  return a && a->is<std::string>() ? a->get<std::string>() : def;
}
/// Node `i`'s output types that are not fully known, from the op's schema (infer_types): the
/// declared parts kept, the unknown ones filled. True when a type changed; a failing inference
/// changes nothing. (rewrite.cc; infer_missing_types runs it per node.)
bool infer_node_types(Graph& g, std::size_t i);

inline bool valid(const Graph& g, ValueId v) { return v != kNoValue && v < g.values.size(); }
inline const TensorType* type_at(const Graph& g, const Node& n, std::size_t k) {
  return k < n.inputs.size() && valid(g, n.inputs[k]) ? &g.values[n.inputs[k]].type : nullptr;
}

template <class T>
Buffer bytes_of(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}

// Names of every value, for unique names of new values.
class Names {
 public:
  explicit Names(const Graph& g) {
    for (const Value& v : g.values) taken_.insert(v.name);
  }
  std::string unique(const std::string& base) {
    std::string name = base;
    for (int k = 2; taken_.count(name); ++k) name = base + "_" + std::to_string(k);
    taken_.insert(name);
    return name;
  }

 private:
  std::unordered_set<std::string> taken_;
};

inline ValueId add_f32(Graph& g, Names& names, const std::string& base, const std::vector<float>& data, Ints shape) {
  return g.add_value(Value{names.unique(base), TensorType{DataType::Float32, std::move(shape), false, std::nullopt},
                           bytes_of(data), {}});
}
inline ValueId add_tensor(Graph& g, Names& names, const std::string& base, const TensorType& t) {
  return g.add_value(Value{names.unique(base), t, std::nullopt, {}});
}

// How many node inputs and graph outputs read each value.
inline std::vector<int> reader_counts(const Graph& g) {
  std::vector<int> readers(g.values.size(), 0);
  for (const Node& n : g.nodes)
    for (ValueId v : n.inputs)
      if (valid(g, v)) ++readers[v];
  for (ValueId v : g.outputs)
    if (valid(g, v)) ++readers[v];
  return readers;
}
// The node index producing each value (-1: none).
inline std::vector<long> producers(const Graph& g) {
  std::vector<long> p(g.values.size(), -1);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (ValueId v : g.nodes[i].outputs)
      if (valid(g, v)) p[v] = long(i);
  return p;
}

// Keeps the values marked in `keep` (one flag per value), in order, and renumbers every reference
// of nodes, graph inputs and graph outputs to them. References to dropped values must not remain.
inline void keep_values(Graph& g, const std::vector<bool>& keep) {
  const std::size_t nv = g.values.size();
  std::vector<ValueId> to(nv, kNoValue);
  std::vector<Value> values;
  values.reserve(nv);
  for (ValueId v = 0; v < nv; ++v)
    if (keep[v]) {
      to[v] = ValueId(values.size());
      values.push_back(std::move(g.values[v]));
    }
  g.values = std::move(values);
  auto map = [&](ValueId& v) {
    if (v != kNoValue && v < nv) v = to[v];
  };
  for (Node& n : g.nodes) {
    for (ValueId& v : n.inputs) map(v);
    for (ValueId& v : n.outputs) map(v);
  }
  for (ValueId& v : g.inputs) map(v);
  for (ValueId& v : g.outputs) map(v);
}

// Removes nodes marked in `drop`, then the constants and node-less values nothing reads any more
// (graph inputs and outputs stay), renumbering the rest.
inline void remove_nodes(Graph& g, const std::vector<bool>& drop) {
  std::vector<Node> kept;
  kept.reserve(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  const std::size_t nv = g.values.size();
  std::vector<bool> used(nv, false);
  for (const Node& n : g.nodes) {
    for (ValueId v : n.inputs)
      if (valid(g, v)) used[v] = true;
    for (ValueId v : n.outputs)
      if (valid(g, v)) used[v] = true;
  }
  for (ValueId v : g.inputs)
    if (v < nv) used[v] = true;
  for (ValueId v : g.outputs)
    if (v < nv) used[v] = true;
  keep_values(g, used);
}

}  // namespace nnbridge::rewrite_detail
