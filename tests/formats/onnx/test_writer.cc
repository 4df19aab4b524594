// The writer refuses what ONNX opset 17 cannot express, naming the node, and never writes a
// model that onnx::checker or strict shape inference would refuse (checked in the writer; the
// test's oracle for "would refuse" is python3-onnx's checker on what does get written). Graphs
// built here by hand: an NHWC Conv (ONNX Conv is NCHW), a Stack (no ONNX operator), an Add of
// float32 and int64 (ONNX Add-14 wants one type T), and a plain Add that is written.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {

ValueId value(Graph& g, const std::string& name, DataType dt, std::vector<int64_t> shape) {
  Value v;
  v.name = name;
  v.type.dtype = dt;
  v.type.shape = std::move(shape);
  return g.add_value(std::move(v));
}

Graph binary(const std::string& op, DataType b_type) {
  Graph g;
  ValueId a = value(g, "a", DataType::Float32, {2, 3});
  ValueId b = value(g, "b", b_type, {2, 3});
  ValueId y = value(g, "y", DataType::Float32, {2, 3});
  g.inputs = {a, b};
  g.outputs = {y};
  Node n;
  n.op = op;
  n.name = "the_node";
  n.inputs = {a, b};
  n.outputs = {y};
  g.add_node(std::move(n));
  return g;
}

}  // namespace

TEST_CASE("onnx writer: a new graph gets ONNX's required fields and passes the full check") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path f = test::temp_dir() / "add.onnx";
  save(binary("Add", DataType::Float32), f);
  CHECK(ox::full_check(f) == "");
  Graph back = load(f);
  CHECK(back.metadata.at("onnx.ir_version").get<int64_t>() == 8);
  CHECK(back.metadata.at("onnx.opset_import.version").get<std::vector<int64_t>>() == std::vector<int64_t>{17});
  CHECK(back.metadata.at("onnx.producer_name").get<std::string>() == "nnbridge");
  REQUIRE(back.nodes.size() == 1);
  CHECK(back.nodes[0].op == "Add");
  CHECK(back.nodes[0].name == "the_node");
}

namespace {
// The error save() throws (docs/errors.md names the identifiers checked below).
Error save_error(const Graph& g, const fs::path& f) {
  try {
    save(g, f);
  } catch (const Error& e) {
    return e;
  }
  FAIL("written: " << f);
  return Error(ErrorCode::Io, "");
}
}  // namespace

TEST_CASE("onnx writer: what opset 17 cannot express is refused naming the node") {
  Graph conv = binary("Conv", DataType::Float32);
  conv.nodes[0].attrs["data_layout"] = Attr("NHWC");
  const fs::path dir = test::temp_dir();
  const Error e = save_error(conv, dir / "conv.onnx");
  CHECK(e.id() == ErrorId::NoForm);
  CHECK(e.where() == "nodes[0].attrs.data_layout");
  CHECK(e.message().find("the_node") != std::string::npos);
  // ReverseV2 with axes computed at run time (its ONNX form, a Slice, needs them constant) and
  // another format's native op.
  for (const char* op : {"ReverseV2", "armnn.StandIn"}) {
    CAPTURE(op);
    const Error s = save_error(binary(op, DataType::Float32), dir / "refused.onnx");
    CHECK(s.id() == ErrorId::NoForm);
    CHECK(s.where() == "nodes[0]");
    CHECK(s.message().find(std::string(op) + " 'the_node'") != std::string::npos);
  }
  CHECK(fs::is_empty(dir));
}

TEST_CASE("onnx writer: a model the checker refuses is not written, and the message names the node") {
  Graph g = binary("Add", DataType::Int64);
  const fs::path f = test::temp_dir() / "mixed.onnx";
  const Error e = save_error(g, f);
  CAPTURE(e.what());
  CHECK(e.id() == ErrorId::InvalidOther);
  CHECK(e.where() == "graph.node[0]");
  CHECK(!fs::exists(f));
  CHECK(fs::is_empty(f.parent_path()));
}

TEST_CASE("onnx writer: operand constants are written exactly (Slice ends = INT64_MAX)") {
  NNBRIDGE_REQUIRE_ONNX();
  // x [3, 9][:, -7::2]: starts 2, ends clamped to 9, 4 elements (ceil(7 / 2)). ONNX's strict
  // shape inference in the full check agrees with the declared [3, 4] only if ends stays INT64_MAX.
  Graph g;
  ValueId x = value(g, "x", DataType::Float32, {3, 9});
  ValueId y = value(g, "y", DataType::Float32, {3, 4});
  g.inputs = {x};
  g.outputs = {y};
  Node n;
  n.op = "Slice";
  n.inputs = {x};
  n.outputs = {y};
  for (int64_t v : {int64_t{-7}, int64_t{INT64_MAX}, int64_t{1}, int64_t{2}}) {  // starts, ends, axes, steps
    std::vector<std::byte> b(8);
    std::memcpy(b.data(), &v, 8);
    n.inputs.push_back(g.add_value(Value{"operand" + std::to_string(n.inputs.size()),
                                         TensorType{DataType::Int64, {1}, false, std::nullopt}, Buffer::owned(std::move(b)), {}}));
  }
  g.add_node(std::move(n));
  const fs::path f = test::temp_dir() / "slice.onnx";
  save(g, f);
  CHECK(ox::full_check(f) == "");
  std::string out;
  ox::shell(std::string(ox::kPython) + " -c 'import onnx, sys; from onnx import numpy_helper as h; "
                                       "print([int(h.to_array(t)[0]) for t in onnx.load(sys.argv[1]).graph.initializer])' '" +
                f.string() + "'",
            &out);
  CHECK(out == "[-7, 9223372036854775807, 1, 2]\n");
}

TEST_CASE("onnx writer: a quantized tensor is written as QDQ, one without a usable scale is refused") {
  Graph g = binary("Add", DataType::Float32);
  g.values[0].type.dtype = DataType::QAsymmU8;
  g.values[0].type.quantization = Quantization{{0.5}, {3}, std::nullopt};
  const std::filesystem::path dir = test::temp_dir();
  save(g, dir / "q.onnx");
  Graph back = load(dir / "q.onnx");
  CHECK(back.values[back.inputs[0]].type.dtype == DataType::UInt8);
  CHECK(back.nodes[0].op == "DequantizeLinear");

  g.values[0].type.quantization = Quantization{{0.0}, {3}, std::nullopt};  // scale 0: no grid
  const Error e = save_error(g, dir / "q0.onnx");
  CHECK(e.id() == ErrorId::DataType);
  CHECK(e.where() == "values[0]");
  CHECK(e.message().find("qasymmu8") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "q0.onnx"));
}
