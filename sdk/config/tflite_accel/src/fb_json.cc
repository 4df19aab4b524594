// fb-json: FlatBuffers JSON against the twin. Read with flatbuffers::Parser, as TFLite reads
// its settings files (tflite_settings_json_parser.cc), but with ParseJson: the one JSON object
// and comments, where TFLite's Parse also takes schema declarations (`include`, `table`, ...)
// around it; written here from the reflection schema, because flatc 2.0.8's printer keeps only
// 6 significant digits of a float.
#include <flatbuffers/idl.h>
#include <flatbuffers/reflection.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/parser_message.h"

namespace nnbridge::config::tflite_accel::detail {
namespace {

using reflection::BaseType;

template <class F>
std::string real(F v) {
  // flatbuffers::Parser reads these spellings of the non-finite values.
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
  return {buf, r.ptr};
}

std::string json_string(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (std::size_t n = utf8_length(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    } else {
      // Refused before writing (first_non_utf8): flatbuffers::Parser rejects it.
      throw std::logic_error("fb-json: a string that is not UTF-8");
    }
    ++i;
  }
  return out + "\"";
}

class JsonWriter {
 public:
  explicit JsonWriter(const reflection::Schema& s) : schema_(s) {}

  std::string out;

  void table(const flatbuffers::Table& t, const reflection::Object& obj, int depth) {
    std::vector<const reflection::Field*> fields(obj.fields()->begin(), obj.fields()->end());
    std::sort(fields.begin(), fields.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
    const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
    bool first = true;
    out += "{";
    for (const reflection::Field* f : fields) {
      if (!t.CheckField(f->offset())) continue;
      out += first ? "\n" : ",\n";
      first = false;
      out += pad + json_string(f->name()->str()) + ": ";
      field(t, *f, depth + 1);
    }
    out += first ? "}" : "\n" + pad.substr(2) + "}";
  }

 private:
  const reflection::Schema& schema_;

  // An integer, by its enum name when the field is an enum and the value one of its values.
  void integer(int64_t v, const reflection::Type& type) {
    if (type.index() >= 0) {
      const reflection::Enum* e = schema_.enums()->Get(static_cast<flatbuffers::uoffset_t>(type.index()));
      if (const reflection::EnumVal* ev = e->values()->LookupByKey(v)) {
        out += json_string(ev->name()->str());
        return;
      }
    }
    out += std::to_string(v);
  }

  void element(const uint8_t* p, BaseType bt, const reflection::Type& type, int depth) {
    switch (bt) {
      case reflection::Bool: out += flatbuffers::ReadScalar<uint8_t>(p) ? "true" : "false"; break;
      case reflection::ULong: out += std::to_string(flatbuffers::ReadScalar<uint64_t>(p)); break;
      case reflection::Float: out += real(flatbuffers::ReadScalar<float>(p)); break;
      case reflection::Double: out += real(flatbuffers::ReadScalar<double>(p)); break;
      case reflection::String: {
        // Offsets are relative to where they are stored.
        const auto* str = reinterpret_cast<const flatbuffers::String*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p));
        out += json_string(std::string_view(str->c_str(), str->size()));
        break;
      }
      case reflection::Obj:
        table(*reinterpret_cast<const flatbuffers::Table*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p)),
              *schema_.objects()->Get(static_cast<flatbuffers::uoffset_t>(type.index())), depth);
        break;
      default: integer(flatbuffers::GetAnyValueI(bt, p), type); break;
    }
  }

  void field(const flatbuffers::Table& t, const reflection::Field& f, int depth) {
    const reflection::Type& type = *f.type();
    const BaseType bt = type.base_type();
    if (bt == reflection::Vector) {
      const auto* v = t.GetPointer<const flatbuffers::VectorOfAny*>(f.offset());
      const BaseType et = type.element();
      const std::size_t size = flatbuffers::GetTypeSize(et);
      const bool tables = et == reflection::Obj;
      const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
      out += "[";
      for (flatbuffers::uoffset_t j = 0; j < v->size(); ++j) {
        out += tables ? (j ? ",\n" + pad : "\n" + pad) : (j ? ", " : "");
        element(v->Data() + j * size, et, type, depth + 1);
      }
      out += tables && v->size() ? "\n" + pad.substr(2) + "]" : "]";
      return;
    }
    element(t.GetAddressOf(f.offset()), bt, type, depth);
  }
};

// flatbuffers::Parsers loaded with the twin's schema, built once and reused: deserializing the
// reflection schema into a fresh Parser cost far more than parsing a small settings file.
// ParseJson takes one JSON object and nothing else (Parse would also take schema declarations,
// which would change a shared parser's schema for every later document); a parser that failed
// is dropped, since FlatBuffers does not say what state an error leaves it in. Thread-safe.
class ParserPool {
 public:
  static ParserPool& instance() {
    static ParserPool pool;
    return pool;
  }

  std::unique_ptr<flatbuffers::Parser> take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        auto p = std::move(free_.back());
        free_.pop_back();
        return p;
      }
    }
    flatbuffers::IDLOptions opts;
    // A field the file writes is present, even at its default value (presence is kept).
    opts.force_defaults = true;
    auto p = std::make_unique<flatbuffers::Parser>(opts);
    // The schema comes from the embedded reflection binary: tokenising the .fbs text cost more.
    if (!p->Deserialize(&fb_schema()))
      throw std::logic_error("the embedded configuration.bfbs does not load: " + p->error_);
    return p;
  }

  // A parser after a successful ParseJson: its document's buffer freed, back in the pool.
  void give_back(std::unique_ptr<flatbuffers::Parser> p) {
    p->builder_.Reset();
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMaxIdle) free_.push_back(std::move(p));
  }

 private:
  static constexpr std::size_t kMaxIdle = 8;  // more idle parsers than threads parsing at once are no use
  std::mutex mutex_;
  std::vector<std::unique_ptr<flatbuffers::Parser>> free_;
};

// A parser taken from the pool for one document; back to the pool only after keep().
class PooledParser {
 public:
  PooledParser() : parser_(ParserPool::instance().take()) {}
  ~PooledParser() {
    if (kept_) ParserPool::instance().give_back(std::move(parser_));
  }
  PooledParser(const PooledParser&) = delete;
  PooledParser& operator=(const PooledParser&) = delete;
  flatbuffers::Parser& get() { return *parser_; }
  void keep() { kept_ = true; }

 private:
  std::unique_ptr<flatbuffers::Parser> parser_;
  bool kept_ = false;
};

}  // namespace

std::string fb_to_json(std::string_view fb, const pb::Descriptor& d) {
  std::vector<uint64_t> storage((fb.size() + 7) / 8);
  std::copy(fb.begin(), fb.end(), reinterpret_cast<char*>(storage.data()));
  const auto* buf = reinterpret_cast<const uint8_t*>(storage.data());
  JsonWriter w(fb_schema());
  w.table(*flatbuffers::GetAnyRoot(buf), fb_object(d), 0);
  return w.out + "\n";
}

std::string fb_json_to_fb(std::string_view json, const pb::Descriptor& d, const std::string& file) {
  // The parser reads up to the first NUL.
  if (json.find('\0') != std::string_view::npos)
    throw Error(ErrorId::BadEncoding, "a NUL byte in FlatBuffers JSON", file, "byte " + std::to_string(json.find('\0')));
  const std::string text(json);
  PooledParser pooled;
  flatbuffers::Parser& parser = pooled.get();
  if (!parser.SetRootType(fb_name(d).c_str()))
    throw std::logic_error("the embedded configuration.bfbs has no table " + fb_name(d));
  parser.error_.clear();
  if (!parser.ParseJson(text.c_str())) {
    // "<line>: <column>: error: <message>"
    const std::string error = parser.error_;  // the parser is discarded: it may be mid-table
    const auto m = split_parser_error(error);
    if (m && m->message == "input file is empty")  // blanks and comments only
      throw Error(ErrorId::Syntax, "holds no JSON object (FlatBuffers JSON of " + fb_name(d) + " expected)", file);
    if (m) throw Error(ErrorId::Syntax, m->message, file, "line " + m->line + ", column " + m->column);
    throw Error(ErrorId::Syntax, error, file);
  }
  std::string out(reinterpret_cast<const char*>(parser.builder_.GetBufferPointer()), parser.builder_.GetSize());
  pooled.keep();
  return out;
}

}  // namespace nnbridge::config::tflite_accel::detail
