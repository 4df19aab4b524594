// The built-in defines as a kernel sees them (data/macros.cl copies each into a buffer), for each
// layout with and without padding, against values computed by hand from OpenVINO's rules
// (custom_primitive.cpp add_layout_to_jit); Data bindings; the errors prepare() reports for custom
// layers; and the CLI's --custom-layers and `custom-layers check`.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "custom_layer_util.h"
#include "device.h"  // gpu/src: compiling the padded case directly
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "support/paths.h"
#include "support/shell_cli.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::test::custom;
namespace ovc = nnbridge::config::openvino_custom;
namespace fs = std::filesystem;

namespace {

// Hand-computed pitches (B, F, Y, X) and offsets for dims B2 F3 Y4 X5, without padding and with
// lower padding {0,1,1,2} / upper {0,1,0,1} (padded sizes B2 F5 Y5 X8).
struct Expected {
  const char* name;
  int code;  // macros.cl's format code
  std::array<int, 4> pitches, padded_pitches;
  int padded_offset;
};
const Expected kFormats[] = {
    {"BFYX", 0, {60, 20, 5, 1}, {200, 40, 8, 1}, 50},
    {"BYXF", 1, {60, 1, 15, 3}, {200, 1, 40, 5}, 51},
    {"FYXB", 2, {1, 40, 10, 2}, {1, 80, 16, 2}, 100},
    {"YXFB", 3, {1, 2, 30, 6}, {1, 2, 80, 10}, 102},
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// What macros.cl writes for one tensor.
void expect_tensor(const std::vector<float>& d, std::size_t at, int code, const std::array<int, 4>& pitches, int offset,
                   std::array<int, 4> lower = {}, std::array<int, 4> upper = {}) {
  const std::vector<float> want{4, 2, 3, 4, 5, 4, static_cast<float>(code), 4, static_cast<float>(lower[0]), static_cast<float>(lower[1]),
                                static_cast<float>(lower[2]), static_cast<float>(lower[3]), 4, static_cast<float>(upper[0]),
                                static_cast<float>(upper[1]), static_cast<float>(upper[2]), static_cast<float>(upper[3]), 4,
                                static_cast<float>(pitches[0]), static_cast<float>(pitches[1]), static_cast<float>(pitches[2]),
                                static_cast<float>(pitches[3]), static_cast<float>(offset), static_cast<float>(pitches[3])};
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(at + i);
    CHECK(d.at(at + i) == want[i]);
  }
}

std::string dump_layer(const std::string& in_format, const std::string& out_format) {
  return "<CustomLayer name=\"MacroDump\" type=\"SimpleGPU\" version=\"1\">\n"
         "<Kernel entry=\"dump_macros\"><Source filename=\"" + (data_dir() / "macros.cl").string() + "\"/></Kernel>\n"
         "<Buffers><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\" format=\"" + in_format + "\"/>"
         "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\" format=\"" + out_format + "\"/>"
         "<Tensor arg-index=\"2\" type=\"output\" port-index=\"1\"/></Buffers>\n"
         "<WorkSizes global=\"B*F,Y*X\" local=\"F,X\"/></CustomLayer>\n";
}

}  // namespace

TEST_CASE("opencl custom layer: every built-in define's value for each layout, without padding") {
  if (!have_opencl()) return;
  Graph g = one_node("MacroDump", {{2, 3, 4, 5}}, {2, 3, 4, 5});
  g.nodes[0].outputs.push_back(g.add_value(Value{"dump", TensorType{DataType::Float32, {1, 1, 1, 64}, false, std::nullopt}, {}, {}}));
  g.outputs.push_back(g.nodes[0].outputs.back());
  std::vector<float> x(120);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f - 7.0f;
  for (const Expected& in : kFormats) {
    const Expected& out = kFormats[(&in - kFormats + 1) % 4];  // a different layout on each side
    CAPTURE(in.name);
    CAPTURE(out.name);
    const auto r = run(g, {x}, set_from(dump_layer(in.name, out.name)));
    // The copy through both tensors' pitches and the backend's reorders is the identity.
    CHECK(r.at(0) == x);
    const std::vector<float>& d = r.at(1);
    // NUM_INPUTS; GLOBAL_WORKSIZE {B*F, Y*X} = {6, 20}; LOCAL_WORKSIZE {F, X} = {3, 5}.
    CHECK(std::vector<float>(d.begin(), d.begin() + 7) == std::vector<float>{1, 2, 6, 20, 2, 3, 5});
    expect_tensor(d, 7, in.code, in.pitches, 0);
    expect_tensor(d, 31, out.code, out.pitches, 0);
    CHECK(d.at(55) == 12345);
  }
}

TEST_CASE("opencl custom layer: every built-in define's value for each layout, with padding") {
  if (!have_opencl()) return;
  const auto dev = gpu::open_device("");
  const std::string kernel_source = read(data_dir() / "macros.cl");
  const std::array<int, 4> lower{0, 1, 1, 2}, upper{0, 1, 0, 1};
  for (const Expected& e : kFormats) {
    CAPTURE(e.name);
    ovc::TensorLayout t;
    t.dims = {2, 3, 4, 5};
    t.format = static_cast<ovc::TensorFormat>(e.code);
    t.lower_padding = {0, 1, 1, 2};
    t.upper_padding = {0, 1, 0, 1};
    const std::size_t global[] = {1, 1}, local[] = {1, 1};
    const std::string src = ovc::builtin_defines(std::span(&t, 1), std::span(&t, 1), global, local) + kernel_source;
    cl::Kernel k(gpu::get_program(*dev, "macros.cl", src, "padded macros test", ""), "dump_macros");
    const std::size_t padded = 2 * 5 * 5 * 8;
    std::vector<float> in(padded, -1.0f), out(padded, -2.0f), dump(64, 0.0f);
    // Element (b, f, y, x) at offset + b*pb + f*pf + y*py + x*px (hand pitches).
    auto at = [&](int b, int f, int y, int x) {
      const auto& p = e.padded_pitches;
      return e.padded_offset + b * p[0] + f * p[1] + y * p[2] + x * p[3];
    };
    for (int b = 0; b < 2; ++b)
      for (int f = 0; f < 3; ++f)
        for (int y = 0; y < 4; ++y)
          for (int x = 0; x < 5; ++x) in.at(at(b, f, y, x)) = static_cast<float>(((b * 3 + f) * 4 + y) * 5 + x);
    cl::Buffer bin(dev->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, padded * 4, in.data());
    cl::Buffer bout(dev->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, padded * 4, out.data());
    cl::Buffer bdump(dev->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, dump.size() * 4, dump.data());
    k.setArg(0, bin);
    k.setArg(1, bout);
    k.setArg(2, bdump);
    dev->queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1, 1), cl::NDRange(1, 1));
    dev->queue.enqueueReadBuffer(bout, CL_TRUE, 0, padded * 4, out.data());
    dev->queue.enqueueReadBuffer(bdump, CL_TRUE, 0, dump.size() * 4, dump.data());
    CHECK(std::vector<float>(dump.begin(), dump.begin() + 7) == std::vector<float>{1, 2, 1, 1, 2, 1, 1});
    expect_tensor(dump, 7, e.code, e.padded_pitches, e.padded_offset, lower, upper);
    expect_tensor(dump, 31, e.code, e.padded_pitches, e.padded_offset, lower, upper);
    // Every element landed where the hand pitches say; padding stayed untouched.
    int written = 0;
    for (std::size_t i = 0; i < padded; ++i) written += out[i] != -2.0f;
    CHECK(written == 120);
    for (int b = 0; b < 2; ++b)
      for (int f = 0; f < 3; ++f)
        for (int y = 0; y < 4; ++y)
          for (int x = 0; x < 5; ++x) CHECK(out.at(at(b, f, y, x)) == static_cast<float>(((b * 3 + f) * 4 + y) * 5 + x));
  }
}

TEST_CASE("opencl custom layer: a Data binding reads the node input of that name") {
  if (!have_opencl()) return;
  const fs::path dir = test::temp_dir();
  std::ofstream(dir / "scale.cl") << "__kernel void scale(const __global float* x, __global float* y, const __global float* w) {\n"
                                     "  const int i = get_global_id(0);\n  y[i] = x[i] * w[i % 2];\n}\n";
  const std::string xml = "<CustomLayer name=\"Scale\" type=\"SimpleGPU\" version=\"1\"><Kernel entry=\"scale\"><Source filename=\"" +
                          (dir / "scale.cl").string() + "\"/></Kernel><Buffers><Data arg-index=\"2\" name=\"weights\"/>"
                          "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\"/><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>"
                          "</Buffers></CustomLayer>";
  Graph g = one_node("Scale", {{2, 2}}, {2, 2});
  const std::vector<float> w{3, -2};
  auto bytes = std::as_bytes(std::span(w));
  const ValueId wid = g.add_value(Value{"weights", TensorType{DataType::Float32, {2}, false, std::nullopt},
                                        Buffer::copy_of(bytes), {}});
  g.nodes[0].inputs.push_back(wid);
  CHECK(run1(g, {{1, 2, 3, 4}}, set_from(xml)) == std::vector<float>{3, -4, 9, -8});
  g.values[wid].name = "bias";
  CHECK(test::thrown_id([&] { run1(g, {{1, 2, 3, 4}}, set_from(xml)); }) == ErrorId::DanglingReference);
}

TEST_CASE("opencl custom layer: prepare() errors name the node and the layer") {
  if (!have_opencl()) return;
  const fs::path dir = test::temp_dir();
  std::ofstream(dir / "broken.cl") << "__kernel void k(__global float* a, __global float* b) { b[0] = a[0] +; }\n";
  std::ofstream(dir / "three.cl") << "__kernel void k(__global float* a, __global float* b, __global float* c) { b[0] = a[0]; }\n";
  auto layer = [&](const std::string& file, const std::string& entry, const std::string& extra_buffers, const std::string& work) {
    return "<CustomLayer name=\"Bad\" type=\"SimpleGPU\" version=\"1\"><Kernel entry=\"" + entry + "\"><Source filename=\"" +
           (dir / file).string() + "\"/></Kernel><Buffers><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>"
           "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\"/>" + extra_buffers + "</Buffers>" + work + "</CustomLayer>";
  };
  const Graph g = one_node("Bad", {{2, 3}}, {2, 3});
  const std::vector<std::vector<float>> x{{1, 2, 3, 4, 5, 6}};
  auto failure = [&](const std::string& xml) -> std::pair<ErrorId, std::string> {
    try {
      run1(g, x, set_from(xml));
    } catch (const Error& e) {
      return {e.id(), e.message()};
    }
    return {ErrorId::IoOther, "(no error)"};
  };
  auto [id, what] = failure(layer("broken.cl", "k", "", ""));
  CHECK(id == ErrorId::Build);
  CHECK(what.find("node 0 \"the_node\" (Bad): custom layer \"Bad\"") != std::string::npos);
  CHECK(what.find("build log") != std::string::npos);
  CHECK(what.find("expected expression") != std::string::npos);  // the compiler's own words (clang, PoCL)
  // An entry point the program does not have: nnbridge.backend.503 (the program does not link it).
  std::tie(id, what) = failure(layer("three.cl", "nope", "", ""));
  CHECK(id == ErrorId::Build);
  CHECK(what.find("\"nope\"") != std::string::npos);
  // 3 kernel arguments, 2 bound: the wrong number of list elements.
  std::tie(id, what) = failure(layer("three.cl", "k", "", ""));
  CHECK(id == ErrorId::Arity);
  // Input port 1 of a node with one input: refers to nothing.
  std::tie(id, what) = failure(layer("three.cl", "k", "<Tensor arg-index=\"2\" type=\"input\" port-index=\"1\"/>", ""));
  CHECK(id == ErrorId::DanglingReference);
  // Work sizes outside their domain: 7 not a multiple of 2, B-F = -1, X/(Y-1) divides by 0 (Y = 1
  // for this [2, 3] input: B 2, F 3, Y 1, X 1).
  std::tie(id, what) = failure(layer("three.cl", "k", "", "<WorkSizes global=\"X*7\" local=\"2\"/>"));
  CHECK(id == ErrorId::AttributeValue);
  std::tie(id, what) = failure(layer("three.cl", "k", "", "<WorkSizes global=\"B-F\"/>"));
  CHECK(id == ErrorId::AttributeValue);
  CHECK(what.find("\"B-F\"") != std::string::npos);
  std::tie(id, what) = failure(layer("three.cl", "k", "", "<WorkSizes global=\"X/(Y-1)\" dim=\"input,0\"/>"));
  CHECK(id == ErrorId::AttributeValue);
  // dim=input,3 of a node with one input: refers to nothing.
  std::tie(id, what) = failure(layer("three.cl", "k", "", "<WorkSizes dim=\"input,3\"/>"));
  CHECK(id == ErrorId::DanglingReference);
  try {
    run1(one_node("Bad", {{1, 1, 1, 2, 3}}, {1, 1, 1, 2, 3}), {{1, 2, 3, 4, 5, 6}}, set_from(layer("three.cl", "k", "", "")));
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Feature);  // ranks above 4 are not implemented for custom layers
    CHECK(e.message().find("input 0") != std::string::npos);
  }
}

TEST_CASE("opencl custom layer: the CLI's run --custom-layers and custom-layers check") {
  if (!have_opencl()) return;
  using test::cli;
  using test::q;
  const fs::path dir = test::temp_dir();
  const fs::path model = test::source_dir() / "examples/extension/scaled_tanh.armnn";
  fs::create_directories(dir / "in");
  const std::vector<float> x{-3, -1, -0.5f, 0, 0.25f, 1, 2, 4};
  write_npy(dir / "in/x.npy", HostTensor::from_values<float>(TensorType{DataType::Float32, {2, 4}, false, std::nullopt}, x));
  auto r = cli("run " + q(model) + " --backend opencl --inputs " + q(dir / "in") + " --outputs " + q(dir / "out") +
               " --custom-layers " + q(data_dir() / "layers.xml"));
  CHECK(r.rc == 0);
  const HostTensor y = read_npy(dir / "out/y.npy");
  REQUIRE(y.element_count() == 8);
  for (std::size_t i = 0; i < 8; ++i) CHECK(y.values<float>()[i] == doctest::Approx(1.7159 * std::tanh(2.0 * x[i] / 3.0)).epsilon(1e-5));
  r = cli("run " + q(model) + " --backend opencl --inputs " + q(dir / "in") + " --outputs " + q(dir / "out2"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("no kernel for op armnn.StandIn") != std::string::npos);
  r = cli("run " + q(model) + " --backend cpu --inputs " + q(dir / "in") + " --outputs " + q(dir / "out3") + " --custom-layers " +
          q(data_dir() / "layers.xml"));
  CHECK(r.rc == 2);  // custom layers are for the opencl backend
  // validate: the cpu extension kernel against the opencl custom layer, two implementations of
  // one formula (each already checked against 1.7159 tanh(2x/3) above and in tests/extension).
  r = cli("validate " + q(model) + " --backends cpu,opencl --inputs " + q(dir / "in") + " --extension " +
          q(NNBRIDGE_EXAMPLE_EXT) + " --custom-layers " + q(data_dir() / "layers.xml"));
  CHECK(r.rc == 0);
  r = cli("validate " + q(model) + " --backends cpu --inputs " + q(dir / "in") + " --expected " + q(dir / "out") +
          " --custom-layers " + q(data_dir() / "layers.xml"));
  CHECK(r.rc == 2);
  // check: the layers, or every problem (exit 1), or unreadable input (exit 3).
  r = cli("custom-layers check " + q(data_dir() / "layers.xml"));
  CHECK(r.rc == 0);
  CHECK(r.out.find("GRN (SimpleGPU, entry grn") != std::string::npos);
  CHECK(r.out.find("5 SimpleGPU layer(s), 0 MVCL layer(s)") != std::string::npos);
  std::ofstream(dir / "bad.xml") << "<CustomLayer name=\"A\" type=\"SimpleGPU\" version=\"3\">\n<Kernel/>\n</CustomLayer>\n";
  r = cli("custom-layers check " + q(dir / "bad.xml"));
  CHECK(r.rc == 1);
  CHECK(r.out.find((dir / "bad.xml").string() + ":1: <CustomLayer> version=\"3\" is not 1") != std::string::npos);
  CHECK(r.out.find((dir / "bad.xml").string() + ":2: <Kernel> has no entry attribute") != std::string::npos);
  std::ofstream(dir / "broken.xml") << "<CustomLayer name=\"A\"\n";
  r = cli("custom-layers check " + q(dir / "broken.xml"));
  CHECK(r.rc == 3);
  CHECK(r.out.find("not well-formed XML") != std::string::npos);
  r = cli("custom-layers check " + q(dir / "absent.xml"));
  CHECK(r.rc == 3);
  if (auto vpu = test::shared_sample("openvino/vpu_customLayerBindings_excerpt.xml")) {
    r = cli("custom-layers check --no-sources " + q(*vpu));
    CHECK(r.rc == 0);
    CHECK(r.out.find("MVN (MVCL, 2 stages, not executable by nnbridge)") != std::string::npos);
  }
}
