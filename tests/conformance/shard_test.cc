// One conformance run split into shards (`--shard K/N --results FILE`) and merged (`conformance
// merge`): which shard a case falls in, what a results file holds, and that merge prints what the
// unsharded run prints or refuses files that are not every shard of one run; case.json writer
// options for conversions; the progress line on a terminal.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "nnbridge/conformance.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "support/shell_cli.h"

namespace fs = std::filesystem;
namespace conf = nnbridge::conformance;
using namespace nnbridge::test;

namespace {

const fs::path kArmnn = source_dir() / "tests" / "golden" / "armnn";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path copy_case(const std::string& golden, const fs::path& root, const std::string& name) {
  const fs::path d = root / name;
  fs::create_directories(d);
  fs::copy(kArmnn / golden, d, fs::copy_options::recursive);
  return d;
}

/// Lines of `out`, sorted, without the last (the summary).
std::vector<std::string> case_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream s(out);
  for (std::string l; std::getline(s, l);) lines.push_back(l);
  if (!lines.empty()) lines.pop_back();
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// Runs a shell command line; its standard output.
Result shell(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string last_line(const std::string& out) {
  std::string t = out;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

/// Eight cases: six that pass (Arm NN 20.08's outputs), one whose expected output was tampered
/// with, one whose backend is skipped.
fs::path eight_cases() {
  const fs::path root = temp_dir() / "shard";
  for (const char* c : {"add_float", "conv2d_nchw_stride2", "activation_relu", "activation_tanh", "add_broadcast",
                        "argmax_axis1"})
    copy_case(c, root, c);
  const fs::path t = copy_case("add_float", root, "tampered");
  std::string y = read(t / "outputs" / "y.npy");
  y[y.size() - 2] ^= 0x40;
  write(t / "outputs" / "y.npy", y);
  const fs::path s = copy_case("add_float", root, "skipped_cpu");
  write(s / "case.json", R"({"skip_backends": {"cpu": "kept for the test"}})");
  return root;
}

}  // namespace

TEST_CASE("conformance shards: FNV-1a 64 gives the reference test vectors") {
  // The FNV specification's test vectors (draft-eastlake-fnv, FNV-1a 64-bit).
  CHECK(conf::fnv1a_64("") == 0xcbf29ce484222325ull);
  CHECK(conf::fnv1a_64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(conf::fnv1a_64("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("conformance shards: K/N counts K from 0 and refuses anything else") {
  CHECK(conf::parse_shard("0/1").index == 0);
  CHECK(conf::parse_shard("3/4").index == 3);
  CHECK(conf::parse_shard("3/4").count == 4);
  for (const char* bad : {"4/4", "0/0", "1", "a/4", "-1/4", "1/4/2", "/4", "1/", "0/1000001"})
    CHECK_THROWS_AS(conf::parse_shard(bad), nnbridge::Error);
}

TEST_CASE("conformance shards: each case of the corpus is in exactly one shard chosen by its path below DIR") {
  const fs::path golden = source_dir() / "tests" / "golden";
  const std::vector<fs::path> roots{golden};
  const auto all = conf::find_cases(roots);
  REQUIRE(all.size() > 100);
  std::multiset<std::string> seen;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto part = conf::select_shard(all, {k, 4});
    // Each shard gets a fair part (FNV-1a's high half spreads names well).
    CHECK(part.size() > all.size() / 8);
    for (const auto& c : part) seen.insert(c.name);
  }
  CHECK(seen.size() == all.size());
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == all.size());

  // The shard depends on the path below DIR only: the same case under another root folder name.
  const fs::path a = temp_dir() / "one" / "corpus_a", b = temp_dir() / "two" / "other_name";
  copy_case("add_float", a / "armnn", "add_float");
  copy_case("add_float", b / "armnn", "add_float");
  const std::vector<fs::path> ra{a}, rb{fs::path(b.string() + "/")};
  const auto ca = conf::find_cases(ra), cb = conf::find_cases(rb);
  REQUIRE(ca.size() == 1);
  REQUIRE(cb.size() == 1);
  CHECK(ca[0].relative == "armnn/add_float");
  CHECK(cb[0].relative == "armnn/add_float");
  CHECK(ca[0].name == "corpus_a/armnn/add_float");
  for (std::size_t n : {2u, 3u, 7u, 64u}) {
    CHECK(conf::shard_of(ca[0], n) == conf::shard_of(cb[0], n));
    CHECK(conf::shard_of(ca[0], n) == (conf::fnv1a_64("armnn/add_float") >> 32) % n);
  }
}

TEST_CASE("conformance shards: merged results print what the unsharded run prints and merge applies the known failures") {
  const fs::path root = eight_cases();
  const fs::path out = temp_dir() / "shard_results";
  fs::create_directories(out);
  write(out / "known.json", R"({"shard/tampered": "the expected output was changed on purpose"})");
  for (const char* known : {"", " --known-failures "}) {
    const std::string kf = *known ? std::string(known) + q(out / "known.json") : "";
    CAPTURE(kf);
    const Result whole = cli("conformance " + q(root) + " --jobs 2" + kf);
    std::string files;
    for (int k = 0; k < 3; ++k) {
      const fs::path f = out / ("s" + std::to_string(k) + ".json");
      const Result shard = cli("conformance " + q(root) + " --jobs 2 --shard " + std::to_string(k) + "/3 --results " + q(f) + kf);
      CHECK(shard.rc <= 1);
      files += " " + q(f);
    }
    const Result merged = cli("conformance merge" + files + kf);
    CAPTURE(whole.out);
    CAPTURE(merged.out);
    CHECK(merged.rc == whole.rc);
    CHECK(case_lines(merged.out) == case_lines(whole.out));
    CHECK(last_line(merged.out) == last_line(whole.out));
    if (*known) {
      CHECK(whole.rc == 0);
      CHECK(last_line(merged.out) == "6 passed, 0 failed, 2 skipped");
    } else {
      CHECK(whole.rc == 1);
      CHECK(last_line(merged.out) == "6 passed, 1 failed, 1 skipped");
    }
  }
  // The records: the shard, the run's case count, each case's own result and per-backend result.
  std::map<std::string, nlohmann::json> by_name;
  std::set<std::size_t> indices;
  for (int k = 0; k < 3; ++k) {
    const auto j = nlohmann::json::parse(read(out / ("s" + std::to_string(k) + ".json")));
    CHECK(j["format"] == "nnbridge-conformance-results");
    CHECK(j["shard"]["count"] == 3);
    CHECK(j["total_cases"] == 8);
    indices.insert(j["shard"]["index"].get<std::size_t>());
    for (const auto& c : j["cases"]) by_name[c["name"]] = c;
  }
  CHECK(indices == std::set<std::size_t>{0, 1, 2});
  REQUIRE(by_name.size() == 8);
  // Known failures are not applied in the files (the shards above were given the list).
  CHECK(by_name["shard/tampered"]["status"] == "FAIL");
  CHECK(by_name["shard/tampered"]["backends"]["cpu"]["status"] == "FAIL");
  CHECK(by_name["shard/tampered"]["backends"]["cpu"]["reason"].get<std::string>().find("values differ") != std::string::npos);
  CHECK(by_name["shard/add_float"]["backends"]["cpu"]["status"] == "PASS");
  CHECK(by_name["shard/skipped_cpu"]["status"] == "SKIP");
  CHECK(by_name["shard/skipped_cpu"]["backends"]["cpu"] == nlohmann::json{{"status", "SKIP"}, {"reason", "kept for the test"}});

  // --json: the unsharded run's report.
  const Result mj = cli("conformance merge " + q(out / "s0.json") + " " + q(out / "s1.json") + " " + q(out / "s2.json") + " --json");
  const auto report = nlohmann::json::parse(mj.out);
  CHECK(report["passed"] == 6);
  CHECK(report["failed"] == 1);
  CHECK(report["cases"].size() == 8);
}

TEST_CASE("conformance merge: refuses files that are not every shard of one run exactly once and names them") {
  const fs::path root = eight_cases();
  const fs::path out = temp_dir() / "merge_refusals";
  fs::create_directories(out);
  auto shard = [&](const std::string& k_n, const std::string& file, const std::string& more = "") {
    CHECK(cli("conformance " + q(root) + " --shard " + k_n + " --results " + q(out / file) + more).rc <= 1);
    return q(out / file);
  };
  const std::string s0 = shard("0/2", "a0.json"), s1 = shard("1/2", "a1.json");
  REQUIRE(cli("conformance merge " + s0 + " " + s1).rc == 1);

  Result r = cli("conformance merge " + s0);
  CHECK(r.rc == 3);
  CHECK(r.out.find("1 of 2 shards have no results file (shard 1 of 2, counted from 0)") != std::string::npos);
  r = cli("conformance merge " + s0 + " " + s1 + " " + s1);
  CHECK(r.rc == 3);
  CHECK(r.out.find("shard 1/2 is given twice") != std::string::npos);
  const std::string t0 = shard("0/3", "b0.json");
  r = cli("conformance merge " + s0 + " " + s1 + " " + t0);
  CHECK(r.rc == 3);
  CHECK(r.out.find("is shard 0/3 but") != std::string::npos);
  const std::string f1 = shard("1/2", "f1.json", " --filter 'shard/a*'");
  r = cli("conformance merge " + s0 + " " + f1);
  CHECK(r.rc == 3);
  CHECK(r.out.find("the files come from different runs") != std::string::npos);
  // A case result copied into another shard's file.
  auto j = nlohmann::json::parse(read(out / "a1.json"));
  auto j0 = nlohmann::json::parse(read(out / "a0.json"));
  REQUIRE(!j0["cases"].empty());
  j["cases"].push_back(j0["cases"][0]);
  write(out / "dup.json", j.dump());
  r = cli("conformance merge " + s0 + " " + q(out / "dup.json"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("is in both") != std::string::npos);
  write(out / "other.json", R"({"cases": []})");
  r = cli("conformance merge " + q(out / "other.json"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("other.json: not a conformance results file") != std::string::npos);
  CHECK(cli("conformance merge").rc == 2);
  // A missing input is bad input (exit 3, named), as for every other command.
  r = cli("conformance merge " + q(out / "missing.json"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("missing.json: no such file") != std::string::npos);
  r = cli("conformance " + q(out / "no_such_corpus"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("no_such_corpus: no such folder") != std::string::npos);
  CHECK(cli("conformance " + q(root) + " --shard 2/2").rc == 2);
  r = cli("conformance " + q(root) + " --results " + q(out / "absent" / "r.json"));
  CHECK(r.rc == 2);
  CHECK(r.out.find("absent\" does not exist") != std::string::npos);
  CHECK(r.out.find("PASS") == std::string::npos);  // refused before any case ran
}

TEST_CASE("conformance shards: a shard that holds no case writes an empty results file and passes") {
  const fs::path root = temp_dir() / "lonely";
  copy_case("add_float", root, "add_float");
  const conf::FoundCase c{root / "add_float", "lonely/add_float", "add_float"};
  const std::size_t home = conf::shard_of(c, 2), other = 1 - home;
  const fs::path out = temp_dir() / "lonely_results";
  fs::create_directories(out);
  const auto file = [&](std::size_t k) { return out / ("s" + std::to_string(k) + ".json"); };
  Result empty = cli("conformance " + q(root) + " --shard " + std::to_string(other) + "/2 --results " + q(file(other)));
  CAPTURE(empty.out);
  CHECK(empty.rc == 0);
  CHECK(empty.out.find("holds none of the 1 cases") != std::string::npos);
  CHECK(nlohmann::json::parse(read(file(other)))["cases"].empty());
  CHECK(cli("conformance " + q(root) + " --shard " + std::to_string(home) + "/2 --results " + q(file(home))).rc == 0);
  Result merged = cli("conformance merge " + q(file(0)) + " " + q(file(1)));
  CHECK(merged.rc == 0);
  CHECK(merged.out == "PASS lonely/add_float\n1 passed, 0 failed\n");
}

TEST_CASE("conformance: case.json conversions may give writer options") {
  const fs::path root = temp_dir() / "conv_options";
  // Arm NN 20.08's Conv (tests/peers/armnn/cases_conv.cc): weights [3, 2, 3, 3] and bias [3],
  // float32: 54 * 4 + 3 * 4 = 228 bytes of initializers.
  const fs::path ext = copy_case("conv2d_nchw_stride2", root, "onnx_external");
  write(ext / "case.json",
        R"({"conversions": [{"to": "onnx", "options": {"onnx.external_data": "true", "onnx.external_data_threshold": "0"}}]})");
  const fs::path inl = copy_case("conv2d_nchw_stride2", root, "onnx_inline");
  write(inl / "case.json", R"({"conversions": [{"to": "onnx", "options": {"onnx.external_data": "false"}}, "json"]})");
  // A bare VkGraph holds no constant data: its writer refuses a graph with constants unless told
  // to drop them (vkgraph.constants=external); nothing can execute what it wrote.
  const fs::path vk = copy_case("conv2d_nchw_stride2", root, "vkgraph_external");
  fs::remove_all(vk / "inputs");
  fs::remove_all(vk / "outputs");
  write(vk / "case.json",
        R"({"checks": ["decode", "convert"], "conversions": [{"to": "vkgraph", "options": {"vkgraph.constants": "external"}}]})");
  const fs::path vk_bare = copy_case("conv2d_nchw_stride2", root, "vkgraph_bare");
  fs::remove_all(vk_bare / "inputs");
  fs::remove_all(vk_bare / "outputs");
  write(vk_bare / "case.json", R"({"checks": ["decode", "convert"], "conversions": ["vkgraph"]})");
  const fs::path foreign = copy_case("conv2d_nchw_stride2", root, "foreign_option");
  write(foreign / "case.json", R"({"conversions": [{"to": "onnx", "options": {"armnn.bindingIdsScheme": "1"}}]})");
  const fs::path typo = copy_case("conv2d_nchw_stride2", root, "typo");
  write(typo / "case.json", R"({"conversions": [{"to": "onnx", "option": {"onnx.external_data": "true"}}]})");

  Result r = cli("conformance " + q(root) + " --json 2>/dev/null");
  CAPTURE(r.out);
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by;
  for (const auto& c : j["cases"]) by[c["name"].get<std::string>().substr(std::string("conv_options/").size())] = c;
  REQUIRE(by.size() == 6);

  // External data: the data file exists beside the model and holds at least the 228 bytes; the
  // model read back from both files computes Arm NN's outputs.
  CHECK(by["onnx_external"]["status"] == "PASS");
  const auto ext_checks = by["onnx_external"]["checks"].get<std::vector<std::string>>();
  CHECK(std::count(ext_checks.begin(), ext_checks.end(), "run:cpu:onnx") == 1);
  const std::string note = by["onnx_external"]["notes"].at(0);
  CHECK(note.rfind("convert:onnx with onnx.external_data=true onnx.external_data_threshold=0 wrote converted.onnx (", 0) == 0);
  const auto data_at = note.find("converted.onnx.data (");
  REQUIRE(data_at != std::string::npos);
  CHECK(std::stoul(note.substr(data_at + std::string("converted.onnx.data (").size())) >= 228u);
  // Inline: one file.
  CHECK(by["onnx_inline"]["status"] == "PASS");
  const std::string inl_note = by["onnx_inline"]["notes"].at(0);
  CHECK(inl_note.find("wrote converted.onnx (") != std::string::npos);
  CHECK(inl_note.find(".data") == std::string::npos);
  CHECK(by["onnx_inline"]["notes"].size() == 1);  // the plain "json" conversion notes nothing

  CHECK(by["vkgraph_external"]["status"] == "PASS");
  const std::string vk_note = by["vkgraph_external"]["notes"].at(0);
  CHECK(vk_note.rfind("convert:vkgraph with vkgraph.constants=external wrote converted.vkgraph (", 0) == 0);
  CHECK(vk_note.find(", ") == std::string::npos);  // one file: the data went nowhere
  CHECK(by["vkgraph_bare"]["status"] == "FAIL");
  CHECK(by["vkgraph_bare"]["reason"].get<std::string>().find("vkgraph.constants=external") != std::string::npos);
  CHECK(by["foreign_option"]["status"] == "FAIL");
  CHECK(by["foreign_option"]["reason"].get<std::string>().find("'armnn.bindingIdsScheme' does not belong to format 'onnx'") !=
        std::string::npos);
  CHECK(by["typo"]["status"] == "FAIL");
  CHECK(by["typo"]["reason"].get<std::string>().find("conversions[0].option: is not a key of a conversion") != std::string::npos);
}

TEST_CASE("conformance: a progress line on stderr when it is a terminal and none otherwise") {
  if (!fs::exists("/usr/bin/script")) {
    skip("util-linux `script` (a terminal for the child) is not installed");
    return;
  }
  const fs::path root = temp_dir() / "progress";
  copy_case("add_float", root, "a");
  copy_case("activation_relu", root, "b");
  // script(1) runs the command on a pseudo-terminal and copies what it shows.
  const std::string cli_path = NNBRIDGE_CLI;
  const Result tty = shell("/usr/bin/script -qfec \"'" + cli_path + "' conformance " + q(root) + " --jobs 1\" /dev/null");
  CAPTURE(tty.out);
  CHECK(tty.out.find("\r\033[K[1/2] ") != std::string::npos);
  CHECK(tty.out.find(" elapsed") != std::string::npos);
  CHECK(tty.out.find("PASS progress/b") != std::string::npos);
  // stderr to a pipe, stdout away: nothing at all on stderr.
  const Result quiet = shell("'" + cli_path + "' conformance " + q(root) + " --jobs 1 2>&1 >/dev/null");
  CHECK(quiet.rc == 0);
  CHECK(quiet.out.empty());

  // validate: one step for loading, then a prepare and a run per backend (3 with cpu alone).
  const fs::path c = root / "a";
  const std::string validate = "'" + cli_path + "' validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") +
                               " --expected " + q(c / "outputs") + " --backends cpu";
  const Result vtty = shell("/usr/bin/script -qfec \"" + validate + "\" /dev/null");
  CAPTURE(vtty.out);
  CHECK(vtty.out.find("\r\033[K[1/3] ") != std::string::npos);
  CHECK(vtty.out.find("[3/3] ") != std::string::npos);
  CHECK(vtty.out.find("validate: PASS") != std::string::npos);
  const Result vquiet = shell(validate + " 2>&1 >/dev/null");
  CHECK(vquiet.rc == 0);
  CHECK(vquiet.out.empty());
}
