// Bad custom-layer files: every problem is reported at once with its `file:line`; XML that does
// not parse is Malformed; duplicate names are an error unless overriding is asked for.
#include <doctest/doctest.h>

#include <fstream>

#include "nnbridge/config/openvino_custom.h"
#include "support/paths.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::config::openvino_custom;

namespace {

struct Failure {
  ErrorId id = ErrorId::IoOther;
  std::string what;
};

Failure parse_error(const std::string& xml, LoadCustomLayersOptions o = {}) {
  o.require_sources = false;
  try {
    (void)parse_custom_layers(xml, "/cfg/bad.xml", o);
  } catch (const Error& e) {
    return {e.id(), e.what()};
  }
  FAIL("no error for:\n" << xml);
  return {};
}

bool has(const std::string& s, const std::string& part) {
  if (s.find(part) != std::string::npos) return true;
  MESSAGE("not found: " << part << "\nin: " << s);
  return false;
}

// A valid layer, for tests that break one thing.
const char* kGood = R"(<CustomLayer name="L" type="SimpleGPU" version="1">
  <Kernel entry="k"><Source filename="k.cl"/></Kernel>
  <Buffers>
    <Tensor arg-index="0" type="input" port-index="0"/>
    <Tensor arg-index="1" type="output" port-index="0"/>
  </Buffers>
</CustomLayer>
)";

}  // namespace

TEST_CASE("openvino_custom errors: a valid layer parses") {
  LoadCustomLayersOptions o;
  o.require_sources = false;
  const CustomLayerConfig c = parse_custom_layers(kGood, "/cfg/good.xml", o);
  REQUIRE(c.gpu_layers.size() == 1);
  CHECK(c.gpu_layers[0].sources[0] == std::filesystem::path("/cfg/k.cl"));
  CHECK(c.gpu_layers[0].tensors[1].where.line == 5);
}

TEST_CASE("openvino_custom errors: every rule violation is listed with its line") {
  const std::string xml =
      "<CustomLayer name=\"A\" type=\"SimpleGPU\" version=\"2\" color=\"red\">\n"            // 1: version, unknown attribute
      "  <Kernel>\n"                                                                      // 2: no entry
      "    <Source/>\n"                                                                   // 3: no filename
      "    <Define name=\"D\" type=\"double\"/>\n"                                        // 4: bad type
      "    <Include file=\"x\"/>\n"                                                       // 5: unknown element
      "  </Kernel>\n"
      "  <Buffers>\n"                                                                     // 7: arg 1 unbound
      "    <Tensor arg-index=\"0\" type=\"inout\" port-index=\"0\"/>\n"                   // 8: bad type
      "    <Tensor arg-index=\"2\" type=\"output\" port-index=\"-1\" format=\"NCHW\"/>\n"  // 9: port, format
      "    <Tensor arg-index=\"3\" type=\"output\" port-index=\"0\"/>\n"
      "    <Data arg-index=\"3\" name=\"w\"/>\n"                                           // 11: arg 3 twice
      "  </Buffers>\n"
      "  <WorkSizes global=\"X/0,Y \" local=\"1\" dim=\"inputs,1\"/>\n"                   // 13: /0, blanks, dim, counts
      "</CustomLayer>\n"
      "<CustomLayer name=\"B\" type=\"GPU\" version=\"1\"/>\n"                             // 15: type
      "<Layer name=\"C\"/>\n";                                                             // 16: not a CustomLayer
  const Failure f = parse_error(xml);
  CHECK(f.id == ErrorId::InvalidOther);  // problems of different kinds: no one finer identifier
  CHECK(has(f.what, "/cfg/bad.xml: "));
  CHECK(has(f.what, "/cfg/bad.xml:1: <CustomLayer> has an unknown attribute \"color\""));
  CHECK(has(f.what, "/cfg/bad.xml:1: <CustomLayer> version=\"2\" is not 1"));
  CHECK(has(f.what, "/cfg/bad.xml:2: <Kernel> has no entry attribute"));
  CHECK(has(f.what, "/cfg/bad.xml:3: <Source> has no filename attribute"));
  CHECK(has(f.what, "/cfg/bad.xml:4: <Define> type=\"double\" is not int, float, int[] or float[]"));
  CHECK(has(f.what, "/cfg/bad.xml:5: unknown element <Include> in <Kernel>"));
  CHECK(has(f.what, "/cfg/bad.xml:8: <Tensor> type=\"inout\" is not input, output or internal"));
  CHECK(has(f.what, "/cfg/bad.xml:9: <Tensor> port-index=\"-1\" is not a non-negative integer"));
  CHECK(has(f.what, "/cfg/bad.xml:9: <Tensor> format=\"NCHW\" is not BFYX, BYXF, FYXB, YXFB or ANY"));
  CHECK(has(f.what, "/cfg/bad.xml:11: arg-index 3 is already bound at line 10"));
  CHECK(has(f.what, "/cfg/bad.xml:7: kernel argument 0 is bound by no <Tensor> or <Data>"));
  CHECK(has(f.what, "/cfg/bad.xml:13: <WorkSizes> global item 1: formula \"X/0\": column 2: division by zero"));
  CHECK(has(f.what, "/cfg/bad.xml:13: <WorkSizes> global item 2: formula \"Y \": column 2: blanks after the formula"));
  CHECK(has(f.what, "/cfg/bad.xml:13: <WorkSizes> dim=\"inputs,1\" is not output, input or input,N"));
  CHECK(has(f.what, "/cfg/bad.xml:13: <WorkSizes> local has 1 items, global 2"));
  CHECK(has(f.what, "/cfg/bad.xml:15: <CustomLayer> type=\"GPU\" is not SimpleGPU (GPU) or MVCL (MYRIAD)"));
  CHECK(has(f.what, "/cfg/bad.xml:16: top-level element <Layer> is not <CustomLayer>"));
  CHECK(has(f.what, "17 problems in custom-layer XML"));
}

TEST_CASE("openvino_custom errors: structure rules") {
  auto one = [](const std::string& body) { return parse_error(R"(<CustomLayer name="L" type="SimpleGPU" version="1">)" "\n" + body + "</CustomLayer>\n"); };
  CHECK(has(one("").what, "bad.xml:1: <CustomLayer> has no <Kernel> element"));
  CHECK(has(one("").what, "bad.xml:1: <CustomLayer> has no <Buffers> element"));
  const std::string kernel = "<Kernel entry=\"k\"><Source filename=\"k.cl\"/></Kernel>\n";
  CHECK(has(one(kernel + kernel + "<Buffers><Tensor arg-index=\"0\" type=\"output\" port-index=\"0\"/></Buffers>\n").what,
            "bad.xml:3: a second <Kernel> in <CustomLayer>"));
  CHECK(has(one(kernel + "<Buffers>\n<Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/></Buffers>\n").what,
            "bad.xml:3: <Buffers> binds no output <Tensor>"));
  CHECK(has(one(kernel + "<Buffers><Data arg-index=\"0\" name=\"w\"/></Buffers>\n").what, "bad.xml:3: <Buffers> has no <Tensor> element"));
  CHECK(has(one("<Kernel entry=\"k\"></Kernel>\n<Buffers><Tensor arg-index=\"0\" type=\"output\" port-index=\"0\"/></Buffers>\n").what,
            "bad.xml:2: <Kernel> has no <Source> element"));
  CHECK(has(one(kernel + "<Buffers><Tensor arg-index=\"0\" type=\"output\" port-index=\"0\"/></Buffers>\n<WorkSizes global=\"1,2,3,4\"/>\n").what,
            "bad.xml:4: <WorkSizes> global has 4 items; OpenCL takes at most 3"));
  CHECK(has(one(kernel + "<Buffers><Tensor arg-index=\"0\" type=\"output\" port-index=\"0\"/></Buffers>\n<WorkSizes global=\"X,,Y\"/>\n").what,
            "bad.xml:4: <WorkSizes> global item 2: formula \"\": column 1: the formula is empty"));
  CHECK(has(one(kernel + "<Buffers><Tensor arg-index=\"x\" type=\"output\" port-index=\"0\"/></Buffers>\n").what,
            "bad.xml:3: <Tensor> arg-index=\"x\" is not a non-negative integer"));
  CHECK(has(parse_error("").what, "bad.xml:1: the file holds no <CustomLayer> element"));
  const Failure empty = parse_error("<!-- only a comment -->");
  CHECK(empty.id == ErrorId::Arity);  // no <CustomLayer> element where one is needed
  CHECK(has(empty.what, "bad.xml:1: "));
  CHECK(has(parse_error(std::string(kGood) + "stray text\n").what, "bad.xml:8: text outside any element"));
}

TEST_CASE("openvino_custom errors: XML that does not parse is Malformed with its line") {
  const Failure f = parse_error(std::string(kGood) + "<CustomLayer name=\"X\">\n  <Kernel>\n</CustomLayer>\n");
  CHECK(f.id == ErrorId::Syntax);
  CHECK(has(f.what, "/cfg/bad.xml:10: "));
}

TEST_CASE("openvino_custom errors: a missing kernel source is an error at its line, unless sources are not required") {
  const std::filesystem::path dir = test::temp_dir();
  {
    std::ofstream(dir / "layers.xml") << kGood;
  }
  try {
    (void)load_custom_layers(dir / "layers.xml");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::DanglingReference);  // the filename names no file
    CHECK(has(e.what(), (dir / "layers.xml").string() + ":2: "));
    CHECK(has(e.what(), "\"" + (dir / "k.cl").string() + "\""));
  }
  {
    std::ofstream(dir / "k.cl") << "__kernel void k(__global float* a, __global float* b) {}\n";
  }
  const CustomLayerConfig c = load_custom_layers(dir / "layers.xml");
  CHECK(has(c.gpu_layers[0].source_text, "// Custom Layer Kernel " + (dir / "k.cl").string() + "\n\n__kernel void k("));
  try {
    (void)load_custom_layers(dir / "absent.xml");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoOpen);
  }
}

TEST_CASE("openvino_custom errors: duplicate names are errors, or replace with a warning when allowed") {
  const std::string twice = std::string(kGood) + kGood;
  const Failure f = parse_error(twice);
  CHECK(f.id == ErrorId::DuplicateName);
  CHECK(has(f.what, "/cfg/bad.xml:8: custom layer \"L\" is already defined at /cfg/bad.xml:1"));
  LoadCustomLayersOptions o;
  o.require_sources = false;
  o.allow_override = true;
  const CustomLayerConfig c = parse_custom_layers(twice, "/cfg/dup.xml", o);
  REQUIRE(c.gpu_layers.size() == 1);
  CHECK(c.gpu_layers[0].where.line == 8);
  REQUIRE(c.warnings.size() == 1);
  CHECK(c.warnings[0].severity == Issue::Severity::Warning);
  CHECK(c.warnings[0].where == "/cfg/dup.xml:8");
  // Across files: merge_custom_layers applies the same rule.
  o.allow_override = false;
  CustomLayerConfig a = parse_custom_layers(kGood, "/cfg/a.xml", o);
  auto merged = test::thrown([&] { merge_custom_layers(a, parse_custom_layers(kGood, "/cfg/b.xml", o), o); });
  REQUIRE(merged);
  CHECK(merged->id() == ErrorId::DuplicateName);
  CHECK(has(merged->what(), "/cfg/b.xml:1: custom layer \"L\" is already defined at /cfg/a.xml:1"));
  o.allow_override = true;
  merge_custom_layers(a, parse_custom_layers(kGood, "/cfg/b.xml", o), o);
  CHECK(a.gpu_layers[0].where.file == "/cfg/b.xml");
  CHECK(a.warnings.size() == 1);
}

TEST_CASE("openvino_custom errors: duplicates among 20000 layers are found by name, and the set finds every layer") {
  // Oracle: line arithmetic. kGood is 7 lines, so layer k starts at line 7k + 1. (Finding a
  // duplicate used to search every earlier layer: 100k layers took a minute; now an index.)
  const std::size_t n = 20000;
  const auto named = [](const std::string& name) {
    std::string s = kGood;
    return s.replace(s.find("\"L\""), 3, "\"" + name + "\"");
  };
  std::string xml;
  for (std::size_t k = 0; k < n; ++k) xml += named("L" + std::to_string(k));
  LoadCustomLayersOptions o;
  o.require_sources = false;
  const CustomLayerSet set(parse_custom_layers(xml, "/cfg/many.xml", o));
  REQUIRE(set.config().gpu_layers.size() == n);
  for (std::size_t k : {std::size_t{0}, std::size_t{7}, n - 1}) {
    const SimpleGpuLayer* l = set.find("L" + std::to_string(k));
    REQUIRE(l != nullptr);
    CHECK(l->where.line == static_cast<int>(7 * k + 1));
  }
  CHECK(set.find("L") == nullptr);
  CHECK(set.find("L" + std::to_string(n)) == nullptr);
  const Failure f = parse_error(xml + named("L7"));
  CHECK(f.id == ErrorId::DuplicateName);
  CHECK(has(f.what, "/cfg/bad.xml:140001: custom layer \"L7\" is already defined at /cfg/bad.xml:50 "));
  // Across files: the same rule through merge_custom_layers, and override replaces in place.
  CustomLayerConfig all = parse_custom_layers(xml, "/cfg/a.xml", o);
  auto merged = test::thrown([&] { merge_custom_layers(all, parse_custom_layers(named("L19999"), "/cfg/b.xml", o), o); });
  REQUIRE(merged);
  CHECK(merged->id() == ErrorId::DuplicateName);
  CHECK(has(merged->what(), "/cfg/b.xml:1: custom layer \"L19999\" is already defined at /cfg/a.xml:139994"));
  o.allow_override = true;
  merge_custom_layers(all, parse_custom_layers(named("L5") + named("M"), "/cfg/c.xml", o), o);
  REQUIRE(all.gpu_layers.size() == n + 1);
  CHECK(all.gpu_layers[5].where.file == "/cfg/c.xml");
  CHECK(all.gpu_layers[n].name == "M");
}

TEST_CASE("openvino_custom errors: MVCL variants among 5000 are told apart by name and Where") {
  // Oracle: line arithmetic (one line per element, line k + 1 for element k).
  const std::size_t n = 5000;
  const auto variant = [](std::size_t k) {
    return "<CustomLayer name=\"V" + std::to_string(k / 2) + "\" type=\"MVCL\" version=\"1\"><Where kernel=\"" +
           std::to_string(k % 2) + "\"/><Kernel entry=\"k\"><Source filename=\"k.bin\"/><Parameters/>"
           "<WorkSizes dim=\"input,0\" global=\"X\" local=\"1\"/></Kernel></CustomLayer>\n";
  };
  std::string xml;
  for (std::size_t k = 0; k < n; ++k) xml += variant(k);
  LoadCustomLayersOptions o;
  o.require_sources = false;
  const CustomLayerConfig c = parse_custom_layers(xml, "/cfg/v.xml", o);
  REQUIRE(c.mvcl_layers.size() == n);
  CHECK(c.mvcl_layers[n - 1].name == "V" + std::to_string((n - 1) / 2));
  CHECK(has(parse_error(xml + variant(3)).what, "bad.xml:5001: MVCL layer \"V1\" is already defined at line 4"));
}

TEST_CASE("openvino_custom errors: MVCL rules") {
  const std::string xml =
      "<CustomLayer name=\"M\" type=\"MVCL\" version=\"1\">\n"
      "  <Where kernel=\"3,3\"/>\n"
      "  <Kernel entry=\"k\" stage=\"0\">\n"
      "    <Source filename=\"k.bin\"/>\n"
      "    <Parameters>\n"
      "      <Tensor arg-name=\"a\" type=\"input\" port-index=\"0\" format=\"NCHW\"/>\n"  // 6: format
      "      <Tensor arg-name=\"a\" type=\"output_buffer\" port-index=\"0\"/>\n"          // 7: repeat, no size/dim
      "      <Scalar arg-name=\"s\" type=\"double\" source=\"I.X\"/>\n"                    // 8: type
      "      <Data arg-name=\"d\" type=\"data\"/>\n"                                       // 9: no source/dim
      "    </Parameters>\n"
      "    <WorkSizes dim=\"side,0\" global=\"X+\" local=\"1\"/>\n"                        // 11: dim, formula
      "  </Kernel>\n"
      "  <Kernel entry=\"k2\" stage=\"0\"><Source filename=\"k.bin\"/>"                    // 13: stage repeats
      "<Parameters/><WorkSizes dim=\"input,0\" global=\"1\" local=\"1\"/></Kernel>\n"
      "</CustomLayer>\n";
  const Failure f = parse_error(xml);
  CHECK(f.id == ErrorId::InvalidOther);  // problems of different kinds
  CHECK(has(f.what, "bad.xml:6: <Tensor> format=\"NCHW\" is not BFYX, BYXF, FYX, YXF, BF or ANY"));
  CHECK(has(f.what, "bad.xml:7: <Tensor> of type output_buffer has no size attribute"));
  CHECK(has(f.what, "bad.xml:7: arg-name \"a\" is already bound at line 6"));
  CHECK(has(f.what, "bad.xml:8: <Scalar> type=\"double\" is not int or float"));
  CHECK(has(f.what, "bad.xml:9: <Data> needs exactly one of source and dim"));
  CHECK(has(f.what, "bad.xml:11: <WorkSizes> dim=\"side,0\" is not input,N or output,N"));
  CHECK(has(f.what, "bad.xml:11: <WorkSizes> global item 1: formula \"X+\""));
  CHECK(has(f.what, "bad.xml:13: <Kernel> stage 0 repeats"));
  // Two Where variants of one name are two layers; the same variant twice is a duplicate.
  const std::string variant = "<CustomLayer name=\"V\" type=\"MVCL\" version=\"1\"><Where kernel=\"%\"/><Kernel entry=\"k\">"
                              "<Source filename=\"k.bin\"/><Parameters/><WorkSizes dim=\"input,0\" global=\"X\" local=\"1\"/></Kernel></CustomLayer>\n";
  auto with = [&](const char* w) {
    std::string s = variant;
    return s.replace(s.find('%'), 1, w);
  };
  LoadCustomLayersOptions o;
  o.require_sources = false;
  const CustomLayerConfig c = parse_custom_layers(with("1") + with("3"), "/cfg/v.xml", o);
  REQUIRE(c.mvcl_layers.size() == 2);
  CHECK(c.mvcl_layers[1].where_params.at("kernel") == "3");
  CHECK(has(parse_error(with("1") + with("1")).what, "bad.xml:2: MVCL layer \"V\" is already defined at line 1"));
}

TEST_CASE("openvino_custom errors: kernel sources must be regular files within the size limit") {
  // Oracle: the documented rule (LoadCustomLayersOptions::max_file_bytes, regular files only);
  // /dev/zero used to be read without end.
  const std::filesystem::path dir = test::temp_dir();
  const auto layer_with = [&](const std::string& source) {
    std::string xml = kGood;
    xml.replace(xml.find("k.cl"), 4, source);
    std::ofstream(dir / "layers.xml") << xml;
  };
  const auto error_at_line_2 = [&](LoadCustomLayersOptions o) {
    try {
      (void)load_custom_layers(dir / "layers.xml", o);
    } catch (const Error& e) {
      CHECK(e.id() == ErrorId::InvalidOther);  // an unreadable source, listed with the layer's problems
      return std::string(e.what());
    }
    FAIL("expected an error");
    return std::string();
  };
  layer_with("/dev/zero");
  CHECK(has(error_at_line_2({}), "layers.xml:2: the kernel source \"/dev/zero\" is not a regular file"));
  layer_with(".");
  CHECK(has(error_at_line_2({}), "is not a regular file"));
  layer_with("big.cl");
  std::ofstream(dir / "big.cl") << std::string(1000, ' ');  // the XML itself is 262 bytes
  LoadCustomLayersOptions small;
  small.max_file_bytes = 999;
  CHECK(has(error_at_line_2(small), "layers.xml:2: the kernel source \"" + (dir / "big.cl").string() +
                                        "\" has 1000 bytes, over the limit of 999 (LoadCustomLayersOptions::max_file_bytes)"));
  small.max_file_bytes = 1000;
  CHECK(load_custom_layers(dir / "layers.xml", small).gpu_layers.size() == 1);
  // The XML file itself is bounded the same way (Error(Io), not a rule violation).
  small.max_file_bytes = 10;
  try {
    (void)load_custom_layers(dir / "layers.xml", small);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoTooLarge);
  }
}

TEST_CASE("openvino_custom errors: a DOCTYPE (entity declarations, XXE, entity bombs) is refused") {
  // Oracle: the documented rule. Before, pugixml skipped the DOCTYPE and left "&xxe;" verbatim as
  // the kernel entry name, with no error.
  const std::string xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n" +
                          std::string(kGood).replace(std::string(kGood).find("entry=\"k\""), 9, "entry=\"&xxe;\"");
  const Failure f = parse_error(xxe);
  CHECK(f.id == ErrorId::MalformedOther);
  CHECK(has(f.what, "/cfg/bad.xml:2: "));
  const Failure bomb = parse_error("<!DOCTYPE l [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n" + std::string(kGood));
  CHECK(bomb.id == ErrorId::MalformedOther);
}
