// The ONNX recurrent layers: RNN-14, GRU-14, LSTM-14 (output shapes by layout and direction).
#include <algorithm>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

// gates: weight rows per hidden unit (RNN 1, GRU 3, LSTM 4); states: outputs (2, or 3 for LSTM).
std::vector<TensorType> infer_rnn(const InferenceContext& ctx, int64_t gates, std::size_t states) {
  const TensorType& x = input(ctx, 0);
  const TensorType& w = input(ctx, 1);
  const TensorType& r = input(ctx, 2);
  const std::string& dir = ctx.attr_string("direction");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    fail(ErrorId::AttributeValue, "direction must be forward, reverse or bidirectional, not \"" + dir + "\"");
  const int64_t dirs = dir == "bidirectional" ? 2 : 1;
  const int64_t layout = ctx.attr_int("layout");
  if (layout != 0 && layout != 1) fail(ErrorId::AttributeValue, "layout must be 0 or 1");
  int64_t hidden = ctx.attr("hidden_size") ? ctx.attr_int("hidden_size") : -1;
  if (ctx.attr("hidden_size") && hidden < 1) fail(ErrorId::AttributeValue, "hidden_size must be >= 1");
  if (!r.unknown_rank) {
    if (r.shape.size() != 3) fail("R must have rank 3");
    if (hidden < 0) hidden = r.shape[2];
    else if (r.shape[2] >= 0 && r.shape[2] != hidden) fail("R's last dim differs from hidden_size");
  }
  for (const TensorType* t : {&w, &r}) {
    if (t->unknown_rank) continue;
    if (t->shape.size() != 3) fail("W and R must have rank 3");
    if (t->shape[0] >= 0 && t->shape[0] != dirs) fail("W and R must have num_directions = " + std::to_string(dirs) + " rows");
    if (t->shape[1] >= 0 && hidden >= 0 && t->shape[1] != gates * hidden)
      fail("W and R must have " + std::to_string(gates) + " * hidden_size rows per direction");
  }
  int64_t seq = -1, batch = -1;
  if (!x.unknown_rank) {
    if (x.shape.size() != 3) fail("X must have rank 3");
    seq = layout ? x.shape[1] : x.shape[0];
    batch = layout ? x.shape[0] : x.shape[1];
  }
  const std::size_t n = std::max<std::size_t>(1, ctx.node.outputs.size());
  if (n > states) fail(ErrorId::Arity, "at most " + std::to_string(states) + " outputs");
  std::vector<TensorType> out;
  for (std::size_t i = 0; i < n; ++i) {
    TensorType t{x.dtype, {}, false, std::nullopt};
    if (i == 0) t.shape = layout ? std::vector<int64_t>{batch, seq, dirs, hidden} : std::vector<int64_t>{seq, dirs, batch, hidden};
    else t.shape = layout ? std::vector<int64_t>{batch, dirs, hidden} : std::vector<int64_t>{dirs, batch, hidden};
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<AttrSpec> rnn_attrs() {
  return {optional_attr("activation_alpha", AttrType::Floats, "alpha of the activations that take one, in their order"),
          optional_attr("activation_beta", AttrType::Floats, "beta of the activations that take one, in their order"),
          optional_attr("activations", AttrType::Strings, "the cell's activation functions per direction; absent: the op's defaults"),
          optional_attr("clip", AttrType::Float, "bound of every gate pre-activation, applied before its function; absent: none"),
          optional_attr("direction", AttrType::String, Attr("forward"), "forward, reverse or bidirectional"),
          optional_attr("hidden_size", AttrType::Int, "number of hidden units; absent: R's last dim"),
          optional_attr("layout", AttrType::Int, Attr(int64_t{0}),
                        "0: X [seq, batch, input], Y [seq, dirs, batch, hidden]; 1: batch first, Y [batch, seq, dirs, hidden]")};
}

const char* const kRnnInputs =
    " Inputs X, W [dirs, gates*hidden, input], R [dirs, gates*hidden, hidden], optional B [dirs, 2*gates*hidden] (Wb then "
    "Rb), sequence_lens [batch], initial_h [dirs, batch, hidden] (layout 1: [batch, dirs, hidden])";

}  // namespace

void add_rnn_ops(std::vector<OpSchema>& out) {
  OpSchema rnn = make_op("RNN", 3, 6, rnn_attrs(),
                         std::string("h = f(x W^T + h R^T + Wb + Rb), f Tanh by default.") + kRnnInputs +
                             ". Outputs Y (every step's h; 0 after a row's sequence length) and Y_h (the last h).",
                         "ONNX RNN-14", [](const InferenceContext& ctx) { return infer_rnn(ctx, 1, 2); });
  rnn.max_outputs = 2;
  out.push_back(std::move(rnn));
  std::vector<AttrSpec> gru_attrs = rnn_attrs();
  gru_attrs.push_back(optional_attr("linear_before_reset", AttrType::Int, Attr(int64_t{0}),
                                    "1: apply the reset gate after multiplying by R_h"));
  OpSchema gru = make_op("GRU", 3, 6, gru_attrs,
                         std::string("Gates z, r, h (in W, R, B in that order); z = f(..), r = f(..), h~ = g(x W_h^T + "
                                     "(r * h) R_h^T + Rb_h + Wb_h) (linear_before_reset: g(x W_h^T + Wb_h + r * (h R_h^T + "
                                     "Rb_h))), h = (1 - z) * h~ + z * h; f Sigmoid, g Tanh by default.") +
                             kRnnInputs + ". Outputs Y and Y_h as RNN.",
                         "ONNX GRU-14", [](const InferenceContext& ctx) { return infer_rnn(ctx, 3, 2); });
  gru.max_outputs = 2;
  out.push_back(std::move(gru));
  std::vector<AttrSpec> lstm_attrs = rnn_attrs();
  lstm_attrs.push_back(optional_attr("input_forget", AttrType::Int, Attr(int64_t{0}), "1: couple the input and forget gates"));
  OpSchema lstm = make_op(
      "LSTM", 3, 8, lstm_attrs,
      std::string("Gates i, o, f, c (in W, R, B in that order); i = f(.. + P_i * c), f_t = f(.. + P_f * c), c' = f_t * c + "
                  "i * g(..), o = f(.. + P_o * c'), h = o * h(c'); f Sigmoid, g and h Tanh by default.") +
          kRnnInputs + ", initial_c as initial_h, P [dirs, 3*hidden] (peepholes i, o, f). Outputs Y, Y_h as RNN and Y_c "
                       "(the last cell state).",
      "ONNX LSTM-14 (Arm NN's LSTM layer is the format-native armnn.Lstm)",
      [](const InferenceContext& ctx) { return infer_rnn(ctx, 4, 3); });
  lstm.max_outputs = 3;
  out.push_back(std::move(lstm));
}

}  // namespace nnbridge::ops
