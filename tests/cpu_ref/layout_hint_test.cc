// How the built-in binary elementwise kernels split across threads, and which tensors the plan
// marks channels-last for them (layout_hint.h, exec::NodeContext::channels_last). The values never
// depend on either (parallel_test.cc checks them on 1, 2 and 3 threads); these check the
// decisions themselves, by hand: the NCHW convolutions split their output by rows of each plane,
// the NHWC ones by rows of H, which for one image is the flat split.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kernel.h"
#include "kernels/vector_ops.h"
#include "layout_hint.h"
#include "nnbridge/graph.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

// Add of two tensors of `shape` on `threads` threads, hinted channels-last or not.
int64_t add_parts(std::vector<int64_t> shape, int threads, bool channels_last) {
  const Node add{"Add", "add", {0, 1}, {2}, {}};
  cpu_ref::KernelContext ctx{add, find_schema("Add"), {f32(shape), f32(shape)}, {f32(shape)}, {nullptr, nullptr}, threads, {}};
  ctx.channels_last = channels_last;
  return cpu_ref::binary_plane_row_parts(ctx);
}

// x -> node 0 (op0, attrs0) -> ... -> the last node; producer of each value.
struct Chain {
  Graph g;
  std::vector<std::size_t> producer;
  using Nodes = std::vector<std::pair<std::string, AttrMap>>;
  explicit Chain(const Nodes& nodes) {
    ValueId v = g.add_value(Value{"x", f32({1, 8, 8, 16}), std::nullopt, {}});
    g.inputs.push_back(v);
    producer.push_back(SIZE_MAX);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const ValueId y = g.add_value(Value{"v" + std::to_string(i), f32({1, 8, 8, 16}), std::nullopt, {}});
      g.add_node(Node{nodes[i].first, "n" + std::to_string(i), {v}, {y}, nodes[i].second});
      producer.push_back(i);
      v = y;
    }
    g.outputs.push_back(v);
  }
  bool last_channels_last() const { return cpu_ref::channels_last_input(g, g.nodes.back(), producer); }
};

const AttrMap nhwc{{"data_layout", Attr(std::string("NHWC"))}};
const AttrMap nchw{{"data_layout", Attr(std::string("NCHW"))}};

}  // namespace

TEST_CASE("cpu elementwise: binary ops split NCHW outputs by the rows of each plane, channels-last ones flat") {
  // 16 x 64 x 64 = 2^16 elements: two parts of 2^15 (the grain) on 2 or more threads.
  CHECK(add_parts({1, 16, 64, 64}, 2, false) == 2);
  CHECK(add_parts({1, 16, 64, 64}, 3, false) == 2);  // 2^16 / 2^15: two parts at most
  CHECK(add_parts({1, 32, 64, 64}, 3, false) == 3);
  CHECK(add_parts({1, 16, 64, 64}, 2, true) == 0);   // [N, H, W, C]: flat, the rows of H
  CHECK(add_parts({1, 16, 64, 64}, 1, false) == 0);  // one thread
  CHECK(add_parts({1, 8, 64, 64}, 2, false) == 0);   // one grain's worth
  CHECK(add_parts({16 * 64, 64}, 2, false) == 0);    // rank 2: no planes
  CHECK(add_parts({1, 1, 1, 65536}, 2, false) == 0); // planes of one row
}

TEST_CASE("cpu plan: which inputs are channels-last (data_layout NHWC, through elementwise nodes)") {
  CHECK(Chain({{"Conv", nhwc}, {"Add", {}}}).last_channels_last());
  CHECK(Chain({{"MaxPool", nhwc}, {"Relu", {}}, {"Mul", {}}, {"Add", {}}}).last_channels_last());
  CHECK_FALSE(Chain({{"Conv", {}}, {"Add", {}}}).last_channels_last());    // ONNX Conv: NCHW
  CHECK_FALSE(Chain({{"Conv", nchw}, {"Add", {}}}).last_channels_last());
  CHECK_FALSE(Chain(Chain::Nodes{{"Add", AttrMap{}}}).last_channels_last());  // a graph input
  CHECK_FALSE(Chain({{"Conv", nhwc}, {"Transpose", {}}, {"Add", {}}}).last_channels_last());  // not elementwise
  // Eight elementwise nodes between are followed, nine are not.
  std::vector<std::pair<std::string, AttrMap>> nodes{{"Conv", nhwc}};
  for (int i = 0; i < 7; ++i) nodes.push_back({"Relu", {}});
  nodes.push_back({"Add", {}});
  CHECK(Chain(nodes).last_channels_last());
  nodes.insert(nodes.begin() + 1, {"Relu", {}});
  CHECK_FALSE(Chain(nodes).last_channels_last());
}
