// Canonical ops that ONNX opset 17 has no operator or attribute for, as the ONNX operators that
// compute them (nnbridge/rewrite.h "ONNX forms"). Each rewrite is one pass over the nodes that
// keeps every other node in place and in order.
#include <algorithm>
#include <cmath>
#include <limits>

#include "nnbridge/error.h"
#include "nnbridge/rewrite.h"
#include "nnbridge/strided_slice.h"
#include "rewrite_edit.h"
#include "rewrite_fold_tensor.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// One pass: `expand(n, out)` appends the node's replacement to `out` and returns true, or returns
// false to keep `n` as it is. `n` may be moved from only when it returns true.
template <class Expand>
std::size_t expand_nodes(Graph& g, Expand expand) {
  std::size_t changed = 0;
  std::vector<Node> in = std::move(g.nodes);
  g.nodes.clear();
  g.nodes.reserve(in.size());
  for (Node& n : in) {
    if (expand(n, g.nodes)) ++changed;
    else g.nodes.push_back(std::move(n));
  }
  return changed;
}

bool one_output(const Graph& g, const Node& n) { return n.outputs.size() == 1 && valid(g, n.outputs[0]); }

ValueId add_i64(Graph& g, Names& names, const std::string& base, const Ints& data) {
  return g.add_value(Value{names.unique(base), TensorType{DataType::Int64, {int64_t(data.size())}, false, std::nullopt},
                           bytes_of(data), {}});
}

}  // namespace

std::size_t square_as_mul(Graph& g) {
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if (n.op != "Square" || n.inputs.size() != 1 || !valid(g, n.inputs[0]) || !one_output(g, n)) return false;
    out.push_back(Node{"Mul", n.name, {n.inputs[0], n.inputs[0]}, n.outputs, {}});
    return true;
  });
}

std::size_t rsqrt_as_reciprocal(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if (n.op != "Rsqrt" || n.inputs.size() != 1 || !valid(g, n.inputs[0]) || !one_output(g, n)) return false;
    const ValueId root = add_tensor(g, names, n.name + "_sqrt", g.values[n.outputs[0]].type);
    out.push_back(Node{"Sqrt", n.name + "_sqrt", {n.inputs[0]}, {root}, {}});
    out.push_back(Node{"Reciprocal", n.name, {root}, n.outputs, {}});
    return true;
  });
}

std::size_t scaled_tanh_as_arithmetic(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "ScaledTanh" || !xt || xt->dtype != DataType::Float32 || n.inputs.size() != 1 || !one_output(g, n)) return false;
    const TensorType t = *xt;
    const double alpha = float_or(n, "alpha", 1.0), beta = float_or(n, "beta", 1.0);
    const ValueId b = add_f32(g, names, n.name + "_beta", {float(beta)}, {});
    const ValueId a = add_f32(g, names, n.name + "_alpha", {float(alpha)}, {});
    const ValueId scaled = add_tensor(g, names, n.name + "_scaled", t);
    const ValueId tanh = add_tensor(g, names, n.name + "_tanh", t);
    out.push_back(Node{"Mul", n.name + "_scaled", {n.inputs[0], b}, {scaled}, {}});
    out.push_back(Node{"Tanh", n.name + "_tanh", {scaled}, {tanh}, {}});
    out.push_back(Node{"Mul", n.name, {tanh, a}, n.outputs, {}});
    return true;
  });
}

std::size_t not_equal_as_not(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if (n.op != "NotEqual" || n.inputs.size() != 2 || !valid(g, n.inputs[0]) || !valid(g, n.inputs[1]) || !one_output(g, n))
      return false;
    const ValueId equal = add_tensor(g, names, n.name + "_equal", g.values[n.outputs[0]].type);
    out.push_back(Node{"Equal", n.name + "_equal", n.inputs, {equal}, {}});
    out.push_back(Node{"Not", n.name, {equal}, n.outputs, {}});
    return true;
  });
}

std::size_t squared_difference_as_sub_mul(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if (n.op != "SquaredDifference" || n.inputs.size() != 2 || !valid(g, n.inputs[0]) || !valid(g, n.inputs[1]) ||
        !one_output(g, n))
      return false;
    const ValueId d = add_tensor(g, names, n.name + "_difference", g.values[n.outputs[0]].type);
    out.push_back(Node{"Sub", n.name + "_difference", n.inputs, {d}, {}});
    out.push_back(Node{"Mul", n.name, {d, d}, n.outputs, {}});
    return true;
  });
}

std::size_t stack_as_concat(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if (n.op != "Stack" || n.inputs.empty() || !one_output(g, n)) return false;
    for (ValueId v : n.inputs)
      if (!valid(g, v)) return false;
    // Stack's axis counts in the output's rank r + 1, as Unsqueeze-13's axes and then Concat's
    // axis do, so a negative one carries over unchanged.
    const int64_t axis = int_or(n, "axis", 0);
    const ValueId axes = add_i64(g, names, n.name + "_axes", {axis});
    std::vector<ValueId> parts;
    for (std::size_t k = 0; k < n.inputs.size(); ++k) {
      TensorType t = g.values[n.inputs[k]].type;
      if (!t.unknown_rank) {
        const int64_t r = int64_t(t.shape.size()) + 1;
        const int64_t at = axis < 0 ? axis + r : axis;
        if (at < 0 || at >= r) return false;  // the checker names it
        t.shape.insert(t.shape.begin() + at, 1);
      }
      const std::string name = n.name + "_unsqueeze_" + std::to_string(k);
      parts.push_back(add_tensor(g, names, name, t));
      out.push_back(Node{"Unsqueeze", name, {n.inputs[k], axes}, {parts.back()}, {}});
    }
    out.push_back(Node{"Concat", n.name, std::move(parts), n.outputs, {{"axis", Attr(axis)}}});
    return true;
  });
}

std::size_t arg_index_as_int64(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    if ((n.op != "ArgMax" && n.op != "ArgMin") || !one_output(g, n)) return false;
    const TensorType& yt = g.values[n.outputs[0]].type;
    if (yt.dtype != DataType::Int32) return false;
    TensorType wide = yt;
    wide.dtype = DataType::Int64;
    const ValueId index = add_tensor(g, names, n.name + "_int64", wide);
    const ValueId y = n.outputs[0];
    n.outputs = {index};
    const std::string name = n.name;
    out.push_back(std::move(n));
    out.push_back(Node{"Cast", name + "_to_int32", {index}, {y}, {{"to", Attr("int32")}}});
    return true;
  });
}

std::size_t shape_input_as_int64(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* st = type_at(g, n, 0);
    if (n.op != "ConstantOfShape" || !st || st->dtype != DataType::Int32) return false;
    TensorType wide = *st;
    wide.dtype = DataType::Int64;
    const ValueId shape = add_tensor(g, names, n.name + "_shape_int64", wide);
    out.push_back(Node{"Cast", n.name + "_shape_to_int64", {n.inputs[0]}, {shape}, {{"to", Attr("int64")}}});
    n.inputs[0] = shape;
    out.push_back(std::move(n));
    return true;
  });
}

std::size_t instance_norm_scale_inputs(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "InstanceNormalization" || n.inputs.size() != 1 || !xt || xt->dtype != DataType::Float32 ||
        xt->unknown_rank || xt->shape.size() < 3 || str_or(n, "data_layout", "NCHW") != "NCHW")
      return false;
    const int64_t c = xt->shape[1];
    if (c <= 0) return false;
    const double gamma = float_or(n, "gamma", 1.0), beta = float_or(n, "beta", 0.0);
    const ValueId scale = add_f32(g, names, n.name + "_scale", std::vector<float>(std::size_t(c), float(gamma)), {c});
    const ValueId bias = add_f32(g, names, n.name + "_B", std::vector<float>(std::size_t(c), float(beta)), {c});
    n.inputs = {n.inputs[0], scale, bias};
    n.attrs.erase("gamma");
    n.attrs.erase("beta");
    out.push_back(std::move(n));
    return true;
  });
}

std::size_t lp_normalization_epsilon_as_arithmetic(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    const double eps = float_or(n, "epsilon", 0.0);
    if (n.op != "LpNormalization" || !(eps > 0) || int_or(n, "p", 2) != 2 || !xt || xt->dtype != DataType::Float32 ||
        xt->unknown_rank || n.inputs.size() != 1 || !one_output(g, n))
      return false;
    const TensorType t = *xt;
    const int64_t r = int64_t(t.shape.size());
    int64_t axis = int_or(n, "axis", -1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) return false;
    TensorType reduced = t;
    reduced.shape[std::size_t(axis)] = 1;
    const ValueId x = n.inputs[0];
    const std::string& base = n.name;
    const ValueId square = add_tensor(g, names, base + "_square", t);
    const ValueId sum = add_tensor(g, names, base + "_sum", reduced);
    const ValueId floor = add_tensor(g, names, base + "_max", reduced);
    const ValueId norm = add_tensor(g, names, base + "_norm", reduced);
    const ValueId axes = add_i64(g, names, base + "_axes", {axis});
    const ValueId e = add_f32(g, names, base + "_epsilon", {float(eps)}, {});
    out.push_back(Node{"Mul", base + "_square", {x, x}, {square}, {}});
    out.push_back(Node{"ReduceSum", base + "_sum", {square, axes}, {sum}, {{"keepdims", Attr(int64_t{1})}}});
    out.push_back(Node{"Max", base + "_max", {sum, e}, {floor}, {}});
    out.push_back(Node{"Sqrt", base + "_norm", {floor}, {norm}, {}});
    out.push_back(Node{"Div", base, {x, norm}, n.outputs, {}});
    return true;
  });
}

std::size_t lp_pool_mean_as_average(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "LpPool" || int_or(n, "mean", 0) != 1 || int_or(n, "p", 2) != 2 || !xt || xt->dtype != DataType::Float32 ||
        n.inputs.size() != 1 || !one_output(g, n))
      return false;
    // AveragePool-11 (opset 17) has no dilations.
    if (const Attr* d = find(n, "dilations"); d && d->is<Ints>()) {
      const Ints& ds = d->get<Ints>();
      if (std::any_of(ds.begin(), ds.end(), [](int64_t v) { return v != 1; })) return false;
    }
    const ValueId square = add_tensor(g, names, n.name + "_square", *xt);
    const ValueId mean = add_tensor(g, names, n.name + "_mean", g.values[n.outputs[0]].type);
    AttrMap attrs = n.attrs;
    attrs.erase("p");
    attrs.erase("mean");
    attrs.erase("dilations");
    out.push_back(Node{"Mul", n.name + "_square", {n.inputs[0], n.inputs[0]}, {square}, {}});
    out.push_back(Node{"AveragePool", n.name + "_mean", {square}, {mean}, std::move(attrs)});
    out.push_back(Node{"Sqrt", n.name, {mean}, n.outputs, {}});
    return true;
  });
}

std::size_t strided_slice_as_slice(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "StridedSlice" || !xt || xt->unknown_rank || !one_output(g, n) || int_or(n, "ellipsis_mask", 0) != 0 ||
        int_or(n, "new_axis_mask", 0) != 0)
      return false;
    const Attr* ba = find(n, "begin");
    const Attr* ea = find(n, "end");
    const Attr* sa = find(n, "strides");
    if (!ba || !ea || !ba->is<Ints>() || !ea->is<Ints>() || (sa && !sa->is<Ints>())) return false;
    const Ints& begin = ba->get<Ints>();
    const Ints strides = sa ? sa->get<Ints>() : Ints(begin.size(), 1);
    const Ints dims = xt->shape;
    if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })) return false;
    std::vector<StridedDim> resolved;
    try {
      resolved = resolve_strided_slice(dims, begin, ea->get<Ints>(), strides, int_or(n, "begin_mask", 0),
                                       int_or(n, "end_mask", 0), int_or(n, "shrink_axis_mask", 0));
    } catch (const Error&) {
      return false;  // the checker names it
    }
    // Stated so that ONNX Slice-13's own clamping keeps each resolved range: an end of -1 (before
    // the first element, a negative step) as INT64_MIN, since -1 would mean the last element.
    Ints starts, ends, axes, steps, shape, squeezed;
    for (std::size_t d = 0; d < resolved.size(); ++d) {
      const StridedDim& s = resolved[d];
      shape.push_back(s.count);
      if (s.shrink) squeezed.push_back(int64_t(d));
      if (d >= begin.size()) continue;
      starts.push_back(s.begin);
      ends.push_back(s.end < 0 ? std::numeric_limits<int64_t>::min() : s.end);
      axes.push_back(int64_t(d));
      steps.push_back(s.step);
    }
    TensorType sliced = *xt;
    sliced.shape = shape;
    const std::string& base = n.name;
    const ValueId s0 = add_i64(g, names, base + "_starts", starts), s1 = add_i64(g, names, base + "_ends", ends);
    const ValueId s2 = add_i64(g, names, base + "_axes", axes), s3 = add_i64(g, names, base + "_steps", steps);
    if (squeezed.empty()) {
      out.push_back(Node{"Slice", base, {n.inputs[0], s0, s1, s2, s3}, n.outputs, {}});
      return true;
    }
    const ValueId cut = add_tensor(g, names, base + "_slice", sliced);
    const ValueId sq = add_i64(g, names, base + "_squeeze_axes", squeezed);
    out.push_back(Node{"Slice", base + "_slice", {n.inputs[0], s0, s1, s2, s3}, {cut}, {}});
    out.push_back(Node{"Squeeze", base, {cut, sq}, n.outputs, {}});
    return true;
  });
}

namespace {

// The steps of a space/batch rearrangement on a rank-4 tensor of known shape, appended to `out`
// as ONNX nodes named after `base`; each returns the new value.
struct Steps {
  Graph& g;
  Names& names;
  std::vector<Node>& out;
  std::string base;
  TensorType type;  // dtype and quantization of every step

  ValueId add(const char* op, const char* what, std::vector<ValueId> in, const Ints& shape, AttrMap attrs = {},
              ValueId to = kNoValue) {
    TensorType t = type;
    t.shape = shape;
    const ValueId v = to != kNoValue ? to : add_tensor(g, names, base + "_" + what, t);
    out.push_back(Node{op, to != kNoValue ? base : base + "_" + what, std::move(in), {v}, std::move(attrs)});
    return v;
  }
  ValueId reshape(const char* what, ValueId x, const Ints& shape, ValueId to = kNoValue) {
    return add("Reshape", what, {x, add_i64(g, names, base + "_" + what + "_shape", shape)}, shape, {}, to);
  }
  ValueId transpose(const char* what, ValueId x, const Ints& in_shape, const Ints& perm, ValueId to = kNoValue) {
    Ints shape;
    for (int64_t p : perm) shape.push_back(in_shape[std::size_t(p)]);
    return add("Transpose", what, {x}, shape, {{"perm", Attr(perm)}}, to);
  }
};

}  // namespace

std::size_t space_batch_as_reshapes(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const bool to_batch = n.op == "SpaceToBatchND";
    const TensorType* xt = type_at(g, n, 0);
    if ((!to_batch && n.op != "BatchToSpaceND") || !xt || xt->unknown_rank || xt->shape.size() != 4 || !one_output(g, n))
      return false;
    const Attr* ba = find(n, "block_shape");
    const Attr* pa = find(n, to_batch ? "pads" : "crops");
    if (!ba || !pa || !ba->is<Ints>() || !pa->is<Ints>() || ba->get<Ints>().size() != 2 || pa->get<Ints>().size() != 4)
      return false;
    const Ints block = ba->get<Ints>(), edges = pa->get<Ints>(), x = xt->shape;
    const bool nhwc = str_or(n, "data_layout", "NCHW") == "NHWC";  // the schema default is NCHW
    const std::size_t h = nhwc ? 1 : 2, w = h + 1, c = nhwc ? 3 : 1;
    const int64_t bh = block[0], bw = block[1], N = x[0], C = x[c];
    if (bh <= 0 || bw <= 0 || std::any_of(x.begin(), x.end(), [](int64_t d) { return d < 0; }) ||
        std::any_of(edges.begin(), edges.end(), [](int64_t d) { return d < 0; }))
      return false;
    Steps s{g, names, out, n.name, *xt};
    const ValueId y = n.outputs[0];
    if (to_batch) {
      // TensorFlow SpaceToBatchND: pad, split each spatial dim into (dim / block, block), move the
      // blocks in front of the batch (block row, block column, batch), merge them into it.
      const int64_t H = x[h] + edges[0] + edges[1], W = x[w] + edges[2] + edges[3];
      if (H % bh || W % bw) return false;
      Ints pads(8, 0);
      pads[h] = edges[0], pads[w] = edges[2], pads[4 + h] = edges[1], pads[4 + w] = edges[3];
      Ints padded = x;
      padded[h] = H, padded[w] = W;
      const ValueId p = s.add("Pad", "pad", {n.inputs[0], add_i64(g, names, n.name + "_pads", pads)}, padded);
      if (nhwc) {
        const Ints split = {N, H / bh, bh, W / bw, bw, C};
        const ValueId r = s.reshape("split", p, split);
        const ValueId t = s.transpose("blocks_first", r, split, {2, 4, 0, 1, 3, 5});
        s.reshape("merge", t, {bh * bw * N, H / bh, W / bw, C}, y);
      } else {
        const Ints split = {N, C, H / bh, bh, W / bw, bw};
        const ValueId r = s.reshape("split", p, split);
        const ValueId t = s.transpose("blocks_first", r, split, {3, 5, 0, 1, 2, 4});
        s.reshape("merge", t, {bh * bw * N, C, H / bh, W / bw}, y);
      }
      return true;
    }
    // TensorFlow BatchToSpaceND: the inverse, then the crops.
    if (N % (bh * bw)) return false;
    const int64_t n0 = N / (bh * bw), H = x[h] * bh, W = x[w] * bw;
    if (edges[0] + edges[1] > H || edges[2] + edges[3] > W) return false;
    Ints whole;
    ValueId merged;
    if (nhwc) {
      const Ints split = {bh, bw, n0, x[h], x[w], C};
      const ValueId r = s.reshape("split", n.inputs[0], split);
      const ValueId t = s.transpose("blocks_inside", r, split, {2, 3, 0, 4, 1, 5});
      whole = {n0, H, W, C};
      merged = s.reshape("merge", t, whole);
    } else {
      const Ints split = {bh, bw, n0, C, x[h], x[w]};
      const ValueId r = s.reshape("split", n.inputs[0], split);
      const ValueId t = s.transpose("blocks_inside", r, split, {2, 3, 4, 0, 5, 1});
      whole = {n0, C, H, W};
      merged = s.reshape("merge", t, whole);
    }
    Ints cropped = whole;
    cropped[h] = H - edges[0] - edges[1], cropped[w] = W - edges[2] - edges[3];
    const ValueId starts = add_i64(g, names, n.name + "_crop_starts", {edges[0], edges[2]});
    const ValueId ends = add_i64(g, names, n.name + "_crop_ends", {H - edges[1], W - edges[3]});
    const ValueId axes = add_i64(g, names, n.name + "_crop_axes", {int64_t(h), int64_t(w)});
    s.add("Slice", "crop", {merged, starts, ends, axes}, cropped, {}, y);
    return true;
  });
}

std::size_t softmax_beta_as_mul(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    const double beta = float_or(n, "beta", 1.0);
    if ((n.op != "Softmax" && n.op != "LogSoftmax") || beta == 1.0 || !xt || xt->dtype != DataType::Float32 || n.inputs.size() != 1 ||
        !one_output(g, n))
      return false;
    const TensorType t = *xt;
    const ValueId b = add_f32(g, names, n.name + "_beta", {float(beta)}, {});
    const ValueId scaled = add_tensor(g, names, n.name + "_scaled", t);
    out.push_back(Node{"Mul", n.name + "_scaled", {n.inputs[0], b}, {scaled}, {}});
    n.inputs[0] = scaled;
    n.attrs.erase("beta");
    out.push_back(std::move(n));
    return true;
  });
}

std::size_t reverse_as_slice(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "ReverseV2" || !xt || xt->unknown_rank || !one_output(g, n)) return false;
    // The axes: constant input 1 (int32 / int64), else attribute `axis`, as the cpu kernel reads them.
    const auto read = ints_operand(g, n, 1, "axis");
    if (!read) return false;
    Ints axes = *read;
    // TensorFlow ReverseV2: a negative axis counts from the back; each axis once.
    const int64_t r = int64_t(xt->shape.size());
    std::vector<bool> seen(std::size_t(std::max<int64_t>(r, 0)), false);
    for (int64_t& a : axes) {
      if (a < -r || a >= r) return false;  // the checker and the kernels name it
      if (a < 0) a += r;
      if (seen[std::size_t(a)]) return false;
      seen[std::size_t(a)] = true;
    }
    if (axes.empty()) {
      out.push_back(Node{"Identity", n.name, {n.inputs[0]}, n.outputs, {}});
      return true;
    }
    // ONNX Slice-13 with step -1: start -1 (the last element), end INT64_MIN (clamped to -1,
    // before the first): every element of each axis, last first.
    const std::size_t k = axes.size();
    const ValueId starts = add_i64(g, names, n.name + "_starts", Ints(k, -1));
    const ValueId ends = add_i64(g, names, n.name + "_ends", Ints(k, std::numeric_limits<int64_t>::min()));
    const ValueId ax = add_i64(g, names, n.name + "_axes", axes);
    const ValueId steps = add_i64(g, names, n.name + "_steps", Ints(k, -1));
    out.push_back(Node{"Slice", n.name, {n.inputs[0], starts, ends, ax, steps}, n.outputs, {}});
    return true;
  });
}

std::size_t channel_shuffle_as_reshapes(Graph& g) {
  Names names(g);
  return expand_nodes(g, [&](Node& n, std::vector<Node>& out) {
    const TensorType* xt = type_at(g, n, 0);
    if (n.op != "ChannelShuffle" || n.inputs.size() != 1 || !xt || !xt->fully_known() || !one_output(g, n)) return false;
    const TensorType x = *xt;  // a copy: adding values below moves g.values
    const int64_t r = int64_t(x.shape.size()), group = int_or(n, "group", 0);
    int64_t axis = int_or(n, "axis", 1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r || group < 1 || x.shape[std::size_t(axis)] % group != 0) return false;
    // Arm NN ChannelShuffle: `axis` reshaped to [group, n / group], the two swapped, flattened back.
    const std::size_t a = std::size_t(axis);
    Ints split(x.shape.begin(), x.shape.begin() + axis);
    split.push_back(group);
    split.push_back(x.shape[a] / group);
    split.insert(split.end(), x.shape.begin() + axis + 1, x.shape.end());
    Ints perm(split.size());
    for (std::size_t d = 0; d < perm.size(); ++d) perm[d] = int64_t(d);
    std::swap(perm[a], perm[a + 1]);
    Ints swapped = split;
    std::swap(swapped[a], swapped[a + 1]);
    TensorType t1 = x, t2 = x;
    t1.shape = split;
    t2.shape = swapped;
    const ValueId v1 = add_tensor(g, names, n.name + "_groups", t1), v2 = add_tensor(g, names, n.name + "_swapped", t2);
    out.push_back(Node{"Reshape", n.name + "_split", {n.inputs[0], add_i64(g, names, n.name + "_split_shape", split)}, {v1}, {}});
    out.push_back(Node{"Transpose", n.name + "_swap", {v1}, {v2}, {{"perm", Attr(perm)}}});
    out.push_back(Node{"Reshape", n.name, {v2, add_i64(g, names, n.name + "_shape", x.shape)}, n.outputs, {}});
    return true;
  });
}

std::size_t onnx_forms(Graph& g) {
  return square_as_mul(g) + rsqrt_as_reciprocal(g) + scaled_tanh_as_arithmetic(g) + not_equal_as_not(g) +
         squared_difference_as_sub_mul(g) +
         stack_as_concat(g) + arg_index_as_int64(g) + shape_input_as_int64(g) + instance_norm_scale_inputs(g) +
         lp_normalization_epsilon_as_arithmetic(g) + lp_pool_mean_as_average(g) + strided_slice_as_slice(g) +
         space_batch_as_reshapes(g) + softmax_beta_as_mul(g) + reverse_as_slice(g) + channel_shuffle_as_reshapes(g);
}

}  // namespace nnbridge
