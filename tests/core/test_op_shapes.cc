// Shape inference, expected values by hand calculation from the ONNX / TensorFlow formulas.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType f32(Shape s) { return TensorType{DataType::Float32, std::move(s), false, std::nullopt}; }

struct In {
  TensorType type;
  std::optional<std::vector<int64_t>> int64_data = std::nullopt;  // makes it an Int64 constant
  std::optional<std::vector<float>> f32_data = std::nullopt;      // makes it a Float32 constant
  bool absent = false;                                             // an optional input left out
};
In ints(std::vector<int64_t> v) { return In{f32({}), std::move(v)}; }
In floats(std::vector<float> v) { return In{f32({}), std::nullopt, std::move(v)}; }
In none() { return In{f32({}), std::nullopt, std::nullopt, true}; }
// A 1-D int64 input of `n` values that is not a constant.
In variable(int64_t n) { return In{TensorType{DataType::Int64, {n}, false, std::nullopt}}; }

// Runs inference of one node `op` over fresh input values.
std::vector<TensorType> infer(const std::string& op, std::vector<In> ins, AttrMap attrs = {}, std::size_t outputs = 1,
                              std::vector<TensorType> declared = {}) {
  Graph g;
  Node n;
  n.op = op;
  n.attrs = std::move(attrs);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].absent) {
      n.inputs.push_back(kNoValue);
      continue;
    }
    Value v;
    v.name = "in" + std::to_string(i);
    v.type = ins[i].type;
    if (ins[i].int64_data) {
      v.type = TensorType{DataType::Int64, {static_cast<int64_t>(ins[i].int64_data->size())}, false, std::nullopt};
      std::vector<std::byte> b(ins[i].int64_data->size() * 8);
      std::memcpy(b.data(), ins[i].int64_data->data(), b.size());
      v.constant = Buffer::owned(std::move(b));
    }
    if (ins[i].f32_data) {
      v.type = TensorType{DataType::Float32, {static_cast<int64_t>(ins[i].f32_data->size())}, false, std::nullopt};
      std::vector<std::byte> b(ins[i].f32_data->size() * 4);
      std::memcpy(b.data(), ins[i].f32_data->data(), b.size());
      v.constant = Buffer::owned(std::move(b));
    }
    n.inputs.push_back(g.add_value(v));
  }
  for (std::size_t i = 0; i < outputs; ++i) {
    Value v;
    v.name = "out" + std::to_string(i);
    if (i < declared.size()) v.type = declared[i];
    n.outputs.push_back(g.add_value(v));
  }
  g.add_node(n);
  auto r = infer_types(g, 0);
  REQUIRE(r.has_value());
  return *r;
}

Shape shape_of(const std::string& op, std::vector<In> ins, AttrMap attrs = {}) {
  auto r = infer(op, std::move(ins), std::move(attrs));
  REQUIRE(r.size() == 1);
  REQUIRE_FALSE(r[0].unknown_rank);
  return r[0].shape;
}

using Ints = std::vector<int64_t>;

}  // namespace

TEST_CASE("binary ops broadcast by NumPy rules") {
  CHECK(shape_of("Add", {{f32({2, 1, 3})}, {f32({1, 4, 1})}}) == Shape{2, 4, 3});
  CHECK(shape_of("Mul", {{f32({5, 4})}, {f32({4})}}) == Shape{5, 4});
  CHECK(shape_of("Sub", {{f32({})}, {f32({3, 2})}}) == Shape{3, 2});
  CHECK(shape_of("Add", {{f32({-1, 3})}, {f32({4, 1})}}) == Shape{4, 3});
  CHECK_THROWS_AS(infer("Add", {{f32({2, 3})}, {f32({4, 3})}}), Error);
}

TEST_CASE("comparison ops give Bool") {
  auto r = infer("Less", {{f32({2, 1})}, {f32({3})}});
  CHECK(r[0].dtype == DataType::Bool);
  CHECK(r[0].shape == Shape{2, 3});
  CHECK(infer("Equal", {{f32({1})}, {f32({1})}})[0].dtype == DataType::Bool);
  CHECK(infer("Add", {{f32({1})}, {f32({1})}})[0].dtype == DataType::Float32);
}

TEST_CASE("Conv: ResNet stem 1x3x224x224, 64x3x7x7, stride 2, pad 3 -> 1x64x112x112") {
  // floor((224 + 3 + 3 - 7) / 2) + 1 = floor(223 / 2) + 1 = 112
  AttrMap a{{"kernel_shape", Ints{7, 7}}, {"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}};
  CHECK(shape_of("Conv", {{f32({1, 3, 224, 224})}, {f32({64, 3, 7, 7})}}, a) == Shape{1, 64, 112, 112});
  // kernel_shape from W when absent
  CHECK(shape_of("Conv", {{f32({1, 3, 224, 224})}, {f32({64, 3, 7, 7})}}, {{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}}) ==
        Shape{1, 64, 112, 112});
}

TEST_CASE("Conv: NHWC data with OHWI weights, dilation and asymmetric pads") {
  // H: floor((10 + 1 + 0 - 2*(3-1) - 1) / 1) + 1 = 7; W: floor((12 + 0 + 2 - 3) / 2) + 1 = 6
  AttrMap a{{"data_layout", "NHWC"}, {"kernel_layout", "OHWI"}, {"dilations", Ints{2, 1}},
            {"strides", Ints{1, 2}}, {"pads", Ints{1, 0, 0, 2}}};
  CHECK(shape_of("Conv", {{f32({2, 10, 12, 5})}, {f32({8, 3, 3, 5})}}, a) == Shape{2, 7, 6, 8});
}

TEST_CASE("Conv: depthwise 1HWO weights and SAME padding") {
  // SAME_UPPER: ceil(15 / 2) = 8; out channels = W's last dim = 4 * 2
  AttrMap a{{"data_layout", "NHWC"}, {"kernel_layout", "1HWO"}, {"group", int64_t{4}}, {"strides", Ints{2, 2}},
            {"auto_pad", "SAME_UPPER"}};
  CHECK(shape_of("Conv", {{f32({1, 15, 15, 4})}, {f32({1, 3, 3, 8})}}, a) == Shape{1, 8, 8, 8});
}

TEST_CASE("Conv: Arm NN 20.08 depthwise weights [M, I, H, W]") {
  // out channels M * I = 2 * 3; spatial (8 - 3) / 1 + 1 = 6
  AttrMap a{{"data_layout", "NHWC"}, {"kernel_layout", "MIHW"}, {"group", int64_t{3}}};
  CHECK(shape_of("Conv", {{f32({1, 8, 8, 3})}, {f32({2, 3, 3, 3})}}, a) == Shape{1, 6, 6, 6});
}

TEST_CASE("Conv: group and channel mismatch is an error") {
  CHECK(shape_of("Conv", {{f32({1, 8, 5, 5})}, {f32({16, 4, 3, 3})}}, {{"group", int64_t{2}}}) == Shape{1, 16, 3, 3});
  CHECK_THROWS_AS(infer("Conv", {{f32({1, 8, 5, 5})}, {f32({16, 3, 3, 3})}}), Error);
}

TEST_CASE("ConvTranspose output size") {
  // stride*(in-1) + output_padding + (k-1)*dil + 1 - pads = 2*(4-1) + 1 + 2 + 1 - 2 = 8
  AttrMap a{{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}, {"output_padding", Ints{1, 1}}};
  // ONNX W layout [C_in, C_out/group, kH, kW]
  CHECK(shape_of("ConvTranspose", {{f32({1, 6, 4, 4})}, {f32({6, 3, 3, 3})}}, a) == Shape{1, 3, 8, 8});
}

TEST_CASE("pooling: floor and ceil_mode") {
  // floor((112 + 1 + 1 - 3) / 2) + 1 = 56
  AttrMap a{{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}};
  CHECK(shape_of("MaxPool", {{f32({1, 64, 112, 112})}}, a) == Shape{1, 64, 56, 56});
  // 6 wide, kernel 3, stride 2: floor(3/2)+1 = 2, ceil(3/2)+1 = 3
  CHECK(shape_of("AveragePool", {{f32({1, 1, 6, 6})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}}) ==
        Shape{1, 1, 2, 2});
  CHECK(shape_of("AveragePool", {{f32({1, 1, 6, 6})}},
                 {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}}) == Shape{1, 1, 3, 3});
  CHECK(shape_of("MaxPool", {{f32({1, 6, 6, 7})}},
                 {{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"data_layout", "NHWC"}}) == Shape{1, 3, 3, 7});
  CHECK(shape_of("GlobalAveragePool", {{f32({2, 5, 7, 3})}}, {{"data_layout", "NHWC"}}) == Shape{2, 1, 1, 3});
}

TEST_CASE("Transpose: output dim i is input dim perm[i]") {
  CHECK(shape_of("Transpose", {{f32({2, 3, 4, 5})}}, {{"perm", Ints{0, 2, 3, 1}}}) == Shape{2, 4, 5, 3});
  CHECK(shape_of("Transpose", {{f32({2, 3, 4})}}) == Shape{4, 3, 2});
  CHECK_THROWS_AS(infer("Transpose", {{f32({2, 3})}}, {{"perm", Ints{0, 0}}}), Error);
}

TEST_CASE("Reshape with 0 and -1, from the attribute or a constant input") {
  // 2*3*4 = 24 elements; [0, -1] keeps 2 and infers 12
  CHECK(shape_of("Reshape", {{f32({2, 3, 4})}}, {{"shape", Ints{0, -1}}}) == Shape{2, 12});
  CHECK(shape_of("Reshape", {{f32({2, 3, 4})}, {f32({}), Ints{4, 3, 2}}}) == Shape{4, 3, 2});
  CHECK(shape_of("Reshape", {{f32({2, 3, 4})}}, {{"shape", Ints{-1}}}) == Shape{24});
  CHECK_THROWS_AS(infer("Reshape", {{f32({2, 3, 4})}}, {{"shape", Ints{5, -1}}}), Error);
  CHECK_THROWS_AS(infer("Reshape", {{f32({2, 3, 4})}}, {{"shape", Ints{5, 5}}}), Error);
}

TEST_CASE("Concat, Split, Stack") {
  CHECK(shape_of("Concat", {{f32({2, 3})}, {f32({2, 5})}}, {{"axis", int64_t{-1}}}) == Shape{2, 8});
  CHECK_THROWS_AS(infer("Concat", {{f32({2, 3})}, {f32({3, 5})}}, {{"axis", int64_t{1}}}), Error);
  auto parts = infer("Split", {{f32({6, 4})}, ints({1, 5})}, {{"axis", int64_t{0}}}, 2);
  CHECK(parts[0].shape == Shape{1, 4});
  CHECK(parts[1].shape == Shape{5, 4});
  // split not a constant: the sizes along axis are unknown, the other dims known.
  auto unknown = infer("Split", {{f32({6, 4})}, variable(2)}, {{"axis", int64_t{0}}}, 2);
  CHECK(unknown[1].shape == Shape{-1, 4});
  CHECK_THROWS_AS(infer("Split", {{f32({6, 4})}, ints({1, 4})}, {{"axis", int64_t{0}}}, 2), Error);  // 1 + 4 != 6
  auto equal = infer("Split", {{f32({6, 4})}}, {{"axis", int64_t{1}}}, 2);
  CHECK(equal[1].shape == Shape{6, 2});
  CHECK(shape_of("Stack", {{f32({2, 3})}, {f32({2, 3})}, {f32({2, 3})}}, {{"axis", int64_t{1}}}) == Shape{2, 3, 3});
  CHECK(shape_of("Stack", {{f32({2, 3})}, {f32({2, 3})}}, {{"axis", int64_t{-1}}}) == Shape{2, 3, 2});
}

TEST_CASE("Gather, GatherND") {
  // data[:1] + indices + data[2:] = [5] + [2, 3] + [7]
  CHECK(shape_of("Gather", {{f32({5, 6, 7})}, {TensorType{DataType::Int32, {2, 3}, false, {}}}}, {{"axis", int64_t{1}}}) ==
        Shape{5, 2, 3, 7});
  // indices[:-1] + data[0 + 2:] = [4] + [7]
  CHECK(shape_of("GatherND", {{f32({5, 6, 7})}, {TensorType{DataType::Int64, {4, 2}, false, {}}}}) == Shape{4, 7});
}

TEST_CASE("reductions and ArgMax keep or drop dims") {
  CHECK(shape_of("ReduceMean", {{f32({2, 3, 4})}}, {{"axes", Ints{1}}}) == Shape{2, 1, 4});
  CHECK(shape_of("ReduceSum", {{f32({2, 3, 4})}, ints({0, -1})}, {{"keepdims", int64_t{0}}}) == Shape{3});
  // ReduceSum-13: no axes reduces every dim; empty axes with noop_with_empty_axes 1 is the identity.
  CHECK(shape_of("ReduceSum", {{f32({2, 3, 4})}}, {{"keepdims", int64_t{0}}}) == Shape{});
  CHECK(shape_of("ReduceSum", {{f32({2, 3, 4})}, ints({})}, {{"noop_with_empty_axes", int64_t{1}}}) == Shape{2, 3, 4});
  CHECK(shape_of("ReduceSum", {{f32({2, 3, 4})}, variable(2)}) == Shape{-1, -1, -1});
  CHECK(shape_of("ReduceSum", {{f32({2, 3, 4})}, variable(2)}, {{"keepdims", int64_t{0}}}) == Shape{-1});
  CHECK(shape_of("ReduceMax", {{f32({2, 3, 4})}}) == Shape{1, 1, 1});
  auto am = infer("ArgMax", {{f32({2, 3, 4})}}, {{"axis", int64_t{2}}, {"keepdims", int64_t{0}}});
  CHECK(am[0].shape == Shape{2, 3});
  CHECK(am[0].dtype == DataType::Int64);
  auto am32 = infer("ArgMax", {{f32({2, 3})}}, {}, 1, {TensorType{DataType::Int32, {}, true, {}}});
  CHECK(am32[0].dtype == DataType::Int32);
  CHECK(am32[0].shape == Shape{1, 3});
}

TEST_CASE("Pad, Slice, Resize, Flatten, Squeeze, Unsqueeze, Tile, Expand") {
  CHECK(shape_of("Pad", {{f32({1, 3, 4})}, ints({0, 1, 2, 0, 3, 4})}) == Shape{1, 7, 10});
  CHECK(shape_of("Pad", {{f32({1, 3, 4})}, ints({0, -1, 0, 0, 0, -2})}) == Shape{1, 2, 2});  // ONNX: negative pads remove
  CHECK(shape_of("Pad", {{f32({1, 3, 4})}, variable(6)}) == Shape{-1, -1, -1});
  // axis 1: start 1, end -1 -> [1, 9) of 10 step 2 -> 1,3,5,7 = 4; axis 0: start 0 end huge -> 5
  CHECK(shape_of("Slice", {{f32({5, 10})}, ints({0, 1}), ints({1000, -1}), none(), ints({1, 2})}) == Shape{5, 4});
  // negative step: start -1 (index 9) down to end -1000 clamped to -1: 10 elements by -3 -> 9,6,3,0 = 4
  CHECK(shape_of("Slice", {{f32({10})}, ints({-1}), ints({-1000}), none(), ints({-3})}) == Shape{4});
  // INT64_MAX as the end ("to the end", as exporters write it), axis -1: [2, 7) of 7 -> 5
  CHECK(shape_of("Slice", {{f32({3, 7})}, ints({2}), ints({std::numeric_limits<int64_t>::max()}), ints({-1})}) ==
        Shape{3, 5});
  // starts not a constant: the sliced axis is unknown, the others known.
  CHECK(shape_of("Slice", {{f32({3, 7})}, variable(1), ints({5}), ints({1})}) == Shape{3, -1});
  // Resize-13: sizes per dim of X; scales: floor(in * scale) (8 * 0.75 = 6, 3 * 1.5 = 4.5 -> 4).
  CHECK(shape_of("Resize", {{f32({1, 8, 8, 3})}, none(), none(), ints({1, 16, 12, 3})}, {{"data_layout", "NHWC"}}) ==
        Shape{1, 16, 12, 3});
  CHECK(shape_of("Resize", {{f32({1, 3, 8, 8})}, none(), floats({1, 1, 0.75f, 1.5f})}) == Shape{1, 3, 6, 12});
  CHECK(shape_of("Resize", {{f32({1, 3, 8, 3})}, none(), floats({1, 1, 0.75f, 1.5f})}) == Shape{1, 3, 6, 4});
  CHECK(shape_of("Resize", {{f32({1, 3, 8, 8})}, none(), floats({}), ints({1, 3, 4, 4})}) == Shape{1, 3, 4, 4});
  CHECK_THROWS_AS(infer("Resize", {{f32({1, 3, 8, 8})}}), Error);                                  // neither
  CHECK_THROWS_AS(infer("Resize", {{f32({1, 3, 8, 8})}, none(), none(), ints({4, 4})}), Error);  // sizes per dim
  CHECK(shape_of("Flatten", {{f32({2, 3, 4, 5})}}, {{"axis", int64_t{2}}}) == Shape{6, 20});
  CHECK(shape_of("Squeeze", {{f32({1, 3, 1, 2})}}) == Shape{3, 2});
  CHECK(shape_of("Squeeze", {{f32({1, 3, 1, 2})}, ints({-2})}) == Shape{1, 3, 2});
  CHECK(shape_of("Squeeze", {{f32({1, 3, 1, 2})}, variable(2)}) == Shape{-1, -1});
  CHECK(shape_of("Unsqueeze", {{f32({3, 4})}, ints({0, 3})}) == Shape{1, 3, 4, 1});
  CHECK(shape_of("Unsqueeze", {{f32({3, 4})}, variable(1)}) == Shape{-1, -1, -1});
  CHECK(shape_of("Tile", {{f32({2, 3})}, {f32({}), Ints{3, 2}}}) == Shape{6, 6});
  CHECK(shape_of("Expand", {{f32({3, 1})}, {f32({}), Ints{2, 1, 6}}}) == Shape{2, 3, 6});
}

TEST_CASE("StridedSlice with TensorFlow masks") {
  // x[1:3, :, 2] on [4, 5, 6]: dim0 2, dim1 full 5 (begin/end masked), dim2 shrunk
  AttrMap a{{"begin", Ints{1, 0, 2}}, {"end", Ints{3, 0, 3}}, {"strides", Ints{1, 1, 1}},
            {"begin_mask", int64_t{2}}, {"end_mask", int64_t{2}}, {"shrink_axis_mask", int64_t{4}}};
  CHECK(shape_of("StridedSlice", {{f32({4, 5, 6})}}, a) == Shape{2, 5});
  // x[::-2] on [7]: begin masked -> 6, end masked -> -1; 6,4,2,0 = 4
  CHECK(shape_of("StridedSlice", {{f32({7})}}, {{"begin", Ints{0}}, {"end", Ints{0}}, {"strides", Ints{-2}},
                                                {"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}}) == Shape{4});
  // x[..., 1:4] on [2, 3, 8]: the ellipsis covers dims 0 and 1; dim 2 gives 3
  CHECK(shape_of("StridedSlice", {{f32({2, 3, 8})}},
                 {{"begin", Ints{0, 1}}, {"end", Ints{0, 4}}, {"strides", Ints{1, 1}}, {"ellipsis_mask", int64_t{1}}}) ==
        Shape{2, 3, 3});
  // x[tf.newaxis, 0:2] on [5, 6]: new dim 1, dim0 2, dim1 implicit full 6
  CHECK(shape_of("StridedSlice", {{f32({5, 6})}},
                 {{"begin", Ints{0, 0}}, {"end", Ints{0, 2}}, {"strides", Ints{1, 1}}, {"new_axis_mask", int64_t{1}}}) ==
        Shape{1, 2, 6});
  // x[-1] on [5, 6]: shrink of dim 0 with a negative index
  CHECK(shape_of("StridedSlice", {{f32({5, 6})}},
                 {{"begin", Ints{-1}}, {"end", Ints{0}}, {"strides", Ints{1}}, {"shrink_axis_mask", int64_t{1}}}) ==
        Shape{6});
  // out-of-range ends clamp: x[2:100] on [5] -> 3
  CHECK(shape_of("StridedSlice", {{f32({5})}}, {{"begin", Ints{2}}, {"end", Ints{100}}, {"strides", Ints{1}}}) == Shape{3});
}

TEST_CASE("space/depth/batch rearrangements") {
  CHECK(shape_of("SpaceToDepth", {{f32({1, 3, 8, 6})}}, {{"blocksize", int64_t{2}}}) == Shape{1, 12, 4, 3});
  CHECK(shape_of("DepthToSpace", {{f32({1, 4, 6, 12})}}, {{"blocksize", int64_t{2}}, {"data_layout", "NHWC"}}) ==
        Shape{1, 8, 12, 3});
  // batch 2 * 2*2 = 8; H (5 + 1 + 0) / 2 = 3; W (4 + 0 + 0) / 2 = 2
  CHECK(shape_of("SpaceToBatchND", {{f32({2, 5, 4, 3})}},
                 {{"block_shape", Ints{2, 2}}, {"pads", Ints{1, 0, 0, 0}}, {"data_layout", "NHWC"}}) == Shape{8, 3, 2, 3});
  // batch 8 / 4 = 2; H 3*2 - 1 = 5; W 2*2 = 4
  CHECK(shape_of("BatchToSpaceND", {{f32({8, 3, 2, 3})}},
                 {{"block_shape", Ints{2, 2}}, {"crops", Ints{1, 0, 0, 0}}, {"data_layout", "NHWC"}}) == Shape{2, 5, 4, 3});
}

TEST_CASE("MatMul broadcasts batches, Gemm flattens rank > 2 A") {
  CHECK(shape_of("MatMul", {{f32({2, 1, 3, 4})}, {f32({5, 4, 6})}}) == Shape{2, 5, 3, 6});
  CHECK(shape_of("MatMul", {{f32({4})}, {f32({3, 4, 6})}}) == Shape{3, 6});
  CHECK(shape_of("MatMul", {{f32({3, 4})}, {f32({4})}}) == Shape{3});
  CHECK(shape_of("MatMul", {{f32({2, 4, 3})}, {f32({2, 6, 4})}}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}}) ==
        Shape{2, 3, 6});
  CHECK_THROWS_AS(infer("MatMul", {{f32({3, 4})}, {f32({5, 6})}}), Error);
  CHECK(shape_of("Gemm", {{f32({3, 4})}, {f32({5, 4})}}, {{"transB", int64_t{1}}}) == Shape{3, 5});
  // [2, 3, 4, 4] has 96 elements, K = 16 from B [16, 10] -> [6, 10]
  CHECK(shape_of("Gemm", {{f32({2, 3, 4, 4})}, {f32({16, 10})}}) == Shape{6, 10});
}

TEST_CASE("unknown dims and ranks propagate") {
  auto r = infer("Relu", {{TensorType{DataType::Float32, {}, true, {}}}});
  CHECK(r[0].unknown_rank);
  CHECK(shape_of("Conv", {{f32({-1, 3, 224, 224})}, {f32({64, 3, 7, 7})}}) == Shape{-1, 64, 218, 218});
  CHECK(infer("Shape", {{f32({2, 3, 4})}})[0].shape == Shape{3});
  CHECK(infer("Rank", {{f32({2, 3, 4})}})[0].dtype == DataType::Int32);
}

TEST_CASE("attribute values that overflow int64 are errors, not wrapped sizes") {
  const int64_t big = std::numeric_limits<int64_t>::max();
  CHECK_THROWS_AS(infer("Pad", {{f32({4})}, ints({big, 1})}), Error);
  CHECK_THROWS_AS(infer("MaxPool", {{f32({1, 1, 4, 4})}}, {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{big, 0, big, 0}}}), Error);
  CHECK_THROWS_AS(infer("Conv", {{f32({1, 1, 4, 4})}, {f32({1, 1, 2, 2})}}, {{"dilations", Ints{big, 1}}}), Error);
  CHECK_THROWS_AS(infer("SpaceToDepth", {{f32({1, 1, 4, 4})}}, {{"blocksize", big}}), Error);
}
