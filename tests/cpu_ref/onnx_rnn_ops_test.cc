// Oracle: the formulas of the ONNX operator definitions (RNN-14, GRU-14, LSTM-14), evaluated
// next to each check with one hidden unit and one input feature.
// ONNX RNN, GRU and LSTM on the cpu backend: directions, sequence_lens, initial states,
// linear_before_reset and the LSTM peepholes.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/error.h"
#include "one_node.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {
using Floats = std::vector<float>;
using Strings = std::vector<std::string>;
float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
}  // namespace

TEST_CASE("cpu onnx rnn ops: bidirectional RNN") {
  // W = 1, R = 0.5, Wb + Rb = 0.1 + 0.2, x = [1, 2] (S 2, B 1, I 1), h0 = 0, f = tanh.
  // Forward: h1 = tanh(1 + 0.3), h2 = tanh(2 + 0.5 h1 + 0.3).
  // Reverse (t = 1 first): r1 = tanh(2 + 0.3) at t = 1, r0 = tanh(1 + 0.5 r1 + 0.3) at t = 0.
  Graph g = OneNode("RNN", {{"direction", Attr("bidirectional")}, {"hidden_size", Attr(int64_t{1})}})
                .in(f32({2, 1, 1}))
                .constant(f32({2, 1, 1}), Floats{1, 1})
                .constant(f32({2, 1, 1}), Floats{0.5f, 0.5f})
                .constant(f32({2, 2}), Floats{0.1f, 0.2f, 0.1f, 0.2f})
                .done({f32({2, 2, 1, 1}), f32({2, 1, 1})});
  const TensorMap r = run(g, {{"x0", ft({2, 1, 1}, {1, 2})}});
  const float h1 = std::tanh(1.3f), h2 = std::tanh(2 + 0.5f * h1 + 0.3f);
  const float r1 = std::tanh(2.3f), r0 = std::tanh(1 + 0.5f * r1 + 0.3f);
  const Floats y = y_of(r, 0), yh = y_of(r, 1);
  // Y [S, D, B, H]: (t0 fwd, t0 rev, t1 fwd, t1 rev); Y_h [D, B, H]: (fwd after t1, rev after t0).
  REQUIRE(y.size() == 4);
  CHECK(y[0] == doctest::Approx(h1));
  CHECK(y[1] == doctest::Approx(r0));
  CHECK(y[2] == doctest::Approx(h2));
  CHECK(y[3] == doctest::Approx(r1));
  CHECK(yh == Floats{y[2], y[1]});
}

TEST_CASE("cpu onnx rnn ops: RNN sequence_lens stops a row early") {
  // Two rows, lengths [2, 1], Affine activation (alpha 1, beta 0: h = pre), W = 1, R = 0.5:
  // row 0: h = 1, then 2 + 0.5; row 1: h = 10, then Y is 0 at t = 1 and Y_h keeps 10.
  Graph g = OneNode("RNN", {{"activations", Attr(Strings{"Affine"})},
                            {"activation_alpha", Attr(std::vector<double>{1.0})},
                            {"activation_beta", Attr(std::vector<double>{0.0})}})
                .in(f32({2, 2, 1}))
                .constant(f32({1, 1, 1}), Floats{1})
                .constant(f32({1, 1, 1}), Floats{0.5f})
                .absent()
                .constant(typed(DataType::Int32, {2}), std::vector<int32_t>{2, 1})
                .done({f32({2, 1, 2, 1}), f32({1, 2, 1})});
  const TensorMap r = run(g, {{"x0", ft({2, 2, 1}, {1, 10, 2, 20})}});
  CHECK(y_of(r, 0) == Floats{1, 10, 2.5f, 0});
  CHECK(y_of(r, 1) == Floats{2.5f, 10});
}

TEST_CASE("cpu onnx rnn ops: GRU with and without linear_before_reset") {
  // W = [1, 1, 1] (z, r, h), R = [0.5, 0.5, 0.5], Rb_h = 0.1, x = 1, h0 = 0.5.
  // z = r = sigmoid(1 + 0.5 * 0.5); h~ = tanh(1 + (r * 0.5) * 0.5 + 0.1), or with
  // linear_before_reset tanh(1 + r * (0.5 * 0.5 + 0.1)); h = (1 - z) h~ + z * 0.5.
  for (int64_t lbr : {0, 1}) {
    Graph g = OneNode("GRU", {{"linear_before_reset", Attr(lbr)}})
                  .in(f32({1, 1, 1}))
                  .constant(f32({1, 3, 1}), Floats{1, 1, 1})
                  .constant(f32({1, 3, 1}), Floats{0.5f, 0.5f, 0.5f})
                  .constant(f32({1, 6}), Floats{0, 0, 0, 0, 0, 0.1f})
                  .absent()
                  .constant(f32({1, 1, 1}), Floats{0.5f})
                  .done({f32({1, 1, 1, 1}), f32({1, 1, 1})});
    const float z = sigmoid(1.25f), rr = z;
    const float hh = lbr ? std::tanh(1 + rr * (0.25f + 0.1f)) : std::tanh(1 + rr * 0.5f * 0.5f + 0.1f);
    const float h = (1 - z) * hh + z * 0.5f;
    CHECK(y_of(run(g, {{"x0", ft({1, 1, 1}, {1})}}), 1)[0] == doctest::Approx(h));
  }
}

TEST_CASE("cpu onnx rnn ops: LSTM with peepholes and an initial cell state") {
  // W = 1 for i, o, f, c; R = 0; P = (i 0.5, o 0.25, f 0.1); c0 = 1, h0 = 0, x = 1.
  // i = sigmoid(1 + 0.5 c0), f = sigmoid(1 + 0.1 c0), c = f c0 + i tanh(1),
  // o = sigmoid(1 + 0.25 c), h = o tanh(c).
  Graph g = OneNode("LSTM", {{"hidden_size", Attr(int64_t{1})}})
                .in(f32({1, 1, 1}))
                .constant(f32({1, 4, 1}), Floats{1, 1, 1, 1})
                .constant(f32({1, 4, 1}), Floats{0, 0, 0, 0})
                .absent()
                .absent()
                .absent()
                .constant(f32({1, 1, 1}), Floats{1})
                .constant(f32({1, 3}), Floats{0.5f, 0.25f, 0.1f})
                .done({f32({1, 1, 1, 1}), f32({1, 1, 1}), f32({1, 1, 1})});
  const float i = sigmoid(1.5f), f = sigmoid(1.1f), c = f * 1 + i * std::tanh(1.0f);
  const float o = sigmoid(1 + 0.25f * c), h = o * std::tanh(c);
  const TensorMap r = run(g, {{"x0", ft({1, 1, 1}, {1})}});
  CHECK(y_of(r, 0)[0] == doctest::Approx(h));
  CHECK(y_of(r, 1)[0] == doctest::Approx(h));
  CHECK(y_of(r, 2)[0] == doctest::Approx(c));
}
