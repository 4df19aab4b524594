// The real OpenVINO custom-layer files in ../shared/samples/openvino/ parse into what they say
// (values read off the files by hand); the MVCL file parses as MVCL.
#include <doctest/doctest.h>

#include "nnbridge/config/openvino_custom.h"
#include "support/paths.h"

using namespace nnbridge;
using namespace nnbridge::config::openvino_custom;
using nnbridge::test::shared_sample;

namespace {

// The samples name kernel sources that are not shipped with them.
CustomLayerConfig load_sample(const std::filesystem::path& p) {
  LoadCustomLayersOptions o;
  o.require_sources = false;
  return load_custom_layers(p, o);
}

}  // namespace

TEST_CASE("openvino_custom samples: cldnn_global_custom_kernels.xml has the plugin's five layers") {
  auto p = shared_sample("openvino/cldnn_global_custom_kernels.xml");
  NNBRIDGE_REQUIRE_SHARED(p);
  const CustomLayerConfig c = load_sample(*p);
  REQUIRE(c.gpu_layers.size() == 5);
  CHECK(c.mvcl_layers.empty());
  CHECK(c.warnings.empty());
  const char* names[] = {"PriorBoxClustered", "Interp", "GRN", "Tile", "CTCGreedyDecoder"};
  const int lines[] = {1, 32, 47, 62, 77};
  for (int i = 0; i < 5; ++i) {
    CHECK(c.gpu_layers[i].name == names[i]);
    CHECK(c.gpu_layers[i].where.line == lines[i]);
    CHECK(c.gpu_layers[i].compiler_options == "-cl-mad-enable");
  }
  const SimpleGpuLayer& pbc = c.gpu_layers[0];
  CHECK(pbc.entry == "prior_box_clustered");
  REQUIRE(pbc.sources.size() == 1);
  CHECK(pbc.sources[0] == p->parent_path() / "prior_box_clustered.cl");
  CHECK(pbc.source_text.empty());
  REQUIRE(pbc.defines.size() == 15);
  CHECK(pbc.defines[5].name == "variance_");
  CHECK(pbc.defines[5].type == "float[]");
  CHECK(pbc.defines[5].param == "variance");
  CHECK(pbc.defines[5].default_value == "0.1");
  CHECK(pbc.defines[5].where.line == 10);
  REQUIRE(pbc.tensors.size() == 3);
  CHECK(pbc.tensors[1].arg_index == 1);
  CHECK(pbc.tensors[1].port_index == 1);
  CHECK(pbc.tensors[1].type == TensorBinding::Direction::Input);
  CHECK(pbc.tensors[2].type == TensorBinding::Direction::Output);
  CHECK(pbc.dim.input);
  CHECK(pbc.dim.index == 0);
  CHECK(pbc.global == std::vector<std::string>{"Y", "X"});
  CHECK(pbc.local.empty());

  const SimpleGpuLayer& interp = c.gpu_layers[1];
  CHECK(interp.tensors[0].format == TensorFormat::ANY);
  CHECK(interp.global == std::vector<std::string>{"Y", "((X + 31)/32)*32"});
  CHECK(interp.local == std::vector<std::string>{"1", "32"});
  CHECK_FALSE(interp.dim.input);

  const SimpleGpuLayer* grn = c.find("GRN");
  REQUIRE(grn);
  CHECK(grn->defines[0].default_value == "1.0f");
  CHECK(grn->defines[1].name == "ACCUMULATOR_TYPE");
  CHECK(grn->defines[1].param.empty());
  CHECK(grn->global == std::vector<std::string>{"B", "Y"});
  // Formula values for an input of B=2, F=8, Y=5, X=40 (by hand).
  CHECK(evaluate_work_size(interp.global[1], {2, 8, 5, 40}) == 64);
  CHECK(c.find("Tile")->defines[1].default_value.empty());
  CHECK(c.find("CTCGreedyDecoder")->tensors.size() == 3);
}

TEST_CASE("openvino_custom samples: custom_layer_example.xml keeps source order, Define forms, Data, arg order") {
  auto p = shared_sample("openvino/custom_layer_example.xml");
  NNBRIDGE_REQUIRE_SHARED(p);
  const CustomLayerConfig c = load_sample(*p);
  REQUIRE(c.gpu_layers.size() == 1);
  const SimpleGpuLayer& l = c.gpu_layers[0];
  CHECK(l.name == "MyTestLayer");
  CHECK(l.entry == "add_kernel");
  REQUIRE(l.sources.size() == 2);
  CHECK(l.sources[0].filename() == "utils.cl");
  CHECK(l.sources[1].filename() == "MyKernel.cl");
  REQUIRE(l.data.size() == 1);
  CHECK(l.data[0].arg_index == 3);
  CHECK(l.data[0].name == "weights");
  CHECK(l.data[0].where.line == 13);
  REQUIRE(l.tensors.size() == 3);
  CHECK(l.tensors[0].arg_index == 1);
  CHECK(l.tensors[1].arg_index == 0);
  CHECK(l.tensors[1].format == TensorFormat::BFYX);  // the default
  CHECK(l.tensors[1].where.line == 15);
  CHECK(l.compiler_options == "-DUSE_SOMETHING -cl-mad-enable");
  CHECK(l.global == std::vector<std::string>{"B*F*Y*X", "1", "1"});
  // The defines the plugin writes (custom.cpp: "#define " name " " prefix value postfix), by hand.
  AttrMap attrs;
  attrs["nms_thresh"] = Attr(0.5);
  CHECK(user_defines(l, attrs) ==
        "// Custom Layer User Defines\n"
        "#define THRESH 0.5\n"
        "#define NUM 3 \n"
        "#define factor 2\n"
        "#define bias 0.5\n"
        "#define myArray (int[]) {2,3}\n");
  // Without the attribute, THRESH takes its default and `bias` has none: an error naming both.
  try {
    (void)user_defines(l, {});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::AttributeValue);  // an op attribute the Define needs is missing
    CHECK(std::string(e.what()).find("Define bias") != std::string::npos);
    CHECK(std::string(e.what()).find("custom_layer_example.xml:8") != std::string::npos);
  }
}

TEST_CASE("openvino_custom samples: docs_relu_example.xml") {
  auto p = shared_sample("openvino/docs_relu_example.xml");
  NNBRIDGE_REQUIRE_SHARED(p);
  const CustomLayerConfig c = load_sample(*p);
  REQUIRE(c.gpu_layers.size() == 1);
  const SimpleGpuLayer& l = c.gpu_layers[0];
  CHECK(l.name == "ReLU");
  CHECK(l.entry == "example_relu_kernel");
  CHECK(l.global == std::vector<std::string>{"X", "Y", "B*F"});
  AttrMap attrs;
  attrs["negative_slope"] = Attr(0.25);
  CHECK(user_defines(l, attrs) == "// Custom Layer User Defines\n#define neg_slope 0.25\n");
  CHECK(user_defines(l, {}) == "// Custom Layer User Defines\n#define neg_slope 0.0\n");
}

TEST_CASE("openvino_custom samples: the VPU bindings parse as MVCL, stages joined, none executable") {
  auto p = shared_sample("openvino/vpu_customLayerBindings_excerpt.xml");
  NNBRIDGE_REQUIRE_SHARED(p);
  const CustomLayerConfig c = load_sample(*p);
  CHECK(c.gpu_layers.empty());
  CHECK(c.find("GRN") == nullptr);  // MVCL layers are not SimpleGPU layers: nothing to run
  REQUIRE(c.mvcl_layers.size() == 3);
  const MvclLayer& reorg = c.mvcl_layers[0];
  CHECK(reorg.name == "ReorgYolo");
  REQUIRE(reorg.kernels.size() == 1);
  CHECK(reorg.kernels[0].entry == "reorg_NCHW");
  CHECK(reorg.kernels[0].dim == "input,0");
  CHECK(reorg.kernels[0].global == std::vector<std::string>{"((Y+7)/8)*8", "F", "1"});
  REQUIRE(reorg.kernels[0].parameters.size() == 5);
  CHECK(reorg.kernels[0].parameters[2].kind == MvclParameter::Kind::Scalar);
  CHECK(reorg.kernels[0].parameters[2].source == "I.X");
  CHECK(reorg.kernels[0].parameters[4].arg_name == "stride");
  CHECK_FALSE(reorg.kernels[0].parameters[4].port_index.has_value());
  const MvclLayer& mvn = c.mvcl_layers[2];
  CHECK(mvn.name == "MVN");
  REQUIRE(mvn.kernels.size() == 2);
  CHECK(mvn.kernels[0].stage == 0);
  CHECK(mvn.kernels[0].entry == "reduction_mean");
  CHECK(mvn.kernels[1].stage == 1);
  CHECK(mvn.kernels[1].entry == "mvn_scale");
  CHECK(mvn.kernels[0].parameters[1].type == "output_buffer");
  CHECK(mvn.kernels[0].parameters[1].size == "Y*F*4");
  CHECK(mvn.kernels[1].where.line == 45);
  // The same file with its sources required: the .bin files are not there.
  CHECK_THROWS_AS(load_custom_layers(*p), Error);
  // A set built from it holds no executable layer.
  const auto set = custom_layer_set(std::vector<std::filesystem::path>{*p}, LoadCustomLayersOptions{false, false});
  CHECK(set->backend() == "opencl");
  CHECK(set->config().mvcl_layers.size() == 3);
  CHECK(set->find("MVN") == nullptr);
}
