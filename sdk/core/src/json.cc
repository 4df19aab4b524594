#include "nnbridge/json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "base64.h"
#include "nnbridge/error.h"
#include "nnbridge/json_syntax.h"
#include "nnbridge/order.h"

namespace nnbridge {

// Writing keeps the documented key order (ordered_json); reading looks keys up in a std::map
// (json), so that an object with n keys costs O(n log n) either way: ordered_json's lookups are
// linear, which made objects with many keys quadratic.
using JsonOut = nlohmann::ordered_json;
using Json = nlohmann::json;

// ---------------------------------------------------------------- writing
namespace {

JsonOut float_json(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

JsonOut floats_json(const std::vector<double>& v) {
  JsonOut a = JsonOut::array();
  for (double d : v) a.push_back(float_json(d));
  return a;
}

JsonOut attr_json(const Attr& a) {
  JsonOut inner;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) inner = float_json(v);
        else if constexpr (std::is_same_v<T, std::vector<double>>) inner = floats_json(v);
        else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          inner = JsonOut::array();
          for (bool b : v) inner.push_back(b);
        } else if constexpr (std::is_same_v<T, Bytes>) {
          inner = detail::base64_encode(std::as_bytes(std::span(v.data)));
        } else {
          inner = v;
        }
      },
      a.value);
  JsonOut j = JsonOut::object();
  j[std::string(to_string(a.type()))] = std::move(inner);
  return j;
}

JsonOut attrs_json(const AttrMap& m) {
  JsonOut j = JsonOut::object();
  // The map's keys are unique and sorted: append them without ordered_map's linear search for
  // an existing key (operator[] and emplace both search).
  auto& members = j.get_ref<JsonOut::object_t&>();
  members.reserve(m.size());
  for (const auto& [k, v] : m) members.Container::emplace_back(k, attr_json(v));
  return j;
}

JsonOut type_json(const TensorType& t) {
  JsonOut j = JsonOut::object();
  j["dtype"] = std::string(to_string(t.dtype));
  if (t.unknown_rank) j["unknown_rank"] = true;
  else j["shape"] = t.shape;
  if (t.quantization) {
    JsonOut q = JsonOut::object();
    q["scales"] = floats_json(t.quantization->scales);
    q["zero_points"] = t.quantization->zero_points;
    if (t.quantization->axis) q["axis"] = *t.quantization->axis;
    j["quantization"] = std::move(q);
  }
  return j;
}

JsonOut id_json(ValueId id) { return id == kNoValue ? JsonOut(nullptr) : JsonOut(id); }

}  // namespace

std::string to_json(const Graph& g, const JsonWriteOptions& options, std::vector<std::byte>* sidecar_bytes) {
  const bool use_sidecar = sidecar_bytes && !options.sidecar.empty();
  JsonOut j = JsonOut::object();
  j["format"] = "nnbridge-ir";
  j["version"] = 1;
  if (!g.source_format.empty()) j["source_format"] = g.source_format;
  bool sidecar_used = false;
  if (use_sidecar)
    for (const Value& v : g.values)
      if (v.constant && v.constant->size() > options.inline_limit) sidecar_used = true;
  if (sidecar_used) j["sidecar"] = options.sidecar;
  if (!g.metadata.empty()) j["metadata"] = attrs_json(g.metadata);

  JsonOut values = JsonOut::array();
  for (const Value& v : g.values) {
    JsonOut jv = JsonOut::object();
    jv["name"] = v.name;
    jv["type"] = type_json(v.type);
    if (v.constant) {
      JsonOut c = JsonOut::object();
      if (sidecar_used && v.constant->size() > options.inline_limit) {
        std::vector<std::byte>& side = *sidecar_bytes;
        side.resize((side.size() + kSidecarAlignment - 1) / kSidecarAlignment * kSidecarAlignment);
        c["offset"] = side.size();
        c["length"] = v.constant->size();
        side.insert(side.end(), v.constant->data(), v.constant->data() + v.constant->size());
      } else {
        c["base64"] = detail::base64_encode(v.constant->bytes());
      }
      jv["constant"] = std::move(c);
    }
    if (!v.attrs.empty()) jv["attrs"] = attrs_json(v.attrs);
    values.push_back(std::move(jv));
  }
  j["values"] = std::move(values);

  JsonOut nodes = JsonOut::array();
  for (const Node& n : g.nodes) {
    JsonOut jn = JsonOut::object();
    jn["op"] = n.op;
    if (!n.name.empty()) jn["name"] = n.name;
    JsonOut ins = JsonOut::array(), outs = JsonOut::array();
    for (ValueId id : n.inputs) ins.push_back(id_json(id));
    for (ValueId id : n.outputs) outs.push_back(id_json(id));
    jn["inputs"] = std::move(ins);
    jn["outputs"] = std::move(outs);
    if (!n.attrs.empty()) jn["attrs"] = attrs_json(n.attrs);
    nodes.push_back(std::move(jn));
  }
  j["nodes"] = std::move(nodes);
  JsonOut ins = JsonOut::array(), outs = JsonOut::array();
  for (ValueId id : g.inputs) ins.push_back(id_json(id));
  for (ValueId id : g.outputs) outs.push_back(id_json(id));
  j["inputs"] = std::move(ins);
  j["outputs"] = std::move(outs);
  try {
    return j.dump(options.indent) + "\n";
  } catch (const nlohmann::json::type_error& e) {
    throw Error(ErrorId::NoForm, std::string("cannot write JSON: a name or string is not valid UTF-8 (") +
                                            e.what() + ")");
  }
}

// ---------------------------------------------------------------- reading
namespace {

class Reader {
 public:
  Reader(const SidecarResolver& resolve, const std::string& file) : resolve_(resolve), file_(file) {}

  Graph graph(const Json& j) {
    const std::string at;
    expect_object(j, "", {"format", "version", "source_format", "sidecar", "metadata", "values", "nodes", "inputs",
                          "outputs"});
    if (string(req(j, "format", at), "format") != "nnbridge-ir") bad(ErrorId::BadIdentifier, "format", "is not \"nnbridge-ir\"");
    int64_t version = integer(req(j, "version", at), "version");
    if (version != 1)
      throw Error(ErrorId::Version, "version " + std::to_string(version) + " is not supported (this reader knows 1)",
                  file_, "version");
    Graph g;
    if (j.contains("source_format")) g.source_format = string(j["source_format"], "source_format");
    if (j.contains("sidecar")) sidecar_name_ = string(j["sidecar"], "sidecar");
    if (j.contains("metadata")) g.metadata = attrs(j["metadata"], "metadata");
    const Json& values = array(req(j, "values", at), "values");
    g.values.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) g.values.push_back(value(values[i], idx("values", i)));
    nvalues_ = g.values.size();
    const Json& nodes = array(req(j, "nodes", at), "nodes");
    g.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) g.nodes.push_back(node(nodes[i], idx("nodes", i)));
    check_order(g);
    g.inputs = ids(req(j, "inputs", at), "inputs", false);
    g.outputs = ids(req(j, "outputs", at), "outputs", false);
    return g;
  }

 private:
  // Nodes may be stored in any order (graph.h), but each value has at most one producer and
  // the data flow has no cycle: a cycle is refused here, before a consumer of the graph walks it.
  void check_order(const Graph& g) const {
    std::vector<std::size_t> producer(g.values.size(), SIZE_MAX);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      for (std::size_t k = 0; k < g.nodes[i].outputs.size(); ++k) {
        const ValueId v = g.nodes[i].outputs[k];
        if (v == kNoValue) continue;
        if (producer[v] != SIZE_MAX)
          bad(idx(idx("nodes", i) + ".outputs", k),
              "value " + std::to_string(v) + " is already produced by " + idx("nodes", producer[v]));
        producer[v] = i;
      }
    if (const auto cycle = find_cycle(g); !cycle.empty())
      bad(idx("nodes", cycle.front()), "is on a cycle of data flow: " + describe_cycle(g, cycle));
  }

  // `id` says what is wrong (nnbridge/error.h); without it, MalformedOther.
  [[noreturn]] void bad(ErrorId id, const std::string& where, const std::string& message) const {
    throw Error(id, message, file_, where);
  }
  [[noreturn]] void bad(const std::string& where, const std::string& message) const {
    bad(ErrorId::MalformedOther, where, message);
  }
  static std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }
  static std::string key(const std::string& base, const std::string& k) { return base.empty() ? k : base + "." + k; }

  const Json& req(const Json& obj, const char* k, const std::string& at) const {
    auto it = obj.find(k);
    if (it == obj.end()) bad(key(at, k), "is missing");
    return *it;
  }
  void expect_object(const Json& j, const std::string& at, std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) bad(ErrorId::BadEncoding, at, "must be an object");
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || it.key() == a;
      if (!ok)
        bad(key(at, it.key()), at.empty() ? "is not a known field of nnbridge's IR JSON (a TFLite settings file? read it with "
                                            "`nnbridge config`)"
                                          : "is not a known field");
    }
  }
  const Json& array(const Json& j, const std::string& at) const {
    if (!j.is_array()) bad(ErrorId::BadEncoding, at, "must be an array");
    return j;
  }
  std::string string(const Json& j, const std::string& at) const {
    if (!j.is_string()) bad(ErrorId::BadEncoding, at, "must be a string");
    return j.get<std::string>();
  }
  bool boolean(const Json& j, const std::string& at) const {
    if (!j.is_boolean()) bad(ErrorId::BadEncoding, at, "must be true or false");
    return j.get<bool>();
  }
  int64_t integer(const Json& j, const std::string& at) const {
    if (j.is_number_unsigned()) {
      if (j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) bad(ErrorId::BadEncoding, at, "is out of the int64 range");
      return static_cast<int64_t>(j.get<uint64_t>());
    }
    if (!j.is_number_integer()) bad(ErrorId::BadEncoding, at, "must be an integer");
    return j.get<int64_t>();
  }
  double floating(const Json& j, const std::string& at) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      const auto& s = j.get_ref<const std::string&>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    bad(ErrorId::BadEncoding, at, "must be a number or \"nan\", \"inf\", \"-inf\"");
  }
  std::vector<double> floats(const Json& j, const std::string& at) const {
    array(j, at);
    std::vector<double> v;
    v.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(floating(j[i], idx(at, i)));
    return v;
  }
  std::vector<int64_t> ints(const Json& j, const std::string& at) const {
    array(j, at);
    std::vector<int64_t> v;
    v.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(integer(j[i], idx(at, i)));
    return v;
  }
  std::vector<std::byte> base64(const Json& j, const std::string& at) const {
    auto bytes = detail::base64_decode(string(j, at));
    if (!bytes) bad(ErrorId::BadEncoding, at, "is not valid base64");
    return std::move(*bytes);
  }

  Attr attr(const Json& j, const std::string& at) const {
    if (!j.is_object() || j.size() != 1) bad(ErrorId::BadEncoding, at, "must be an object with one key naming the type (e.g. {\"int\": 1})");
    const std::string& t = j.begin().key();
    const Json& v = j.begin().value();
    const std::string vat = key(at, t);
    if (t == "int") return Attr(integer(v, vat));
    if (t == "float") return Attr(floating(v, vat));
    if (t == "bool") return Attr(boolean(v, vat));
    if (t == "string") return Attr(string(v, vat));
    if (t == "ints") return Attr(ints(v, vat));
    if (t == "floats") return Attr(floats(v, vat));
    if (t == "bools") {
      array(v, vat);
      std::vector<bool> b;
      for (std::size_t i = 0; i < v.size(); ++i) b.push_back(boolean(v[i], idx(vat, i)));
      return Attr(std::move(b));
    }
    if (t == "strings") {
      array(v, vat);
      std::vector<std::string> s;
      for (std::size_t i = 0; i < v.size(); ++i) s.push_back(string(v[i], idx(vat, i)));
      return Attr(std::move(s));
    }
    if (t == "bytes") {
      std::vector<std::byte> b = base64(v, vat);
      Bytes out;
      out.data.resize(b.size());
      for (std::size_t i = 0; i < b.size(); ++i) out.data[i] = static_cast<uint8_t>(b[i]);
      return Attr(std::move(out));
    }
    bad(ErrorId::BadEncoding, vat, "is not an attribute type (int, float, bool, string, ints, floats, bools, strings, bytes)");
  }

  AttrMap attrs(const Json& j, const std::string& at) const {
    if (!j.is_object()) bad(ErrorId::BadEncoding, at, "must be an object");
    AttrMap m;
    for (auto it = j.begin(); it != j.end(); ++it) m.emplace(it.key(), attr(it.value(), key(at, it.key())));
    return m;
  }

  TensorType type(const Json& j, const std::string& at) const {
    expect_object(j, at, {"dtype", "shape", "unknown_rank", "quantization"});
    TensorType t;
    std::string dt = string(req(j, "dtype", at), key(at, "dtype"));
    auto parsed = parse_data_type(dt);
    if (!parsed) bad(ErrorId::BadEncoding, key(at, "dtype"), "\"" + dt + "\" is not a dtype");
    t.dtype = *parsed;
    if (j.contains("unknown_rank")) t.unknown_rank = boolean(j["unknown_rank"], key(at, "unknown_rank"));
    if (t.unknown_rank) {
      if (j.contains("shape")) bad(key(at, "shape"), "must be absent when unknown_rank is true");
    } else {
      const std::string sat = key(at, "shape");
      t.shape = ints(req(j, "shape", at), sat);
      for (std::size_t i = 0; i < t.shape.size(); ++i)
        if (t.shape[i] < -1) bad(ErrorId::BadEncoding, idx(sat, i), "dim " + std::to_string(t.shape[i]) + " is invalid (-1 marks unknown)");
      // Known dims whose product does not fit int64 describe no tensor (and would overflow
      // every size computed from them).
      if (std::find(t.shape.begin(), t.shape.end(), 0) == t.shape.end()) {
        int64_t count = 1;
        for (int64_t d : t.shape) {
          if (d < 0) continue;
          if (count > std::numeric_limits<int64_t>::max() / d) bad(ErrorId::BadEncoding, sat, "the element count overflows int64");
          count *= d;
        }
      }
    }
    if (j.contains("quantization")) {
      const std::string qat = key(at, "quantization");
      const Json& q = j["quantization"];
      expect_object(q, qat, {"scales", "zero_points", "axis"});
      Quantization qu;
      qu.scales = floats(req(q, "scales", qat), key(qat, "scales"));
      if (q.contains("zero_points")) qu.zero_points = ints(q["zero_points"], key(qat, "zero_points"));
      if (q.contains("axis")) qu.axis = integer(q["axis"], key(qat, "axis"));
      t.quantization = std::move(qu);
    }
    return t;
  }

  Buffer constant(const Json& j, const std::string& at) {
    if (!j.is_object()) bad(ErrorId::BadEncoding, at, "must be an object");
    if (j.contains("base64")) {
      expect_object(j, at, {"base64"});
      return Buffer::owned(base64(j["base64"], key(at, "base64")));
    }
    expect_object(j, at, {"offset", "length"});
    int64_t off = integer(req(j, "offset", at), key(at, "offset"));
    int64_t len = integer(req(j, "length", at), key(at, "length"));
    if (off < 0 || len < 0) bad(ErrorId::BadEncoding, at, "offset and length must be >= 0");
    if (!sidecar_loaded_) {
      if (sidecar_name_.empty()) bad(at, "refers to a sidecar, but the document names none (\"sidecar\")");
      if (!resolve_) bad(at, "refers to sidecar '" + sidecar_name_ + "', but none was supplied");
      sidecar_ = resolve_(sidecar_name_);
      sidecar_loaded_ = true;
    }
    auto size = static_cast<uint64_t>(sidecar_.size());
    if (static_cast<uint64_t>(off) > size || static_cast<uint64_t>(len) > size - static_cast<uint64_t>(off))
      bad(ErrorId::Truncated, at, "range [" + std::to_string(off) + ", +" + std::to_string(len) + ") is outside the " + std::to_string(size) +
                  "-byte sidecar '" + sidecar_name_ + "'");
    return sidecar_.slice(static_cast<std::size_t>(off), static_cast<std::size_t>(len));
  }

  Value value(const Json& j, const std::string& at) {
    expect_object(j, at, {"name", "type", "constant", "attrs"});
    Value v;
    if (j.contains("name")) v.name = string(j["name"], key(at, "name"));
    v.type = type(req(j, "type", at), key(at, "type"));
    if (j.contains("constant")) v.constant = constant(j["constant"], key(at, "constant"));
    if (j.contains("attrs")) v.attrs = attrs(j["attrs"], key(at, "attrs"));
    return v;
  }

  std::vector<ValueId> ids(const Json& j, const std::string& at, bool allow_null) const {
    array(j, at);
    std::vector<ValueId> out;
    out.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (j[i].is_null()) {
        if (!allow_null) bad(ErrorId::BadEncoding, idx(at, i), "must be a value id (null, an absent input, is only allowed in node inputs)");
        out.push_back(kNoValue);
        continue;
      }
      int64_t id = integer(j[i], idx(at, i));
      if (id < 0 || static_cast<uint64_t>(id) >= nvalues_)
        bad(idx(at, i), "value id " + std::to_string(id) + " is out of range (" + std::to_string(nvalues_) + " values)");
      out.push_back(static_cast<ValueId>(id));
    }
    return out;
  }

  Node node(const Json& j, const std::string& at) const {
    expect_object(j, at, {"op", "name", "inputs", "outputs", "attrs"});
    Node n;
    n.op = string(req(j, "op", at), key(at, "op"));
    if (j.contains("name")) n.name = string(j["name"], key(at, "name"));
    n.inputs = ids(req(j, "inputs", at), key(at, "inputs"), true);
    n.outputs = ids(req(j, "outputs", at), key(at, "outputs"), false);
    if (j.contains("attrs")) n.attrs = attrs(j["attrs"], key(at, "attrs"));
    return n;
  }

  const SidecarResolver& resolve_;
  const std::string& file_;
  std::string sidecar_name_;
  Buffer sidecar_;
  bool sidecar_loaded_ = false;
  std::size_t nvalues_ = 0;
};

// Counts nesting and throws past kJsonMaxDepth; syntax errors are left to the real parse.
struct DepthProbe {
  using J = nlohmann::json;
  std::size_t depth = 0;
  bool open() {
    if (++depth > kJsonMaxDepth)
      throw Error(ErrorId::DepthLimit, "nested deeper than " + std::to_string(kJsonMaxDepth) +
                                            " levels (nnbridge's IR JSON needs 6; kJsonMaxDepth in nnbridge/json.h)");
    return true;
  }
  bool close() { return --depth, true; }
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(J::number_integer_t) { return true; }
  bool number_unsigned(J::number_unsigned_t) { return true; }
  bool number_float(J::number_float_t, const J::string_t&) { return true; }
  bool string(J::string_t&) { return true; }
  bool binary(J::binary_t&) { return true; }
  bool start_object(std::size_t) { return open(); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(); }
  bool end_array() { return close(); }
  bool key(J::string_t&) { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

}  // namespace

Graph from_json_resolving(std::string_view text, const SidecarResolver& resolve, const std::string& file) {
  Json j;
  try {
    // The parser keeps its own stack, but each nesting level still costs memory and later walks
    // recurse: a linear SAX pass refuses documents nested deeper than the form ever needs
    // (kJsonMaxDepth) before the DOM is built. (nlohmann's callback parser would do it in one
    // pass, but it rescans the parent object at each end_object: quadratic in the key count.)
    DepthProbe probe;
    Json::sax_parse(text.begin(), text.end(), &probe);
    j = Json::parse(text.begin(), text.end());
  } catch (const Error& e) {
    throw e.with_file(file);
  } catch (const nlohmann::json::exception& e) {  // a parse error, or a number out of the double range
    throw json_syntax_error(e, file);
  }
  try {
    return Reader(resolve, file).graph(j);
  } catch (const Error& e) {
    if (e.file().empty() && !file.empty()) throw e.with_file(file);
    throw;
  }
}

Graph from_json(std::string_view text, const Buffer& sidecar, const std::string& file) {
  SidecarResolver resolve = [&sidecar](const std::string&) { return sidecar; };
  return from_json_resolving(text, resolve, file);
}

}  // namespace nnbridge
