// ExecuTorch .pte / .ptd: files written by tests/golden/scripts/gen_pte.py (flatc + ExecuTorch's
// layout rules, an independent writer) read, rewrite byte-identically, and damage is refused
// with the place named. flatc decodes what nnbridge writes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "support/flatc.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

fs::path golden(const std::string& c) { return test::source_dir() / "tests/golden/pte" / c; }
fs::path program_schema() { return test::source_dir() / "schemas/executorch/program.fbs"; }

std::vector<uint8_t> bytes_of(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}
void put(const fs::path& p, const std::vector<uint8_t>& b) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
uint64_t u64(const std::vector<uint8_t>& b, std::size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}
// One scratch folder per process, removed at exit (tests/support/paths.h temp_dir()).
fs::path scratch(const std::string& name) {
  static const fs::path d = nnbridge::test::temp_dir();
  return d / name;
}

// flatc's view of a .pte's Program (the first program_size bytes).
nlohmann::json program_json(const fs::path& pte) {
  auto b = bytes_of(pte);
  if (b.size() >= 40 && std::memcmp(b.data() + 8, "eh00", 4) == 0) b.resize(u64(b, 16));
  fs::path head = scratch(pte.stem().string() + "_program.pte");
  put(head, b);
  std::string j = test::flatc_json(head, program_schema());
  REQUIRE(!j.empty());
  return nlohmann::json::parse(j);
}

Error load_error(const fs::path& p, const LoadOptions& o = {}) {
  try {
    load(p, o);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error");
  return Error(ErrorCode::Invalid, "");
}

}  // namespace

TEST_CASE("pte: every golden program rewrites byte-identically") {
  for (const auto& e : fs::directory_iterator(test::source_dir() / "tests/golden/pte")) {
    CAPTURE(e.path().filename().string());
    LoadOptions o;
    if (fs::exists(e.path() / "weights.ptd")) o.options["pte.named_data"] = (e.path() / "weights.ptd").string();
    Graph g = load(e.path() / "model.pte", o);
    CHECK(g.source_format == "pte");
    fs::path out = scratch(e.path().filename().string() + ".pte");
    save(g, out);
    CHECK(bytes_of(out) == bytes_of(e.path() / "model.pte"));
  }
}

TEST_CASE("pte: the delegate segment is the payload, and it rewrites byte-identically as a vkdelegate") {
  fs::path pte = golden("add_named") / "model.pte";
  auto file = bytes_of(pte);
  nlohmann::json p = program_json(pte);
  const auto& del = p["execution_plan"][0]["delegates"][0];
  CHECK(del["id"] == "VulkanBackend");
  const std::size_t k = del["processed"]["index"];
  const uint64_t base = u64(file, 24);
  const uint64_t off = p["segments"][k]["offset"], size = p["segments"][k]["size"];
  std::vector<uint8_t> payload(file.begin() + static_cast<std::ptrdiff_t>(base + off), file.begin() + static_cast<std::ptrdiff_t>(base + off + size));
  REQUIRE(std::memcmp(payload.data() + 4, "VH00", 4) == 0);
  Graph g = load(pte);
  // The named-data constant came from the .pte's named data.
  std::size_t with_data = 0;
  for (const Value& v : g.values) with_data += v.constant ? 1 : 0;
  CHECK(with_data == 1);
  CHECK(g.metadata.at("pte.delegates").get<std::vector<std::string>>().at(0).find("forward: VulkanBackend") == 0);
  fs::path out = scratch("add_named.vkdelegate");
  save(g, out);
  CHECK(bytes_of(out) == payload);
}

TEST_CASE("pte: named data from a .ptd beside the .pte, named by option, or missing") {
  Graph g = load(golden("conv_clamp_ptd") / "model.pte");
  std::size_t with_data = 0;  // weight and bias, both from model.ptd
  for (const Value& v : g.values) with_data += v.constant ? 1 : 0;
  CHECK(with_data == 2);
  // Without the .ptd: it still reads (info shows it), its two constants without data marked by
  // key; check, and so every backend's prepare, names the key, where it looked and the options.
  fs::path lone = scratch("lone.pte");
  fs::copy_file(golden("conv_clamp_ptd") / "model.pte", lone, fs::copy_options::overwrite_existing);
  Graph alone = load(lone);
  std::size_t marked = 0;
  for (const Value& v : alone.values) marked += !v.constant && v.attrs.count(kExternalDataKey);
  CHECK(marked == 2);
  cpu_ref::register_backend();
  try {
    find_backend("cpu")->prepare(alone, {});
    FAIL("prepared");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Invalid);
    const std::string m = e.what();
    CHECK(m.find("named data \"") != std::string::npos);
    CHECK(m.find("lone.pte's named data") != std::string::npos);
    CHECK(m.find("--named-data FILE.ptd") != std::string::npos);
    CHECK(m.find("-I pte.named_data=FILE.ptd") != std::string::npos);
  }
  // The option names it.
  LoadOptions o;
  o.options["pte.named_data"] = (golden("conv_clamp_ptd") / "model.ptd").string();
  CHECK(load(lone, o).values.size() == g.values.size());
  o.options["pte.named_data"] = (golden("conv_clamp_ptd") / "absent.ptd").string();
  CHECK(load_error(lone, o).id() == ErrorId::IoOpen);  // docs/errors.md: does not exist
}

TEST_CASE("pte: damaged files are refused naming the place") {
  auto good = bytes_of(golden("add_named") / "model.pte");
  SUBCASE("another program schema") {
    auto b = good;
    b[6] = '1';
    b[7] = '1';
    put(scratch("et11.pte"), b);
    Error e = load_error(scratch("et11.pte"), LoadOptions{"pte", {}, {}});
    CHECK(e.id() == ErrorId::Version);  // a schema version nnbridge does not read
    CHECK(e.where() == "file_identifier");
    CHECK(e.message().find("ET11") != std::string::npos);
  }
  SUBCASE("program_size past the end") {
    auto b = good;
    for (int i = 0; i < 8; ++i) b[16 + static_cast<std::size_t>(i)] = 0xff;
    put(scratch("size.pte"), b);
    Error e = load_error(scratch("size.pte"));
    CHECK(e.id() == ErrorId::Truncated);  // a size past the end of the file
    CHECK(e.where() == "extended_header.program_size");
  }
  SUBCASE("a truncated segment") {
    auto b = good;
    b.resize(b.size() - 100);
    put(scratch("cut.pte"), b);
    Error e = load_error(scratch("cut.pte"));
    CHECK(e.id() == ErrorId::Truncated);
    CHECK(e.where().find("segments[") == 0);
  }
}

TEST_CASE("pte: a method that is not one Vulkan delegate reads as native nodes, and is not written") {
  // add.out(x, c, alpha=1, out): x a planned input, c a constant of constant_buffer[1]
  // (1.0f, 2.0f little-endian, by hand), the output last; then a FreeCall.
  const std::string json = R"({"version": 0, "execution_plan": [{"name": "forward",
    "values": [{"val_type": "Tensor", "val": {"scalar_type": "FLOAT", "sizes": [2], "dim_order": [0]}},
               {"val_type": "Tensor", "val": {"scalar_type": "FLOAT", "sizes": [2], "dim_order": [0]}},
               {"val_type": "Int", "val": {"int_val": 1}},
               {"val_type": "Tensor", "val": {"scalar_type": "FLOAT", "sizes": [2], "dim_order": [0], "data_buffer_idx": 1}}],
    "inputs": [0], "outputs": [1],
    "chains": [{"inputs": [0], "outputs": [1], "instructions": [
      {"instr_args_type": "KernelCall", "instr_args": {"op_index": 0, "args": [0, 3, 2, 1]}},
      {"instr_args_type": "FreeCall", "instr_args": {"value_index": 0}}]}],
    "operators": [{"name": "aten::add", "overload": "out"}]}],
    "constant_buffer": [{"storage": []}, {"storage": [0, 0, 128, 63, 0, 0, 0, 64]}]})";
  fs::path bin = test::flatc_binary(json, "kernel_call", program_schema());
  REQUIRE(!bin.empty());
  Graph g = load(bin);
  REQUIRE(g.nodes.size() == 1);
  const Node& n = g.nodes[0];
  CHECK(n.op == "et.aten::add.out");
  REQUIRE(n.inputs.size() == 2);
  CHECK(g.values[n.inputs[0]].name == "input_0");
  REQUIRE(g.values[n.inputs[1]].constant.has_value());
  const std::vector<uint8_t> want = {0, 0, 128, 63, 0, 0, 0, 64};
  auto c = g.values[n.inputs[1]].constant->bytes();
  CHECK(std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(c.data()), reinterpret_cast<const uint8_t*>(c.data()) + c.size()) == want);
  REQUIRE(n.outputs.size() == 1);
  CHECK(g.values[n.outputs[0]].name == "output_0");
  CHECK(n.attrs.at("et.arg.2") == Attr(int64_t{1}));
  CHECK(g.metadata.at("pte.operators").get<std::vector<std::string>>() == std::vector<std::string>{"forward: aten::add.out"});
  // Writing it as a .pte needs a Vulkan form for every node: refused, nothing written.
  fs::path out = scratch("native_out.pte");
  fs::remove(out);
  try {
    save(g, out);
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);  // an operator VkGraph cannot express
    CHECK(e.message().find("et.aten::add.out") != std::string::npos);
  }
  CHECK(!fs::exists(out));
}

TEST_CASE("pte: a graph from another format becomes a one-method Program around its payload") {
  // gen_vk.py wrote this payload; nnbridge's vkdelegate rewrite of it is byte-identical, so the
  // new Program's delegate segment must hold exactly these bytes.
  fs::path src = test::source_dir() / "tests/golden/vkdelegate/add_const/model.vkdelegate";
  Graph g = load(src);
  fs::path out = scratch("from_vkdelegate.pte");
  save(g, out);
  nlohmann::json p = program_json(out);
  const auto& plan = p["execution_plan"][0];
  CHECK(plan["name"] == "forward");
  CHECK(plan["delegates"][0]["id"] == "VulkanBackend");
  CHECK(plan["delegates"][0]["processed"]["location"] == "SEGMENT");
  CHECK(plan["chains"][0]["instructions"][0]["instr_args_type"] == "DelegateCall");
  CHECK(plan["inputs"].size() == g.inputs.size());
  CHECK(plan["outputs"].size() == g.outputs.size());
  auto file = bytes_of(out);
  const uint64_t base = u64(file, 24);
  CHECK(base % 128 == 0);
  const uint64_t off = p["segments"][1]["offset"], size = p["segments"][1]["size"];
  CHECK(off % 128 == 0);
  std::vector<uint8_t> seg(file.begin() + static_cast<std::ptrdiff_t>(base + off), file.begin() + static_cast<std::ptrdiff_t>(base + off + size));
  CHECK(seg == bytes_of(src));
  // And it reads back as the same graph.
  Graph back = load(out);
  CHECK(back.nodes.size() == g.nodes.size());
  CHECK(back.values.size() == g.values.size());
}

TEST_CASE("pte: a payload that changes size moves the segments after it, by ExecuTorch's alignment") {
  Graph g = load(golden("add_named") / "model.pte");
  g.metadata["vk.version"] = Attr(std::string(300, 'v'));  // the VkGraph grows by about 300 bytes
  fs::path out = scratch("grown.pte");
  save(g, out);
  nlohmann::json p = program_json(out);
  auto file = bytes_of(out);
  const uint64_t base = u64(file, 24);
  CHECK(base % 128 == 0);
  CHECK(u64(file, 16) <= base);  // program_size
  uint64_t end = 0;
  for (const auto& s : p["segments"]) {
    const uint64_t off = s.value("offset", uint64_t{0}), size = s.value("size", uint64_t{0});
    CHECK(off % 128 == 0);
    CHECK(off >= end);
    end = off + size;
  }
  CHECK(u64(file, 32) == end);  // segment_data_size
  CHECK(file.size() == base + end);
  Graph back = load(out);
  CHECK(back.metadata.at("vk.version").get<std::string>() == std::string(300, 'v'));
  for (std::size_t v = 0; v < g.values.size(); ++v) {
    CAPTURE(v);
    CHECK(back.values[v].constant.has_value() == g.values[v].constant.has_value());
    if (g.values[v].constant) CHECK(*back.values[v].constant == *g.values[v].constant);
  }
}

TEST_CASE("ptd: entries read as constants named by key, and write back byte-identically") {
  fs::path ptd = golden("conv_clamp_ptd") / "model.ptd";
  Graph g = load(ptd);
  CHECK(g.source_format == "ptd");
  CHECK(g.nodes.empty());
  REQUIRE(g.values.size() == 2);  // weight [4,3,3,3] float32 (432 bytes) and bias [4] (16 bytes)
  CHECK(g.values[0].constant->size() == 432);
  CHECK(g.values[1].constant->size() == 16);
  CHECK(g.values[0].name.size() == 64);  // a SHA-256 hex digest
  fs::path out = scratch("rewritten.ptd");
  save(g, out);
  CHECK(bytes_of(out) == bytes_of(ptd));
  // A graph with nodes has no .ptd form: refused, not written without them.
  Graph model = load(golden("conv_clamp_ptd") / "model.pte");
  fs::path lost = scratch("model_as.ptd");
  try {
    save(model, lost);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);  // nodes a .ptd cannot hold
    CHECK(e.file() == lost.string());
  }
  CHECK(!fs::exists(lost));
}

TEST_CASE("pte: named data from a .ptd is written to the .ptd beside the new .pte, never over another file") {
  Graph g = load(golden("conv_clamp_ptd") / "model.pte");
  fs::path dir = scratch("sidecar");
  fs::remove_all(dir);
  fs::create_directories(dir);
  save(g, dir / "out.pte");
  // The same named data, laid out by the same rules: the bytes gen_pte.py wrote.
  CHECK(bytes_of(dir / "out.ptd") == bytes_of(golden("conv_clamp_ptd") / "model.ptd"));
  CHECK(bytes_of(dir / "out.pte") == bytes_of(golden("conv_clamp_ptd") / "model.pte"));
  CHECK(load(dir / "out.pte").values.size() == g.values.size());
  // The model's own .ptd (the same keys) is replaced when its data was edited: the bias zeroed.
  Graph edited = load(dir / "out.pte");
  for (Value& v : edited.values)
    if (v.constant && v.constant->size() == 16) v.constant = Buffer::owned(std::vector<std::byte>(16));
  save(edited, dir / "out.pte");
  Graph back = load(dir / "out.pte");
  std::size_t zeroed = 0;
  for (const Value& v : back.values)
    if (v.constant && v.constant->size() == 16) zeroed += *v.constant == Buffer::owned(std::vector<std::byte>(16));
  CHECK(zeroed == 1);
  // A .ptd that is not this graph's is not replaced, and nothing is written.
  put(dir / "other.ptd", {1, 2, 3});
  try {
    save(g, dir / "other.pte");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoWrite);  // a file not written (replaced)
    CHECK(e.message().find("other.ptd") != std::string::npos);
  }
  CHECK(!fs::exists(dir / "other.pte"));
  CHECK(bytes_of(dir / "other.ptd") == std::vector<uint8_t>{1, 2, 3});
  SaveOptions o;
  o.options["pte.overwrite_ptd"] = "true";
  save(g, dir / "other.pte", o);
  CHECK(bytes_of(dir / "other.ptd") == bytes_of(golden("conv_clamp_ptd") / "model.ptd"));
}

TEST_CASE("pte -> vkdelegate: named data stays by key, or is embedded on request and then runs alone") {
  Graph g = load(golden("add_named") / "model.pte");
  fs::path keep = scratch("keep.vkdelegate"), embed = scratch("embed.vkdelegate");
  save(g, keep);
  SaveOptions o;
  o.options["vkdelegate.embed_named_data"] = "true";
  save(g, embed, o);
  Graph kept = load(keep), alone = load(embed);
  std::size_t missing = 0;
  for (const Value& v : kept.values) missing += v.attrs.count(kExternalDataKey);
  CHECK(missing == 1);
  for (const Value& v : alone.values) CHECK(v.attrs.count(kExternalDataKey) == 0);
  // The self-contained payload computes PyTorch's output (outputs/output_0.npy).
  cpu_ref::register_backend();
  TensorMap in{{"input_0", read_npy(golden("add_named") / "inputs/input_0.npy")}};
  const TensorMap out = find_backend("cpu")->prepare(alone, {})->run(in);
  auto got = out.at("output_0").values<float>();
  HostTensor want = read_npy(golden("add_named") / "outputs/output_0.npy");
  auto w = want.values<float>();
  REQUIRE(got.size() == w.size());
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(std::abs(got[i] - w[i]) <= 1e-5f + 1e-4f * std::abs(w[i]));
  SaveOptions bad;
  bad.options["vkdelegate.embed_named_data"] = "yes";
  try {
    save(g, scratch("bad.vkdelegate"), bad);
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::OptionValue);
  }
}

TEST_CASE("pte: an inline delegate whose payload changes is packed again, 16-aligned as the schema forces") {
  Graph g = load(golden("inline_add") / "model.pte");
  g.metadata["vk.version"] = Attr(std::string(100, 'v'));
  fs::path out = scratch("inline_grown.pte");
  save(g, out);
  // flatc decodes it; the inline data is where the Program says, 16-aligned (force_align: 16),
  // and is a VH00 payload.
  nlohmann::json p = program_json(out);
  CHECK(p["execution_plan"][0]["delegates"][0]["processed"]["location"] == "INLINE");
  auto file = bytes_of(out);
  const std::string magic = "VH00";
  auto at = std::search(file.begin(), file.end(), magic.begin(), magic.end());
  REQUIRE(at != file.end());
  CHECK((at - file.begin() - 4) % 16 == 0);
  Graph back = load(out);
  CHECK(back.metadata.at("vk.version").get<std::string>() == std::string(100, 'v'));
  for (std::size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].constant) CHECK(*back.values[v].constant == *g.values[v].constant);
}
