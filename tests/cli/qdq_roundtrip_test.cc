// Arm NN -> ONNX -> Arm NN for quantized networks: the ONNX file holds QDQ nodes
// (nnbridge/rewrite_qdq.h quantized_as_qdq), the Arm NN writer folds them back into quantized
// tensors (qdq_as_quantized). The golden cases' expected outputs are Arm NN 20.08 CpuRef's on the
// original files; the round-tripped file must give the same stored integers (same dtype, shape
// and bytes) on nnbridge's cpu and, through the peer program, on Arm NN 20.08 CpuRef itself.
#include <doctest/doctest.h>

#include <cstring>
#include <set>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

// An .npy file's dtype descr, shape text and data bytes (format 1.0 / 2.0 headers).
struct Npy {
  std::string descr, shape, data;
};
Npy parse_npy(const fs::path& p) {
  const std::string b = read_file(p);
  REQUIRE(b.size() >= 10);
  REQUIRE(b.compare(0, 6, "\x93NUMPY") == 0);
  const bool v1 = b[6] == 1;
  std::size_t len = static_cast<unsigned char>(b[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(b[9])) << 8);
  std::size_t at = 10;
  if (!v1) {
    REQUIRE(b.size() >= 12);
    len |= (static_cast<std::size_t>(static_cast<unsigned char>(b[10])) << 16) | (static_cast<std::size_t>(static_cast<unsigned char>(b[11])) << 24);
    at = 12;
  }
  const std::string header = b.substr(at, len);
  auto field = [&](const std::string& key, char open, char close) {
    const auto k = header.find("'" + key + "'");
    REQUIRE(k != std::string::npos);
    const auto s = header.find(open, k + key.size() + 2);
    const auto e = header.find(close, s + 1);
    return header.substr(s, e - s + 1);
  };
  return Npy{field("descr", '\'', '\''), field("shape", '(', ')'), b.substr(at + len)};
}

void expect_same_outputs(const fs::path& got_dir, const fs::path& want_dir, const std::string& who) {
  int compared = 0;
  for (const auto& e : fs::directory_iterator(want_dir)) {
    CAPTURE(who);
    CAPTURE(e.path());
    REQUIRE(fs::exists(got_dir / e.path().filename()));
    const Npy got = parse_npy(got_dir / e.path().filename()), want = parse_npy(e.path());
    CHECK(got.descr == want.descr);
    CHECK(got.shape == want.shape);
    CHECK(got.data == want.data);
    ++compared;
  }
  CHECK(compared > 0);
}

}  // namespace

TEST_CASE("cli qdq: quantized Arm NN networks through ONNX and back compute Arm NN 20.08's integers") {
  const std::vector<std::string> cases = {
      "activation_relu_qasymmu8", "activation_sigmoid_qasymms8", "add_qasymmu8", "avgpool_nchw_qasymmu8_pad_ignore_value",
      "avgpool_qasymms8", "concat_qasymmu8_rescale", "constant_qasymmu8_mul", "conv2d_nchw_per_axis_qasymmu8",
      "conv2d_nchw_qasymms8_stride2_pad1", "conv2d_per_axis_qsymms8", "conv2d_qasymmu8", "depthwise_nchw_qasymmu8_m2",
      "depthwise_nhwc_per_axis_qasymms8", "dequantize_qasymms8", "fully_connected_qasymmu8_4d_input", "maxpool_nchw_qasymms8_pad",
      "maxpool_qasymmu8", "mean_qasymmu8_rescale", "pad_qasymmu8", "quantize_to_qasymmu8", "reshape_qasymmu8",
      "resize_bilinear_nchw_qasymms8_rescale", "resize_nearest_nchw_qasymmu8", "softmax_beta_qasymmu8", "softmax_qasymms8_beta",
      // SpaceToBatchND's ONNX form (TensorFlow's definition) transposes through rank 6; the Arm
      // NN writer merges that Transpose's dims to 5 or fewer (transpose_rank_reduced).
      "space_to_batch_nd_qasymmu8", "sub_qasymms8", "transpose_conv2d_nhwc_qasymmu8"};
  // nnbridge's cpu accumulates this depthwise convolution in another order than CpuRef: one
  // element lands on the other side of a rounding boundary (the golden tolerance is one step).
  const std::set<std::string> cpu_one_step = {"depthwise_nchw_qasymmu8_m2"};
  const auto peer = armnn_peer();
  if (!peer) MESSAGE("nnbridge-armnn-peer is not built: Arm NN 20.08 does not run the round-tripped files");
  for (const std::string& name : cases) {
    CAPTURE(name);
    const fs::path golden = source_dir() / "tests/golden/armnn" / name;
    const fs::path dir = temp_dir();
    const fs::path onnx = dir / "model.onnx", back = dir / "model.armnn";
    REQUIRE(run_cli({"convert", (golden / "model.armnn").string(), onnx.string()}).code == 0);
    const RunResult written = run_cli({"convert", onnx.string(), back.string()});
    CAPTURE(written.err);
    REQUIRE(written.code == 0);
    if (!cpu_one_step.count(name)) {
      const RunResult ran = run_cli({"run", back.string(), "--inputs", (golden / "inputs").string(), "--outputs", (dir / "cpu").string()});
      CAPTURE(ran.err);
      REQUIRE(ran.code == 0);
      expect_same_outputs(dir / "cpu", golden / "outputs", "cpu");
    }
    if (peer) {
      fs::create_directories(dir / "peer");
      const RunResult ran = run_program({peer->string(), "run", back.string(), (golden / "inputs").string(), (dir / "peer").string()});
      CAPTURE(ran.err);
      REQUIRE(ran.code == 0);
      expect_same_outputs(dir / "peer", golden / "outputs", "Arm NN 20.08 CpuRef");
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("cli: a rank-6 tensor no rewrite can narrow is refused by the Arm NN writer, naming the tensor") {
  // A Relu of a [1, 2, 1, 2, 1, 2] value: Arm NN's TensorShape holds at most 5 dims
  // (armnn::MaxNumOfTensorDimensions) and 20.08's deserializer refuses such a file.
  const fs::path dir = temp_dir();
  const fs::path ir = dir / "graph.json", out = dir / "model.armnn";
  write_file(ir, R"({"format": "nnbridge-ir", "version": 1, "values": [
    {"name": "x", "type": {"dtype": "float32", "shape": [1, 2, 1, 2, 1, 2]}},
    {"name": "y", "type": {"dtype": "float32", "shape": [1, 2, 1, 2, 1, 2]}}],
    "nodes": [{"op": "Relu", "name": "relu", "inputs": [0], "outputs": [1]}], "inputs": [0], "outputs": [1]})");
  const RunResult r = run_cli({"convert", ir.string(), out.string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("[nnbridge.unsupported.302]") != std::string::npos);
  CHECK(r.err.find("rank 6: Arm NN tensors have at most 5 dimensions") != std::string::npos);
  CHECK(!fs::exists(out));
  fs::remove_all(dir);
}
