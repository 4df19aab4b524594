#include "external.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <set>

#include "nnbridge/error.h"

namespace nnbridge::formats::onnx {

namespace {

// Past this many inline bytes `auto` moves the large initializers out: protobuf serializes at
// most 2^31 - 1 bytes, and the graph itself needs room too.
constexpr uint64_t kAutoLimit = (uint64_t{1} << 31) - (uint64_t{64} << 20);
constexpr uint64_t kAlign = 64;  // new data starts 64-aligned, so that mapped views are aligned

template <class T>
const T* get(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it != a.end() && it->second.is<T>() ? &it->second.get<T>() : nullptr;
}

std::string option(const SaveOptions& o, const std::string& k, const std::string& def) {
  auto it = o.options.find(k);
  return it == o.options.end() ? def : it->second;
}

void safe_location(const std::string& location, const std::string& where, ErrorId id) {
  const std::filesystem::path p(location);
  bool up = false;
  for (const auto& part : p) up = up || part == "..";
  if (location.empty() || p.is_absolute() || up || !p.has_filename())
    throw Error(id,
                "external data location \"" + location + "\" must be a file name inside the model's folder", {}, where);
}

std::optional<uint64_t> entry_u64(const std::vector<std::string>& k, const std::vector<std::string>& v, const char* key) {
  for (std::size_t i = 0; i < k.size() && i < v.size(); ++i)
    if (k[i] == key) {
      uint64_t x = 0;
      auto [end, ec] = std::from_chars(v[i].data(), v[i].data() + v[i].size(), x);
      if (ec == std::errc() && end == v[i].data() + v[i].size()) return x;
      return std::nullopt;
    }
  return std::nullopt;
}

// The locations an existing model file names (empty when it is absent or not ONNX).
std::set<std::string> named_locations(const std::filesystem::path& model) {
  std::set<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(model, ec) || std::filesystem::file_size(model, ec) > (uint64_t{1} << 30)) return out;
  std::ifstream in(model, std::ios::binary);
  ::onnx::ModelProto m;
  if (!m.ParseFromIstream(&in)) return out;
  auto scan = [&](const ::onnx::TensorProto& t) {
    for (const auto& e : t.external_data())
      if (e.key() == "location") out.insert(e.value());
  };
  for (const auto& t : m.graph().initializer()) scan(t);
  for (const auto& n : m.graph().node())
    for (const auto& a : n.attribute())
      if (a.has_t()) scan(a.t());
  return out;
}

}  // namespace

ExternalPlan plan_external(const Graph& g, const std::filesystem::path& model, const SaveOptions& o) {
  const std::string mode = option(o, "onnx.external_data", "auto");
  if (mode != "auto" && mode != "true" && mode != "false")
    throw Error(ErrorId::OptionValue, "writer option onnx.external_data must be auto, true or false, not '" + mode + "'");
  const std::string th = option(o, "onnx.external_data_threshold", "1024");
  uint64_t threshold = 0;
  if (auto [end, ec] = std::from_chars(th.data(), th.data() + th.size(), threshold); ec != std::errc() || end != th.data() + th.size())
    throw Error(ErrorId::OptionValue, "writer option onnx.external_data_threshold must be a byte count, not '" + th + "'");
  const std::string fresh = option(o, "onnx.external_data_location", model.filename().string() + ".data");
  safe_location(fresh, "onnx.external_data_location", ErrorId::OptionValue);

  ExternalPlan plan;
  if (mode == "false") return plan;
  std::vector<ValueId> candidates;
  uint64_t inline_bytes = 0;
  for (std::size_t i = 0; i < g.values.size(); ++i) {
    const Value& v = g.values[i];
    if (!v.is_constant() || v.attrs.count(keys::kConstantNode)) continue;
    candidates.push_back(ValueId(i));
    inline_bytes += v.constant->size();
  }
  const bool move_large = mode == "true" || inline_bytes > kAutoLimit;
  std::unordered_map<std::string, std::size_t> file_of;
  auto file = [&](const std::string& location) -> ExternalPlan::File& {
    auto [it, fresh_file] = file_of.emplace(location, plan.files.size());
    if (fresh_file) plan.files.push_back({location, {}, 0});
    return plan.files[it->second];
  };
  // Source layouts first (their offsets are kept where they do not collide), then new data.
  std::vector<ValueId> appended;
  for (ValueId id : candidates) {
    const Value& v = g.values[id];
    const auto* k = get<std::vector<std::string>>(v.attrs, keys::kExternalKeys);
    const auto* val = get<std::vector<std::string>>(v.attrs, keys::kExternalValues);
    std::string location;
    if (k && val)
      for (std::size_t i = 0; i < k->size() && i < val->size(); ++i)
        if ((*k)[i] == "location") location = (*val)[i];
    if (location.empty()) {
      if (move_large && v.constant->size() >= threshold) appended.push_back(id);
      continue;
    }
    safe_location(location, "values[" + std::to_string(id) + "]: " + v.name, ErrorId::AttributeValue);
    ExternalPlan::File& f = file(location);
    const uint64_t len = v.constant->size();
    const auto off = entry_u64(*k, *val, "offset");
    const auto rec_len = entry_u64(*k, *val, "length");
    bool keep = true;  // the reader checked the recorded offset and length against the file
    const uint64_t at = off.value_or(0);
    for (const auto& [o2, other] : f.parts) {
      const uint64_t l2 = g.values[other].constant->size();
      keep = keep && (at + len <= o2 || o2 + l2 <= at);
    }
    if (rec_len && *rec_len != len) keep = false;
    Placement p;
    p.location = location;
    p.length = len;
    if (keep) {
      p.offset = at;
      for (std::size_t i = 0; i < k->size() && i < val->size(); ++i) p.entries.emplace_back((*k)[i], (*val)[i]);
      f.parts.emplace_back(at, id);
      f.size = std::max(f.size, at + len);
      plan.placed[id] = std::move(p);
    } else {
      appended.push_back(id);
      plan.placed[id] = std::move(p);  // location chosen; offset below
    }
  }
  for (ValueId id : appended) {
    const Value& v = g.values[id];
    auto it = plan.placed.find(id);
    const std::string location = it != plan.placed.end() ? it->second.location : fresh;
    ExternalPlan::File& f = file(location);
    const uint64_t at = (f.size + kAlign - 1) / kAlign * kAlign;
    Placement p;
    p.location = location;
    p.offset = at;
    p.length = v.constant->size();
    p.entries = {{"location", location}, {"offset", std::to_string(at)}, {"length", std::to_string(p.length)}};
    f.parts.emplace_back(at, id);
    f.size = at + p.length;
    plan.placed[id] = std::move(p);
  }
  return plan;
}

void external_header(const Value& v, const Placement& p, ::onnx::TensorProto& t) {
  auto et = dtype_to_onnx(v.type.dtype);
  if (!et || *et == 0)
    throw Error(ErrorId::DataType, "constant '" + v.name + "' has dtype " + std::string(to_string(v.type.dtype)) +
                                            ", which ONNX has no type for");
  t.set_name(v.name);
  for (int64_t d : v.type.shape) t.add_dims(d);
  t.set_data_type(*et);
  if (auto it = v.attrs.find(keys::kTensorDocString); it != v.attrs.end() && it->second.is<std::string>())
    t.set_doc_string(it->second.get<std::string>());
  t.set_data_location(::onnx::TensorProto::EXTERNAL);
  for (const auto& [k, val] : p.entries) {
    auto* e = t.add_external_data();
    e->set_key(k);
    e->set_value(val);
  }
}

void write_with_external(const Graph& g, const std::filesystem::path& model, std::span<const std::byte> bytes,
                         const ExternalPlan& plan, const SaveOptions& o) {
  const bool overwrite = option(o, "onnx.overwrite_external_data", "false") == "true";
  const std::filesystem::path folder = model.parent_path();
  const std::set<std::string> owned = plan.files.empty() ? std::set<std::string>{} : named_locations(model);
  std::vector<std::vector<std::byte>> data(plan.files.size());
  std::vector<FileContents> files;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    const auto& f = plan.files[i];
    const std::filesystem::path path = folder / f.location;
    data[i].assign(f.size, std::byte{0});
    for (const auto& [off, id] : f.parts) {
      const Buffer& b = *g.values[id].constant;
      if (b.size()) std::memcpy(data[i].data() + off, b.data(), b.size());
    }
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !overwrite && !owned.count(f.location)) {
      // Another model's data file (the source's, converting beside it): left as it is when it
      // already holds these bytes, never changed under that model otherwise.
      const auto existing = MappedFile::open(path);
      const auto have = existing->bytes();
      if (have.size() == data[i].size() && std::equal(have.begin(), have.end(), data[i].begin())) continue;
      throw Error(ErrorId::IoWrite,
                  "exists and is not a data file of the model being replaced; not overwritten (writer option "
                  "onnx.overwrite_external_data=true replaces it)",
                  path.string());
    }
    files.push_back({path, data[i]});
  }
  files.push_back({model, bytes});
  write_files_atomic(files);
}

}  // namespace nnbridge::formats::onnx
