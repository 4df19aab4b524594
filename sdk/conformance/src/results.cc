// Sharding a run and merging its results files (docs/conformance.md "One run on many machines").
#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "internal.h"
#include "nnbridge/conformance.h"
#include "nnbridge/error.h"
#include "nnbridge/json_syntax.h"
#include "nnbridge/format.h"

namespace nnbridge::conformance {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "nnbridge-conformance-results";
constexpr int kVersion = 1;
constexpr std::size_t kMaxShards = 1000000;

bool parse_size(std::string_view t, std::size_t& out) {
  if (t.empty()) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size();
}

std::string shard_text(const Shard& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_size(std::string_view(text).substr(0, slash), s.index) ||
      !parse_size(std::string_view(text).substr(slash + 1), s.count))
    throw Error(ErrorId::OptionValue, "--shard \"" + text + "\" is not K/N (shard K of N, K counted from 0)");
  if (s.count < 1 || s.count > kMaxShards)
    throw Error(ErrorId::OptionValue, "--shard \"" + text + "\": N must be from 1 to " + std::to_string(kMaxShards));
  if (s.index >= s.count)
    throw Error(ErrorId::OptionValue, "--shard \"" + text + "\": K counts from 0, so it must be below N (0.." +
                                        std::to_string(s.count - 1) + ")");
  return s;
}

uint64_t fnv1a_64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::size_t shard_of(const FoundCase& c, std::size_t count) {
  return static_cast<std::size_t>((fnv1a_64(c.relative) >> 32) % count);
}

std::vector<FoundCase> select_shard(std::span<const FoundCase> cases, Shard shard) {
  std::vector<FoundCase> out;
  for (const FoundCase& c : cases)
    if (shard_of(c, shard.count) == shard.index) out.push_back(c);
  return out;
}

std::string run_description(const CaseOptions& o, const std::string& filter) {
  // Only what changes a case's result; where the corpus lies and how many jobs ran do not.
  json j = {{"backends", o.backends}, {"backend_options", o.backend_options}, {"filter", filter}, {"flatc", !o.flatc.empty()}};
  return j.dump();
}

void write_results(const fs::path& file, const Results& r) {
  // The header first (ordered), so that a person reading a large file sees it at once.
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["shard"] = {{"index", r.shard.index}, {"count", r.shard.count}};
  j["total_cases"] = r.total_cases;
  j["run"] = nlohmann::ordered_json::parse(r.run.empty() ? "{}" : r.run);
  j["cases"] = nlohmann::ordered_json::array();
  for (const CaseResult& c : r.cases) j["cases"].push_back(nlohmann::ordered_json::parse(result_to_json(c).dump()));
  const std::string text = j.dump(1) + "\n";
  write_file_atomic(file, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

Results read_results(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorId::IoOpen, "cannot open", file.string());
  std::stringstream ss;
  ss << in.rdbuf();
  json j;
  try {
    j = json::parse(ss.str());
  } catch (const json::exception& e) {
    throw json_syntax_error(e, file.string());
  }
  if (!j.is_object() || j.value("format", std::string()) != kFormat)
    throw Error(ErrorId::BadIdentifier,
                "not a conformance results file (written by `nnbridge conformance --results`; \"format\" is not \"" +
                    std::string(kFormat) + "\")",
                file.string());
  if (j.value("version", 0) != kVersion)
    throw Error(ErrorId::Version, "results file version " + j.value("version", json()).dump() + "; this nnbridge reads " +
                                            std::to_string(kVersion),
                file.string(), "version");
  Results r;
  std::string where = "shard";
  try {
    r.shard.index = j.at("shard").at("index").get<std::size_t>();
    r.shard.count = j.at("shard").at("count").get<std::size_t>();
    if (r.shard.count < 1 || r.shard.index >= r.shard.count)
      throw Error(ErrorId::InvalidOther, "shard " + shard_text(r.shard) + " is not K/N with K < N", file.string(), "shard");
    where = "total_cases";
    r.total_cases = j.at("total_cases").get<std::size_t>();
    where = "run";
    if (!j.at("run").is_object()) throw Error(ErrorId::InvalidOther, "must be an object", file.string(), where);
    r.run = j.at("run").dump();
    const json& cases = j.at("cases");
    if (!cases.is_array()) throw Error(ErrorId::InvalidOther, "must be an array", file.string(), "cases");
    for (std::size_t i = 0; i < cases.size(); ++i) {
      where = "cases[" + std::to_string(i) + "]";
      r.cases.push_back(result_from_json(cases[i]));
    }
  } catch (const json::exception& e) {
    throw Error(ErrorId::InvalidOther, std::string("not a case result record: ") + e.what(), file.string(), where);
  } catch (const Error& e) {
    if (!e.file().empty()) throw;
    throw Error(e.id(), e.message(), file.string(), where);
  }
  return r;
}

std::vector<CaseResult> merge_results(std::span<const fs::path> files) {
  if (files.empty()) throw Error(ErrorId::Arity, "merge needs the results files of a run");
  std::vector<Results> all;
  for (const fs::path& f : files) all.push_back(read_results(f));
  const Results& first = all.front();
  const std::string f0 = files.front().string();
  std::vector<std::string> owner(first.shard.count);  // the file of each shard index
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Results& r = all[i];
    const std::string fi = files[i].string();
    if (r.shard.count != first.shard.count)
      throw Error(ErrorId::InvalidOther, fi + " is shard " + shard_text(r.shard) + " but " + f0 + " is shard " +
                                          shard_text(first.shard) + ": the files come from runs split differently");
    if (r.run != first.run)
      throw Error(ErrorId::InvalidOther, fi + " ran with " + r.run + " but " + f0 + " with " + first.run +
                                          ": the files come from different runs");
    if (r.total_cases != first.total_cases)
      throw Error(ErrorId::InvalidOther, fi + " found " + std::to_string(r.total_cases) + " cases in the whole run but " + f0 +
                                          " found " + std::to_string(first.total_cases) +
                                          ": the shards did not see the same corpus");
    if (!owner[r.shard.index].empty())
      throw Error(ErrorId::DuplicateName, "shard " + shard_text(r.shard) + " is given twice: " + owner[r.shard.index] + " and " + fi);
    owner[r.shard.index] = fi;
  }
  std::string missing;
  std::size_t n_missing = 0;
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (owner[k].empty() && n_missing++ < 10) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  if (n_missing)
    throw Error(ErrorId::Arity, std::to_string(n_missing) + " of " + std::to_string(owner.size()) +
                                        " shards have no results file (shard " + missing + (n_missing > 10 ? ", ..." : "") +
                                        " of " + std::to_string(owner.size()) + ", counted from 0)");
  std::vector<CaseResult> out;
  std::map<std::string, std::string> seen;  // case name -> file
  for (std::size_t i = 0; i < all.size(); ++i)
    for (CaseResult& c : all[i].cases) {
      auto [it, fresh] = seen.emplace(c.name, files[i].string());
      if (!fresh)
        throw Error(ErrorId::DuplicateName, "case " + c.name + " is in both " + it->second + " and " + files[i].string());
      out.push_back(std::move(c));
    }
  if (out.size() != first.total_cases)
    throw Error(ErrorId::Arity, "the files hold " + std::to_string(out.size()) + " case results, but the run found " +
                                        std::to_string(first.total_cases) + " cases");
  std::sort(out.begin(), out.end(), [](const CaseResult& a, const CaseResult& b) { return a.name < b.name; });
  return out;
}

}  // namespace nnbridge::conformance
