// Pairing two graphs' inputs, nodes and outputs (nnbridge/diff.h "Matching"): maps by name,
// then a hashed topological signature per node, never a search over all pairs.
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"

namespace nnbridge::diff_detail {

namespace {

// Positions of `names` that occur once, by name (empty names left out).
std::map<std::string, std::size_t> unique_names(const std::vector<std::string>& names) {
  std::map<std::string, std::size_t> at;
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    if (++seen[names[i]] == 1) at[names[i]] = i;
    else at.erase(names[i]);
  }
  return at;
}

std::vector<std::string> value_names(const Graph& g, const std::vector<ValueId>& ids) {
  std::vector<std::string> out;
  for (ValueId v : ids) out.push_back(v < g.values.size() ? g.values[v].name : std::string());
  return out;
}

// Pairs positions of two lists by unique name (unless ignore_names), then `extra` (which may pair
// more), then what is left in order. Returns the pairs sorted by A's position.
template <class Extra>
std::vector<std::pair<std::size_t, std::size_t>> pair_lists(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                                             bool ignore_names, Extra extra) {
  std::vector<std::size_t> a_to(a.size(), SIZE_MAX);
  std::vector<bool> b_used(b.size(), false);
  if (!ignore_names) {
    auto bn = unique_names(b);
    for (const auto& [name, i] : unique_names(a))
      if (auto it = bn.find(name); it != bn.end()) a_to[i] = it->second, b_used[it->second] = true;
  }
  extra(a_to, b_used);
  std::size_t j = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a_to[i] != SIZE_MAX) continue;
    while (j < b.size() && b_used[j]) ++j;
    if (j == b.size()) break;
    a_to[i] = j, b_used[j] = true;
  }
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a_to[i] != SIZE_MAX) out.emplace_back(i, a_to[i]);
  return out;
}

// Node indices in topological order, or in stored order for a graph with a cycle.
std::vector<std::size_t> visit_order(const Graph& g) {
  try {
    return topological_order(g);
  } catch (const Error&) {
    std::vector<std::size_t> order(g.nodes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    return order;
  }
}

class Matcher {
 public:
  Matcher(const Graph& a, const Graph& b, bool ignore_names) : a_(a), b_(b), ignore_names_(ignore_names) {
    m_.a_to_b.assign(a.values.size(), kNoValue);
    m_.b_to_a.assign(b.values.size(), kNoValue);
    a_node_.assign(a.nodes.size(), SIZE_MAX);
    b_node_.assign(b.nodes.size(), SIZE_MAX);
  }

  Matching run() {
    m_.inputs = pair_lists(value_names(a_, a_.inputs), value_names(b_, b_.inputs), ignore_names_,
                           [](std::vector<std::size_t>&, std::vector<bool>&) {});
    for (const auto& [i, j] : m_.inputs) link(a_.inputs[i], b_.inputs[j]);
    if (!ignore_names_) by_name();
    by_topology();
    // Graph outputs: by name, then by the values' correspondence, then by position.
    m_.outputs = pair_lists(value_names(a_, a_.outputs), value_names(b_, b_.outputs), ignore_names_,
                            [this](std::vector<std::size_t>& a_to, std::vector<bool>& b_used) {
                              std::map<ValueId, std::size_t> b_pos;
                              for (std::size_t j = 0; j < b_.outputs.size(); ++j)
                                if (!b_used[j]) b_pos.emplace(b_.outputs[j], j);
                              for (std::size_t i = 0; i < a_.outputs.size(); ++i) {
                                const ValueId v = a_.outputs[i];
                                if (a_to[i] != SIZE_MAX || v >= m_.a_to_b.size() || m_.a_to_b[v] == kNoValue) continue;
                                auto it = b_pos.find(m_.a_to_b[v]);
                                if (it == b_pos.end() || b_used[it->second]) continue;
                                a_to[i] = it->second, b_used[it->second] = true;
                              }
                            });
    for (std::size_t i = 0; i < a_.nodes.size(); ++i)
      if (a_node_[i] != SIZE_MAX) m_.nodes.push_back({i, a_node_[i], by_[i]});
    return std::move(m_);
  }

 private:
  void link(ValueId va, ValueId vb) {
    if (va >= m_.a_to_b.size() || vb >= m_.b_to_a.size()) return;
    if (m_.a_to_b[va] != kNoValue || m_.b_to_a[vb] != kNoValue) return;
    m_.a_to_b[va] = vb, m_.b_to_a[vb] = va;
  }

  void pair_nodes(std::size_t i, std::size_t j, NodeMatch::By by) {
    a_node_[i] = j, b_node_[j] = i;
    by_[i] = by;
    const Node &na = a_.nodes[i], &nb = b_.nodes[j];
    for (std::size_t k = 0; k < na.outputs.size() && k < nb.outputs.size(); ++k) link(na.outputs[k], nb.outputs[k]);
  }

  void by_name() {
    std::vector<std::string> an, bn;
    for (const Node& n : a_.nodes) an.push_back(n.name);
    for (const Node& n : b_.nodes) bn.push_back(n.name);
    auto b_at = unique_names(bn);
    for (const auto& [name, i] : unique_names(an))
      if (auto it = b_at.find(name); it != b_at.end()) pair_nodes(i, it->second, NodeMatch::By::Name);
  }

  bool is_constant(const Graph& g, ValueId v) const { return v < g.values.size() && g.values[v].is_constant(); }

  // The signature of a node's inputs: the B value ids of its inputs that are neither absent nor
  // constants (those say nothing of where a node sits, and formats differ in which operands
  // they spell out), and its output count. For an A node the ids are those its inputs
  // correspond to; false when one has none yet.
  bool inputs_key(const Graph& g, const Node& n, bool from_a, std::string& key) const {
    for (ValueId v : n.inputs) {
      if (v == kNoValue || is_constant(g, v)) continue;
      ValueId id = v;
      if (from_a) {
        if (v >= m_.a_to_b.size() || m_.a_to_b[v] == kNoValue) return false;
        id = m_.a_to_b[v];
      }
      key += std::to_string(id) + ",";
    }
    key += "/" + std::to_string(n.outputs.size());
    return true;
  }

  void by_topology() {
    // Unpaired B nodes by signature, with and without the op; each bucket in B's node order.
    std::unordered_map<std::string, std::vector<std::size_t>> strict, loose;
    for (std::size_t j = 0; j < b_.nodes.size(); ++j) {
      if (b_node_[j] != SIZE_MAX) continue;
      std::string key;
      inputs_key(b_, b_.nodes[j], false, key);
      strict[b_.nodes[j].op + '\n' + key].push_back(j);
      loose[key].push_back(j);
    }
    std::unordered_map<std::string, std::size_t> strict_next, loose_next;  // first bucket entry maybe unpaired
    auto take = [this](std::unordered_map<std::string, std::vector<std::size_t>>& buckets,
                       std::unordered_map<std::string, std::size_t>& next, const std::string& key) -> std::size_t {
      auto it = buckets.find(key);
      if (it == buckets.end()) return SIZE_MAX;
      std::size_t& k = next[key];
      while (k < it->second.size() && b_node_[it->second[k]] != SIZE_MAX) ++k;
      return k < it->second.size() ? it->second[k] : SIZE_MAX;
    };
    const std::vector<std::size_t> order = visit_order(a_);
    // Pass 1 pairs same-op nodes only, so that a node with a changed op cannot take the
    // counterpart of a later unchanged one; pass 2 pairs what pass 1 left, another op only when
    // neither op has an unpaired node left on the other side (a Conv the other graph wrapped in
    // Transposes is not a Conv changed into a Transpose).
    std::map<std::string, std::size_t> a_left, b_left;  // unpaired nodes per op
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        for (std::size_t i = 0; i < a_.nodes.size(); ++i)
          if (a_node_[i] == SIZE_MAX) ++a_left[a_.nodes[i].op];
        for (std::size_t j = 0; j < b_.nodes.size(); ++j)
          if (b_node_[j] == SIZE_MAX) ++b_left[b_.nodes[j].op];
      }
      for (std::size_t i : order) {
        if (a_node_[i] != SIZE_MAX) continue;
        std::string key;
        if (!inputs_key(a_, a_.nodes[i], true, key)) continue;
        const std::string& op = a_.nodes[i].op;
        std::size_t j = take(strict, strict_next, op + '\n' + key);
        if (j == SIZE_MAX && pass == 1) {
          j = take(loose, loose_next, key);
          if (j != SIZE_MAX && (b_left[op] > 0 || a_left[b_.nodes[j].op] > 0)) j = SIZE_MAX;
        }
        if (j == SIZE_MAX) continue;
        pair_nodes(i, j, NodeMatch::By::Topology);
        if (pass == 1) --a_left[op], --b_left[b_.nodes[j].op];
      }
    }
  }

  const Graph& a_;
  const Graph& b_;
  bool ignore_names_;
  Matching m_;
  std::vector<std::size_t> a_node_, b_node_;
  std::map<std::size_t, NodeMatch::By> by_;
};

}  // namespace

Matching match(const Graph& a, const Graph& b, bool ignore_names) { return Matcher(a, b, ignore_names).run(); }

}  // namespace nnbridge::diff_detail
