// examples/settings/ (the documents the README points to): every file there is listed here with
// its root message, is accepted by independent readers, converts through every form and back
// without loss, passes `config check` cleanly and maps to the backend its README row gives.
//
// Judges, none of them nnbridge's readers: protoc (--encode of protobuf text, --decode of every
// binary), flatc (--binary of fb-json, --json of fb), nlohmann's JSON parser, and protobuf text
// written here from a parsed JSON document by walking libprotobuf's descriptors of the schema
// (snake_case keys, or lowerCamelCase ones for proto-json; strings of enum fields as bare names).
// "The same message" means the same `protoc --decode` text.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "../../cli/process.h"
#include "nnbridge/config/tflite_execution.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge::test;
using namespace nnbridge::test::tflite_accel;
namespace fs = std::filesystem;

namespace {

using CppType = pb::FieldDescriptor::CppType;

// Each example and its root message (the README table of examples/settings/).
struct Example {
  std::string file, message;
};
const std::vector<Example> kExamples = {
    {"xnnpack.json", "TFLiteSettings"},        {"gpu.txtpb", "TFLiteSettings"},
    {"cpu.pb.json", "TFLiteSettings"},         {"compute_settings.json", "ComputeSettings"},
    {"minibenchmark.json", "MinibenchmarkSettings"},
};

fs::path examples_dir() { return source_dir() / "examples" / "settings"; }

// One extension per form (form_from_path in nnbridge/config/tflite_accel.h takes these).
enum class Kind { ProtoBinary, ProtoText, ProtoJson, Fb, FbJson };
struct FormExt {
  Kind kind;
  std::string ext;
};
const FormExt kFormExts[] = {{Kind::ProtoBinary, ".pb"}, {Kind::ProtoText, ".txtpb"}, {Kind::ProtoJson, ".pb.json"},
                             {Kind::Fb, ".fb"},          {Kind::FbJson, ".json"}};

// "cpu.pb.json" -> ".pb.json": everything from the first dot.
std::string extension_of(const std::string& name) { return name.substr(name.find('.')); }

Kind kind_of(const std::string& name) {
  const std::string ext = extension_of(name);
  for (const FormExt& f : kFormExts)
    if (f.ext == ext) return f.kind;
  FAIL("no form for " << name);
  return Kind::ProtoBinary;
}

// A string as a protobuf text literal: printable ASCII kept, the rest as octal escapes.
std::string text_literal(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    }
  }
  return out + "\"";
}

void json_to_text(const nlohmann::json& object, const pb::Descriptor& d, std::string& out);

// One value of field `f` as protobuf text ("name: value" or "name { ... }").
void value_to_text(const pb::FieldDescriptor& f, const nlohmann::json& v, std::string& out) {
  if (f.cpp_type() == CppType::CPPTYPE_MESSAGE) {
    REQUIRE_MESSAGE(v.is_object(), f.name() << " is a message, not " << v.dump());
    out += f.name() + " { ";
    json_to_text(v, *f.message_type(), out);
    out += "} ";
    return;
  }
  out += f.name() + ": ";
  if (f.cpp_type() == CppType::CPPTYPE_ENUM && v.is_string()) {
    // A bare name; a FlatBuffers bit-mask spelling ("A B") is not used by the examples.
    const std::string name = v.get<std::string>();
    REQUIRE_MESSAGE(name.find(' ') == std::string::npos, f.name() << ": " << name);
    out += name;
  } else if (f.cpp_type() == CppType::CPPTYPE_STRING) {
    REQUIRE_MESSAGE(f.type() == pb::FieldDescriptor::TYPE_STRING, f.name() << ": bytes fields are not in the examples");
    out += text_literal(v.get<std::string>());
  } else if (v.is_string()) {
    out += v.get<std::string>();  // proto-json writes 64-bit integers as strings
  } else {
    REQUIRE_MESSAGE((v.is_number() || v.is_boolean()), f.name() << ": " << v.dump());
    out += v.dump();
  }
  out += ' ';
}

// A JSON object of message `d` (fb-json: snake_case keys; proto-json: lowerCamelCase or
// snake_case) as protobuf text; an unknown key fails the test.
void json_to_text(const nlohmann::json& object, const pb::Descriptor& d, std::string& out) {
  for (const auto& item : object.items()) {
    const std::string key = item.key();
    const nlohmann::json& v = item.value();
    const pb::FieldDescriptor* f = d.FindFieldByName(key);
    if (f == nullptr) f = d.FindFieldByCamelcaseName(key);
    REQUIRE_MESSAGE(f != nullptr, d.full_name() << " has no field " << key);
    if (f->is_repeated()) {
      REQUIRE_MESSAGE(v.is_array(), key << " is repeated");
      for (const nlohmann::json& element : v) value_to_text(*f, element, out);
    } else {
      value_to_text(*f, v, out);
    }
  }
}

// protoc's decoding of the protobuf encoding of a JSON document, its text made as above.
std::optional<std::string> decode_json(const std::string& json, const std::string& message) {
  const auto object = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  REQUIRE(object.is_object());
  std::string text;
  json_to_text(object, *new_message(message)->GetDescriptor(), text);
  const auto bytes = protoc_encode(message, text);
  if (!bytes) return std::nullopt;
  return protoc_decode(message, *bytes);
}

// The file read by the independent judges only, as `protoc --decode` text; nullopt when one
// of them refuses it (the reason is in the test log).
std::optional<std::string> independent_decode(const fs::path& file, const std::string& message) {
  const std::string bytes = read_file(file);
  switch (kind_of(file.filename().string())) {
    case Kind::ProtoBinary: return protoc_decode(message, bytes);
    case Kind::ProtoText: {
      const auto encoded = protoc_encode(message, bytes);
      if (!encoded) return std::nullopt;
      return protoc_decode(message, *encoded);
    }
    case Kind::ProtoJson: return decode_json(bytes, message);
    case Kind::FbJson: {
      // flatc must take it too (TFLite reads these files with FlatBuffers' own parser).
      if (!flatc_from_json(message, bytes)) return std::nullopt;
      return decode_json(bytes, message);
    }
    case Kind::Fb: {
      const auto json = flatc_to_json(message, bytes);
      if (!json) return std::nullopt;
      return decode_json(*json, message);
    }
  }
  return std::nullopt;
}

// `nnbridge config convert IN OUT --message M`; true when it exits 0.
bool convert(const fs::path& in, const fs::path& out, const std::string& message) {
  const RunResult r = run_cli({"config", "convert", in.string(), out.string(), "--message", message});
  if (r.code != 0) MESSAGE("config convert " << in << " " << out << " exited " << r.code << ": " << r.err);
  return r.code == 0;
}

}  // namespace

TEST_CASE("tflite_accel examples/settings: every file is listed here and every listed file exists") {
  std::set<std::string> listed;
  for (const Example& e : kExamples) {
    CAPTURE(e.file);
    listed.insert(e.file);
    CHECK(fs::is_regular_file(examples_dir() / e.file));
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(examples_dir())) {
    const std::string name = entry.path().filename().string();
    if (name == "README.md") continue;
    CAPTURE(name);
    CHECK_MESSAGE(listed.count(name) == 1, "add it to kExamples with its root message");
  }
}

TEST_CASE("tflite_accel examples/settings: protoc and flatc accept every document") {
  for (const Example& e : kExamples) {
    CAPTURE(e.file);
    const auto decoded = independent_decode(examples_dir() / e.file, e.message);
    REQUIRE(decoded);
    CHECK_FALSE(decoded->empty());
  }
  // Spot values, read off the files by hand, in protoc's decoding.
  const auto xnnpack = independent_decode(examples_dir() / "xnnpack.json", "TFLiteSettings");
  REQUIRE(xnnpack);
  CHECK(*xnnpack == "delegate: XNNPACK\nxnnpack_settings {\n  num_threads: 4\n  flags: TFLITE_XNNPACK_DELEGATE_FLAG_QS8_QU8\n}\n");
  const auto cpu = independent_decode(examples_dir() / "cpu.pb.json", "TFLiteSettings");
  REQUIRE(cpu);
  CHECK(*cpu == "delegate: NONE\ncpu_settings {\n  num_threads: -1\n}\nmax_delegated_partitions: 1\n");
}

TEST_CASE("tflite_accel examples/settings: config convert to every form and back keeps the message") {
  for (const Example& e : kExamples) {
    CAPTURE(e.file);
    const fs::path original = examples_dir() / e.file;
    const auto expected = independent_decode(original, e.message);
    REQUIRE(expected);
    for (const FormExt& form : kFormExts) {
      CAPTURE(form.ext);
      const fs::path dir = temp_dir();
      const fs::path there = dir / ("there" + form.ext);
      const fs::path back = dir / ("back" + extension_of(e.file));
      REQUIRE(convert(original, there, e.message));
      CHECK(independent_decode(there, e.message) == expected);
      REQUIRE(convert(there, back, e.message));
      CHECK(independent_decode(back, e.message) == expected);
    }
  }
}

TEST_CASE("tflite_accel examples/settings: config check is clean and run --settings maps as the README says") {
  for (const Example& e : kExamples) {
    CAPTURE(e.file);
    const fs::path file = examples_dir() / e.file;
    const RunResult r = run_cli({"config", "check", file.string(), "--message", e.message});
    CHECK(r.code == 0);
    CHECK(r.out == file.string() + ": 0 error(s), 0 warning(s)\n");
  }
  // Expected choices from the mapping table in nnbridge/config/tflite_execution.h, applied by
  // hand to each file's fields; the root is found as `run --settings` finds it (no --message).
  struct Want {
    std::string file, backend;
    std::optional<int> threads;
    std::optional<std::string> fallback;
  };
  const Want wants[] = {
      {"xnnpack.json", "cpu", 4, std::nullopt},       // xnnpack_settings.num_threads 4
      {"gpu.txtpb", "opencl", std::nullopt, "cpu"},   // force_backend OPENCL, fallback on compilation error
      {"cpu.pb.json", "cpu", 0, std::nullopt},        // cpu_settings.num_threads -1: all cores
      {"compute_settings.json", "opencl", 2, "cpu"},  // GPU, cpu_settings.num_threads 2, fallback true
  };
  for (const Want& w : wants) {
    CAPTURE(w.file);
    const fs::path file = examples_dir() / w.file;
    const ta::ExecutionChoice c = ta::execution_choice(ta::load_execution_settings(file), file.string());
    CHECK(c.backend == w.backend);
    CHECK(c.threads == w.threads);
    CHECK(c.opencl_fallback == w.fallback);
  }
  // A MinibenchmarkSettings is no run document: reading it for a run fails, naming the file.
  const fs::path mb = examples_dir() / "minibenchmark.json";
  const nnbridge::Error err = error_of([&] { ta::load_execution_settings(mb); });
  CHECK(err.code() != nnbridge::ErrorCode::Io);
  CHECK(std::string(err.what()).find("minibenchmark.json") != std::string::npos);
  CHECK(std::string(err.what()).find("a TFLiteSettings or a ComputeSettings") != std::string::npos);
}
