// load(), save(), detect_format() on the test-only "toy" format: how the format is chosen,
// that every error names the file, and that saving is atomic.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "toy_format.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

std::string constant_text(const Graph& g, std::size_t i = 0) {
  REQUIRE(g.values.size() > i);
  REQUIRE(g.values[i].constant.has_value());
  const Buffer& b = *g.values[i].constant;
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

/// Runs `f`, which must throw nnbridge::Error, and returns the error.
template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no nnbridge::Error thrown");
  return Error(ErrorCode::Io, "unreachable");
}

struct ToyRegistered {
  ToyRegistered() { register_format(test::toy_format()); }
};

}  // namespace

TEST_CASE("io load: the content decides, whatever the extension") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "a.json", "TOY1alpha\nxyz");  // toy bytes under a json name
  Graph g = load(dir / "a.json");
  CHECK(g.source_format == "toy");
  CHECK(g.values.at(0).name == "alpha");
  CHECK(constant_text(g) == "xyz");
  CHECK(g.values[0].constant->is_view());  // a view into the mapped file, not a copy
  CHECK(detect_format(dir / "a.json") == "toy");
}

TEST_CASE("io load: the extension decides when no content matches, the reader's error names the file") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  const fs::path p = dir / "b.toy";
  write_text(p, "not toy bytes");
  CHECK(detect_format(p) == "toy");
  Error e = error_of([&] { load(p); });
  CHECK(e.code() == ErrorCode::Malformed);
  CHECK(e.file() == p.string());
  CHECK(e.where() == "header.magic");
  CHECK(std::string(e.what()).find(p.string()) != std::string::npos);
}

TEST_CASE("io load: options.format overrides sniffing, an unknown name is Unsupported") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "c.toy", "TOY1c\n");
  LoadOptions as_json;
  as_json.format = "json";
  Error e = error_of([&] { load(dir / "c.toy", as_json); });  // toy bytes are not JSON
  CHECK(e.file() == (dir / "c.toy").string());
  LoadOptions unknown;
  unknown.format = "nosuch";
  CHECK(error_of([&] { load(dir / "c.toy", unknown); }).id() == ErrorId::UnknownFormat);
}

TEST_CASE("io load: a missing file is Io, unknown content with an unknown extension is Unsupported") {
  fs::path dir = test::temp_dir();
  Error missing = error_of([&] { load(dir / "missing.armnn"); });
  CHECK(missing.id() == ErrorId::IoOpen);
  CHECK(missing.file() == (dir / "missing.armnn").string());

  write_text(dir / "notes.txt", "hello");
  Error unknown = error_of([&] { load(dir / "notes.txt"); });
  CHECK(unknown.id() == ErrorId::UnknownFormat);
  CHECK(unknown.file() == (dir / "notes.txt").string());
  CHECK(error_of([&] { detect_format(dir / "notes.txt"); }).id() == ErrorId::UnknownFormat);

  // A folder is not a file.
  Error folder = error_of([&] { load(dir); });
  CHECK(folder.id() == ErrorId::IoNotRegular);
  CHECK(folder.file() == dir.string());
}

TEST_CASE("io load: an option of another format is refused") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "d.toy", "TOY1d\n");
  LoadOptions o;
  o.options["armnn.layout"] = "seed";
  CHECK(error_of([&] { load(dir / "d.toy", o); }).id() == ErrorId::UnknownOption);
}

TEST_CASE("io load from memory: sniffs, and copies the bytes when no owner is given") {
  ToyRegistered toy;
  std::string text = "TOY1mem\nabc";
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(text.data()),
                               reinterpret_cast<const std::byte*>(text.data()) + text.size());
  Graph g = load(bytes, "");
  CHECK(g.source_format == "toy");
  bytes[bytes.size() - 1] = std::byte{'Z'};  // the graph must not see the caller's later writes
  CHECK(constant_text(g) == "abc");
  CHECK(error_of([&] { load(std::span<const std::byte>(bytes).subspan(1), ""); }).id() == ErrorId::UnknownFormat);
  CHECK(error_of([&] { load(bytes, "nosuch"); }).id() == ErrorId::UnknownFormat);

  // With an owner, constants are views into the caller's bytes.
  auto shared = std::make_shared<std::vector<std::byte>>(bytes);
  Graph v = load(*shared, "toy", {}, shared);
  CHECK(v.values[0].constant->data() == shared->data() + 8);
}

TEST_CASE("io save: format from options, else the extension, never guessed") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "in.toy", "TOY1named\n123");
  Graph g = load(dir / "in.toy");

  save(g, dir / "by_ext.toy");
  CHECK(read_text(dir / "by_ext.toy") == "TOY1named\n123");

  // An unknown or missing extension is an error even though the graph came from toy: writing
  // toy bytes into "x.data" would be a silent surprise.
  for (const char* name : {"by_source.data", "no_extension"}) {
    Error u = error_of([&] { save(g, dir / name); });
    CHECK(u.id() == ErrorId::UnknownFormat);
    CHECK_FALSE(fs::exists(dir / name));
  }

  SaveOptions o;
  o.format = "toy";
  save(g, dir / "forced.json", o);
  CHECK(read_text(dir / "forced.json") == "TOY1named\n123");

  Graph fresh;  // no source format, no known extension
  Error e = error_of([&] { save(fresh, dir / "out.data"); });
  CHECK(e.id() == ErrorId::UnknownFormat);
  CHECK(e.file() == (dir / "out.data").string());
  CHECK_FALSE(fs::exists(dir / "out.data"));
}

TEST_CASE("io save: a failing writer leaves no file and an existing file untouched") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "in.toy", "TOY1x\n1");
  Graph g = load(dir / "in.toy");
  SaveOptions fail;
  fail.options["toy.fail"] = "1";

  Error e = error_of([&] { save(g, dir / "new.toy", fail); });
  CHECK(e.file() == (dir / "new.toy").string());
  CHECK(e.where() == "values[0]");
  CHECK_FALSE(fs::exists(dir / "new.toy"));

  write_text(dir / "old.toy", "previous content");
  error_of([&] { save(g, dir / "old.toy", fail); });
  CHECK(read_text(dir / "old.toy") == "previous content");

  SaveOptions foreign;
  foreign.options["armnn.bindingIdsScheme"] = "1";
  CHECK(error_of([&] { save(g, dir / "new.toy", foreign); }).id() == ErrorId::UnknownOption);
  CHECK_FALSE(fs::exists(dir / "new.toy"));

  Error io = error_of([&] { save(g, dir / "no-such-dir" / "x.toy"); });
  CHECK(io.id() == ErrorId::IoNoFolder);
  CHECK(io.file() == (dir / "no-such-dir" / "x.toy").string());

  // Nothing but the files this test wrote: no temporaries left behind.
  std::size_t files = 0;
  for (auto& entry : fs::directory_iterator(dir)) {
    (void)entry;
    ++files;
  }
  CHECK(files == 2);
}

TEST_CASE("io save: writing over the file being read keeps the loaded constants intact") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  const fs::path p = dir / "self.toy";
  write_text(p, "TOY1self\nold-data");
  Graph g = load(p);
  Graph other = load(p);
  // Replace the file while `g`'s constant still views the old mapping.
  Graph replacement;
  Value v;
  v.name = "new";
  v.type.dtype = DataType::UInt8;
  v.type.shape = {3};
  std::string nd = "NEW";
  v.constant = Buffer::copy_of(std::as_bytes(std::span(nd.data(), nd.size())));
  replacement.add_value(std::move(v));
  replacement.source_format = "toy";
  save(replacement, p);
  CHECK(constant_text(g) == "old-data");
  CHECK(read_text(p) == "TOY1new\nNEW");
  save(other, p);  // and writing the old graph back over it works too
  CHECK(read_text(p) == "TOY1self\nold-data");
}

TEST_CASE("io: an option name the format does not declare is Unsupported and writes nothing") {
  ToyRegistered toy;
  fs::path dir = test::temp_dir();
  write_text(dir / "in.toy", "TOY1named\n123");
  Graph g = load(dir / "in.toy");
  SaveOptions o;
  o.options["toy.nosuch"] = "1";
  Error e = error_of([&] { save(g, dir / "out.toy", o); });
  CHECK(e.id() == ErrorId::UnknownOption);
  CHECK(std::string(e.what()).find("toy.nosuch") != std::string::npos);
  CHECK(std::string(e.what()).find("toy.fail") != std::string::npos);  // lists what it has
  CHECK_FALSE(fs::exists(dir / "out.toy"));
  LoadOptions lo;
  lo.options["toy.fail"] = "1";  // a writer option is not a reader option
  CHECK(error_of([&] { load(dir / "in.toy", lo); }).id() == ErrorId::UnknownOption);
}

TEST_CASE("save: a cyclic graph is refused for every format, and nothing is written") {
  // Oracle: the rule that a writer never writes what a reader refuses (every reader rejects a
  // cyclic data flow). Two Relu nodes feeding each other: a -> b -> a, by hand.
  Graph g;
  TensorType t;
  t.dtype = DataType::Float32;
  t.shape = {2};
  const ValueId a = g.add_value(Value{"a", t, {}, {}}), b = g.add_value(Value{"b", t, {}, {}});
  g.add_node(Node{"Relu", "first", {b}, {a}, {}});
  g.add_node(Node{"Relu", "second", {a}, {b}, {}});
  g.outputs = {b};
  const fs::path dir = test::temp_dir();
  for (const char* ext : {".json", ".armnn", ".vkgraph"}) {
    const fs::path out = dir / (std::string("cyclic") + ext);
    const Error e = error_of([&] { save(g, out); });
    CHECK(e.id() == ErrorId::Cycle);
    CHECK(e.file() == out.string());
    CHECK_FALSE(fs::exists(out));
  }
}
