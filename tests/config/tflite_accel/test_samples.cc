// TFLite's own settings files (../shared/samples/tflite_settings, from TensorFlow Lite's
// stable-delegate tests): FlatBuffers JSON against the twin, root TFLiteSettings.
#include <doctest/doctest.h>

#include "../../cli/process.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge::test;
using namespace nnbridge::test::tflite_accel;
using Severity = nnbridge::Issue::Severity;

namespace {

struct Sample {
  const char* file;
  const char* text;  // what the file says, written by hand from it, as protobuf text
};

// Each valid file, read by hand.
const Sample kSamples[] = {
    {"test_missing_delegate_path_settings.json", "delegate: NONE\nstable_delegate_loader_settings {\n}\n"},
    {"test_missing_stable_delegate_settings.json", "delegate: NONE\n"},
    {"test_sample_stable_delegate_settings.json",
     "delegate: NONE\nstable_delegate_loader_settings {\n  delegate_path: "
     "\"tflite/delegates/utils/experimental/sample_stable_delegate/libtensorflowlite_sample_stable_delegate.so\"\n}\n"},
    {"test_stable_xnnpack_settings.json",
     "delegate: XNNPACK\nxnnpack_settings {\n  num_threads: 5\n}\nstable_delegate_loader_settings {\n  delegate_path: "
     "\"tflite/delegates/utils/experimental/stable_delegate/libtensorflowlite_stable_xnnpack_delegate.so\"\n}\n"},
    {"test_xnnpack_settings.json", "delegate: XNNPACK\nxnnpack_settings {\n  num_threads: 5\n}\n"},
};

}  // namespace

TEST_CASE("tflite_accel samples: every valid TFLite settings file reads as written, in every form") {
  auto dir = shared_sample("tflite_settings");
  NNBRIDGE_REQUIRE_SHARED(dir);
  for (const Sample& sample : kSamples) {
    CAPTURE(sample.file);
    const auto path = *dir / sample.file;
    const ta::Settings s = ta::Settings::load(path);  // .json: fb-json
    CHECK(s.warnings().empty());
    // The independent reading: libprotobuf's wire bytes of the hand-written text.
    const std::string wire = from_text("TFLiteSettings", sample.text)->SerializeAsString();
    CHECK(s.serialize(ta::Form::ProtoBinary) == wire);
    CHECK(s.serialize(ta::Form::ProtoText) == sample.text);
    // flatc compiles the same file into a buffer that reads the same (presence included).
    const auto fb = flatc_from_json("TFLiteSettings", read_file(path));
    REQUIRE(fb);
    CHECK(ta::Settings::parse(*fb, ta::Form::Fb).serialize(ta::Form::ProtoBinary) == wire);
    for (ta::Form form : kForms) {
      CAPTURE(ta::to_string(form));
      CHECK(ta::Settings::parse(s.serialize(form), form).serialize(ta::Form::ProtoBinary) == wire);
    }
  }
}

TEST_CASE("tflite_accel samples: test_xnnpack_settings.json has the wire bytes computed by hand") {
  auto path = shared_sample("tflite_settings/test_xnnpack_settings.json");
  NNBRIDGE_REQUIRE_SHARED(path);
  // delegate XNNPACK (08 04); xnnpack_settings, length 2 (2a 02): num_threads 5 (08 05).
  CHECK(hex(ta::Settings::load(*path).serialize(ta::Form::ProtoBinary)) == "08 04 2a 02 08 05");
}

TEST_CASE("tflite_accel samples: test_invalid_settings.json fails with an unknown-field error") {
  auto path = shared_sample("tflite_settings/test_invalid_settings.json");
  NNBRIDGE_REQUIRE_SHARED(path);
  try {
    ta::Settings::load(*path);
    FAIL("test_invalid_settings.json was accepted");
  } catch (const nnbridge::Error& e) {
    CHECK(e.code() == nnbridge::ErrorCode::Malformed);
    CHECK(e.file() == path->string());
    CHECK(e.message() == "unknown field: invalid");
    CHECK(e.where() == "line 3, column 22");  // where flatc 2.0.8 reports it for this file
  }
  // flatc refuses it too.
  CHECK_FALSE(flatc_from_json("TFLiteSettings", read_file(*path)));
}

TEST_CASE("tflite_accel samples: the checker flags the stable delegate settings without a path, and only that") {
  auto dir = shared_sample("tflite_settings");
  NNBRIDGE_REQUIRE_SHARED(dir);
  for (const Sample& sample : kSamples) {
    CAPTURE(sample.file);
    const auto findings = ta::Settings::load(*dir / sample.file).check();
    CAPTURE(show(findings));
    if (std::string(sample.file) == "test_missing_delegate_path_settings.json") {
      CHECK(findings.size() == 1);
      CHECK(has_issue(findings, Severity::Error, "stable_delegate_loader_settings.delegate_path", "stable_delegate_provider"));
    } else {
      CHECK(findings.empty());
    }
  }
}
