// Resource limits of the settings reader (LoadOptions::limits, reader options settings.max_*):
// size, nesting depth and FlatBuffer tables, each at its bound and one past it. The inputs come
// from protoc and from the FlatBuffers writer's own layout, never from nnbridge's output alone.
#include <doctest/doctest.h>

#include <string>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge::test::tflite_accel;
using nnbridge::Error;
using nnbridge::ErrorCode;
using nnbridge::ErrorId;
using nnbridge::VerifierLimits;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

VerifierLimits with_depth(unsigned depth) {
  VerifierLimits l;
  l.max_depth = depth;
  return l;
}

}  // namespace

TEST_CASE("tflite_accel reader limits: max_size bounds the bytes of every form") {
  // 8 bytes: field 1 varint 4, field 5 (xnnpack_settings) of 4 bytes (protoc's encoding in test_cli).
  const std::string wire = std::string("\x08\x04\x2a\x04\x08\x05\x10\x01", 8);
  VerifierLimits l;
  l.max_size = 8;
  CHECK(ta::Settings::parse(wire, ta::Form::ProtoBinary, "TFLiteSettings", "s.pb", l).message_name() ==
        "TFLiteSettings");
  l.max_size = 7;
  const Error e = error_of([&] { ta::Settings::parse(wire, ta::Form::ProtoBinary, "TFLiteSettings", "s.pb", l); });
  CHECK(e.id() == ErrorId::IoTooLarge);
  CHECK(e.file() == "s.pb");
  CHECK(contains(e.message(), "settings.max_size"));
  const Error text = error_of([&] { ta::Settings::parse("delegate: GPU", ta::Form::ProtoText, "TFLiteSettings", {}, l); });
  CHECK(text.id() == ErrorId::IoTooLarge);
}

TEST_CASE("tflite_accel reader limits: max_depth is protobuf's recursion limit for the protobuf forms") {
  // ComputeSettings > tflite_settings > xnnpack_settings: two messages nested below the root.
  const auto wire = protoc_encode("ComputeSettings", "tflite_settings { xnnpack_settings { num_threads: 2 } }");
  REQUIRE(wire);
  CHECK_NOTHROW(ta::Settings::parse(*wire, ta::Form::ProtoBinary, "ComputeSettings", {}, with_depth(2)));
  const Error e = error_of([&] { ta::Settings::parse(*wire, ta::Form::ProtoBinary, "ComputeSettings", {}, with_depth(1)); });
  CHECK(e.id() == ErrorId::VerifyFailed);  // protobuf's parser refuses the nesting
  CHECK(contains(e.message(), "settings.max_depth"));
  const std::string text = "tflite_settings { xnnpack_settings { num_threads: 2 } }";
  CHECK_NOTHROW(ta::Settings::parse(text, ta::Form::ProtoText, "ComputeSettings", {}, with_depth(2)));
  CHECK(error_of([&] { ta::Settings::parse(text, ta::Form::ProtoText, "ComputeSettings", {}, with_depth(1)); }).id() ==
        ErrorId::Syntax);  // the text parser refuses it, naming line and column
}

TEST_CASE("tflite_accel reader limits: max_depth and max_tables bound the FlatBuffers verifier (fb, fb-json)") {
  // flatc writes the twin of ComputeSettings { tflite_settings { xnnpack_settings { num_threads } } }:
  // three tables, the root's child nested two deep.
  const auto fb = flatc_from_json("ComputeSettings", R"({"tflite_settings": {"xnnpack_settings": {"num_threads": 2}}})");
  REQUIRE(fb);
  VerifierLimits l;
  l.max_tables = 3;
  CHECK_NOTHROW(ta::Settings::parse(*fb, ta::Form::Fb, "ComputeSettings", {}, l));
  l.max_tables = 2;
  const Error tables = error_of([&] { ta::Settings::parse(*fb, ta::Form::Fb, "ComputeSettings", {}, l); });
  CHECK(tables.id() == ErrorId::VerifyFailed);
  CHECK(contains(tables.message(), "settings.max_tables"));
  CHECK(error_of([&] { ta::Settings::parse(*fb, ta::Form::Fb, "ComputeSettings", {}, with_depth(1)); }).id() ==
        ErrorId::VerifyFailed);
  const std::string json = R"({"tflite_settings": {"xnnpack_settings": {"num_threads": 2}}})";
  CHECK(error_of([&] { ta::Settings::parse(json, ta::Form::FbJson, "ComputeSettings", {}, l); }).code() ==
        ErrorCode::Malformed);
}

TEST_CASE("tflite_accel reader limits: reader options by name") {
  CHECK(ta::reader_limit_options() ==
        std::vector<std::string>{"settings.max_depth", "settings.max_tables", "settings.max_size"});
  const VerifierLimits l = ta::reader_limits({{"settings.max_depth", "3"}, {"settings.max_size", "100"}});
  CHECK(l.max_depth == 3);
  CHECK(l.max_size == 100);
  CHECK(l.max_tables == VerifierLimits{}.max_tables);
  const Error unknown = error_of([] { ta::reader_limits({{"settings.max_nodes", "3"}}); });
  CHECK(unknown.id() == ErrorId::UnknownOption);
  CHECK(contains(unknown.message(), "settings.max_nodes"));
  CHECK(contains(unknown.message(), "settings.max_tables"));
  CHECK(error_of([] { ta::reader_limits({{"settings.max_depth", "0"}}); }).code() == ErrorCode::Invalid);
}
