// Helpers of the opencl custom-layer tests (custom_layer_util.h).
#include "custom_layer_util.h"

#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

namespace nnbridge::test::custom {

namespace ovc = nnbridge::config::openvino_custom;

bool have_opencl() { return test::have_opencl(); }

std::filesystem::path data_dir() { return test::source_dir() / "tests/config/openvino_custom/data"; }

std::shared_ptr<const ovc::CustomLayerSet> layers_set() {
  static const auto set = ovc::custom_layer_set(std::vector<std::filesystem::path>{data_dir() / "layers.xml"});
  return set;
}

std::shared_ptr<const ovc::CustomLayerSet> set_from(const std::string& xml) {
  return std::make_shared<const ovc::CustomLayerSet>(ovc::parse_custom_layers(xml, test::temp_dir() / "inline.xml"));
}

Graph one_node(const std::string& op, const std::vector<std::vector<int64_t>>& inputs, const std::vector<int64_t>& out, AttrMap attrs) {
  Graph g;
  Node n{op, "the_node", {}, {}, std::move(attrs)};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    n.inputs.push_back(g.add_value(Value{"in" + std::to_string(i), TensorType{DataType::Float32, inputs[i], false, std::nullopt}, {}, {}}));
    g.inputs.push_back(n.inputs.back());
  }
  n.outputs.push_back(g.add_value(Value{"y", TensorType{DataType::Float32, out, false, std::nullopt}, {}, {}}));
  g.outputs = n.outputs;
  g.add_node(std::move(n));
  return g;
}

std::vector<std::vector<float>> run(const Graph& g, const std::vector<std::vector<float>>& inputs,
                                    std::shared_ptr<const ovc::CustomLayerSet> set) {
  gpu::register_backend();
  BackendOptions o;
  if (set) o.custom_kernels.push_back(set);
  const auto plan = find_backend("opencl")->prepare(g, o);
  TensorMap in;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& [name, type] = plan->input_types().at(i);
    in[name] = HostTensor::from_values<float>(type, inputs[i]);
  }
  const TensorMap out = plan->run(in);
  std::vector<std::vector<float>> result;
  for (const auto& [name, type] : plan->output_types()) {
    auto v = out.at(name).values<float>();
    result.emplace_back(v.begin(), v.end());
  }
  return result;
}

std::vector<float> run1(const Graph& g, const std::vector<std::vector<float>>& inputs, std::shared_ptr<const ovc::CustomLayerSet> set) {
  return run(g, inputs, std::move(set)).at(0);
}

}  // namespace nnbridge::test::custom
