// Bad inputs and outputs: exit 3 with "nnbridge: error:" and the file's name; outputs are
// atomic (a failed convert leaves no OUT, and an existing OUT untouched).
#include <doctest/doctest.h>

#include <unistd.h>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Exit 3 with "nnbridge: error: [<id>] " naming `named`; `id` is "nnbridge.io.101" or the like,
// empty when any identifier will do.
void expect_bad_input(const RunResult& r, const fs::path& named, const std::string& id = {}) {
  CHECK(r.code == 3);
  CHECK(r.signal == 0);
  CHECK(contains(r.err, "nnbridge: error: [" + id));
  CHECK(contains(r.err, named.string()));
  CHECK_FALSE(contains(r.err, "internal error"));
}

}  // namespace

TEST_CASE("cli errors: a missing input exits 3 naming it, for every subcommand") {
  const fs::path dir = temp_dir();
  const fs::path missing = dir / "missing.armnn";
  for (const char* sub : {"info", "dump", "check"}) {
    CAPTURE(sub);
    expect_bad_input(run_cli({sub, missing.string()}), missing, "nnbridge.io.101] ");
  }
  expect_bad_input(run_cli({"info", "--json", missing.string()}), missing, "nnbridge.io.101] ");
  expect_bad_input(run_cli({"convert", missing.string(), (dir / "out.json").string()}), missing, "nnbridge.io.101] ");
  CHECK_FALSE(fs::exists(dir / "out.json"));
}

TEST_CASE("cli errors: folders, empty files and unknown content exit 3 naming the file") {
  const fs::path dir = temp_dir();
  expect_bad_input(run_cli({"info", dir.string()}), dir);

  write_file(dir / "empty.armnn", "");
  expect_bad_input(run_cli({"info", (dir / "empty.armnn").string()}), dir / "empty.armnn");
  write_file(dir / "empty.json", "");
  expect_bad_input(run_cli({"info", (dir / "empty.json").string()}), dir / "empty.json");
  write_file(dir / "notes.txt", "just some text\n");
  expect_bad_input(run_cli({"info", (dir / "notes.txt").string()}), dir / "notes.txt");
  // JSON, but not nnbridge's: sniffing says no, the extension says json, the reader refuses.
  write_file(dir / "other.json", R"({"name": "not a graph"})");
  expect_bad_input(run_cli({"convert", (dir / "other.json").string(), (dir / "o.armnn").string()}),
                   dir / "other.json");
  CHECK_FALSE(fs::exists(dir / "o.armnn"));
}

TEST_CASE("cli errors: an unreadable input exits 3 naming it") {
  if (::geteuid() == 0) {
    nnbridge::test::skip("running as root, file permissions do not stop reads");
    return;
  }
  const fs::path dir = temp_dir();
  write_file(dir / "locked.armnn", "xxxx");
  fs::permissions(dir / "locked.armnn", fs::perms::none);
  expect_bad_input(run_cli({"info", (dir / "locked.armnn").string()}), dir / "locked.armnn");
}

TEST_CASE("cli errors: a failed convert leaves no output and an existing output untouched") {
  const fs::path dir = temp_dir();
  write_file(dir / "bad.armnn", std::string(64, '\x01'));
  const fs::path out = dir / "out.json";
  expect_bad_input(run_cli({"convert", (dir / "bad.armnn").string(), out.string()}), dir / "bad.armnn");
  CHECK_FALSE(fs::exists(out));

  write_file(out, "precious");
  expect_bad_input(run_cli({"convert", (dir / "bad.armnn").string(), out.string()}), dir / "bad.armnn");
  CHECK(read_file(out) == "precious");

  // Converting a file onto itself and failing keeps the input byte for byte.
  const std::string before = read_file(dir / "bad.armnn");
  run_cli({"convert", (dir / "bad.armnn").string(), (dir / "bad.armnn").string()});
  CHECK(read_file(dir / "bad.armnn") == before);

  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 2);  // bad.armnn and out.json: no temporary files left behind
}

TEST_CASE("cli errors: an output that cannot be written exits 3 naming it") {
  auto models = armnn_models();
  if (models.empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return;
  }
  const fs::path out = temp_dir() / "no-such-dir" / "out.json";
  expect_bad_input(run_cli({"convert", models[0].string(), out.string()}), out);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("cli errors: a writer option of another format exits 3 and writes nothing") {
  auto models = armnn_models();
  if (models.empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return;
  }
  const fs::path out = temp_dir() / "out.json";
  RunResult r = run_cli({"convert", models[0].string(), out.string(), "-O", "armnn.bindingIdsScheme=1"});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "armnn.bindingIdsScheme"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("cli errors: an output whose extension names no format is a usage error (exit 2) and writes nothing") {
  const fs::path dir = temp_dir();
  const fs::path model = source_dir() / "examples" / "models" / "add_softmax.armnn";
  for (const char* name : {"out.tflite", "out"}) {
    CAPTURE(name);
    const fs::path out = dir / name;
    RunResult r = run_cli({"convert", model.string(), out.string()});
    CHECK(r.code == 2);
    CHECK(r.signal == 0);
    CHECK(contains(r.err, "cannot tell the output format"));
    CHECK(contains(r.err, "--to"));
    CHECK_FALSE(fs::exists(out));
  }
  // Naming the format makes any output name fine.
  RunResult ok = run_cli({"convert", model.string(), (dir / "out.tflite").string(), "--to", "armnn"});
  CHECK(ok.code == 0);
  CHECK(fs::exists(dir / "out.tflite"));
}

TEST_CASE("cli errors: run writes all outputs or none (the second output cannot be written)") {
  // Oracle: the README's promise (no partial output) on a hand-written IR JSON graph with two
  // Relu outputs. The second output's name is 245 characters: "<name>.npy" fits a file name
  // (255 bytes) but its temporary ".<name>.npy.tmp-<pid>-XXXXXX" does not, so only its write
  // fails. Outputs are sorted by name, so "a" is written first.
  const fs::path dir = temp_dir();
  const std::string long_name(245, 'z');
  const std::string type = R"({"dtype": "float32", "shape": [2]})";
  write_file(dir / "m.json", R"({"format": "nnbridge-ir", "version": 1, "values": [{"name": "x", "type": )" + type +
                                 R"(}, {"name": "a", "type": )" + type + R"(}, {"name": ")" + long_name + R"(", "type": )" +
                                 type + R"(}], "nodes": [{"op": "Relu", "inputs": [0], "outputs": [1]}, {"op": "Relu",
                                 "inputs": [0], "outputs": [2]}], "inputs": [0], "outputs": [1, 2]})");
  // x.npy by the NumPy format rule: magic, version 1.0, header length, header padded to 128 bytes in all.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  header.resize(128 - 10 - 1, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) + std::string(1, '\0') + header;
  const float values[2] = {-1.0f, 2.0f};
  npy.append(reinterpret_cast<const char*>(values), sizeof values);
  fs::create_directories(dir / "in");
  write_file(dir / "in" / "x.npy", npy);
  const RunResult r = run_cli({"run", (dir / "m.json").string(), "--inputs", (dir / "in").string(), "--outputs", (dir / "out").string()});
  CHECK(r.code == 3);
  INFO(r.err);
  CHECK(contains(r.err, long_name + ".npy"));
  CHECK_FALSE(fs::exists(dir / "out" / "a.npy"));
  // No temporary either: the --outputs folder run created is removed again, being empty.
  CHECK_FALSE(fs::exists(dir / "out"));
}

TEST_CASE("cli errors: an --outputs folder that cannot be created exits 3 naming it and not as a raw filesystem error") {
  // A folder under a regular file cannot exist (ENOTDIR on Linux), whoever runs the test.
  const fs::path dir = temp_dir();
  const std::string type = R"({"dtype": "float32", "shape": [1]})";
  write_file(dir / "m.json", R"({"format": "nnbridge-ir", "version": 1, "values": [{"name": "x", "type": )" + type +
                                 R"(}, {"name": "y", "type": )" + type +
                                 R"(}], "nodes": [{"op": "Relu", "inputs": [0], "outputs": [1]}], "inputs": [0], "outputs": [1]})");
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
  header.resize(128 - 10 - 1, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) + std::string(1, '\0') + header;
  const float value = 1.0f;
  npy.append(reinterpret_cast<const char*>(&value), sizeof value);
  fs::create_directories(dir / "in");
  write_file(dir / "in" / "x.npy", npy);
  write_file(dir / "plain", "a file");
  const fs::path out = dir / "plain" / "out";
  const RunResult r = run_cli({"run", (dir / "m.json").string(), "--inputs", (dir / "in").string(), "--outputs", out.string()});
  INFO(r.err);
  expect_bad_input(r, out, "nnbridge.io.104] ");  // the folder the outputs go in is a file
  CHECK_FALSE(contains(r.err, "filesystem error"));
}
