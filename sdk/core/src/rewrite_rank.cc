// transpose_rank_reduced of nnbridge/rewrite.h: a Transpose of more dims than a format holds, as
// the same permutation of fewer, merged dims between two Reshapes.
#include <algorithm>
#include <vector>

#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// Makes Reshape node r produce `shape` from its input alone (the `shape` attribute, the
// canonical op's Reshape-1 form; no 0 or -1 left to resolve).
void reshape_to(Graph& g, Node& r, const Ints& shape) {
  r.inputs.resize(1);
  r.attrs.erase("allowzero");
  r.attrs["shape"] = Attr(shape);
  g.values[r.outputs[0]].type.shape = shape;
}

}  // namespace

std::size_t transpose_rank_reduced(Graph& g, std::size_t max_rank) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  std::vector<int> readers = reader_counts(g);
  std::vector<long> producer = producers(g);
  std::vector<long> reader(g.values.size(), -1);  // a node reading each value (the one, for one reader)
  for (std::size_t j = 0; j < g.nodes.size(); ++j)
    for (ValueId v : g.nodes[j].inputs)
      if (valid(g, v)) reader[v] = long(j);
  auto track = [&](ValueId v, long made_by, long read_by) {
    if (v >= readers.size()) {
      readers.resize(g.values.size(), 0);
      producer.resize(g.values.size(), -1);
      reader.resize(g.values.size(), -1);
    }
    producer[v] = made_by;
    reader[v] = read_by;
    readers[v] = 1;
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (g.nodes[i].op != "Transpose" || g.nodes[i].inputs.size() != 1 || g.nodes[i].outputs.size() != 1) continue;
    const TensorType* xt = type_at(g, g.nodes[i], 0);
    if (!xt || !xt->fully_known() || xt->shape.size() <= max_rank || !valid(g, g.nodes[i].outputs[0])) continue;
    const TensorType x = *xt, y = g.values[g.nodes[i].outputs[0]].type;
    const std::size_t r = x.shape.size();
    Ints perm(r);
    for (std::size_t d = 0; d < r; ++d) perm[d] = int64_t(r - 1 - d);
    if (const Attr* p = find(g.nodes[i], "perm"); p && p->is<Ints>()) perm = p->get<Ints>();
    Ints sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    bool is_perm = sorted.size() == r;
    for (std::size_t d = 0; is_perm && d < r; ++d) is_perm = sorted[d] == int64_t(d);
    if (!is_perm) continue;
    // ONNX Transpose-13: output dim k is input dim perm[k]. Dims of size 1 carry no order; input
    // dims d, d + 1 that follow each other in perm too move as one dim of their product. Group
    // the remaining input dims so: each group one merged dim.
    std::vector<long> group(r, -1);  // the group of each input dim of size > 1
    std::vector<int64_t> last;       // the input dim last added to each group
    std::vector<std::size_t> order;  // the groups in output order
    for (int64_t d : perm) {
      if (x.shape[std::size_t(d)] == 1) continue;
      if (!order.empty() && last[order.back()] + 1 == d) {
        group[std::size_t(d)] = long(order.back());
        last[order.back()] = d;
      } else {
        group[std::size_t(d)] = long(last.size());
        order.push_back(last.size());
        last.push_back(d);
      }
    }
    const std::size_t k = last.size();
    if (k == 0 || k > max_rank) continue;
    // The merged dims in input order (by the first input dim of each group), with their sizes.
    std::vector<int64_t> first(k, int64_t(r));
    for (std::size_t d = 0; d < r; ++d)
      if (group[d] >= 0) first[std::size_t(group[d])] = std::min<int64_t>(first[std::size_t(group[d])], int64_t(d));
    std::vector<std::size_t> by_input(k);
    for (std::size_t q = 0; q < k; ++q) by_input[q] = q;
    std::sort(by_input.begin(), by_input.end(), [&](std::size_t a, std::size_t b) { return first[a] < first[b]; });
    std::vector<std::size_t> rank_of(k);
    for (std::size_t q = 0; q < k; ++q) rank_of[by_input[q]] = q;
    Ints in_shape(k, 1), new_perm, out_shape;
    for (std::size_t d = 0; d < r; ++d)
      if (group[d] >= 0) in_shape[rank_of[std::size_t(group[d])]] *= x.shape[d];
    for (std::size_t q : order) {
      new_perm.push_back(int64_t(rank_of[q]));
      out_shape.push_back(in_shape[rank_of[q]]);
    }
    // Before: the Reshape producing X (nothing else reading X) now produces the merged shape;
    // else a Reshape is added. After: the one Reshape reading Y reads the merged result (its
    // shape becomes its known output shape); else a Reshape back to Y's shape is added.
    const ValueId xv = g.nodes[i].inputs[0], yv = g.nodes[i].outputs[0];
    const long before = producer[xv], after = readers[yv] == 1 ? reader[yv] : -1;
    const bool merge_before = before >= 0 && g.nodes[std::size_t(before)].op == "Reshape" && readers[xv] == 1;
    const bool merge_after = after >= 0 && g.nodes[std::size_t(after)].op == "Reshape" &&
                             g.nodes[std::size_t(after)].inputs[0] == yv &&
                             valid(g, g.nodes[std::size_t(after)].outputs.at(0)) &&
                             g.values[g.nodes[std::size_t(after)].outputs[0]].type.fully_known();
    const std::string base = g.nodes[i].name.empty() ? g.values[yv].name : g.nodes[i].name;
    if (merge_before) {
      reshape_to(g, g.nodes[std::size_t(before)], in_shape);
    } else {
      TensorType t = x;
      t.shape = in_shape;
      const ValueId in = add_tensor(g, names, base + "_merged_in", t);
      g.add_node(Node{"Reshape", base + "_merge", {xv}, {in}, {{"shape", Attr(in_shape)}}});
      g.nodes[i].inputs[0] = in;
      track(in, long(g.nodes.size() - 1), long(i));
      reader[xv] = long(g.nodes.size() - 1);
    }
    g.nodes[i].attrs["perm"] = Attr(new_perm);
    if (merge_after) {
      Node& ra = g.nodes[std::size_t(after)];
      reshape_to(g, ra, g.values[ra.outputs[0]].type.shape);
      g.values[yv].type.shape = out_shape;
    } else {
      TensorType t = y;
      t.shape = out_shape;
      const ValueId merged = add_tensor(g, names, base + "_merged_out", t);
      g.nodes[i].outputs[0] = merged;
      g.add_node(Node{"Reshape", base + "_split", {merged}, {yv}, {{"shape", Attr(y.shape)}}});
      track(merged, long(i), long(g.nodes.size() - 1));
      producer[yv] = long(g.nodes.size() - 1);
    }
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));  // shape constants left unread
  return changed;
}

}  // namespace nnbridge
