// External data (onnx/docs/ExternalData.md): make_models.py saves a Gemm model with
// onnx.save_model(save_as_external_data=True, location="weights.bin"); nnbridge reads it (the
// output equals NumPy's x @ w.T + b), writes it back with the same location and byte-identical
// data, writes any model's initializers out with -O onnx.external_data=true (python3-onnx loads
// the same arrays), and refuses locations outside the model's folder and ranges outside the file.
#include <doctest/doctest.h>

#include <fstream>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "onnx/onnx_pb.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A copy of the external model in a fresh folder, with `edit` applied to w's external_data.
fs::path variant(const std::function<void(::onnx::TensorProto&)>& edit, const fs::path& dir) {
  fs::create_directories(dir);
  fs::copy_file(ox::models() / "external/weights.bin", dir / "weights.bin");
  ::onnx::ModelProto m;
  REQUIRE(m.ParseFromString(read(ox::models() / "external/model.onnx")));
  edit(*m.mutable_graph()->mutable_initializer(0));
  std::ofstream(dir / "model.onnx", std::ios::binary) << m.SerializeAsString();
  return dir / "model.onnx";
}

void set(::onnx::TensorProto& t, const std::string& key, const std::string& value) {
  for (auto& e : *t.mutable_external_data())
    if (e.key() == key) return e.set_value(value);
  auto* e = t.add_external_data();
  e->set_key(key);
  e->set_value(value);
}

}  // namespace

TEST_CASE("onnx external data: read, run, and written back in place of the same file") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path src = ox::models() / "external";
  Graph g = load(src / "model.onnx");
  auto w = g.find_value("w");
  REQUIRE(w);
  CHECK(g.values[*w].constant->is_view());  // mapped from weights.bin, not copied
  cpu_ref::register_backend();
  auto plan = find_backend("cpu")->prepare(g, {});
  TensorMap in;
  in.emplace("x", read_npy(src / "x.npy"));
  TensorMap out = plan->run(in);
  TensorMap expected;
  expected.emplace("y", read_npy(src / "y.npy"));
  for (const auto& r : compare_outputs(out, expected, Tolerance{}, "cpu")) CHECK_MESSAGE(r.passed, r.message);

  const fs::path dir = test::temp_dir();
  save(g, dir / "model.onnx");
  CHECK(ox::same_model(src / "model.onnx", dir / "model.onnx") == "");
  CHECK(read(dir / "weights.bin") == read(src / "weights.bin"));
  // Writing over itself replaces the data file it names (it is that model's own).
  save(load(dir / "model.onnx"), dir / "model.onnx");
  CHECK(read(dir / "weights.bin") == read(src / "weights.bin"));
}

TEST_CASE("onnx external data: an opset-13 model keeps its references through the version converter") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path src = ox::models() / "external13";
  Graph g = load(src / "model.onnx");
  cpu_ref::register_backend();
  TensorMap in;
  in.emplace("x", read_npy(src / "x.npy"));
  TensorMap expected;
  expected.emplace("y", read_npy(src / "y.npy"));
  for (const auto& r : compare_outputs(find_backend("cpu")->prepare(g, {})->run(in), expected, Tolerance{}, "cpu"))
    CHECK_MESSAGE(r.passed, r.message);
  // Written beside its source (a copy of the folder): the data file it shares holds the same
  // bytes, so it is left as it is; the new model is opset 17 and passes the full check.
  const fs::path dir = test::temp_dir();
  fs::copy(src, dir, fs::copy_options::recursive);
  const std::string before = read(dir / "w.bin");
  save(load(dir / "model.onnx"), dir / "converted.onnx");
  CHECK(read(dir / "w.bin") == before);
  CHECK(ox::full_check(dir / "converted.onnx") == "");
}

TEST_CASE("onnx external data: written on request, inline on request") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path src = ox::models() / "external";
  Graph g = load(src / "model.onnx");
  const fs::path dir = test::temp_dir();
  SaveOptions inline_o;
  inline_o.options["onnx.external_data"] = "false";
  save(g, dir / "inline.onnx", inline_o);
  CHECK(!fs::exists(dir / "weights.bin"));
  Graph back = load(dir / "inline.onnx");
  SaveOptions ext;
  ext.options = {{"onnx.external_data", "true"}, {"onnx.external_data_threshold", "300"}};
  save(back, dir / "ext.onnx", ext);
  REQUIRE(fs::exists(dir / "ext.onnx.data"));
  // b (256 bytes) stays inline, w (8 KiB) goes out; python3-onnx loads the same arrays.
  const std::string cmd = std::string(ox::kPython) + " -c '\n"
                          "import onnx, sys\nfrom onnx import numpy_helper as h\n"
                          "a = {t.name: h.to_array(t) for t in onnx.load(sys.argv[1]).graph.initializer}\n"
                          "m = onnx.load(sys.argv[2], load_external_data=False)\n"
                          "ext = {t.name for t in m.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL}\n"
                          "assert ext == {\"w\"}, ext\n"
                          "b = {t.name: h.to_array(t) for t in onnx.load(sys.argv[2]).graph.initializer}\n"
                          "assert all((a[k] == b[k]).all() for k in a) and a.keys() == b.keys()\n"
                          "onnx.checker.check_model(sys.argv[2], full_check=True)' '" +
                          (src / "model.onnx").string() + "' '" + (dir / "ext.onnx").string() + "'";
  std::string out;
  CHECK_MESSAGE(ox::shell(cmd, &out) == 0, out);
}

TEST_CASE("onnx external data: a data file of something else is not overwritten") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g = load(ox::models() / "external/model.onnx");
  const fs::path dir = test::temp_dir();
  std::ofstream(dir / "weights.bin") << "another tool's weights";
  try {
    save(g, dir / "model.onnx");
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoWrite);
    CHECK(e.file() == (dir / "weights.bin").string());
  }
  CHECK(read(dir / "weights.bin") == "another tool's weights");
  CHECK(!fs::exists(dir / "model.onnx"));
  SaveOptions o;
  o.options["onnx.overwrite_external_data"] = "true";
  save(g, dir / "model.onnx", o);
  CHECK(read(dir / "weights.bin") == read(ox::models() / "external/weights.bin"));
}

TEST_CASE("onnx external data: locations outside the folder and ranges outside the file are refused") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path root = test::temp_dir();
  std::ofstream(root / "outside.bin") << std::string(8192, 'x');
  struct Bad {
    const char* name;
    std::function<void(::onnx::TensorProto&)> edit;
    ErrorId id;                 // docs/errors.md
    const char* names;          // a name from the model the message gives, or nullptr
  };
  const std::vector<Bad> bad = {
      // A location outside the folder: a value outside the field's domain.
      {"absolute", [&](auto& t) { set(t, "location", (root / "outside.bin").string()); }, ErrorId::AttributeValue, nullptr},
      {"dotdot", [](auto& t) { set(t, "location", "../outside.bin"); }, ErrorId::AttributeValue, "../outside.bin"},
      {"missing", [](auto& t) { set(t, "location", "nothing.bin"); }, ErrorId::IoOpen, "nothing.bin"},
      // The weights file is 8192 bytes: a range past its end, or 16 bytes for an 8192-byte tensor.
      {"offset_past_end", [](auto& t) { set(t, "offset", "100000"); }, ErrorId::Truncated, nullptr},
      {"length_past_end", [](auto& t) { set(t, "offset", "8000"); }, ErrorId::Truncated, nullptr},
      {"length_mismatch", [](auto& t) { set(t, "length", "16"); }, ErrorId::Truncated, nullptr},
      {"offset_not_a_number", [](auto& t) { set(t, "offset", "-1"); }, ErrorId::BadEncoding, "-1"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.name);
    const fs::path f = variant(b.edit, root / b.name);
    try {
      (void)load(f);
      FAIL("loaded");
    } catch (const Error& e) {
      CAPTURE(e.what());
      CHECK(e.id() == b.id);
      if (b.names) CHECK(e.message().find(b.names) != std::string::npos);
      CHECK(e.file() == f.string());
      CHECK(e.where().rfind("graph.initializer[0]", 0) == 0);
    }
  }
  // A link inside the folder that leads out of it.
  const fs::path f = variant([](auto& t) { set(t, "location", "link.bin"); }, root / "link");
  fs::create_symlink(root / "outside.bin", root / "link" / "link.bin");
  try {
    (void)load(f);
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::AttributeValue);
    CHECK(e.message().find("link.bin") != std::string::npos);
  }
  // From memory there is no folder to read from: a part of ONNX nnbridge does not implement there.
  const std::string bytes = read(ox::models() / "external/model.onnx");
  try {
    (void)load(std::as_bytes(std::span(bytes.data(), bytes.size())), "onnx");
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Feature);
    CHECK(e.where().rfind("graph.initializer[0]", 0) == 0);
  }
}
