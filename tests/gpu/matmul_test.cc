// The opencl MatMul kernel (ONNX MatMul-13 = numpy.matmul, plus Arm NN BatchMatMul's transB):
// expected values computed with NumPy (/usr/bin/python3, numpy.matmul) from the inputs below.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType f32(Shape s) { return TensorType{DataType::Float32, std::move(s), false, std::nullopt}; }

// y = MatMul(a, b) with both operands graph inputs.
std::vector<float> matmul(const Shape& as, const std::vector<float>& a, const Shape& bs, const std::vector<float>& b,
                          const Shape& ys, AttrMap attrs = {}) {
  Graph g;
  g.values.push_back(Value{"a", f32(as), {}, {}});
  g.values.push_back(Value{"b", f32(bs), {}, {}});
  g.values.push_back(Value{"y", f32(ys), {}, {}});
  g.nodes.push_back(Node{"MatMul", "mm", {0, 1}, {2}, std::move(attrs)});
  g.inputs = {0, 1};
  g.outputs = {2};
  auto plan = gpu::backend()->prepare(g, {});
  TensorMap in;
  in["a"] = HostTensor::from_values<float>(f32(as), a);
  in["b"] = HostTensor::from_values<float>(f32(bs), b);
  const TensorMap out = plan->run(in);
  CHECK(out.at("y").shape() == ys);
  auto y = out.at("y").values<float>();
  return {y.begin(), y.end()};
}

std::vector<float> iota(int n, float scale = 1, float offset = 0) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i) * scale + offset;
  return v;
}

}  // namespace

TEST_CASE("opencl MatMul: batch dims broadcast as numpy.matmul") {
  if (!test::have_opencl()) return;
  // A = arange(12).reshape(2,1,2,3) - 5, B = arange(18).reshape(3,3,2) * 0.5 -> [2,3,2,2].
  const std::vector<float> want{-10, -16, -1, -2.5f, -46, -52, -10, -11.5f, -82, -88, -19, -20.5f,
                                8,   11,  17, 24.5f, 26,  29,  62,  69.5f,  44,  47,  107, 114.5f};
  CHECK(matmul({2, 1, 2, 3}, iota(12, 1, -5), {3, 3, 2}, iota(18, 0.5f), {2, 3, 2, 2}) == want);
}

TEST_CASE("opencl MatMul: a 1-D A is a row vector whose dim is dropped") {
  if (!test::have_opencl()) return;
  // [1, 2, 3] @ arange(12).reshape(2,3,2) -> [2, 2].
  CHECK(matmul({3}, {1, 2, 3}, {2, 3, 2}, iota(12), {2, 2}) == std::vector<float>{16, 22, 52, 58});
}

TEST_CASE("opencl MatMul: transB (Arm NN BatchMatMul) and a K mismatch") {
  if (!test::have_opencl()) return;
  // arange(6).reshape(2,3) @ (arange(12).reshape(4,3) - 6).T -> [2, 4].
  CHECK(matmul({2, 3}, iota(6), {4, 3}, iota(12, 1, -6), {2, 4}, {{"transB", Attr(int64_t{1})}}) ==
        std::vector<float>{-13, -4, 5, 14, -58, -22, 14, 50});
  CHECK_THROWS_AS(matmul({2, 3}, iota(6), {4, 3}, iota(12), {2, 3}), Error);  // K: 3 vs 4
}
