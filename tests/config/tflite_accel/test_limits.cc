// What one form cannot express: closed proto2 enums, unknown fields, empty vectors, fields of a
// newer schema; and malformed input of every form.
#include <doctest/doctest.h>
#include <flatbuffers/flatbuffers.h>
#include <nlohmann/json.hpp>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge::test::tflite_accel;
using nlohmann::json;
using nnbridge::Error;
using nnbridge::ErrorCode;
using nnbridge::ErrorId;
using Severity = nnbridge::Issue::Severity;

TEST_CASE("tflite_accel limits: an XNNPack flags bit mask (9) from fb-json is kept, and refused by the text forms") {
  const ta::Settings s = ta::Settings::parse(R"({ "xnnpack_settings": { "flags": 9 } })", ta::Form::FbJson);
  CHECK(has_issue(s.warnings(), Severity::Warning, "xnnpack_settings.flags", "kept as unknown field 2"));
  // Wire bytes by hand: field 5 (2a), length 2, field 2 varint 9 (10 09): how protobuf keeps
  // an out-of-enum value of a closed enum it reads off the wire.
  CHECK(hex(s.serialize(ta::Form::ProtoBinary)) == "2a 02 10 09");
  const auto decoded = flatc_to_json("TFLiteSettings", s.serialize(ta::Form::Fb));
  REQUIRE(decoded);
  CHECK(json::parse(*decoded) == json::parse(R"({"xnnpack_settings": {"flags": 9}})"));
  CHECK(json::parse(s.serialize(ta::Form::FbJson)) == json::parse(R"({"xnnpack_settings": {"flags": 9}})"));
  for (ta::Form form : {ta::Form::ProtoText, ta::Form::ProtoJson}) {
    CAPTURE(ta::to_string(form));
    const Error e = error_of([&] { s.serialize(form); });
    CHECK(e.id() == ErrorId::NoForm);  // the text and JSON forms cannot write the value
    CHECK(e.where() == "xnnpack_settings.flags");
  }
  // Back from proto-binary (where protoc itself would keep 9 as an unknown field): the same.
  const ta::Settings wire = ta::Settings::parse(s.serialize(ta::Form::ProtoBinary), ta::Form::ProtoBinary);
  CHECK(has_issue(wire.warnings(), Severity::Warning, "xnnpack_settings.flags", "9 is not a value"));
  CHECK(wire.serialize(ta::Form::Fb) == s.serialize(ta::Form::Fb));
  // protoc agrees that the text form cannot say 9.
  CHECK_FALSE(protoc_encode("TFLiteSettings", "xnnpack_settings { flags: 9 }"));
  const Error text = error_of([] { ta::Settings::parse("xnnpack_settings { flags: 9 }", ta::Form::ProtoText); });
  CHECK(text.id() == ErrorId::Syntax);
  CHECK(text.where() == "line 1, column 29");  // protoc --encode reports input:1:29 for this text
}

TEST_CASE("tflite_accel limits: a negative out-of-enum value keeps its sign through every form that holds it") {
  const ta::Settings s = ta::Settings::parse(R"({ "coral_settings": { "performance": -3 } })", ta::Form::FbJson);
  CHECK(has_issue(s.warnings(), Severity::Warning, "coral_settings.performance", "-3 is not a value"));
  const ta::Settings wire = ta::Settings::parse(s.serialize(ta::Form::ProtoBinary), ta::Form::ProtoBinary);
  CHECK(json::parse(wire.serialize(ta::Form::FbJson)) == json::parse(R"({"coral_settings": {"performance": -3}})"));
}

TEST_CASE("tflite_accel limits: an enum varint that is no int32 stays in proto-binary and is refused by fb") {
  // TFLiteSettings.delegate is field 1 (tag 08). Varint 2^32 + 100 (e4 80 80 80 10, seven bits a
  // byte, low group first): protobuf tests its low 32 bits (100, no Delegate value) and keeps
  // all 64 bits as an unknown field; the twin's enum field is an int32, which would read back 100.
  const std::string wire = std::string("\x08\xe4\x80\x80\x80\x10", 6);
  const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary);
  CHECK(has_issue(s.warnings(), Severity::Warning, "delegate", "4294967396 of enum field 1 is not an int32"));
  CHECK(s.serialize(ta::Form::ProtoBinary) == wire);
  for (ta::Form form : {ta::Form::ProtoText, ta::Form::ProtoJson, ta::Form::Fb, ta::Form::FbJson}) {
    CAPTURE(ta::to_string(form));
    const Error e = error_of([&] { s.serialize(form); });
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.where() == "delegate");
  }
  // -3 sign-extended (fd ff ff ff ff ff ff ff ff 01) is an int32: fb holds it and reads it back.
  const std::string negative = std::string("\x08\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
  const ta::Settings n = ta::Settings::parse(negative, ta::Form::ProtoBinary);
  CHECK(ta::Settings::parse(n.serialize(ta::Form::Fb), ta::Form::Fb) == n);
}

TEST_CASE("tflite_accel limits: one enum field given twice outside the enum stays in proto-binary, refused by fb") {
  // delegate = 100, then delegate = 101 (08 64 08 65): protobuf keeps both as unknown fields;
  // the twin has one slot for the field.
  const std::string wire = std::string("\x08\x64\x08\x65", 4);
  const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary);
  CHECK(s.serialize(ta::Form::ProtoBinary) == wire);
  for (ta::Form form : {ta::Form::Fb, ta::Form::FbJson}) {
    CAPTURE(ta::to_string(form));
    const Error e = error_of([&] { s.serialize(form); });
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.where() == "delegate");
    CHECK(e.message().find("two unknown values") != std::string::npos);
  }
  // One of them alone is what fb holds.
  const ta::Settings one = ta::Settings::parse(std::string("\x08\x65", 2), ta::Form::ProtoBinary);
  CHECK(ta::Settings::parse(one.serialize(ta::Form::Fb), ta::Form::Fb) == one);
}

TEST_CASE("tflite_accel limits: unknown enum values read back from fb in field order are the same settings") {
  // gpu_settings (field 3, tag 1a, length 4) holding inference_priority3 (field 6, tag 30) = 64
  // before inference_priority2 (field 5, tag 28) = 4: neither is a GPUInferencePriority value,
  // so protobuf keeps both as unknown fields in the order read. fb holds them by field and reads
  // them back in schema order: 28 04 30 40. Fields of different numbers carry no order.
  const std::string wire = std::string("\x1a\x04\x30\x40\x28\x04", 6);
  const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary);
  const ta::Settings back = ta::Settings::parse(s.serialize(ta::Form::Fb), ta::Form::Fb);
  CHECK(hex(back.serialize(ta::Form::ProtoBinary)) == "1a 04 28 04 30 40");
  CHECK(back == s);
  // One number's values keep their order: 64 then 4 for field 6 is not 4 then 64.
  const ta::Settings a = ta::Settings::parse(std::string("\x1a\x04\x30\x40\x30\x04", 6), ta::Form::ProtoBinary);
  const ta::Settings b = ta::Settings::parse(std::string("\x1a\x04\x30\x04\x30\x40", 6), ta::Form::ProtoBinary);
  CHECK_FALSE(a == b);
}

TEST_CASE("tflite_accel limits: an out-of-enum value in a repeated enum is refused, naming the element") {
  const Error e = error_of([] {
    ta::Settings::parse(R"({ mtk_neuron_settings: { optimization_hints: [1, 7] } })", ta::Form::FbJson);
  });
  CHECK(e.id() == ErrorId::NoForm);
  CHECK(e.where() == "mtk_neuron_settings.optimization_hints[1]");
}

TEST_CASE("tflite_accel limits: a field number the schema lacks stays in proto-binary and is refused elsewhere") {
  // Field 99, varint 1: tag (99 << 3) = 792 = 98 06.
  const std::string wire = std::string("\x08\x02", 2) + std::string("\x98\x06\x01", 3);
  const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary);
  CHECK(has_issue(s.warnings(), Severity::Warning, "#99", "not in this schema"));
  CHECK(s.serialize(ta::Form::ProtoBinary) == wire);
  for (ta::Form form : {ta::Form::ProtoText, ta::Form::ProtoJson, ta::Form::Fb, ta::Form::FbJson}) {
    CAPTURE(ta::to_string(form));
    const Error e = error_of([&] { s.serialize(form); });
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.where() == "#99");
  }
  CHECK(s.debug_text() == "delegate: GPU\n99: 1\n");
}

TEST_CASE("tflite_accel limits: a present but empty fb vector reads as absent, with a warning") {
  const auto fb = flatc_from_json("TFLiteSettings", R"({ mtk_neuron_settings: { compile_options: [] } })");
  REQUIRE(fb);
  const ta::Settings s = ta::Settings::parse(*fb, ta::Form::Fb);
  CHECK(has_issue(s.warnings(), Severity::Warning, "mtk_neuron_settings.compile_options", "empty vector"));
  CHECK(s.serialize(ta::Form::ProtoText) == "mtk_neuron_settings {\n}\n");
  // An empty bytes field has presence in protobuf: it stays.
  const ta::Settings bytes =
      ta::Settings::parse(R"({ google_edgetpu_settings: { extension_data: [] } })", ta::Form::FbJson);
  CHECK(bytes.warnings().empty());
  CHECK(bytes.serialize(ta::Form::ProtoText) == "google_edgetpu_settings {\n  extension_data: \"\"\n}\n");
}

TEST_CASE("tflite_accel limits: a table with a field of a newer schema is refused, not cut") {
  flatbuffers::FlatBufferBuilder fbb;
  const auto start = fbb.StartTable();
  fbb.AddElement<int32_t>(4 + 2 * 0, 4, -1);   // delegate: XNNPACK (field 0)
  fbb.AddElement<int32_t>(4 + 2 * 20, 1, -1);  // field 20: TFLiteSettings has 17
  fbb.Finish(flatbuffers::Offset<flatbuffers::Table>(fbb.EndTable(start)));
  const std::string fb(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const Error e = error_of([&] { ta::Settings::parse(fb, ta::Form::Fb, "TFLiteSettings", "new.fb"); });
  CHECK(e.id() == ErrorId::Version);  // written against a newer schema
  CHECK(e.file() == "new.fb");
  CHECK(e.message().find("field 20") != std::string::npos);
}

TEST_CASE("tflite_accel limits: a FlatBuffer bool other than 0 or 1 reads as true, with a warning") {
  flatbuffers::FlatBufferBuilder fbb;
  const auto start = fbb.StartTable();
  fbb.AddElement<uint8_t>(4 + 2 * 11, 2, 0);  // disable_default_delegates (field 11) = 2
  fbb.Finish(flatbuffers::Offset<flatbuffers::Table>(fbb.EndTable(start)));
  const std::string fb(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const ta::Settings s = ta::Settings::parse(fb, ta::Form::Fb);
  CHECK(has_issue(s.warnings(), Severity::Warning, "disable_default_delegates", "holds 2"));
  CHECK(s.serialize(ta::Form::ProtoText) == "disable_default_delegates: true\n");
}

TEST_CASE("tflite_accel limits: malformed input of each form is an Error naming the file, never a crash") {
  const std::string file = "bad.settings";
  struct Case {
    ta::Form form;
    std::string bytes;
    ErrorId id;
    std::string where;
  };
  const std::vector<Case> cases{
      {ta::Form::ProtoBinary, std::string("\x2a\x10\x08", 3), ErrorId::VerifyFailed, ""},  // length past the end
      {ta::Form::ProtoText, "delegate: XNNPACK\nxnnpack_settings { num_threads: \"five\" }", ErrorId::Syntax,
       "line 2, column 33"},  // protoc: input:2:33
      {ta::Form::ProtoText, "no_such_field: 1", ErrorId::Syntax, "line 1, column 14"},  // protoc: input:1:14
      {ta::Form::ProtoJson, R"({"noSuchField": 1})", ErrorId::Syntax, ""},
      {ta::Form::ProtoJson, R"({"delegate": "NO_SUCH_DELEGATE"})", ErrorId::Syntax, ""},
      {ta::Form::Fb, "", ErrorId::Truncated, ""},
      {ta::Form::Fb, std::string("\x04\x00\x00\x00", 4), ErrorId::Truncated, ""},
      {ta::Form::Fb, std::string("\xff\xff\xff\x7f\x00\x00\x00\x00", 8), ErrorId::VerifyFailed, ""},
      {ta::Form::Fb, std::string(64, '\x01'), ErrorId::VerifyFailed, ""},
      {ta::Form::FbJson, "{ delegate: NO_SUCH_DELEGATE }", ErrorId::Syntax, "line 1, column 28"},
      {ta::Form::FbJson, "", ErrorId::Syntax, ""},
      {ta::Form::FbJson, std::string("{}\0{", 4), ErrorId::BadEncoding, "byte 2"},
      {ta::Form::FbJson, "table Sneaky { x: int; }", ErrorId::Syntax, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(ta::to_string(c.form));
    CAPTURE(hex(c.bytes));
    const Error e = error_of([&] { ta::Settings::parse(c.bytes, c.form, "TFLiteSettings", file); });
    CHECK(e.id() == c.id);
    CHECK(e.file() == file);
    if (!c.where.empty()) CHECK(e.where() == c.where);
  }
  // Every truncation of a real buffer fails cleanly or reads (a prefix may still verify).
  auto m = new_message("ComputeSettings");
  fill(*m, Fill::Distinct);
  const std::string fb = ta::Settings::parse(m->SerializeAsString(), ta::Form::ProtoBinary, "ComputeSettings")
                             .serialize(ta::Form::Fb);
  for (std::size_t n = 0; n < fb.size(); n += 7) {
    try {
      ta::Settings::parse(fb.substr(0, n), ta::Form::Fb, "ComputeSettings");
    } catch (const Error& e) {
      CHECK((e.code() == ErrorCode::Malformed || e.code() == ErrorCode::Unsupported));
    }
  }
}

TEST_CASE("tflite_accel limits: a string that is not UTF-8 stays in the binary and text forms, the JSON forms refuse it") {
  // protobuf's JSON printer would drop the byte silently, flatbuffers::Parser rejects it.
  const ta::Settings s =
      ta::Settings::parse("gpu_settings { model_token: \"caf\\303\\251 \\377\" }", ta::Form::ProtoText);
  for (ta::Form form : {ta::Form::ProtoBinary, ta::Form::ProtoText, ta::Form::Fb}) {
    CAPTURE(ta::to_string(form));
    CHECK(ta::Settings::parse(s.serialize(form), form) == s);
  }
  for (ta::Form form : {ta::Form::ProtoJson, ta::Form::FbJson}) {
    CAPTURE(ta::to_string(form));
    const Error e = error_of([&] { s.serialize(form); });
    CHECK(e.id() == ErrorId::NoForm);  // not UTF-8: the JSON forms cannot hold it
    CHECK(e.where() == "gpu_settings.model_token");
  }
  // Valid UTF-8, control characters and quotes are fine in every form.
  const ta::Settings ok =
      ta::Settings::parse("gpu_settings { model_token: \"caf\\303\\251 \\001 \\\"q\\\" \\342\\202\\254\" }", ta::Form::ProtoText);
  for (ta::Form form : kForms) CHECK(ta::Settings::parse(ok.serialize(form), form) == ok);
}

TEST_CASE("tflite_accel limits: every single-byte corruption of a real fb buffer is read or refused, never a crash") {
  auto m = new_message("MiniBenchmarkEvent");
  fill(*m, Fill::Distinct);
  const std::string fb = ta::Settings::parse(m->SerializeAsString(), ta::Form::ProtoBinary, "MiniBenchmarkEvent")
                             .serialize(ta::Form::Fb);
  std::size_t refused = 0;
  for (std::size_t i = 0; i < fb.size(); ++i) {
    for (unsigned char v : {0x00, 0x7f, 0xff}) {
      std::string bad = fb;
      if (static_cast<unsigned char>(bad[i]) == v) continue;
      bad[i] = static_cast<char>(v);
      try {
        ta::Settings::parse(bad, ta::Form::Fb, "MiniBenchmarkEvent");
      } catch (const Error& e) {
        CHECK((e.code() == ErrorCode::Malformed || e.code() == ErrorCode::Unsupported));
        ++refused;
      }
    }
  }
  CHECK(refused > 0);
}

TEST_CASE("tflite_accel limits: 520000 settings_to_test (1.04M tables, over FlatBuffers' default bound) read from fb and fb-json") {
  // Oracle: flatc -b encodes the entries (the twin schema), libprotobuf counts what was read.
  // The verifier used FlatBuffers' default of 1M tables, so such files were refused as malformed.
  const int n = 520000;
  std::string json = R"({"settings_to_test": [)";
  for (int i = 0; i < n; ++i) json += std::string(i ? "," : "") + R"({"cpu_settings": {"num_threads": )" + std::to_string(i % 8 + 1) + "}}";
  json += "]}";
  const auto fb = flatc_from_json("MinibenchmarkSettings", json);
  REQUIRE(fb);
  for (const ta::Settings& s : {ta::Settings::parse(*fb, ta::Form::Fb, "MinibenchmarkSettings"),
                                ta::Settings::parse(json, ta::Form::FbJson, "MinibenchmarkSettings")}) {
    const auto m = new_message("MinibenchmarkSettings");
    REQUIRE(m->ParseFromString(s.serialize(ta::Form::ProtoBinary)));
    const pb::FieldDescriptor* f = m->GetDescriptor()->FindFieldByName("settings_to_test");
    REQUIRE(f != nullptr);
    CHECK(m->GetReflection()->FieldSize(*m, f) == n);
  }
}
