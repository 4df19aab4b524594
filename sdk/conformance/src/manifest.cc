// case.json (docs/conformance.md) and finding case folders.
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "internal.h"
#include "nnbridge/conformance.h"
#include "nnbridge/error.h"
#include "nnbridge/json_syntax.h"

namespace nnbridge::conformance {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool has_data_sets(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) return true;
  return false;
}

[[noreturn]] void bad_key(const fs::path& file, const std::string& key, const std::string& msg) {
  throw Error(ErrorId::OptionValue, msg, file.string(), key);
}

const json* member(const json& c, const char* key) {
  auto it = c.find(key);
  return it == c.end() || it->is_null() ? nullptr : &*it;
}

std::string get_string(const json& c, const char* key, const fs::path& file) {
  const json* v = member(c, key);
  if (!v) return {};
  if (!v->is_string()) bad_key(file, key, "must be a string");
  return v->get<std::string>();
}

std::vector<std::string> get_strings(const json& c, const char* key, const fs::path& file) {
  const json* v = member(c, key);
  if (!v) return {};
  if (!v->is_array()) bad_key(file, key, "must be an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) bad_key(file, std::string(key) + "[" + std::to_string(i) + "]", "must be a string");
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> get_string_map(const json& c, const char* key, const fs::path& file) {
  const json* v = member(c, key);
  if (!v) return {};
  if (!v->is_object()) bad_key(file, key, "must be an object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [k, s] : v->items()) {
    if (!s.is_string()) bad_key(file, std::string(key) + "." + k, "must be a string");
    out[k] = s.get<std::string>();
  }
  return out;
}

double number(const json& t, const char* key, double def, const fs::path& file, const std::string& where) {
  auto it = t.find(key);
  if (it == t.end()) return def;
  if (!it->is_number() || it->get<double>() < 0) bad_key(file, where + "." + key, "must be a number >= 0");
  return it->get<double>();
}

ToleranceSpec read_tolerance(const json& c, const fs::path& file) {
  ToleranceSpec spec;
  const json* t = member(c, "tolerance");
  if (!t) return spec;
  if (!t->is_object()) bad_key(file, "tolerance", "must be an object");
  for (const auto& [k, v] : t->items()) {
    const std::string where = "tolerance." + k;
    if (!v.is_object()) bad_key(file, where, "must be an object");
    Tolerance tol;
    if (k == "quantized") {
      tol.quantized_steps = static_cast<int64_t>(number(v, "max_abs_diff_in_steps", 1, file, where));
    } else {
      if (k != "default" && !parse_data_type(k)) bad_key(file, where, "is not a dtype name (float32, float16, ...)");
      // An atol given is applied as given; left out, it scales with the expected output.
      if (v.contains("atol")) tol.atol = number(v, "atol", 0, file, where);
      tol.rtol = number(v, "rtol", tol.rtol, file, where);
    }
    spec.by_dtype[k] = tol;
  }
  return spec;
}

std::optional<ExpectedError> read_expect_error(const json& c, const fs::path& file) {
  const json* e = member(c, "expect_error");
  if (!e) return std::nullopt;
  if (!e->is_object()) bad_key(file, "expect_error", "must be an object");
  ExpectedError x;
  x.code = get_string(*e, "code", file);
  x.id = get_string(*e, "id", file);
  x.message_contains = get_string(*e, "message_contains", file);
  if (x.id.empty() && x.code.empty())
    bad_key(file, "expect_error", "names no error: give \"id\" (an identifier of docs/errors.md, such as "
                                  "\"nnbridge.malformed.201\") or at least \"code\"");
  if (!x.id.empty()) {
    // "nnbridge.<code>.<number>": the code is implied; a `code` given beside it must agree.
    static const std::regex kId(R"(nnbridge\.(io|malformed|unsupported|invalid|backend)\.[1-5][0-9][0-9])");
    std::smatch m;
    if (!std::regex_match(x.id, m, kId))
      bad_key(file, "expect_error.id", "\"" + x.id + "\" is not an error identifier such as \"nnbridge.malformed.201\"");
    static const char* const kHundreds[] = {"", "io", "malformed", "unsupported", "invalid", "backend"};
    if (m[1].str() != kHundreds[x.id[x.id.size() - 3] - '0'])
      bad_key(file, "expect_error.id", "\"" + x.id + "\": the hundreds digit of an identifier is its code (docs/errors.md)");
    std::string implied = m[1].str();
    implied[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(implied[0])));
    if (!x.code.empty() && x.code != implied)
      bad_key(file, "expect_error.code", "\"" + x.code + "\" is not the code of " + x.id + " (" + implied + ")");
    x.code = implied;
  }
  if (std::string s = get_string(*e, "stage", file); !s.empty()) x.stage = s;
  static const char* const kCodes[] = {"Io", "Malformed", "Unsupported", "Invalid", "Backend"};
  if (std::find_if(std::begin(kCodes), std::end(kCodes), [&](const char* k) { return x.code == k; }) == std::end(kCodes))
    bad_key(file, "expect_error.code", "\"" + x.code + "\" is not one of Io, Malformed, Unsupported, Invalid, Backend");
  if (x.stage != "load" && x.stage != "run")
    bad_key(file, "expect_error.stage", "\"" + x.stage + "\" is neither \"load\" nor \"run\"");
  return x;
}

/// `conversions`: each entry a format name, or {"to": "<format>", "options": {"<key>": "<value>"}}
/// (writer options); any other key of such an object is refused, so a misspelt one is not lost.
std::vector<Conversion> read_conversions(const json& c, const fs::path& file) {
  const json* v = member(c, "conversions");
  if (!v) return {};
  if (!v->is_array()) bad_key(file, "conversions", "must be an array of format names or {\"to\", \"options\"} objects");
  std::vector<Conversion> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    const std::string where = "conversions[" + std::to_string(i) + "]";
    if (e.is_string()) {
      out.push_back({e.get<std::string>(), {}});
      continue;
    }
    if (!e.is_object()) bad_key(file, where, "must be a format name or an object {\"to\": \"<format>\", \"options\": {...}}");
    for (const auto& [k, x] : e.items())
      if (k != "to" && k != "options") bad_key(file, where + "." + k, "is not a key of a conversion (\"to\", \"options\")");
    const json* to = member(e, "to");
    if (!to || !to->is_string() || to->get<std::string>().empty()) bad_key(file, where + ".to", "must be a format name");
    Conversion conv{to->get<std::string>(), {}};
    if (const json* o = member(e, "options")) {
      if (!o->is_object()) bad_key(file, where + ".options", "must be an object of strings (writer options)");
      for (const auto& [k, x] : o->items()) {
        if (!x.is_string()) bad_key(file, where + ".options." + k, "must be a string");
        conv.options[k] = x.get<std::string>();
      }
    }
    out.push_back(std::move(conv));
  }
  return out;
}

}  // namespace

Tolerance ToleranceSpec::for_type(DataType t) const {
  auto pick = [&](std::string_view key) -> const Tolerance* {
    auto it = by_dtype.find(key);
    return it == by_dtype.end() ? nullptr : &it->second;
  };
  Tolerance out;
  if (const Tolerance* d = pick("default")) out = *d;
  if (const Tolerance* f = pick("float32")) out.atol = f->atol, out.rtol = f->rtol;
  if (const Tolerance* own = pick(to_string(t))) out.atol = own->atol, out.rtol = own->rtol;
  if (const Tolerance* q = pick("quantized")) out.quantized_steps = q->quantized_steps;
  return out;
}

bool CaseSpec::requires_run() const {
  if (!checks.empty()) return std::find(checks.begin(), checks.end(), "run") != checks.end();
  return !expect_error && outputs_absent_because.empty();
}

fs::path find_model_file(const fs::path& dir) {
  fs::path found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file() || e.path().stem() != "model") continue;
    // model.json is the expected IR of a case.json folder, not the file under test.
    if (e.path().extension() == ".json" && fs::exists(dir / "case.json")) continue;
    if (e.path().extension() == ".bin") continue;  // a JSON model's sidecar
    if (!found.empty()) return {};
    found = e.path();
  }
  return found;
}

bool is_case_dir(const fs::path& dir) {
  if (fs::is_regular_file(dir / "case.json")) return true;
  return has_data_sets(dir) && !find_model_file(dir).empty();
}

CaseSpec read_case(const fs::path& dir) {
  CaseSpec s;
  s.dir = dir;
  json c = json::object();
  const fs::path file = dir / "case.json";
  if (fs::exists(file)) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      c = json::parse(ss.str());
    } catch (const json::exception& e) {
      throw json_syntax_error(e, file.string());
    }
    if (!c.is_object()) throw Error(ErrorId::InvalidOther, "must be a JSON object", file.string());
    s.has_manifest = true;
  }
  const std::string model = get_string(c, "model", file);
  s.model = model.empty() ? find_model_file(dir) : dir / model;
  if (s.model.empty()) throw Error(ErrorId::Arity, "no \"model\" key and not exactly one model.* file", file.string());
  s.load_options.format = get_string(c, "format", file);
  // A value naming a file of the case folder (a sidecar such as a .ptd) is that file's path, so
  // the case reads the same wherever it runs and whatever copy of the model is read.
  for (const auto& [k, v] : get_string_map(c, "load_options", file)) {
    const std::filesystem::path in_case = dir / v;
    s.load_options.options[k] = !v.empty() && std::filesystem::path(v).is_relative() && std::filesystem::is_regular_file(in_case)
                                    ? in_case.string()
                                    : v;
  }
  s.conversions = read_conversions(c, file);
  s.expect_error = read_expect_error(c, file);
  s.backends = get_strings(c, "backends", file);
  s.skip_backends = get_string_map(c, "skip_backends", file);
  s.skip = get_string(c, "skip", file);
  s.outputs_absent_because = get_string(c, "outputs_absent_because", file);
  s.checks = get_strings(c, "checks", file);
  static const char* const kChecks[] = {"decode", "ir", "roundtrip", "convert", "run"};
  for (std::size_t i = 0; i < s.checks.size(); ++i) {
    const std::string& k = s.checks[i];
    if (std::find_if(std::begin(kChecks), std::end(kChecks), [&](const char* n) { return k == n; }) == std::end(kChecks))
      bad_key(file, "checks[" + std::to_string(i) + "]", "\"" + k + "\" is not one of decode, ir, roundtrip, convert, run");
  }
  auto lists = [&](const char* k) { return std::find(s.checks.begin(), s.checks.end(), k) != s.checks.end(); };
  if (lists("run") && !s.outputs_absent_because.empty())
    bad_key(file, "checks", "lists \"run\", but \"outputs_absent_because\" says nothing is executed");
  if (!s.checks.empty() && member(c, "expect_error"))
    bad_key(file, "checks", "does not go with \"expect_error\" (that case passes only by the error)");
  for (const std::string& e : get_strings(c, "extensions", file)) s.extensions.push_back(dir / e);
  s.tolerance = read_tolerance(c, file);
  if (const json* r = member(c, "roundtrip")) {
    if (!r->is_boolean()) bad_key(file, "roundtrip", "must be true or false");
    s.roundtrip = r->get<bool>();
    if (!*s.roundtrip && lists("roundtrip")) bad_key(file, "checks", "lists \"roundtrip\", but \"roundtrip\" is false");
  }
  if (const json* t = member(c, "timeout_s")) {
    if (!t->is_number() || !(t->get<double>() >= 0.01) || t->get<double>() > 86400)
      bad_key(file, "timeout_s", "must be a number of seconds from 0.01 to 86400 (as --timeout)");
    s.timeout_s = t->get<double>();
  }

  // Expected outputs make a data set even without inputs/: git keeps no empty folder, so a graph
  // without inputs (or a case whose inputs were removed on purpose) has none.
  if (fs::is_directory(dir / "inputs") || fs::is_directory(dir / "outputs"))
    s.data_sets.push_back({"", dir / "inputs", dir / "outputs", false});
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  for (const fs::path& p : sets) s.data_sets.push_back({p.filename().string(), p, p, true});
  return s;
}

std::vector<FoundCase> find_cases(std::span<const fs::path> roots, const std::string& filter) {
  std::vector<FoundCase> out;
  for (const fs::path& root : roots) {
    if (!fs::is_directory(root)) throw Error(ErrorId::IoOpen, "not a folder", root.string());
    const fs::path norm = fs::absolute(root).lexically_normal();
    const fs::path root_dir = norm.has_filename() ? norm : norm.parent_path();  // "DIR/" as "DIR"
    const fs::path base = root_dir.parent_path();
    std::vector<fs::path> stack{norm};
    while (!stack.empty()) {
      fs::path d = stack.back();
      stack.pop_back();
      if (is_case_dir(d)) {
        std::string name = d.lexically_relative(base).generic_string();
        if (filter.empty() || fnmatch(filter.c_str(), name.c_str(), 0) == 0)
          out.push_back({d, name, d.lexically_relative(root_dir).generic_string()});
        continue;
      }
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(d, ec))
        if (e.is_directory() && !e.is_symlink()) stack.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end(), [](const FoundCase& a, const FoundCase& b) { return a.name < b.name; });
  out.erase(std::unique(out.begin(), out.end(), [](const FoundCase& a, const FoundCase& b) { return a.dir == b.dir; }),
            out.end());
  return out;
}

std::chrono::milliseconds case_timeout(const fs::path& dir, std::chrono::milliseconds run_default) {
  try {
    if (auto t = read_case(dir).timeout_s) return std::chrono::milliseconds(static_cast<int64_t>(*t * 1000));
  } catch (const Error&) {
  }
  return run_default;
}

}  // namespace nnbridge::conformance
