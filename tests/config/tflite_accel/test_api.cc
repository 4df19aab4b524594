// Names: forms, extensions, messages; and load/save through files.
#include <doctest/doctest.h>

#include "../../cli/process.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge::test;
using namespace nnbridge::test::tflite_accel;

TEST_CASE("tflite_accel api: forms by name and by extension, nothing guessed") {
  for (ta::Form form : kForms) CHECK(ta::form_from_name(ta::to_string(form)) == form);
  CHECK_FALSE(ta::form_from_name("json"));
  CHECK(ta::form_from_path("a/settings.json") == ta::Form::FbJson);
  CHECK(ta::form_from_path("s.fb.json") == ta::Form::FbJson);
  CHECK(ta::form_from_path("s.pb.json") == ta::Form::ProtoJson);
  CHECK(ta::form_from_path("s.proto.json") == ta::Form::ProtoJson);
  CHECK(ta::form_from_path("s.pb") == ta::Form::ProtoBinary);
  CHECK(ta::form_from_path("s.binpb") == ta::Form::ProtoBinary);
  for (const char* p : {"s.txtpb", "s.textproto", "s.pbtxt", "s.prototxt"}) CHECK(ta::form_from_path(p) == ta::Form::ProtoText);
  CHECK(ta::form_from_path("s.fb") == ta::Form::Fb);
  CHECK_FALSE(ta::form_from_path("s.bin"));
  CHECK_FALSE(ta::form_from_path("settings"));
}

TEST_CASE("tflite_accel api: message names in every spelling") {
  const auto names = ta::message_names();
  CHECK(names.front() == "ComputeSettings");  // declaration order
  CHECK(std::find(names.begin(), names.end(), "BenchmarkResult.InferenceOutput") != names.end());
  CHECK(ta::resolve_message_name("TFLiteSettings") == "TFLiteSettings");
  CHECK(ta::resolve_message_name("tflite.proto.ComputeSettings") == "ComputeSettings");
  CHECK(ta::resolve_message_name("tflite.ComputeSettings") == "ComputeSettings");
  CHECK(ta::resolve_message_name("tflite.BenchmarkResult_.InferenceOutput") == "BenchmarkResult.InferenceOutput");
  CHECK(ta::resolve_message_name("BenchmarkResult.InferenceOutput") == "BenchmarkResult.InferenceOutput");
  CHECK_FALSE(ta::resolve_message_name("Nope"));
  CHECK_FALSE(ta::resolve_message_name("google.protobuf.Any"));
}

TEST_CASE("tflite_accel api: load and save by extension, atomically, naming the file in errors") {
  const auto dir = temp_dir();
  const ta::Settings s = ta::Settings::parse("delegate: GPU gpu_settings { force_backend: OPENCL }", ta::Form::ProtoText);
  for (const char* name : {"a.pb", "a.txtpb", "a.pb.json", "a.fb", "a.json"}) {
    CAPTURE(name);
    s.save(dir / name);
    CHECK(ta::Settings::load(dir / name) == s);
  }
  // The form given by option wins over the extension.
  s.save(dir / "x.data", {ta::Form::Fb});
  ta::LoadOptions as_fb;
  as_fb.form = ta::Form::Fb;
  CHECK(ta::Settings::load(dir / "x.data", as_fb) == s);
  try {
    ta::Settings::load(dir / "x.data");
    FAIL("guessed a form");
  } catch (const nnbridge::Error& e) {
    CHECK(e.id() == nnbridge::ErrorId::UnknownFormat);  // no form for the extension .data
    CHECK(e.file() == (dir / "x.data").string());
  }
  try {
    ta::Settings::load(dir / "missing.json");
    FAIL("read a missing file");
  } catch (const nnbridge::Error& e) {
    CHECK(e.id() == nnbridge::ErrorId::IoOpen);
    CHECK(e.file().find("missing.json") != std::string::npos);
  }
  // A failed save leaves an existing output untouched.
  const ta::Settings odd = ta::Settings::parse(R"({ "xnnpack_settings": { "flags": 9 } })", ta::Form::FbJson);
  write_file(dir / "keep.txtpb", "precious");
  try {
    odd.save(dir / "keep.txtpb");
    FAIL("wrote an out-of-enum value as proto text");
  } catch (const nnbridge::Error& e) {
    CHECK(e.file() == (dir / "keep.txtpb").string());
    CHECK(e.where() == "xnnpack_settings.flags");
  }
  CHECK(read_file(dir / "keep.txtpb") == "precious");
  // The root message by option.
  const ta::Settings c = ta::Settings::parse("preference: LOW_POWER", ta::Form::ProtoText, "ComputeSettings");
  c.save(dir / "c.fb");
  ta::LoadOptions compute;
  compute.message = "tflite.ComputeSettings";
  CHECK(ta::Settings::load(dir / "c.fb", compute) == c);
}
