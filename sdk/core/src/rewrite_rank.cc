// The rank narrowing rewrites of nnbridge/rewrite.h, for formats that hold fewer dims than a graph
// uses (Arm NN 5, ExecuTorch's Vulkan tensors 4): transpose_rank_reduced (a Transpose of merged
// dims), gather_before_transpose, gather_of_split_as_slice and unit_dims_dropped.
#include <algorithm>
#include <vector>

#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"
#include "rewrite_fold_tensor.h"

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

namespace {

// The nodes reading each value, in node order.
std::vector<std::vector<std::size_t>> readers_of(const Graph& g) {
  std::vector<std::vector<std::size_t>> r(g.values.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (ValueId v : g.nodes[i].inputs)
      if (valid(g, v) && (r[v].empty() || r[v].back() != i)) r[v].push_back(i);
  return r;
}

// A constant scalar int index: Gather's input 1 as ONNX Gather-13 takes it (rank 0).
bool scalar_index(const Graph& g, const Node& n) {
  if (n.inputs.size() != 2 || !valid(g, n.inputs[1])) return false;
  const Value& v = g.values[n.inputs[1]];
  return v.constant && !v.type.unknown_rank && v.type.shape.empty() &&
         (v.type.dtype == DataType::Int64 || v.type.dtype == DataType::Int32);
}

}  // namespace

std::size_t gather_before_transpose(Graph& g, std::size_t max_rank) {
  std::size_t changed = 0;
  const auto readers = readers_of(g);
  const std::vector<int> counts = reader_counts(g);
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<bool> rewired(g.values.size(), false);  // values a rewritten Gather now reads
  Names names(g);
  const std::size_t count = g.nodes.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (g.nodes[i].op != "Transpose" || g.nodes[i].inputs.size() != 1 || g.nodes[i].outputs.size() != 1) continue;
    const ValueId xv = g.nodes[i].inputs[0], yv = g.nodes[i].outputs[0];
    if (!valid(g, xv) || !valid(g, yv) || rewired[yv] || !g.values[xv].type.fully_known() ||
        g.values[xv].type.shape.size() <= max_rank)
      continue;
    const TensorType x = g.values[xv].type;
    const std::size_t r = x.shape.size();
    Ints perm(r);
    for (std::size_t d = 0; d < r; ++d) perm[d] = int64_t(r - 1 - d);
    if (const Attr* p = find(g.nodes[i], "perm"); p && p->is<Ints>()) perm = p->get<Ints>();
    if (perm.size() != r || readers[yv].empty() || counts[yv] != int(readers[yv].size())) continue;
    bool all_gathers = true;
    for (std::size_t j : readers[yv]) {
      const Node& n = g.nodes[j];
      const int64_t a = int_or(n, "axis", 0);
      all_gathers = all_gathers && n.op == "Gather" && n.inputs[0] == yv && n.outputs.size() == 1 &&
                    scalar_index(g, n) && a >= -int64_t(r) && a < int64_t(r);
    }
    if (!all_gathers) continue;
    // ONNX Transpose-13 then Gather-13 of one index on axis a: output dim k of the Transpose is
    // input dim perm[k], so the index selects input dim perm[a]; the dims left keep their order.
    for (std::size_t j : readers[yv]) {
      int64_t a = int_or(g.nodes[j], "axis", 0);
      if (a < 0) a += int64_t(r);
      const int64_t pa = perm[std::size_t(a)];
      Ints rest;
      for (int64_t p : perm)
        if (p != pa) rest.push_back(p > pa ? p - 1 : p);
      TensorType picked = x;
      picked.shape.erase(picked.shape.begin() + pa);
      const std::string base = g.nodes[j].name.empty() ? g.values[g.nodes[j].outputs[0]].name : g.nodes[j].name;
      const ValueId m = add_tensor(g, names, base + "_picked", picked);
      const ValueId out = g.nodes[j].outputs[0];
      g.nodes[j].inputs[0] = xv;
      g.nodes[j].attrs["axis"] = Attr(pa);
      g.nodes[j].outputs[0] = m;
      g.add_node(Node{"Transpose", base + "_transpose", {m}, {out}, {{"perm", Attr(rest)}}});
    }
    rewired[xv] = true;
    drop[i] = true;
    ++changed;
  }
  if (changed) {
    drop.resize(g.nodes.size(), false);
    remove_nodes(g, drop);
  }
  return changed;
}

std::size_t gather_of_split_as_slice(Graph& g, std::size_t max_rank) {
  std::size_t changed = 0;
  const std::vector<long> producer = producers(g);
  std::vector<int> counts = reader_counts(g);
  std::vector<bool> drop(g.nodes.size(), false);
  Names names(g);
  const std::size_t count = g.nodes.size();
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "Gather" || n.outputs.size() != 1 || !scalar_index(g, n) || !valid(g, n.inputs[0])) continue;
    const ValueId xv = n.inputs[0], out = n.outputs[0];
    const long rp = producer[xv];
    if (rp < 0 || g.nodes[std::size_t(rp)].op != "Reshape" || !valid(g, out) || !g.values[out].type.fully_known()) continue;
    const ValueId yv = g.nodes[std::size_t(rp)].inputs.at(0);
    if (!valid(g, yv) || !g.values[yv].type.fully_known() || !g.values[xv].type.fully_known()) continue;
    const Ints yd = g.values[yv].type.shape, xd = g.values[xv].type.shape;
    if (xd.size() <= max_rank) continue;
    int64_t a = int_or(n, "axis", 0);
    if (a < 0) a += int64_t(xd.size());
    if (a < 0 || a >= int64_t(xd.size()) || a >= int64_t(yd.size())) continue;
    // The Reshape splits Y's dim a into X's dims a .. a + m (the dims before equal, the dims after
    // equal): X's dim a is the outermost of the split, so index i of it is the contiguous range
    // [i * S, (i + 1) * S) of Y's dim a, S the product of the split's other dims.
    const std::size_t ax = std::size_t(a);
    if (!std::equal(yd.begin(), yd.begin() + a, xd.begin())) continue;
    std::size_t end = ax;
    int64_t product = 1;
    while (end < xd.size() && product < yd[ax]) product *= xd[end++];
    if (product != yd[ax] || end - ax < 2 || xd.size() - end != yd.size() - ax - 1 ||
        !std::equal(xd.begin() + std::ptrdiff_t(end), xd.end(), yd.begin() + a + 1))
      continue;
    const int64_t s = yd[ax] / xd[ax];
    int64_t idx = folded_constant(g, n.inputs[1])->ints.at(0);
    if (idx < 0) idx += xd[ax];
    if (idx < 0 || idx >= xd[ax]) continue;
    TensorType sliced = g.values[yv].type;
    sliced.shape[ax] = s;
    const std::string base = n.name.empty() ? g.values[out].name : n.name;
    auto i64 = [&](const std::string& name, int64_t v) {
      return g.add_value(Value{names.unique(base + name), TensorType{DataType::Int64, {1}, false, std::nullopt}, bytes_of(Ints{v}), {}});
    };
    const ValueId z = add_tensor(g, names, base + "_range", sliced);
    const ValueId st = i64("_starts", idx * s), en = i64("_ends", (idx + 1) * s), axv = i64("_axes", a), stp = i64("_steps", 1);
    const Ints out_shape = g.values[out].type.shape;
    g.nodes[i] = Node{"Slice", base + "_slice", {yv, st, en, axv, stp}, {z}, {}};
    g.add_node(Node{"Reshape", base, {z}, {out}, {{"shape", Attr(out_shape)}}});
    // reader_counts counts a graph output as a reader: 0 means nothing reads the Reshape's output.
    if (--counts[xv] == 0) drop[std::size_t(rp)] = true;
    ++changed;
  }
  if (changed) {
    drop.resize(g.nodes.size(), false);
    remove_nodes(g, drop);
  }
  return changed;
}

std::size_t unit_dims_dropped(Graph& g, std::size_t max_rank) {
  static const char* const kOps[] = {"Add", "Sub", "Mul", "Div"};
  std::size_t changed = 0;
  Names names(g);
  std::vector<int> counts = reader_counts(g);
  std::vector<long> producer = producers(g);
  const auto readers = readers_of(g);
  const std::size_t count = g.nodes.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (std::none_of(std::begin(kOps), std::end(kOps), [&](const char* o) { return g.nodes[i].op == o; }) ||
        g.nodes[i].inputs.size() != 2 || g.nodes[i].outputs.size() != 1 || !valid(g, g.nodes[i].outputs[0]))
      continue;
    const ValueId yv = g.nodes[i].outputs[0];
    const TensorType y = g.values[yv].type;
    if (!y.fully_known() || y.shape.size() <= max_rank) continue;
    const std::size_t r = y.shape.size();
    Ints kept;
    for (int64_t d : y.shape)
      if (d != 1) kept.push_back(d);
    bool inputs_known = true;
    for (ValueId v : g.nodes[i].inputs)
      inputs_known = inputs_known && valid(g, v) && g.values[v].type.fully_known() && g.values[v].type.shape.size() <= r;
    if (kept.size() > max_rank || !inputs_known) continue;
    // Numpy broadcasting (ONNX Add-14 ...): an operand's dims align with the output's last ones,
    // and where the output has a 1 every operand has a 1: dropping those dims everywhere keeps
    // each element's operands.
    const std::string base = g.nodes[i].name.empty() ? g.values[yv].name : g.nodes[i].name;
    for (std::size_t k = 0; k < 2; ++k) {
      const ValueId v = g.nodes[i].inputs[k];
      const TensorType t = g.values[v].type;
      const std::size_t off = r - t.shape.size();
      Ints shape;
      for (std::size_t d = off; d < r; ++d)
        if (y.shape[d] != 1) shape.push_back(t.shape[d - off]);
      if (shape == t.shape) continue;
      TensorType nt = t;
      nt.shape = shape;
      const long p = producer[v];
      if (g.values[v].constant) {
        const ValueId c = g.add_value(Value{names.unique(g.values[v].name + "_narrow"), nt, g.values[v].constant, {}});
        g.nodes[i].inputs[k] = c;
      } else if (p >= 0 && g.nodes[std::size_t(p)].op == "Reshape" && counts[v] == 1) {
        reshape_to(g, g.nodes[std::size_t(p)], shape);
      } else {
        const ValueId m = add_tensor(g, names, base + "_in" + std::to_string(k), nt);
        g.add_node(Node{"Reshape", base + "_narrow_" + std::to_string(k), {v}, {m}, {{"shape", Attr(shape)}}});
        g.nodes[i].inputs[k] = m;
      }
    }
    const long after = counts[yv] == 1 && readers[yv].size() == 1 ? long(readers[yv][0]) : -1;
    if (after >= 0 && g.nodes[std::size_t(after)].op == "Reshape" && g.nodes[std::size_t(after)].inputs[0] == yv &&
        valid(g, g.nodes[std::size_t(after)].outputs.at(0)) &&
        g.values[g.nodes[std::size_t(after)].outputs[0]].type.fully_known()) {
      Node& ra = g.nodes[std::size_t(after)];
      reshape_to(g, ra, g.values[ra.outputs[0]].type.shape);
      g.values[yv].type.shape = kept;
    } else {
      TensorType nt = y;
      nt.shape = kept;
      const ValueId m = add_tensor(g, names, base + "_narrow_out", nt);
      g.nodes[i].outputs[0] = m;
      g.add_node(Node{"Reshape", base + "_widen", {m}, {yv}, {{"shape", Attr(y.shape)}}});
    }
    counts.resize(g.values.size(), 0);
    producer.resize(g.values.size(), -1);
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

}  // namespace nnbridge
