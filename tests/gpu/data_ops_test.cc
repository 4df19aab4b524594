// The opencl data-movement and indexing kernels (gpu/src/ops_data.cc, ops_index.cc): the generic
// strided gather under Pad, Slice, DepthToSpace and Tile, and the device's index checks, which
// refuse an out-of-range index as cpu does. Expected values are worked out by hand next to each check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "support/error_id.h"
#include "have_opencl.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType ty(DataType dt, Shape s) { return TensorType{dt, std::move(s), false, std::nullopt}; }

// A one-node graph: `x` (float32 graph input), the node's other inputs, output `y`.
struct OneNode {
  Graph g;
  explicit OneNode(Shape xs) { g.values.push_back(Value{"x", ty(DataType::Float32, std::move(xs)), {}, {}}); }
  ValueId add(const std::string& name, TensorType t) {
    g.values.push_back(Value{name, std::move(t), {}, {}});
    return static_cast<ValueId>(g.values.size() - 1);
  }
  ValueId ints(const std::string& name, const std::vector<int64_t>& v) {  // an int64 1-D constant
    const ValueId id = add(name, ty(DataType::Int64, {static_cast<int64_t>(v.size())}));
    g.values[id].constant = Buffer::copy_of(std::as_bytes(std::span<const int64_t>(v)));
    return id;
  }
  std::vector<float> run(const std::string& op, std::vector<ValueId> inputs, Shape ys, AttrMap attrs = {},
                         const std::vector<float>& x = {}, const TensorMap& more = {}) {
    const ValueId y = add("y", ty(DataType::Float32, ys));
    inputs.insert(inputs.begin(), 0);
    g.nodes.push_back(Node{op, "the_node", inputs, {y}, std::move(attrs)});
    g.inputs.insert(g.inputs.begin(), 0);
    g.outputs = {y};
    auto plan = gpu::backend()->prepare(g, {});
    TensorMap in = more;
    in["x"] = HostTensor::from_values<float>(g.values[0].type, x);
    const TensorMap out = plan->run(in);
    auto v = out.at("y").values<float>();
    return {v.begin(), v.end()};
  }
};

std::vector<float> pad(const std::string& mode, float value = 0) {
  OneNode n({4});
  const ValueId pads = n.ints("pads", {2, 3});
  std::vector<ValueId> in{pads};
  if (mode == "constant") {
    const ValueId v = n.add("value", ty(DataType::Float32, {}));
    n.g.values[v].constant = Buffer::copy_of(std::as_bytes(std::span<const float>(&value, 1)));
    in.push_back(v);
  }
  return n.run("Pad", in, {9}, {{"mode", Attr(mode)}}, {1, 2, 3, 4});
}

}  // namespace

TEST_CASE("opencl gather: Pad's modes read x = [1, 2, 3, 4] at coordinates -2 .. 6") {
  if (!test::have_opencl()) return;
  // constant: outside [0, 4) is the value.
  CHECK(pad("constant", 9) == std::vector<float>{9, 9, 1, 2, 3, 4, 9, 9, 9});
  // edge: -2, -1 -> 0; 4, 5, 6 -> 3.
  CHECK(pad("edge") == std::vector<float>{1, 1, 1, 2, 3, 4, 4, 4, 4});
  // reflect (period 6, mirrored about the end elements): -2 -> 2, -1 -> 1, 4 -> 2, 5 -> 1, 6 -> 0.
  CHECK(pad("reflect") == std::vector<float>{3, 2, 1, 2, 3, 4, 3, 2, 1});
  // symmetric (period 8, the edges repeated): -2 -> 1, -1 -> 0, 4 -> 3, 5 -> 2, 6 -> 1.
  CHECK(pad("symmetric") == std::vector<float>{2, 1, 1, 2, 3, 4, 4, 3, 2});
}

TEST_CASE("opencl gather: Slice with negative steps on both axes") {
  if (!test::have_opencl()) return;
  // x = arange(12).reshape(3, 4); rows from 2 down past -4 + 3 = -1 (clamped to -1) by 2: rows 2, 0;
  // cols from 3 down to 0 (excluded) by 2: cols 3, 1 -> [[11, 9], [3, 1]].
  OneNode n({3, 4});
  std::vector<ValueId> in{n.ints("starts", {2, 3}), n.ints("ends", {-4, 0}), n.ints("axes", {0, 1}), n.ints("steps", {-2, -2})};
  CHECK(n.run("Slice", in, {2, 2}, {}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) == std::vector<float>{11, 9, 3, 1});
}

TEST_CASE("opencl gather: DepthToSpace DCR and CRD and Tile") {
  if (!test::have_opencl()) return;
  const std::vector<float> x{0, 1, 2, 3, 4, 5, 6, 7};  // [1, 8, 1, 1]: channel c holds c
  // DCR: output (c, by, bx) reads channel (by * 2 + bx) * 2 + c: c 0 -> 0 2 4 6, c 1 -> 1 3 5 7.
  OneNode dcr({1, 8, 1, 1});
  CHECK(dcr.run("DepthToSpace", {}, {1, 2, 2, 2}, {{"blocksize", Attr(int64_t{2})}}, x) ==
        std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7});
  // CRD: output (c, by, bx) reads channel (c * 2 + by) * 2 + bx, which is its own position.
  OneNode crd({1, 8, 1, 1});
  CHECK(crd.run("DepthToSpace", {}, {1, 2, 2, 2}, {{"blocksize", Attr(int64_t{2})}, {"mode", Attr(std::string("CRD"))}}, x) == x);
  // Tile [1, 2] three times: coordinate c reads c mod 2.
  OneNode tile({2});
  CHECK(tile.run("Tile", {tile.ints("repeats", {3})}, {6}, {}, {1, 2}) == std::vector<float>{1, 2, 1, 2, 1, 2});
}

TEST_CASE("opencl Gather: negative indices count from the end and one out of range is refused at run time") {
  if (!test::have_opencl()) return;
  auto gather = [](std::vector<int64_t> idx) {
    OneNode n({3});
    const ValueId i = n.add("i", ty(DataType::Int64, {2}));
    n.g.inputs = {i};
    TensorMap more;
    more["i"] = HostTensor::from_values<int64_t>(n.g.values[i].type, idx);
    return n.run("Gather", {i}, {2}, {}, {10, 20, 30}, more);
  };
  CHECK(gather({-1, 0}) == std::vector<float>{30, 10});  // -1 is the last element
  for (const std::vector<int64_t>& bad : {std::vector<int64_t>{0, 3}, std::vector<int64_t>{-4, 1}}) {
    ErrorId id = ErrorId::IoOther;
    std::string what;
    try {
      gather(bad);
    } catch (const Error& e) {
      id = e.id();
      what = e.message();
    }
    CHECK(id == ErrorId::Execution);  // a kernel failed while running, as on cpu (cpu_ref/src/kernels/shape_ops.cc)
    CHECK(what.find("Gather 'the_node'") != std::string::npos);
  }
}

TEST_CASE("opencl GatherElements and ScatterND refuse what cpu refuses") {
  if (!test::have_opencl()) return;
  // GatherElements along axis 0 of [3]: index 3 is outside [-3, 3), an index that refers to
  // nothing -> nnbridge.invalid.401, as cpu_ref/src/kernels/index.cc.
  {
    OneNode n({3});
    const ValueId i = n.add("i", ty(DataType::Int64, {2}));
    n.g.inputs = {i};
    TensorMap more;
    more["i"] = HostTensor::from_values<int64_t>(n.g.values[i].type, std::vector<int64_t>{1, 3});
    CHECK(test::thrown_id([&] { n.run("GatherElements", {i}, {2}, {}, {1, 2, 3}, more); }) == ErrorId::DanglingReference);
  }
  // ScatterND into [4] at tuples (1), (3), (1): with reduction add the two updates at 1 sum,
  // y = [0, 0 + 10 + 30, 0, 0 + 20]; with reduction none tuple 2 repeats tuple 0, which the
  // kernel refuses while running (nnbridge.backend.505).
  auto scatter = [](const char* reduction) {
    OneNode n({4});
    const ValueId i = n.add("i", ty(DataType::Int64, {3, 1}));
    const ValueId u = n.add("u", ty(DataType::Float32, {3}));
    n.g.inputs = {i, u};
    TensorMap more;
    more["i"] = HostTensor::from_values<int64_t>(n.g.values[i].type, std::vector<int64_t>{1, 3, 1});
    more["u"] = HostTensor::from_values<float>(n.g.values[u].type, std::vector<float>{10, 20, 30});
    return n.run("ScatterND", {i, u}, {4}, {{"reduction", Attr(std::string(reduction))}}, {0, 0, 0, 0}, more);
  };
  CHECK(scatter("add") == std::vector<float>{0, 40, 0, 20});
  CHECK(test::thrown_id([&] { scatter("none"); }) == ErrorId::Execution);
}

TEST_CASE("opencl Resize: linear asymmetric and nearest on a 1-D input") {
  if (!test::have_opencl()) return;
  auto resize = [](const std::string& mode, std::vector<float> x, int64_t out) {
    OneNode n({static_cast<int64_t>(x.size())});
    const ValueId roi = n.add("roi", ty(DataType::Float32, {0}));
    n.g.values[roi].constant = Buffer::copy_of({});
    const float scale = static_cast<float>(out) / static_cast<float>(x.size());
    const ValueId scales = n.add("scales", ty(DataType::Float32, {1}));
    n.g.values[scales].constant = Buffer::copy_of(std::as_bytes(std::span<const float>(&scale, 1)));
    return n.run("Resize", {roi, scales}, {out}, {{"mode", Attr(mode)}}, x);
  };
  // x = [1, 3] to 4 with scale 2: output j reads j / 2 = 0, 0.5, 1, 1.5; linear weighs floor and
  // floor + 1 by the fraction, the index past the end reads the edge: 1, 2, 3, 3.
  CHECK(resize("linear", {1, 3}, 4) == std::vector<float>{1, 2, 3, 3});
  // nearest (floor): 1, 1, 3, 3.
  CHECK(resize("nearest", {1, 3}, 4) == std::vector<float>{1, 1, 3, 3});
}

TEST_CASE("opencl Det and Einsum") {
  if (!test::have_opencl()) return;
  // det [[1, 2], [3, 4]] = 1 * 4 - 2 * 3 = -2; det [[0, 1], [1, 0]] = -1 (a row swap).
  OneNode d({2, 2, 2});
  CHECK(d.run("Det", {}, {2}, {}, {1, 2, 3, 4, 0, 1, 1, 0}) == std::vector<float>{-2, -1});
  // "ii->i" takes the diagonal of [[1, 2], [3, 4]]: [1, 4]; "ij->" sums every element: 10.
  OneNode diag({2, 2});
  CHECK(diag.run("Einsum", {}, {2}, {{"equation", Attr(std::string("ii->i"))}}, {1, 2, 3, 4}) == std::vector<float>{1, 4});
  OneNode sum({2, 2});
  CHECK(sum.run("Einsum", {}, {}, {{"equation", Attr(std::string("ij->"))}}, {1, 2, 3, 4}) == std::vector<float>{10});
}

TEST_CASE("opencl ReverseV2 and ChannelShuffle (Arm NN): gathers with a negative step and a transposed view") {
  if (!test::have_opencl()) return;
  const std::vector<float> x{1, 2, 3, 4, 5, 6};  // [2, 3]
  // Axes [0, -1] (attribute): both dims reversed -> [[6, 5, 4], [3, 2, 1]].
  OneNode both({2, 3});
  CHECK(both.run("ReverseV2", {}, {2, 3}, {{"axis", Attr(std::vector<int64_t>{0, -1})}}, x) == std::vector<float>{6, 5, 4, 3, 2, 1});
  // Axis -1 as a constant input: each row reversed -> [[3, 2, 1], [6, 5, 4]].
  OneNode cols({2, 3});
  CHECK(cols.run("ReverseV2", {cols.ints("axes", {-1})}, {2, 3}, {}, x) == std::vector<float>{3, 2, 1, 6, 5, 4});
  // Axis 0 as a graph input, read back at run time: the rows swapped -> [[4, 5, 6], [1, 2, 3]];
  // an axis outside [-2, 2) is refused when the run reads it, as cpu refuses it.
  OneNode rows({2, 3});
  const TensorType axes_type{DataType::Int32, {1}, false, std::nullopt};
  const ValueId axes = rows.add("axes", axes_type);
  rows.g.inputs.push_back(axes);
  TensorMap more;
  more["axes"] = HostTensor::from_values<int32_t>(axes_type, std::vector<int32_t>{0});
  CHECK(rows.run("ReverseV2", {axes}, {2, 3}, {}, x, more) == std::vector<float>{4, 5, 6, 1, 2, 3});
  OneNode bad({2, 3});
  const ValueId bad_axes = bad.add("axes", axes_type);
  bad.g.inputs.push_back(bad_axes);
  more["axes"] = HostTensor::from_values<int32_t>(axes_type, std::vector<int32_t>{2});
  CHECK_THROWS_WITH_AS(bad.run("ReverseV2", {bad_axes}, {2, 3}, {}, x, more), doctest::Contains("axis 2 is out of range for rank 2"), Error);
  // The same axis as the attribute: known at prepare, still refused when the node runs, as cpu.
  OneNode attr_bad({2, 3});
  CHECK_THROWS_WITH_AS(attr_bad.run("ReverseV2", {}, {2, 3}, {{"axis", Attr(std::vector<int64_t>{-3})}}, x),
                       doctest::Contains("axis -3 is out of range for rank 2"), Error);
  // ChannelShuffle, 6 channels in group 2 (k = 3): output channel i * 2 + j takes input channel
  // j * 3 + i -> channels 0, 3, 1, 4, 2, 5.
  OneNode shuffle({1, 6});
  CHECK(shuffle.run("ChannelShuffle", {}, {1, 6}, {{"axis", Attr(int64_t{1})}, {"group", Attr(int64_t{2})}}, {0, 1, 2, 3, 4, 5}) ==
        std::vector<float>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("opencl StridedSlice and Stack (Arm NN)") {
  if (!test::have_opencl()) return;
  const std::vector<float> x{1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
  // Rows 0..2, columns 2 down to 0 (excluded) by -1: [[3, 2], [6, 5]].
  OneNode s({2, 3});
  const AttrMap attrs{{"begin", Attr(std::vector<int64_t>{0, 2})}, {"end", Attr(std::vector<int64_t>{2, 0})},
                      {"strides", Attr(std::vector<int64_t>{1, -1})}};
  CHECK(s.run("StridedSlice", {}, {2, 2}, attrs, x) == std::vector<float>{3, 2, 6, 5});
  // shrink_axis_mask bit 0 with begin[0] = -1: row 1 alone, its dim dropped: [6, 5].
  OneNode shrunk({2, 3});
  AttrMap a2 = attrs;
  a2["begin"] = Attr(std::vector<int64_t>{-1, 2});
  a2["shrink_axis_mask"] = Attr(int64_t{1});
  CHECK(shrunk.run("StridedSlice", {}, {2}, a2, x) == std::vector<float>{6, 5});
  // Stack of x [2] and a constant c [2] on a new axis 1: [[x0, c0], [x1, c1]].
  OneNode st({2});
  const ValueId c = st.add("c", ty(DataType::Float32, {2}));
  const float cv[] = {10, 20};
  st.g.values[c].constant = Buffer::copy_of(std::as_bytes(std::span<const float>(cv)));
  CHECK(st.run("Stack", {c}, {2, 2}, {{"axis", Attr(int64_t{1})}}, {1, 2}) == std::vector<float>{1, 10, 2, 20});
}

TEST_CASE("opencl SpaceToBatchND and BatchToSpaceND (Arm NN, NCHW and NHWC): two gathers each") {
  if (!test::have_opencl()) return;
  // x [1, 1, 2, 3] = [[1, 2, 3], [4, 5, 6]], block 2 x 2, one column of padding on the right:
  // padded [[1, 2, 3, 0], [4, 5, 6, 0]]; batch (by * 2 + bx) takes rows by, by + 2, ... and
  // columns bx, bx + 2: b0 [1, 3], b1 [2, 0], b2 [4, 6], b3 [5, 0].
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  const std::vector<float> batches{1, 3, 2, 0, 4, 6, 5, 0};
  const AttrMap s2b{{"block_shape", Attr(std::vector<int64_t>{2, 2})}, {"pads", Attr(std::vector<int64_t>{0, 0, 0, 1})}};
  OneNode nchw({1, 1, 2, 3});
  CHECK(nchw.run("SpaceToBatchND", {}, {4, 1, 1, 2}, s2b, x) == batches);
  // The same tensor as NHWC [1, 2, 3, 1] (one channel: the same element order).
  AttrMap s2b_nhwc = s2b;
  s2b_nhwc["data_layout"] = Attr(std::string("NHWC"));
  OneNode nhwc({1, 2, 3, 1});
  CHECK(nhwc.run("SpaceToBatchND", {}, {4, 1, 2, 1}, s2b_nhwc, x) == batches);
  // BatchToSpaceND with the padding as crops gives x back.
  const AttrMap b2s{{"block_shape", Attr(std::vector<int64_t>{2, 2})}, {"crops", Attr(std::vector<int64_t>{0, 0, 0, 1})}};
  OneNode back({4, 1, 1, 2});
  CHECK(back.run("BatchToSpaceND", {}, {1, 1, 2, 3}, b2s, batches) == x);
  // Two channels, NHWC: [1, 1, 2, 2] holds (c0, c1) pairs (1, 10), (2, 20); block [1, 2] puts
  // column bx into batch bx: [[1, 10]], [[2, 20]].
  AttrMap s2b_c{{"block_shape", Attr(std::vector<int64_t>{1, 2})}, {"pads", Attr(std::vector<int64_t>{0, 0, 0, 0})},
                {"data_layout", Attr(std::string("NHWC"))}};
  OneNode two({1, 1, 2, 2});
  CHECK(two.run("SpaceToBatchND", {}, {2, 1, 1, 2}, s2b_c, {1, 10, 2, 20}) == std::vector<float>{1, 10, 2, 20});
}

TEST_CASE("opencl LpNormalization and Arm NN Normalization, by hand") {
  if (!test::have_opencl()) return;
  // x / ||x||_2 per row: [3, 4, 0] / 5, [1, 2, 2] / 3.
  OneNode lp({2, 3});
  const std::vector<float> y = lp.run("LpNormalization", {}, {2, 3}, {{"axis", Attr(int64_t{-1})}}, {3, 4, 0, 1, 2, 2});
  const float want[] = {0.6f, 0.8f, 0.0f, 1.0f / 3, 2.0f / 3, 2.0f / 3};
  REQUIRE(y.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(y[i] == doctest::Approx(want[i]).epsilon(1e-6));
  // Arm NN LocalBrightness, normSize 3 (one neighbour each side), alpha 1, beta 1, k 1 on
  // [1, 2, 3]: x / (1 + sum of squares): 1 / (1 + 1 + 4), 2 / (1 + 1 + 4 + 9), 3 / (1 + 4 + 9).
  const float lrn[] = {1.0f / 6, 2.0f / 15, 3.0f / 14};
  auto norm = [](int64_t channel_type, int64_t layout, const Shape& s) {
    OneNode n(s);
    return n.run("armnn.Normalization", {}, s,
                 {{"armnn.descriptor.normChannelType", Attr(channel_type)}, {"armnn.descriptor.dataLayout", Attr(layout)},
                  {"armnn.descriptor.normSize", Attr(int64_t{3})}, {"armnn.descriptor.alpha", Attr(1.0)},
                  {"armnn.descriptor.beta", Attr(1.0)}, {"armnn.descriptor.k", Attr(1.0)}},
                 {1, 2, 3});
  };
  // Across channels: NCHW [1, 3, 1, 1]. Within a channel: NHWC [1, 1, 3, 1] (one row of 3).
  for (const std::vector<float>& got : {norm(0, 1, {1, 3, 1, 1}), norm(1, 0, {1, 1, 3, 1})}) {
    REQUIRE(got.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(got[i] == doctest::Approx(lrn[i]).epsilon(1e-6));
  }
}

TEST_CASE("opencl vk.aten.max_pool2d_with_indices (PyTorch max_pool2d): values and per-plane indices, ceil_mode") {
  if (!test::have_opencl()) return;
  // x [1, 1, 3, 3] = [[1, 5, 2], [7, 3, 9], [4, 8, 6]]; kernel 2, stride 2, padding 0, ceil_mode
  // true: 2 x 2 windows starting at rows / cols 0 and 2 (the last takes what is inside):
  // (0, 0): {1, 5, 7, 3} -> 7 at 3; (0, 1): {2, 9} -> 9 at 5; (1, 0): {4, 8} -> 8 at 7; (1, 1): {6} at 8.
  OneNode n({1, 1, 3, 3});
  const ValueId idx = n.add("idx", ty(DataType::Float32, {1, 1, 2, 2}));
  const AttrMap attrs{{"kernel_size", Attr(std::vector<int64_t>{2, 2})}, {"stride", Attr(std::vector<int64_t>{2, 2})},
                      {"padding", Attr(std::vector<int64_t>{0, 0})}, {"dilation", Attr(std::vector<int64_t>{1, 1})},
                      {"ceil_mode", Attr(true)}};
  const ValueId y = n.add("y", ty(DataType::Float32, {1, 1, 2, 2}));
  n.g.nodes.push_back(Node{"vk.aten.max_pool2d_with_indices.default", "the_node", {0}, {y, idx}, attrs});
  n.g.inputs = {0};
  n.g.outputs = {y, idx};
  auto plan = gpu::backend()->prepare(n.g, {});
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(n.g.values[0].type, std::vector<float>{1, 5, 2, 7, 3, 9, 4, 8, 6});
  const TensorMap out = plan->run(in);
  auto v = out.at("y").values<float>();
  auto i = out.at("idx").values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{7, 9, 8, 6});
  CHECK(std::vector<float>(i.begin(), i.end()) == std::vector<float>{3, 5, 7, 8});
}
