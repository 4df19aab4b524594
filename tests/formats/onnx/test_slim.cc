// The reader leaves initializers' raw_data over 4 KiB in the file (slim.h): the message
// protobuf parses lacks them, and the graph's constants view the file's bytes. The expected
// messages come from protobuf itself (ModelProto serialized and parsed by libprotobuf); the
// values from the floats written.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/io.h"
#include "onnx/onnx_pb.h"
#include "slim.h"

using namespace nnbridge;
using nnbridge::formats::onnx::kSlimBytes;
using nnbridge::formats::onnx::slim_model;

namespace {

std::vector<float> ramp(std::size_t n, float start) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + 0.25f * static_cast<float>(i);
  return v;
}

void raw_initializer(::onnx::GraphProto& g, const std::string& name, const std::vector<float>& v) {
  auto* t = g.add_initializer();
  t->set_name(name);
  t->add_dims(static_cast<int64_t>(v.size()));
  t->set_data_type(::onnx::TensorProto::FLOAT);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
}

// Y = X + w (opset 17), w of n floats in raw_data; also a small raw initializer, a large one in
// float_data, and a Constant node whose 8 KiB tensor is an attribute (none of them left out).
::onnx::ModelProto add_model(std::size_t n) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto& g = *m.mutable_graph();
  g.set_name("g");
  raw_initializer(g, "w", ramp(n, 1.0f));
  raw_initializer(g, "small", ramp(8, 0.0f));
  auto* f = g.add_initializer();
  f->set_name("typed");
  f->add_dims(2000);
  f->set_data_type(::onnx::TensorProto::FLOAT);
  for (float x : ramp(2000, 3.0f)) f->add_float_data(x);
  auto* c = g.add_node();
  c->set_op_type("Constant");
  c->add_output("k");
  auto* a = c->add_attribute();
  a->set_name("value");
  a->set_type(::onnx::AttributeProto::TENSOR);
  const std::vector<float> kv = ramp(2048, 5.0f);
  a->mutable_t()->add_dims(2048);
  a->mutable_t()->set_data_type(::onnx::TensorProto::FLOAT);
  a->mutable_t()->set_raw_data(std::string(reinterpret_cast<const char*>(kv.data()), kv.size() * sizeof(float)));
  auto* add = g.add_node();
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("w");
  add->add_output("y");
  for (const char* io : {"x", "y"}) {
    auto* vi = std::string(io) == "x" ? g.add_input() : g.add_output();
    vi->set_name(io);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(::onnx::TensorProto::FLOAT);
    vi->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(static_cast<int64_t>(n));
  }
  return m;
}

std::span<const std::byte> bytes_of(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

// A TensorProto field by hand: tag (number << 3 | 2), a one-byte length (< 128) or two bytes.
std::string field(int number, const std::string& payload) {
  std::string out(1, static_cast<char>(number << 3 | 2));
  for (std::size_t v = payload.size(); ; v >>= 7) {
    out.push_back(static_cast<char>(v >= 0x80 ? (v & 0x7f) | 0x80 : v));
    if (v < 0x80) break;
  }
  return out + payload;
}

}  // namespace

TEST_CASE("onnx slim: large initializer raw_data left in the file, the rest parsed as protobuf wrote it") {
  const ::onnx::ModelProto m = add_model(2048);  // w: 8 KiB
  const std::string file = m.SerializeAsString();
  const auto slim = slim_model(bytes_of(file), kSlimBytes);
  REQUIRE(slim);
  REQUIRE(slim->raw_data.size() == 1);  // w only: not the small one, the typed one or the attribute
  const auto w = slim->raw_data.at("w");
  CHECK(w.size() == 2048 * sizeof(float));
  CHECK(w.data() >= bytes_of(file).data());
  CHECK(w.data() + w.size() <= bytes_of(file).data() + file.size());
  CHECK(std::memcmp(w.data(), m.graph().initializer(0).raw_data().data(), w.size()) == 0);
  ::onnx::ModelProto parsed;
  REQUIRE(parsed.ParseFromString(slim->bytes));
  ::onnx::ModelProto expected = m;
  expected.mutable_graph()->mutable_initializer(0)->set_raw_data(std::string(1, '\0'));
  CHECK(parsed.SerializeAsString() == expected.SerializeAsString());
}

TEST_CASE("onnx slim: of a raw_data given twice the last counts, the name may come after it") {
  const std::string big(5000, 'x');
  // TensorProto fields: raw_data (9) twice, then name (8); data_type FLOAT (field 2, a varint).
  const std::string data_type = std::string(1, static_cast<char>(2 << 3 | 0)) + std::string(1, '\x01');
  auto model_of = [&](const std::string& tensor) {
    return field(7, field(5, tensor));  // ModelProto.graph.initializer
  };
  SUBCASE("large, then small: the small one stays and nothing is left out") {
    const std::string file = model_of(field(9, big) + field(9, "abcd") + field(8, "t") + data_type);
    CHECK(!slim_model(bytes_of(file), kSlimBytes));
  }
  SUBCASE("small, then large: the large one is left out and parses as the placeholder") {
    const std::string file = model_of(field(9, "abcd") + field(9, big) + field(8, "t") + data_type);
    const auto slim = slim_model(bytes_of(file), kSlimBytes);
    REQUIRE(slim);
    CHECK(slim->raw_data.at("t").size() == big.size());
    CHECK(std::memcmp(slim->raw_data.at("t").data(), big.data(), big.size()) == 0);
    ::onnx::ModelProto parsed;
    REQUIRE(parsed.ParseFromString(slim->bytes));
    CHECK(parsed.graph().initializer(0).name() == "t");
    CHECK(parsed.graph().initializer(0).raw_data() == std::string(1, '\0'));
  }
}

TEST_CASE("onnx slim: nothing is left out of a file it cannot attribute or walk") {
  ::onnx::ModelProto m = add_model(2048);
  SUBCASE("two initializers of one name") {
    *m.mutable_graph()->add_initializer() = m.graph().initializer(0);
    const std::string file = m.SerializeAsString();
    CHECK(!slim_model(bytes_of(file), kSlimBytes));
  }
  SUBCASE("a large one without a name") {
    m.mutable_graph()->mutable_initializer(0)->clear_name();
    const std::string file = m.SerializeAsString();
    CHECK(!slim_model(bytes_of(file), kSlimBytes));
  }
  SUBCASE("cut inside w's data") {
    const std::string file = m.SerializeAsString().substr(0, 4000);
    CHECK(!slim_model(bytes_of(file), kSlimBytes));
  }
  SUBCASE("no raw_data over the threshold") {
    const std::string file = add_model(512).SerializeAsString();  // w: 2 KiB
    CHECK(!slim_model(bytes_of(file), kSlimBytes));
  }
}

TEST_CASE("onnx reader: a large initializer's constant is a view of the file's bytes, with its values") {
  const std::string file = add_model(2048).SerializeAsString();
  auto owner = std::make_shared<const std::string>(file);
  const std::span<const std::byte> bytes = bytes_of(*owner);
  const Graph g = load(bytes, "onnx", {}, owner);
  const auto id = g.find_value("w");
  REQUIRE(id);
  const Value& w = g.values[*id];
  REQUIRE(w.constant);
  CHECK(w.constant->is_view());
  CHECK(w.constant->data() >= bytes.data());
  CHECK(w.constant->data() + w.constant->size() <= bytes.data() + bytes.size());
  const std::vector<float> expected = ramp(2048, 1.0f);
  REQUIRE(w.constant->size() == expected.size() * sizeof(float));
  CHECK(std::memcmp(w.constant->data(), expected.data(), w.constant->size()) == 0);
  const auto typed = g.find_value("typed");
  REQUIRE(typed);
  const std::vector<float> t = ramp(2000, 3.0f);
  REQUIRE(g.values[*typed].constant->size() == t.size() * sizeof(float));
  CHECK(std::memcmp(g.values[*typed].constant->data(), t.data(), t.size() * sizeof(float)) == 0);
}
