// fb-json reading through pooled flatbuffers::Parsers: one JSON object and nothing else, and no
// document (failed, declaring schema, or concurrent) changes what another one reads.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge::test::tflite_accel;
using nnbridge::Error;
using nnbridge::ErrorId;

namespace {

// The proto-binary bytes of an fb-json document, as spaced hex.
std::string wire_of(const std::string& json) { return hex(ta::Settings::parse(json, ta::Form::FbJson).serialize(ta::Form::ProtoBinary)); }

// The identifier of the error parsing `json` throws: every refusal here is the JSON parser's
// (nnbridge.malformed.204, naming line and column).
ErrorId id_of(const std::string& json) {
  try {
    ta::Settings::parse(json, ta::Form::FbJson);
  } catch (const Error& e) {
    return e.id();
  }
  FAIL("no nnbridge::Error thrown for: " << json);
  return ErrorId::IoOther;
}

// Hand-encoded from configuration.proto: TFLiteSettings.xnnpack_settings is field 5 (tag 2a),
// XNNPackSettings.num_threads field 1 (tag 08); TFLiteSettings.delegate field 1, XNNPACK = 4.
constexpr const char* kThreads3 = "{ xnnpack_settings: { num_threads: 3 } }";
constexpr const char* kThreads3Wire = "2a 02 08 03";

}  // namespace

TEST_CASE("tflite_accel fb-json parser: schema declarations around the object are refused") {
  CHECK(id_of("table Sneaky { x: int; } root_type Sneaky; { x: 1 }") == ErrorId::Syntax);
  CHECK(id_of("root_type XNNPackSettings; { num_threads: 3 }") == ErrorId::Syntax);
  CHECK(id_of("{ delegate: XNNPACK } { delegate: GPU }") == ErrorId::Syntax);
  // An include is not followed (TFLite's Parse would read the file, here one without an end).
  CHECK(id_of("include \"/dev/zero\"; { delegate: XNNPACK }") == ErrorId::Syntax);
  // The schema every later document is read against is still the twin's.
  CHECK(wire_of(kThreads3) == kThreads3Wire);
  CHECK(wire_of("{ delegate: XNNPACK }") == "08 04");
  // Comments are JSON's company, not declarations.
  CHECK(wire_of("// settings\n{ delegate: XNNPACK } // done\n") == "08 04");
}

TEST_CASE("tflite_accel fb-json parser: a document that fails midway leaves the next one unaffected") {
  for (const char* bad : {"{ xnnpack_settings: { num_threads: 2,", "{ xnnpack_settings: { num_threads: \"x\" } }",
                          "{ xnnpack_settings: { no_such_field: 1 } }", "{ delegate: XNNPACK, delegate: GPU }"}) {
    CAPTURE(bad);
    CHECK(id_of(bad) == ErrorId::Syntax);
    CHECK(wire_of(kThreads3) == kThreads3Wire);
    CHECK(wire_of("{ delegate: XNNPACK }") == "08 04");
  }
}

TEST_CASE("tflite_accel fb-json parser: every root message, one after another and from several threads") {
  // A reused parser takes each document's root type: XNNPackSettings.num_threads alone is 08 03.
  CHECK(hex(ta::Settings::parse("{ num_threads: 3 }", ta::Form::FbJson, "XNNPackSettings").serialize(ta::Form::ProtoBinary)) ==
        "08 03");
  CHECK(wire_of(kThreads3) == kThreads3Wire);
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &wrong] {
      for (int i = 0; i < 200; ++i) {
        const bool root = (i + t) % 2 == 0;
        try {
          const std::string got = root ? wire_of(kThreads3)
                                       : hex(ta::Settings::parse("{ num_threads: 3 }", ta::Form::FbJson, "XNNPackSettings")
                                                 .serialize(ta::Form::ProtoBinary));
          if (got != (root ? kThreads3Wire : "08 03")) ++wrong[static_cast<std::size_t>(t)];
          if (i % 10 == 0) {  // a failed document now and then (no doctest macros off the main thread)
            try {
              ta::Settings::parse("{ delegate: ", ta::Form::FbJson);
              ++wrong[static_cast<std::size_t>(t)];
            } catch (const Error&) {
            }
          }
        } catch (...) {
          ++wrong[static_cast<std::size_t>(t)];
        }
      }
    });
  for (auto& th : threads) th.join();
  CHECK(wrong == std::vector<int>(4, 0));
}
