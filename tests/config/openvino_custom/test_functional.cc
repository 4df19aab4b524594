// Custom-layer XML as current OpenVINO writes it (data/functional: our own file of the shape the
// GPU plugin's functional test ships): internal buffers with size formulas, ANY and YXFB, work
// sizes such as X,Y,1; the Cosh tutorial's IR port numbering. Expected values are read off the
// files or computed by hand from the rules in openvino_custom.h.
#include <doctest/doctest.h>

#include "nnbridge/config/openvino_custom.h"
#include "support/paths.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::config::openvino_custom;

namespace {

std::filesystem::path functional_dir() { return test::source_dir() / "tests/config/openvino_custom/data/functional"; }

SimpleGpuLayer one_layer(const std::string& buffers) {
  const std::string xml = "<CustomLayer name=\"L\" type=\"SimpleGPU\" version=\"1\">\n"
                          "<Kernel entry=\"k\"><Source filename=\"k.cl\"/></Kernel>\n<Buffers>" +
                          buffers + "</Buffers>\n</CustomLayer>\n";
  LoadCustomLayersOptions o;
  o.require_sources = false;
  return parse_custom_layers(xml, "/cfg/l.xml", o).gpu_layers.at(0);
}

std::string problems(const std::string& buffers) {
  try {
    one_layer(buffers);
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Invalid);
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("openvino_custom functional: the plugin-test-shaped file parses into what it says") {
  const CustomLayerConfig c = load_custom_layers(functional_dir() / "layers.xml");
  REQUIRE(c.gpu_layers.size() == 8);
  const char* names[] = {"ScaleShift", "ScratchTwice", "RowColumn", "RowColumn3D", "PairSum", "YxfbHalfUp", "SecondInput", "PlusOneAny"};
  for (int i = 0; i < 8; ++i) {
    CHECK(c.gpu_layers[i].name == names[i]);
    CHECK(c.gpu_layers[i].compiler_options == "-cl-mad-enable");
  }
  const SimpleGpuLayer& scratch = c.gpu_layers[1];
  REQUIRE(scratch.tensors.size() == 3);
  CHECK(scratch.tensors[2].type == TensorBinding::Direction::Internal);
  CHECK(scratch.tensors[2].arg_index == 2);
  CHECK(scratch.tensors[2].size == "INPUT0_DIMS[0] * INPUT0_DIMS[1]*INPUT0_DIMS[2]*INPUT0_DIMS[3]");
  CHECK(scratch.tensors[2].where.line == 25);
  CHECK(scratch.tensors[1].size.empty());
  CHECK(c.gpu_layers[2].tensors[1].format == TensorFormat::ANY);
  CHECK(c.gpu_layers[2].global == std::vector<std::string>{"X", "Y", "1"});
  CHECK(c.gpu_layers[3].global == std::vector<std::string>{"Y", "F", "B"});
  CHECK(c.gpu_layers[5].tensors[0].format == TensorFormat::YXFB);
  CHECK(c.gpu_layers[6].tensors[1].format == TensorFormat::YXFB);
  CHECK(c.gpu_layers[6].tensors[2].format == TensorFormat::YXFB);
  // Two layers share probe.cl: each holds its own copy of the text.
  CHECK(c.gpu_layers[2].source_text.find("row_column_3d") != std::string::npos);

  const CustomLayerConfig cosh = load_custom_layers(functional_dir() / "cosh.xml");
  REQUIRE(cosh.gpu_layers.size() == 1);
  CHECK(cosh.gpu_layers[0].tensors[1].port_index == 1);
  CHECK(cosh.gpu_layers[0].global == std::vector<std::string>{"B*F*Y*X"});
}

TEST_CASE("openvino_custom functional: internal buffer sizes are products over input 0's dims") {
  const std::vector<int64_t> shape{2, 3, 4, 5};
  CHECK(evaluate_internal_size("INPUT0_DIMS[0]*INPUT0_DIMS[1]*INPUT0_DIMS[2]*INPUT0_DIMS[3]", shape) == 120);
  CHECK(evaluate_internal_size(" INPUT0_DIMS[3] * 8 ", shape) == 40);
  CHECK(evaluate_internal_size("7", shape) == 7);
  CHECK(evaluate_internal_size("INPUT0_DIMS[1]*0", shape) == 0);
  // The graph's own rank, not the 4-d view: a rank-2 input has INPUT0_DIMS[0..1] only.
  CHECK(evaluate_internal_size("INPUT0_DIMS[0]*INPUT0_DIMS[1]", std::vector<int64_t>{6, 7}) == 42);
  CHECK(test::thrown_id([&] { evaluate_internal_size("INPUT0_DIMS[2]", std::vector<int64_t>{6, 7}); }) == ErrorId::DanglingReference);
  CHECK(test::thrown_id([&] { evaluate_internal_size("65536*65536*65536*65536", shape); }) == ErrorId::Narrowing);
  std::string why;
  CHECK(is_legal_internal_size("INPUT0_DIMS[0]*2"));
  CHECK_FALSE(is_legal_internal_size("INPUT0_DIMS[0]+2", &why));
  CHECK(why.find("column 15: unexpected '+'") != std::string::npos);
  CHECK_FALSE(is_legal_internal_size("B*F", &why));
  CHECK(why.find("column 1: unexpected 'B'") != std::string::npos);
  CHECK_FALSE(is_legal_internal_size("INPUT0_DIMS[x]", &why));
  CHECK(why.find("expected a dimension index") != std::string::npos);
  CHECK_FALSE(is_legal_internal_size("2*", &why));
  CHECK(why.find("a factor is missing at the end") != std::string::npos);
  CHECK_FALSE(is_legal_internal_size("", &why));
}

TEST_CASE("openvino_custom functional: internal Tensors need a size and only they take one") {
  const std::string in = "<Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>";
  const std::string out = "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\"/>";
  CHECK(problems(in + out + "<Tensor arg-index=\"2\" type=\"internal\" port-index=\"0\"/>")
            .find("l.xml:3: <Tensor type=\"internal\"> has no size attribute") != std::string::npos);
  CHECK(problems(in + out + "<Tensor arg-index=\"2\" type=\"internal\" port-index=\"0\" size=\"X*Y\"/>")
            .find("l.xml:3: <Tensor type=\"internal\"> size \"X*Y\": column 1: unexpected 'X'") != std::string::npos);
  CHECK(problems("<Tensor arg-index=\"0\" type=\"input\" port-index=\"0\" size=\"4\"/>" + out)
            .find("l.xml:3: <Tensor> size= applies to type=\"internal\" only") != std::string::npos);
  // OpenVINO's parser wants port-index on every Tensor, internal ones included.
  CHECK(problems(in + out + "<Tensor arg-index=\"2\" type=\"internal\" size=\"4\"/>").find("port-index") != std::string::npos);
  CHECK(problems(in + "<Tensor arg-index=\"1\" type=\"scratch\" port-index=\"0\"/>").find("is not input, output or internal") !=
        std::string::npos);
  // An internal buffer is not an output: a layer still needs one.
  CHECK(problems(in + "<Tensor arg-index=\"1\" type=\"internal\" port-index=\"0\" size=\"4\"/>").find("binds no output <Tensor>") !=
        std::string::npos);
}

TEST_CASE("openvino_custom functional: output port-index as output numbers or IR port ids") {
  const std::string in0 = "<Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>";
  auto out = [](int arg, int port) {
    return "<Tensor arg-index=\"" + std::to_string(arg) + "\" type=\"output\" port-index=\"" + std::to_string(port) + "\"/>";
  };
  // The Cosh tutorial: one input (port 0), its output is IR port 1 -> output 0.
  CHECK(resolve_ports(one_layer(in0 + out(1, 1)), 1, 1) == std::vector<std::size_t>{0, 0});
  // Output numbers when every one fits.
  CHECK(resolve_ports(one_layer(in0 + out(1, 0)), 1, 1) == std::vector<std::size_t>{0, 0});
  CHECK(resolve_ports(one_layer(in0 + out(1, 0) + out(2, 1)), 1, 2) == std::vector<std::size_t>{0, 0, 1});
  // One input, two outputs bound as IR ports 1 and 2: outputs 0 and 1 (2 is no output number).
  CHECK(resolve_ports(one_layer(in0 + out(1, 1) + out(2, 2)), 1, 2) == std::vector<std::size_t>{0, 0, 1});
  // Two inputs, one output as IR port 2.
  const std::string in1 = "<Tensor arg-index=\"2\" type=\"input\" port-index=\"1\"/>";
  CHECK(resolve_ports(one_layer(in0 + in1 + out(1, 2)), 2, 1) == std::vector<std::size_t>{0, 1, 0});
  // An internal Tensor resolves to 0 whatever its port-index.
  CHECK(resolve_ports(one_layer(in0 + out(1, 0) + "<Tensor arg-index=\"2\" type=\"internal\" port-index=\"5\" size=\"3\"/>"), 1, 1) ==
        std::vector<std::size_t>{0, 0, 0});
  // Neither numbering: two inputs, one output, port-index 1 (neither output 1 nor IR port 2).
  CHECK(test::thrown_id([&] { resolve_ports(one_layer(in0 + in1 + out(1, 1)), 2, 1); }) == ErrorId::DanglingReference);
  CHECK(test::thrown_id([&] { resolve_ports(one_layer("<Tensor arg-index=\"0\" type=\"input\" port-index=\"1\"/>" + out(1, 0)), 1, 1); }) == ErrorId::DanglingReference);
}

TEST_CASE("openvino_custom functional: work-size dims from output 0 (front) or input N (back)") {
  using V = std::vector<int64_t>;
  CHECK(*work_size_dims(V{2, 3, 4, 5}, false) == Dims{2, 3, 4, 5});
  CHECK(*work_size_dims(V{2, 3, 4, 5}, true) == Dims{2, 3, 4, 5});
  // Rank 3 (the plugin test's Y,F,B case): B, F, Y from the front, X = 1.
  CHECK(*work_size_dims(V{2, 3, 4}, false) == Dims{2, 3, 4, 1});
  // From an input: X is the last dim, then Y, F, B; the missing ones are 0.
  CHECK(*work_size_dims(V{2, 3, 4}, true) == Dims{0, 2, 3, 4});
  CHECK(*work_size_dims(V{6, 7}, true) == Dims{0, 0, 6, 7});
  CHECK(*work_size_dims(V{6, 7}, false) == Dims{6, 7, 1, 1});
  CHECK(*work_size_dims(V{}, false) == Dims{1, 1, 1, 1});
  CHECK_FALSE(work_size_dims(V{1, 2, 3, 4, 5}, true).has_value());
  CHECK(evaluate_work_size("X", *work_size_dims(V{1, 1, 3, 4}, false)) == 4);
  CHECK(evaluate_work_size("Y", *work_size_dims(V{1, 1, 3, 4}, false)) == 3);
}
