#include "util.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include <doctest/doctest.h>

#include <cstdio>
#include <set>

#include "../../cli/process.h"
#include "support/paths.h"

namespace nnbridge::test::tflite_accel {
namespace {

using CppType = pb::FieldDescriptor::CppType;

// Distinct, non-default values derived from the field's tag and element index.
void set_distinct(pb::Message& m, const pb::FieldDescriptor* f, int k, bool add) {
  const pb::Reflection& r = *m.GetReflection();
  const int n = f->number() + 31 * k;
  switch (f->cpp_type()) {
    case CppType::CPPTYPE_BOOL: add ? r.AddBool(&m, f, !f->default_value_bool()) : r.SetBool(&m, f, !f->default_value_bool()); break;
    case CppType::CPPTYPE_INT32: {
      const int32_t v = -1000003 * n - 7;
      add ? r.AddInt32(&m, f, v) : r.SetInt32(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_INT64: {
      const int64_t v = (n % 2 ? -1 : 1) * (int64_t{1} << 60) - 12345 * n;  // beyond 2^53
      add ? r.AddInt64(&m, f, v) : r.SetInt64(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_UINT32: add ? r.AddUInt32(&m, f, 4000000000u - n) : r.SetUInt32(&m, f, 4000000000u - n); break;
    case CppType::CPPTYPE_UINT64: {
      const uint64_t v = ~uint64_t{0} - static_cast<uint64_t>(n);
      add ? r.AddUInt64(&m, f, v) : r.SetUInt64(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_FLOAT: {
      const float v = 1.0f / 3.0f + static_cast<float>(n) * 1e-3f;  // needs 9 significant digits
      add ? r.AddFloat(&m, f, v) : r.SetFloat(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_DOUBLE: {
      const double v = 1.0 / 3.0 + n;
      add ? r.AddDouble(&m, f, v) : r.SetDouble(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_ENUM: {
      const pb::EnumDescriptor* e = f->enum_type();
      const pb::EnumValueDescriptor* v = e->value(e->value_count() - 1 - (k % e->value_count()));
      add ? r.AddEnum(&m, f, v) : r.SetEnum(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_STRING: {
      std::string v;
      if (f->type() == pb::FieldDescriptor::TYPE_BYTES) {
        for (int b = 0; b < 256; ++b) v += static_cast<char>((b + n) & 0xff);
      } else {
        v = f->name() + "#" + std::to_string(n) + " \"q\" \\ \t\n\x01 caf\xc3\xa9 \xe2\x82\xac";
      }
      add ? r.AddString(&m, f, v) : r.SetString(&m, f, v);
      break;
    }
    case CppType::CPPTYPE_MESSAGE: break;
  }
}

void set_default(pb::Message& m, const pb::FieldDescriptor* f, bool add) {
  const pb::Reflection& r = *m.GetReflection();
  switch (f->cpp_type()) {
    case CppType::CPPTYPE_BOOL: add ? r.AddBool(&m, f, f->default_value_bool()) : r.SetBool(&m, f, f->default_value_bool()); break;
    case CppType::CPPTYPE_INT32: add ? r.AddInt32(&m, f, f->default_value_int32()) : r.SetInt32(&m, f, f->default_value_int32()); break;
    case CppType::CPPTYPE_INT64: add ? r.AddInt64(&m, f, f->default_value_int64()) : r.SetInt64(&m, f, f->default_value_int64()); break;
    case CppType::CPPTYPE_UINT32: add ? r.AddUInt32(&m, f, f->default_value_uint32()) : r.SetUInt32(&m, f, f->default_value_uint32()); break;
    case CppType::CPPTYPE_UINT64: add ? r.AddUInt64(&m, f, f->default_value_uint64()) : r.SetUInt64(&m, f, f->default_value_uint64()); break;
    case CppType::CPPTYPE_FLOAT: add ? r.AddFloat(&m, f, f->default_value_float()) : r.SetFloat(&m, f, f->default_value_float()); break;
    case CppType::CPPTYPE_DOUBLE: add ? r.AddDouble(&m, f, f->default_value_double()) : r.SetDouble(&m, f, f->default_value_double()); break;
    case CppType::CPPTYPE_ENUM: add ? r.AddEnum(&m, f, f->default_value_enum()) : r.SetEnum(&m, f, f->default_value_enum()); break;
    case CppType::CPPTYPE_STRING: add ? r.AddString(&m, f, f->default_value_string()) : r.SetString(&m, f, f->default_value_string()); break;
    case CppType::CPPTYPE_MESSAGE: break;
  }
}

void fill(pb::Message& m, Fill mode, int depth) {
  REQUIRE(depth < 16);  // configuration.proto has no recursive message
  const pb::Descriptor& d = *m.GetDescriptor();
  const pb::Reflection& r = *m.GetReflection();
  for (int i = 0; i < d.field_count(); ++i) {
    const pb::FieldDescriptor* f = d.field(i);
    const int count = f->is_repeated() ? 2 : 1;
    for (int k = 0; k < count; ++k) {
      if (f->cpp_type() == CppType::CPPTYPE_MESSAGE) {
        fill(f->is_repeated() ? *r.AddMessage(&m, f) : *r.MutableMessage(&m, f), mode, depth + 1);
      } else if (mode == Fill::Distinct) {
        set_distinct(m, f, k, f->is_repeated());
      } else {
        set_default(m, f, f->is_repeated());
      }
    }
  }
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through /bin/sh with stdin from `input`; returns stdout, or nullopt with the
// tool's stderr in the test log.
std::optional<std::string> shell(const std::string& command, const std::string& input) {
  const auto dir = temp_dir();
  write_file(dir / "in", input);
  RunResult r = run_program({"/bin/sh", "-c", command + " < " + shell_quote((dir / "in").string())});
  if (r.code != 0) {
    MESSAGE("tool failed (" << r.code << "): " << command << "\n" << r.err);
    return std::nullopt;
  }
  return r.out;
}

}  // namespace

std::unique_ptr<pb::Message> new_message(const std::string& name) {
  const pb::Descriptor* d = pb::DescriptorPool::generated_pool()->FindMessageTypeByName("tflite.proto." + name);
  REQUIRE_MESSAGE(d != nullptr, name);
  return std::unique_ptr<pb::Message>(pb::MessageFactory::generated_factory()->GetPrototype(d)->New());
}

void fill(pb::Message& m, Fill mode) { fill(m, mode, 0); }

std::vector<std::string> root_messages() {
  std::set<std::string> held;
  for (const std::string& name : ta::message_names()) {
    const pb::Descriptor& d = *new_message(name)->GetDescriptor();
    for (int i = 0; i < d.field_count(); ++i)
      if (d.field(i)->message_type()) held.insert(d.field(i)->message_type()->full_name());
  }
  std::vector<std::string> roots;
  for (const std::string& name : ta::message_names())
    if (!held.count("tflite.proto." + name)) roots.push_back(name);
  return roots;
}

std::vector<std::string> message_types_in(const pb::Message& m) {
  std::set<std::string> out{m.GetDescriptor()->full_name().substr(std::string("tflite.proto.").size())};
  const pb::Reflection& r = *m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    if (f->cpp_type() != CppType::CPPTYPE_MESSAGE) continue;
    const int n = f->is_repeated() ? r.FieldSize(m, f) : 1;
    for (int j = 0; j < n; ++j)
      for (const std::string& t : message_types_in(f->is_repeated() ? r.GetRepeatedMessage(m, f, j) : r.GetMessage(m, f)))
        out.insert(t);
  }
  return {out.begin(), out.end()};
}

std::unique_ptr<pb::Message> from_text(const std::string& name, const std::string& text) {
  auto m = new_message(name);
  REQUIRE_MESSAGE(pb::TextFormat::ParseFromString(text, m.get()), text);
  return m;
}

std::string hex(const std::string& bytes) {
  std::string out;
  char buf[4];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    if (!out.empty()) out += ' ';
    out += buf;
  }
  return out;
}

std::string fb_root(const std::string& name) {
  std::string out = "tflite." + name;
  const auto dot = out.find('.', 7);
  if (dot != std::string::npos) out.insert(dot, "_");
  return out;
}

std::optional<std::string> protoc_encode(const std::string& name, const std::string& text) {
  const std::string proto = NNBRIDGE_TFLITE_ACCEL_PROTO;
  const std::string dir = std::filesystem::path(proto).parent_path().string();
  return shell(shell_quote(NNBRIDGE_PROTOC) + " --encode=tflite.proto." + name + " -I " + shell_quote(dir) + " " +
                   shell_quote(proto),
               text);
}

std::optional<std::string> protoc_decode(const std::string& name, const std::string& bytes) {
  const std::string proto = NNBRIDGE_TFLITE_ACCEL_PROTO;
  const std::string dir = std::filesystem::path(proto).parent_path().string();
  return shell(shell_quote(NNBRIDGE_PROTOC) + " --decode=tflite.proto." + name + " -I " + shell_quote(dir) + " " +
                   shell_quote(proto),
               bytes);
}

std::optional<std::string> flatc_to_json(const std::string& name, const std::string& fb) {
  const auto dir = temp_dir();
  write_file(dir / "doc.bin", fb);
  RunResult r = run_program({NNBRIDGE_FLATC, "--json", "--strict-json", "--raw-binary", "--root-type", fb_root(name),
                             "-o", dir.string(), NNBRIDGE_TFLITE_ACCEL_FBS, "--", (dir / "doc.bin").string()});
  if (r.code != 0 || !std::filesystem::exists(dir / "doc.json")) {
    MESSAGE("flatc --json failed: " << r.out << r.err);  // flatc reports errors on stdout
    return std::nullopt;
  }
  return read_file(dir / "doc.json");
}

std::optional<std::string> flatc_from_json(const std::string& name, const std::string& json) {
  const auto dir = temp_dir();
  write_file(dir / "doc.json", json);
  RunResult r = run_program({NNBRIDGE_FLATC, "--binary", "--force-defaults", "--root-type", fb_root(name), "-o",
                             dir.string(), NNBRIDGE_TFLITE_ACCEL_FBS, (dir / "doc.json").string()});
  if (r.code != 0 || !std::filesystem::exists(dir / "doc.bin")) {
    MESSAGE("flatc --binary failed: " << r.out << r.err);  // flatc reports errors on stdout
    return std::nullopt;
  }
  return read_file(dir / "doc.bin");
}

bool has_issue(const std::vector<Issue>& issues, Issue::Severity severity, const std::string& where,
               const std::string& part) {
  for (const Issue& i : issues)
    if (i.severity == severity && i.where == where && i.message.find(part) != std::string::npos) return true;
  return false;
}

std::string show(const std::vector<Issue>& issues) {
  std::string out;
  for (const Issue& i : issues)
    out += std::string(i.severity == Issue::Severity::Error ? "error " : "warning ") + i.where + ": " + i.message + "\n";
  return out;
}

}  // namespace nnbridge::test::tflite_accel
