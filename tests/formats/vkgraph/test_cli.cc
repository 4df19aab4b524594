// The CLI on the two VkGraph formats, through the registry: info, dump, convert, run (with
// --named-data), and exit 3 with the place in the file for bad input.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/wait.h>

#include "nnbridge/exec.h"
#include "nnbridge/npy.h"
#include "support/paths.h"
#include "support/shell_cli.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;
namespace fs = std::filesystem;
using nnbridge::test::cli;
using nnbridge::test::q;
using nnbridge::test::Result;

namespace {

void write_input(const fs::path& dir, const std::vector<float>& x) {
  fs::create_directories(dir);
  TensorType t{DataType::Float32, {2, 3}, false, std::nullopt};
  write_npy(dir / "input_0.npy", HostTensor::from_values<float>(t, x));
}

}  // namespace

TEST_CASE("nnbridge CLI: info, dump, convert and run on the VkGraph samples") {
  auto d = test::shared_sample("vkgraph/add_example_delegate.bin");
  auto b = test::shared_sample("vkgraph/add_example.bin");
  NNBRIDGE_REQUIRE_SHARED(d);
  Result info = cli("info " + q(*d));
  CHECK(info.rc == 0);
  CHECK(info.out.find("vkdelegate") != std::string::npos);
  CHECK(info.out.find("input_0") != std::string::npos);
  CHECK(info.out.find("Add") != std::string::npos);
  CHECK(cli("dump " + q(*b)).out.find("\"aten.add.Tensor\"") != std::string::npos);

  fs::path dir = test::temp_dir();
  write_input(dir / "in", {10, 20, 30, 40, 50, 60});
  Result run = cli("run " + q(*d) + " --inputs " + q(dir / "in") + " --outputs " + q(dir / "out"));
  REQUIRE(run.rc == 0);
  // input + the constant 0, 1, 2, 3, 4, 5 (the sample's segment, decoded by hand).
  HostTensor y = read_npy(dir / "out" / "output_0.npy");
  auto v = y.values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{10, 21, 32, 43, 54, 65});

  // The bare flatbuffer has no constant data: a clear refusal, not a crash.
  Result bare = cli("run " + q(*b) + " --inputs " + q(dir / "in") + " --outputs " + q(dir / "out2"));
  CHECK(bare.rc == 3);
  CHECK(bare.out.find("has no data") != std::string::npos);

  // convert: delegate -> bare flatbuffer needs the option; -> delegate again is by the rules.
  Result no_option = cli("convert " + q(*d) + " " + q(dir / "x.vkgraph"));
  CHECK(no_option.rc == 3);
  CHECK(no_option.out.find("-O vkgraph.constants=external") != std::string::npos);
  CHECK(no_option.out.find("[nnbridge.unsupported.302]") != std::string::npos);  // data a bare VkGraph cannot hold
  CHECK(!fs::exists(dir / "x.vkgraph"));
  CHECK(cli("convert " + q(*d) + " " + q(dir / "x.vkgraph") + " -O vkgraph.constants=external").rc == 0);
  CHECK(flatc_json(dir / "x.vkgraph") == flatc_json(*b));
  CHECK(cli("convert " + q(*d) + " " + q(dir / "y.vkdelegate")).rc == 0);
  CHECK(file_bytes(dir / "y.vkdelegate").size() == file_bytes(*d).size());
}

TEST_CASE("nnbridge CLI: run --named-data resolves constants kept outside the payload") {
  // aten.add.Tensor(input, constant 0 = named data "k1", alpha 1) -> output.
  std::string values = tensor_json("[2, 3]", -1, 0) + "," + tensor_json("[2, 3]", 0) +
                       ",{\"value_type\": \"Int\", \"value\": {\"int_val\": 1}}," + tensor_json("[2, 3]", -1, 1);
  std::string json = graph_json(values, "{\"name\": \"aten.add.Tensor\", \"args\": [0, 1, 2, 3]}", "[0]", "[3]",
                                "{\"offset\": 18446744073709551615, \"length\": 24, \"named_key\": \"k1\"}");
  fs::path dir = test::temp_dir();
  put_file(dir / "m.vkdelegate", payload(file_bytes(flatc_binary(json, "named")), {}));
  fs::create_directories(dir / "nd");
  std::vector<float> c{1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> bytes(24);
  std::memcpy(bytes.data(), c.data(), 24);
  put_file(dir / "nd" / "k1", bytes);
  write_input(dir / "in", {0, 0, 0, 1, 1, 1});
  std::string base = "run " + q(dir / "m.vkdelegate") + " --inputs " + q(dir / "in") + " --outputs " + q(dir / "out");
  CHECK(cli(base).rc == 3);  // without the folder the constant has no data
  Result r = cli(base + " --named-data " + q(dir / "nd"));
  REQUIRE(r.rc == 0);
  const HostTensor out = read_npy(dir / "out" / "output_0.npy");
  auto v = out.values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{1, 2, 3, 5, 6, 7});
  CHECK(cli(base + " --named-data " + q(dir / "missing")).rc == 3);
}

TEST_CASE("nnbridge CLI: a malformed payload is exit 3 naming the file and the header field") {
  fs::path dir = test::temp_dir();
  std::vector<uint8_t> b(64, 0);
  std::memcpy(b.data() + 4, "VH00", 4);
  b[8] = 29;  // header_size < 30
  put_file(dir / "bad.bin", b);
  Result r = cli("info " + q(dir / "bad.bin"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("bad.bin") != std::string::npos);
  CHECK(r.out.find("header.header_size") != std::string::npos);
  CHECK(r.out.find("[nnbridge.malformed.202]") != std::string::npos);  // not a VH00 header (docs/errors.md)
}
