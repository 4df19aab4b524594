// ONNX RNN-14, GRU-14 and LSTM-14: forward, reverse and bidirectional, layout 0 and 1,
// optional B, sequence_lens, initial_h, initial_c and (LSTM) the peephole weights P.
//
// Inputs X [S, B, I] (layout 1: [B, S, I]), W [D, G*H, I], R [D, G*H, H], B [D, 2*G*H] (Wb then
// Rb), sequence_lens [B], initial_h / initial_c [D, B, H] (layout 1: [B, D, H]), P [D, 3H]
// (i, o, f); G gates per cell: RNN 1, GRU 3 (z, r, h), LSTM 4 (i, o, f, c). Outputs Y [S, D, B, H]
// (layout 1: [B, S, D, H]), Y_h and (LSTM) Y_c [D, B, H] (layout 1: [B, D, H]).
// Per row b and direction d (0 forward, 1 reverse with "bidirectional"), the steps run over
// t < sequence_lens[b] (all S without it), reversed for the reverse direction; Y is 0 at the
// steps after a row's length and Y_h / Y_c hold the state after its last step. Each gate's
// pre-activation x_t W_g^T + h R_g^T + Wb_g + Rb_g is summed in double, then:
//   RNN:  h = f(pre)
//   GRU:  z = f(pre_z), r = f(pre_r); h~ = g(x W_h^T + (r * h) R_h^T + Wb_h + Rb_h), or with
//         linear_before_reset g(x W_h^T + Wb_h + r * (h R_h^T + Rb_h)); h = (1 - z) * h~ + z * h
//   LSTM: the shared cell (lstm_cell.h) with f, g, h the three activations.
// `clip` bounds every pre-activation to [-clip, clip] before its function (after LSTM's
// peephole term, as onnxruntime applies it). Activations default to Tanh (RNN), Sigmoid, Tanh
// (GRU), Sigmoid, Tanh, Tanh (LSTM); a list of one direction's worth serves both directions.
// activation_alpha / activation_beta are consumed in order by the functions that take them,
// others default as the ONNX operators of the same names (LeakyRelu 0.01, ThresholdedRelu 1,
// HardSigmoid 0.2 / 0.5, Elu 1, Affine / ScaledTanh 1 / 0 and 1 / 1). LSTM input_forget 1 is
// Error(Unsupported). A sequence length outside [0, S] is Error(Invalid) at run time.
#include <algorithm>
#include <cmath>

#include "lstm_cell.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Cell { Rnn, Gru, Lstm };

struct RnnGeom {
  Cell cell = Cell::Rnn;
  int64_t S = 0, B = 0, I = 0, H = 0, D = 1, G = 1;
  bool layout1 = false, reverse = false, lbr = false;
  bool has_b = false, has_len = false, has_h0 = false, has_c0 = false, has_p = false;
  float clip = 0;  // 0: no clip
  std::vector<CellAct> acts;  // per direction, `per_dir` each
  std::size_t per_dir = 1;
  std::string label;
  int64_t x_at(int64_t t, int64_t b) const { return (layout1 ? b * S + t : t * B + b) * I; }
  int64_t y_at(int64_t t, int64_t d, int64_t b) const { return (layout1 ? (b * S + t) * D + d : (t * D + d) * B + b) * H; }
  int64_t h_at(int64_t d, int64_t b) const { return (layout1 ? b * D + d : d * B + b) * H; }
};

std::vector<CellAct> read_acts(const KernelContext& ctx, std::size_t per_dir, const std::vector<std::string>& defaults, int64_t dirs) {
  std::vector<std::string> names = defaults;
  if (const Attr* a = ctx.attr("activations")) {
    if (!a->is<std::vector<std::string>>()) ctx.invalid(ErrorId::AttributeValue, "activations must be a list of strings");
    names = a->get<std::vector<std::string>>();
  }
  if (names.size() != per_dir && names.size() != per_dir * static_cast<std::size_t>(dirs))
    ctx.invalid(ErrorId::Shape, "activations has " + std::to_string(names.size()) + " entries, expected " + std::to_string(per_dir) +
                " per direction");
  std::vector<double> alphas, betas;
  if (const Attr* a = ctx.attr("activation_alpha"); a && a->is<std::vector<double>>()) alphas = a->get<std::vector<double>>();
  if (const Attr* a = ctx.attr("activation_beta"); a && a->is<std::vector<double>>()) betas = a->get<std::vector<double>>();
  std::size_t ai = 0, bi = 0;
  auto alpha = [&](float def) { return ai < alphas.size() ? static_cast<float>(alphas[ai++]) : def; };
  auto beta = [&](float def) { return bi < betas.size() ? static_cast<float>(betas[bi++]) : def; };
  std::vector<CellAct> acts;
  for (const std::string& n : names) {
    CellAct c;
    if (n == "Sigmoid") c.kind = CellAct::Sigmoid;
    else if (n == "Tanh") c.kind = CellAct::Tanh;
    else if (n == "Relu") c.kind = CellAct::Relu;
    else if (n == "Softsign") c.kind = CellAct::Softsign;
    else if (n == "Softplus") c.kind = CellAct::Softplus;
    else if (n == "Affine") c.kind = CellAct::Affine, c.alpha = alpha(1.f), c.beta = beta(0.f);
    else if (n == "LeakyRelu") c.kind = CellAct::LeakyRelu, c.alpha = alpha(0.01f);
    else if (n == "ThresholdedRelu") c.kind = CellAct::ThresholdedRelu, c.alpha = alpha(1.f);
    else if (n == "ScaledTanh") c.kind = CellAct::ScaledTanh, c.alpha = alpha(1.f), c.beta = beta(1.f);
    else if (n == "HardSigmoid") c.kind = CellAct::HardSigmoid, c.alpha = alpha(0.2f), c.beta = beta(0.5f);
    else if (n == "Elu") c.kind = CellAct::Elu, c.alpha = alpha(1.f);
    else ctx.unsupported("activation " + n);
    acts.push_back(c);
  }
  if (acts.size() == per_dir && dirs == 2) acts.insert(acts.end(), acts.begin(), acts.end());
  return acts;
}

RnnGeom rnn_geom(const KernelContext& ctx, Cell cell) {
  RnnGeom g;
  g.cell = cell;
  g.G = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
  g.label = std::string(cell == Cell::Rnn ? "RNN" : cell == Cell::Gru ? "GRU" : "LSTM") + " node '" + ctx.node.name + "'";
  const std::string dir = ctx.attr_string("direction", "forward");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional") ctx.invalid(ErrorId::AttributeValue, "direction " + dir);
  g.D = dir == "bidirectional" ? 2 : 1;
  g.reverse = dir == "reverse";
  const int64_t layout = ctx.attr_int("layout", 0);
  if (layout != 0 && layout != 1) ctx.invalid(ErrorId::AttributeValue, "layout must be 0 or 1");
  g.layout1 = layout == 1;
  const Shape& xs = ctx.in[0].shape;
  if (xs.size() != 3) ctx.invalid(ErrorId::Shape, "X must have rank 3");
  g.S = g.layout1 ? xs[1] : xs[0], g.B = g.layout1 ? xs[0] : xs[1], g.I = xs[2];
  const Shape& rs = ctx.in[2].shape;
  if (rs.size() != 3) ctx.invalid(ErrorId::Shape, "R must have rank 3");
  g.H = rs[2];
  if (ctx.has_attr("hidden_size") && ctx.attr_int("hidden_size") != g.H) ctx.invalid(ErrorId::Shape, "hidden_size differs from R's last dim");
  const int64_t GH = g.G * g.H;
  auto expect = [&](std::size_t i, int64_t count, const char* what) {
    if (!ctx.has_input(i)) return false;
    if (numel(ctx.in[i].shape) != count) ctx.invalid(ErrorId::Shape, std::string(what) + " must have " + std::to_string(count) + " elements");
    if (is_quantized(ctx.in[i].dtype)) ctx.unsupported(ErrorId::DataType, std::string(what) + " of a quantized type");
    return true;
  };
  expect(0, g.S * g.B * g.I, "X");
  if (ctx.in[1].shape != Shape{g.D, GH, g.I}) ctx.invalid(ErrorId::Shape, "W must be [num_directions, gates * hidden_size, input_size]");
  if (rs != Shape{g.D, GH, g.H}) ctx.invalid(ErrorId::Shape, "R must be [num_directions, gates * hidden_size, hidden_size]");
  g.has_b = expect(3, g.D * 2 * GH, "B");
  g.has_len = expect(4, g.B, "sequence_lens");
  g.has_h0 = expect(5, g.D * g.B * g.H, "initial_h");
  if (cell == Cell::Lstm) {
    g.has_c0 = expect(6, g.D * g.B * g.H, "initial_c");
    g.has_p = expect(7, g.D * 3 * g.H, "P");
    if (ctx.attr_int("input_forget", 0) != 0) ctx.unsupported("input_forget 1");
  }
  if (cell == Cell::Gru) g.lbr = ctx.attr_int("linear_before_reset", 0) != 0;
  if (ctx.has_attr("clip")) {
    g.clip = static_cast<float>(ctx.attr_float("clip"));
    if (!(g.clip > 0)) ctx.invalid(ErrorId::AttributeValue, "clip must be > 0");
  }
  g.per_dir = static_cast<std::size_t>(g.G == 1 ? 1 : g.G == 3 ? 2 : 3);
  const std::vector<std::string> defaults = cell == Cell::Rnn   ? std::vector<std::string>{"Tanh"}
                                            : cell == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                                                : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  g.acts = read_acts(ctx, g.per_dir, defaults, g.D);
  const Shape ys = g.layout1 ? Shape{g.B, g.S, g.D, g.H} : Shape{g.S, g.D, g.B, g.H};
  const Shape hs = g.layout1 ? Shape{g.B, g.D, g.H} : Shape{g.D, g.B, g.H};
  const std::size_t n_out = cell == Cell::Lstm ? 3 : 2;
  if (ctx.out.size() > n_out) ctx.invalid(ErrorId::Arity, "too many outputs");
  for (std::size_t o = 0; o < ctx.out.size(); ++o)
    if (ctx.out[o].shape != (o == 0 ? ys : hs)) ctx.invalid(ErrorId::Shape, "output " + std::to_string(o) + " has the wrong shape");
  return g;
}

Kernel make_rnn(const KernelContext& ctx, Cell cell) {
  const RnnGeom g = rnn_geom(ctx, cell);
  const std::size_t n_out = ctx.out.size();
  return [g, n_out](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t H = g.H, I = g.I, GH = g.G * g.H;
    std::fill_n(out[0], g.S * g.D * g.B * H, 0.0f);
    std::vector<float> h(H), c(H), c_new(H), pre(GH);
    for (int64_t d = 0; d < g.D; ++d) {
      const bool reverse = g.reverse || d == 1;
      const float* W = in[1] + d * GH * I;
      const float* R = in[2] + d * GH * H;
      const float* Wb = g.has_b ? in[3] + d * 2 * GH : nullptr;
      const CellAct* act = g.acts.data() + d * g.per_dir;
      // Pre-activations of gates [g0, g1): x W^T + (h or hr) R^T + Wb + Rb, clipped.
      auto gates = [&](const float* x, const float* hv, int64_t g0, int64_t g1) {
        for (int64_t r = g0 * H; r < g1 * H; ++r) {
          double acc = Wb ? static_cast<double>(Wb[r]) + Wb[GH + r] : 0.0;
          for (int64_t j = 0; j < I; ++j) acc += static_cast<double>(W[r * I + j]) * x[j];
          for (int64_t j = 0; j < H; ++j) acc += static_cast<double>(R[r * H + j]) * hv[j];
          pre[r] = static_cast<float>(acc);
        }
      };
      auto clip = [&](float* v, int64_t n) {
        if (g.clip > 0)
          for (int64_t k = 0; k < n; ++k) v[k] = std::clamp(v[k], -g.clip, g.clip);
      };
      for (int64_t b = 0; b < g.B; ++b) {
        int64_t len = g.S;
        if (g.has_len) {
          const float l = in[4][b];
          if (!(l >= 0 && l <= static_cast<float>(g.S)))
            throw Error(ErrorId::Shape, g.label + ": sequence_lens[" + std::to_string(b) + "] = " + std::to_string(l) +
                                                " is outside [0, " + std::to_string(g.S) + "]");
          len = static_cast<int64_t>(l);
        }
        for (int64_t k = 0; k < H; ++k) {
          h[k] = g.has_h0 ? in[5][g.h_at(d, b) + k] : 0.0f;
          c[k] = g.has_c0 ? in[6][g.h_at(d, b) + k] : 0.0f;
        }
        for (int64_t step = 0; step < len; ++step) {
          const int64_t t = reverse ? len - 1 - step : step;
          const float* x = in[0] + g.x_at(t, b);
          if (g.cell == Cell::Rnn) {
            gates(x, h.data(), 0, 1);
            clip(pre.data(), H);
            for (int64_t k = 0; k < H; ++k) h[k] = act[0](pre[k]);
          } else if (g.cell == Cell::Gru) {
            // z, r from h; then the h gate with (r * h) or r * (h R_h^T + Rb_h).
            gates(x, h.data(), 0, 2);
            clip(pre.data(), 2 * H);
            float* z = pre.data();
            float* rg = pre.data() + H;
            for (int64_t k = 0; k < 2 * H; ++k) pre[k] = act[0](pre[k]);
            for (int64_t r = 2 * H; r < 3 * H; ++r) {
              const int64_t k = r - 2 * H;
              double xw = Wb ? Wb[r] : 0.0, hr = Wb ? Wb[GH + r] : 0.0;
              for (int64_t j = 0; j < I; ++j) xw += static_cast<double>(W[r * I + j]) * x[j];
              for (int64_t j = 0; j < H; ++j) hr += static_cast<double>(R[r * H + j]) * (g.lbr ? h[j] : rg[j] * h[j]);
              pre[r] = static_cast<float>(g.lbr ? xw + rg[k] * hr : xw + hr);
            }
            clip(pre.data() + 2 * H, H);
            for (int64_t k = 0; k < H; ++k) {
              const float hh = act[1](pre[2 * H + k]);
              h[k] = (1.0f - z[k]) * hh + z[k] * h[k];
            }
          } else {
            gates(x, h.data(), 0, 4);
            // ONNX order i, o, f, c; P is i, o, f.
            const float* P = g.has_p ? in[7] + d * 3 * H : nullptr;
            LstmCellStep s;
            s.n = H;
            s.i = pre.data(), s.o = pre.data() + H, s.f = pre.data() + 2 * H, s.c = pre.data() + 3 * H;
            if (P) s.p_i = P, s.p_o = P + H, s.p_f = P + 2 * H;
            s.c_in = c.data(), s.c_out = c_new.data();
            s.gate = act[0], s.cell_in = &act[1], s.cell_out = &act[2];
            if (g.clip > 0) s.before_act = [&](float* v, LstmGate) { clip(v, H); };
            lstm_cell(s);
            std::copy_n(s.o, H, h.data());
            std::copy_n(c_new.data(), H, c.data());
          }
          std::copy_n(h.data(), H, out[0] + g.y_at(t, d, b));
        }
        if (n_out > 1) std::copy_n(h.data(), H, out[1] + g.h_at(d, b));
        if (n_out > 2) std::copy_n(c.data(), H, out[2] + g.h_at(d, b));
      }
    }
  };
}

}  // namespace

void add_rnn_kernels(KernelTable& t) {
  t["RNN"] = [](const KernelContext& c) { return make_rnn(c, Cell::Rnn); };
  t["GRU"] = [](const KernelContext& c) { return make_rnn(c, Cell::Gru); };
  t["LSTM"] = [](const KernelContext& c) { return make_rnn(c, Cell::Lstm); };
}

}  // namespace nnbridge::cpu_ref
