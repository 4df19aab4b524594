// ONNX RNN-14, GRU-14 and LSTM-14 on the opencl backend (kernels/rnn.cl): the node read by
// cpu_ref/src/kernels/rnn.cc's rules (shapes, directions, layouts, activations with their
// alpha / beta defaults, clip, the same refusals), one work item per direction and batch row.
#include <algorithm>
#include <string>
#include <vector>

#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

// The activation list as rnn.cl's (kind, alpha, beta) triples, per_dir per direction.
std::vector<float> read_acts(const KernelContext& k, std::size_t per_dir, const std::vector<std::string>& defaults,
                             int64_t dirs) {
  std::vector<std::string> names = defaults;
  if (const Attr* a = k.attr("activations")) {
    if (!a->is<std::vector<std::string>>()) k.invalid(ErrorId::AttributeValue, "activations must be a list of strings");
    names = a->get<std::vector<std::string>>();
  }
  if (names.size() != per_dir && names.size() != per_dir * static_cast<std::size_t>(dirs))
    k.invalid(ErrorId::Shape, "activations has " + std::to_string(names.size()) + " entries, expected " + std::to_string(per_dir) +
              " per direction");
  std::vector<double> alphas, betas;
  if (const Attr* a = k.attr("activation_alpha"); a && a->is<std::vector<double>>()) alphas = a->get<std::vector<double>>();
  if (const Attr* a = k.attr("activation_beta"); a && a->is<std::vector<double>>()) betas = a->get<std::vector<double>>();
  std::size_t ai = 0, bi = 0;
  auto alpha = [&](float def) { return ai < alphas.size() ? static_cast<float>(alphas[ai++]) : def; };
  auto beta = [&](float def) { return bi < betas.size() ? static_cast<float>(betas[bi++]) : def; };
  std::vector<float> acts;
  for (const std::string& n : names) {
    float kind = 0, a = 0, b = 0;
    if (n == "Sigmoid") kind = 0;
    else if (n == "Tanh") kind = 1;
    else if (n == "Relu") kind = 2;
    else if (n == "Affine") kind = 3, a = alpha(1.f), b = beta(0.f);
    else if (n == "LeakyRelu") kind = 4, a = alpha(0.01f);
    else if (n == "ThresholdedRelu") kind = 5, a = alpha(1.f);
    else if (n == "ScaledTanh") kind = 6, a = alpha(1.f), b = beta(1.f);
    else if (n == "HardSigmoid") kind = 7, a = alpha(0.2f), b = beta(0.5f);
    else if (n == "Elu") kind = 8, a = alpha(1.f);
    else if (n == "Softsign") kind = 9;
    else if (n == "Softplus") kind = 10;
    else k.unsupported("activation " + n);
    acts.insert(acts.end(), {kind, a, b});
  }
  if (names.size() == per_dir && dirs == 2) acts.insert(acts.end(), acts.begin(), acts.end());
  return acts;
}

// G gates per cell: RNN 1, GRU 3, LSTM 4.
OpFactory rnn(int G) {
  return [G](const OpContext& c) -> Launch {
    const KernelContext& k = c.k;
    const char* op = G == 1 ? "RNN" : G == 3 ? "GRU" : "LSTM";
    const std::string label = std::string(op) + " node '" + k.node.name + "'";
    const std::string dir = k.attr_string("direction", "forward");
    if (dir != "forward" && dir != "reverse" && dir != "bidirectional") k.invalid(ErrorId::AttributeValue, "direction " + dir);
    const int64_t D = dir == "bidirectional" ? 2 : 1;
    const int64_t layout = k.attr_int("layout", 0);
    if (layout != 0 && layout != 1) k.invalid(ErrorId::AttributeValue, "layout must be 0 or 1");
    const bool layout1 = layout == 1;
    const Shape& xs = k.in[0].shape;
    if (xs.size() != 3) k.invalid(ErrorId::Shape, "X must have rank 3");
    const int64_t S = layout1 ? xs[1] : xs[0], B = layout1 ? xs[0] : xs[1], I = xs[2];
    const Shape& rs = k.in[2].shape;
    if (rs.size() != 3) k.invalid(ErrorId::Shape, "R must have rank 3");
    const int64_t H = rs[2], GH = G * H;
    if (k.has_attr("hidden_size") && k.attr_int("hidden_size") != H) k.invalid(ErrorId::Shape, "hidden_size differs from R's last dim");
    auto expect = [&](std::size_t i, int64_t count, const char* what) {
      if (!k.has_input(i)) return false;
      if (numel(k.in[i].shape) != count) k.invalid(ErrorId::Shape, std::string(what) + " must have " + std::to_string(count) + " elements");
      if (is_quantized(k.in[i].dtype)) k.unsupported(ErrorId::DataType, std::string(what) + " of a quantized type");
      return true;
    };
    expect(0, S * B * I, "X");
    if (k.in[1].shape != Shape{D, GH, I}) k.invalid(ErrorId::Shape, "W must be [num_directions, gates * hidden_size, input_size]");
    if (rs != Shape{D, GH, H}) k.invalid(ErrorId::Shape, "R must be [num_directions, gates * hidden_size, hidden_size]");
    const bool has_b = expect(3, D * 2 * GH, "B"), has_len = expect(4, B, "sequence_lens");
    const bool has_h0 = expect(5, D * B * H, "initial_h");
    bool has_c0 = false, has_p = false;
    if (G == 4) {
      has_c0 = expect(6, D * B * H, "initial_c");
      has_p = expect(7, D * 3 * H, "P");
      if (k.attr_int("input_forget", 0) != 0) k.unsupported("input_forget 1");
    }
    const bool lbr = G == 3 && k.attr_int("linear_before_reset", 0) != 0;
    float clip = 0;
    if (k.has_attr("clip")) {
      clip = static_cast<float>(k.attr_float("clip"));
      if (!(clip > 0)) k.invalid(ErrorId::AttributeValue, "clip must be > 0");
    }
    const std::size_t per_dir = G == 1 ? 1 : G == 3 ? 2 : 3;
    const std::vector<std::string> defaults = G == 1   ? std::vector<std::string>{"Tanh"}
                                              : G == 3 ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                                       : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    const std::vector<float> acts = read_acts(k, per_dir, defaults, D);
    const Shape ys = layout1 ? Shape{B, S, D, H} : Shape{S, D, B, H};
    const Shape hs = layout1 ? Shape{B, D, H} : Shape{D, B, H};
    const std::size_t n_out = k.out.size();
    if (n_out > (G == 4 ? 3u : 2u)) k.invalid(ErrorId::Arity, "too many outputs");
    for (std::size_t o = 0; o < n_out; ++o)
      if (k.out[o].shape != (o == 0 ? ys : hs)) k.invalid(ErrorId::Shape, "output " + std::to_string(o) + " has the wrong shape");
    std::vector<int> g;
    for (int64_t v : {S, B, I, H, D, int64_t{G}, int64_t{layout1}, int64_t{dir == "reverse"}, int64_t{lbr}, int64_t{has_b},
                      int64_t{has_len}, int64_t{has_h0}, int64_t{has_c0}, int64_t{has_p}, static_cast<int64_t>(n_out),
                      static_cast<int64_t>(per_dir)})
      g.push_back(c.to_int(v));
    c.to_int(numel(xs));
    c.to_int(numel(ys));
    c.to_int(D * GH * std::max(I, H));
    const int64_t items = D * B, scratch_n = c.to_int(items * (3 + G) * H);
    cl::Buffer gb = c.ints(g), ab = c.floats(acts);
    cl::Buffer scratch(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(scratch_n, 1)) * sizeof(float));
    cl::Kernel kern = c.kernel("rnn.cl", "rnn");
    const RunValue lens = has_len ? RunValue(k, 4) : RunValue();
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      if (has_len) {
        const std::vector<float> l = lens.get(dev, in[4]);
        for (std::size_t b = 0; b < l.size(); ++b)
          if (!(l[b] >= 0 && l[b] <= static_cast<float>(S)))
            throw Error(ErrorId::Shape, label + ": sequence_lens[" + std::to_string(b) + "] = " + std::to_string(l[b]) +
                                                " is outside [0, " + std::to_string(S) + "]");
      }
      auto input = [&](std::size_t i) { return i < in.size() ? in[i] : in[0]; };
      set_args(kern, in[0], in[1], in[2], input(3), input(4), input(5), input(6), input(7), out[0],
               n_out > 1 ? out[1] : out[0], n_out > 2 ? out[2] : out[0], scratch, gb, ab, clip);
      enqueue(dev, kern, items);
    };
  };
}

}  // namespace

void add_rnn_ops(OpTable& t) {
  t["RNN"] = rnn(1);
  t["GRU"] = rnn(3);
  t["LSTM"] = rnn(4);
}

}  // namespace nnbridge::gpu
