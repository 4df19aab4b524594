// nnbridge's output against independent tools run at test time: protoc (--encode/--decode)
// for the protobuf forms, flatc for the FlatBuffer forms, and hand-computed bytes.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "util.h"

using namespace nnbridge::test::tflite_accel;
using nlohmann::json;

namespace {

// flatc prints floats with 6 significant digits: compare numbers with a relative tolerance,
// everything else exactly.
void expect_same(const json& a, const json& b, const std::string& path) {
  CAPTURE(path);
  if (a.is_number_float() || b.is_number_float()) {
    REQUIRE(a.is_number());
    REQUIRE(b.is_number());
    const double x = a.get<double>(), y = b.get<double>();
    CHECK(std::abs(x - y) <= 1e-5 * std::max(std::abs(x), std::abs(y)));
    return;
  }
  REQUIRE(a.type() == b.type());
  if (a.is_object()) {
    CHECK(a.size() == b.size());
    for (auto it = a.begin(); it != a.end(); ++it) {
      REQUIRE_MESSAGE(b.contains(it.key()), (path + "." + it.key()));
      expect_same(it.value(), b.at(it.key()), path + "." + it.key());
    }
  } else if (a.is_array()) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], path + "[" + std::to_string(i) + "]");
  } else {
    CHECK(a == b);
  }
}

// Every field the message has (protobuf presence) is a key of flatc's JSON, recursively.
void expect_present(const pb::Message& m, const json& j, const std::string& path) {
  const pb::Reflection& r = *m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  CHECK_MESSAGE(j.size() == fields.size(), path);
  for (const pb::FieldDescriptor* f : fields) {
    const std::string p = path + "." + f->name();
    REQUIRE_MESSAGE(j.contains(f->name()), p);
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!f->is_repeated()) {
      expect_present(r.GetMessage(m, f), j.at(f->name()), p);
      continue;
    }
    REQUIRE(j.at(f->name()).size() == static_cast<std::size_t>(r.FieldSize(m, f)));
    for (int k = 0; k < r.FieldSize(m, f); ++k) expect_present(r.GetRepeatedMessage(m, f, k), j.at(f->name())[k], p);
  }
}

}  // namespace

TEST_CASE("tflite_accel tools: the issue's golden bytes, by hand and by protoc --encode") {
  const std::string text =
      "delegate: XNNPACK xnnpack_settings { num_threads: 5 flags: TFLITE_XNNPACK_DELEGATE_FLAG_QS8 }";
  // Hand encoding: field 1 varint 4 (08 04); field 5 length 4 (2a 04) holding field 1 varint 5
  // (08 05) and field 2 varint 1 (10 01).
  const std::string golden = "08 04 2a 04 08 05 10 01";
  const ta::Settings s = ta::Settings::parse(text, ta::Form::ProtoText);
  CHECK(hex(s.serialize(ta::Form::ProtoBinary)) == golden);
  const auto encoded = protoc_encode("TFLiteSettings", text);
  REQUIRE(encoded);
  CHECK(hex(*encoded) == golden);
  const auto decoded = protoc_decode("TFLiteSettings", s.serialize(ta::Form::ProtoBinary));
  REQUIRE(decoded);
  CHECK(*decoded == s.serialize(ta::Form::ProtoText));
}

TEST_CASE("tflite_accel tools: the root messages, filled, hold every message of the schema") {
  // The tool tests below run protoc and flatc once per root message (each run costs a process),
  // which covers every message because every other one sits inside a root.
  std::set<std::string> seen;
  for (const std::string& name : root_messages()) {
    auto m = new_message(name);
    fill(*m, Fill::Distinct);
    for (const std::string& t : message_types_in(*m)) seen.insert(t);
  }
  const auto all = ta::message_names();
  CHECK(seen == std::set<std::string>(all.begin(), all.end()));
  CHECK(root_messages().size() < all.size());
}

TEST_CASE("tflite_accel tools: protoc decodes nnbridge's wire bytes and encodes its text, for every message") {
  for (const std::string& name : root_messages()) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    auto m = new_message(name);
    fill(*m, Fill::Distinct);
    const ta::Settings s = ta::Settings::parse(m->SerializeAsString(), ta::Form::ProtoBinary, name);
    const auto decoded = protoc_decode(name, s.serialize(ta::Form::ProtoBinary));
    REQUIRE(decoded);
    CHECK(*decoded == s.serialize(ta::Form::ProtoText));
    const auto encoded = protoc_encode(name, s.serialize(ta::Form::ProtoText));
    REQUIRE(encoded);
    CHECK(*encoded == m->SerializeAsString());
  }
}

TEST_CASE("tflite_accel tools: flatc reads nnbridge's fb as nnbridge's fb-json says, for every message") {
  for (const std::string& name : root_messages()) {
    for (Fill mode : {Fill::Distinct, Fill::Defaults}) {
      const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(name_);
      CAPTURE(mode == Fill::Distinct);
      auto m = new_message(name);
      fill(*m, mode);
      const ta::Settings s = ta::Settings::parse(m->SerializeAsString(), ta::Form::ProtoBinary, name);
      const auto by_flatc = flatc_to_json(name, s.serialize(ta::Form::Fb));
      REQUIRE(by_flatc);
      const json theirs = json::parse(*by_flatc), ours = json::parse(s.serialize(ta::Form::FbJson));
      expect_same(theirs, ours, name);
      // flatc prints exactly the fields present in the buffer: every field the message has
      // must be there, also when it holds its default value.
      expect_present(*m, theirs, name);
    }
  }
}

TEST_CASE("tflite_accel tools: flatc compiles nnbridge's fb-json into a buffer nnbridge reads back unchanged") {
  for (const std::string& name : root_messages()) {
    for (Fill mode : {Fill::Distinct, Fill::Defaults}) {
      const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(name_);
      CAPTURE(mode == Fill::Distinct);
      auto m = new_message(name);
      fill(*m, mode);
      const std::string wire = m->SerializeAsString();
      const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary, name);
      const auto fb = flatc_from_json(name, s.serialize(ta::Form::FbJson));
      REQUIRE(fb);
      const ta::Settings back = ta::Settings::parse(*fb, ta::Form::Fb, name);
      CHECK(back.warnings().empty());
      CHECK(back.serialize(ta::Form::ProtoBinary) == wire);
    }
  }
}

TEST_CASE("tflite_accel tools: the fields TFLite's own converters drop survive proto -> fb -> proto") {
  // proto->fb in TFLite drops XNNPack weight_cache_file_path and runtime_flags, ModelFile
  // model_id_group and buffer_handle, MinibenchmarkSettings validation_settings; fb->proto
  // drops armnn_settings, EdgeTpu qos_class, hardware_cluster_ids, public_model_id,
  // use_layer_ir_tgc_backend, and BenchmarkResult actual_output.
  const std::string compute =
      "tflite_settings {\n"
      "  xnnpack_settings { weight_cache_file_path: \"/cache/w.bin\" runtime_flags: 3 }\n"
      "  edgetpu_settings { qos_class: REALTIME hardware_cluster_ids: [4, 7] public_model_id: \"m1\"\n"
      "                     use_layer_ir_tgc_backend: USE_LAYER_IR_TGC_BACKEND_AUTO }\n"
      "  armnn_settings { backends: \"GpuAcc,CpuAcc\" fastmath: true additional_parameters: \"x=1\" }\n"
      "}\n"
      "settings_to_test_locally {\n"
      "  model_file { filename: \"m.tflite\" model_id_group { model_namespace: \"ns\" model_id: \"id\" }\n"
      "               buffer_handle: 1234 }\n"
      "  validation_settings { per_test_timeout_ms: 5000 }\n"
      "}\n";
  const std::string event = "result { actual_output { value: \"\\001\\002\\377\" } actual_output { } }";
  for (const auto& [name, text] : {std::pair{std::string("ComputeSettings"), compute},
                                   std::pair{std::string("BenchmarkEvent"), event}}) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    const auto wire = protoc_encode(name, text);
    REQUIRE(wire);
    const ta::Settings s = ta::Settings::parse(*wire, ta::Form::ProtoBinary, name);
    const std::string fb = s.serialize(ta::Form::Fb);
    const auto decoded = flatc_to_json(name, fb);
    REQUIRE(decoded);
    const json j = json::parse(*decoded);
    if (name == "ComputeSettings") {
      const json& t = j.at("tflite_settings");
      CHECK(t.at("xnnpack_settings").at("weight_cache_file_path") == "/cache/w.bin");
      CHECK(t.at("xnnpack_settings").at("runtime_flags") == 3);
      CHECK(t.at("edgetpu_settings").at("qos_class") == "REALTIME");
      CHECK(t.at("edgetpu_settings").at("hardware_cluster_ids") == json::array({4, 7}));
      CHECK(t.at("edgetpu_settings").at("public_model_id") == "m1");
      CHECK(t.at("edgetpu_settings").at("use_layer_ir_tgc_backend") == "USE_LAYER_IR_TGC_BACKEND_AUTO");
      CHECK(t.at("armnn_settings").at("backends") == "GpuAcc,CpuAcc");
      CHECK(t.at("armnn_settings").at("fastmath") == true);
      const json& mb = j.at("settings_to_test_locally");
      CHECK(mb.at("model_file").at("model_id_group").at("model_id") == "id");
      CHECK(mb.at("model_file").at("buffer_handle") == 1234);
      CHECK(mb.at("validation_settings").at("per_test_timeout_ms") == 5000);
      // Presence: TFLite's converter would also write empty tables and strings for every
      // unset sub-message; here only what was set is there.
      CHECK_FALSE(t.contains("gpu_settings"));
      CHECK_FALSE(j.contains("model_namespace_for_statistics"));
    } else {
      CHECK(j.at("result").at("actual_output") == json::parse(R"([{"value": [1, 2, 255]}, {}])"));
    }
    CHECK(ta::Settings::parse(fb, ta::Form::Fb, name).serialize(ta::Form::ProtoBinary) == *wire);
  }
}

TEST_CASE("tflite_accel tools: fb field slots follow declaration order, not proto tags") {
  // TFLiteSettings.coreml_settings is tag 11 but the sixth field declared: vtable slot 5,
  // voffset 4 + 2*5 = 14. One field set, so the vtable is [vtable size, table size, slots...].
  const ta::Settings s = ta::Settings::parse("coreml_settings { }", ta::Form::ProtoText);
  const std::string fb = s.serialize(ta::Form::Fb);
  const auto u32 = [&](std::size_t at) {
    return static_cast<uint32_t>(static_cast<unsigned char>(fb[at])) |
           static_cast<uint32_t>(static_cast<unsigned char>(fb[at + 1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(fb[at + 2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(fb[at + 3])) << 24;
  };
  const auto u16 = [&](std::size_t at) {
    return static_cast<uint16_t>(static_cast<unsigned char>(fb[at]) | static_cast<unsigned char>(fb[at + 1]) << 8);
  };
  const std::size_t root = u32(0);
  const std::size_t vtable = root - static_cast<int32_t>(u32(root));
  REQUIRE(u16(vtable) == 4 + 2 * 6);  // slots 0..5
  for (int slot = 0; slot < 5; ++slot) CHECK(u16(vtable + 4 + 2 * slot) == 0);
  CHECK(u16(vtable + 4 + 2 * 5) != 0);
  const auto decoded = flatc_to_json("TFLiteSettings", fb);
  REQUIRE(decoded);
  CHECK(json::parse(*decoded) == json::parse(R"({"coreml_settings": {}})"));
}

TEST_CASE("tflite_accel tools: the protobuf JSON mapping as the issue describes it") {
  const ta::Settings s = ta::Settings::parse(
      "xnnpack_settings { num_threads: 2 } google_edgetpu_settings { extension_data: \"\\001\\002\" } "
      "nnapi_settings { support_library_handle: 9007199254740993 }",
      ta::Form::ProtoText);
  const json j = json::parse(s.serialize(ta::Form::ProtoJson));
  CHECK(j.at("xnnpackSettings").at("numThreads") == 2);                    // lowerCamelCase keys
  CHECK(j.at("googleEdgetpuSettings").at("extensionData") == "AQI=");      // base64 of 01 02
  CHECK(j.at("nnapiSettings").at("supportLibraryHandle") == "9007199254740993");  // int64 as a string
  // Either spelling reads back.
  const ta::Settings snake = ta::Settings::parse(R"({"xnnpack_settings": {"num_threads": 2}})", ta::Form::ProtoJson);
  CHECK(snake.serialize(ta::Form::ProtoText) == "xnnpack_settings {\n  num_threads: 2\n}\n");
}
