// Helpers of the opencl custom-layer tests: one-node graphs, running them with a custom-layer
// set, the test kernels' folder.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/exec.h"
#include "nnbridge/graph.h"

namespace nnbridge::test::custom {

/// False (and the test skipped) when there is no OpenCL device.
bool have_opencl();
/// tests/config/openvino_custom/data: the test kernels and layers.xml.
std::filesystem::path data_dir();
/// The layers of data/layers.xml.
std::shared_ptr<const config::openvino_custom::CustomLayerSet> layers_set();
/// The layers of `xml` (sources by absolute path).
std::shared_ptr<const config::openvino_custom::CustomLayerSet> set_from(const std::string& xml);
/// Float32 inputs in0.. of `inputs` shapes -> one `op` node "the_node" -> float32 `y` of `out`.
Graph one_node(const std::string& op, const std::vector<std::vector<int64_t>>& inputs, const std::vector<int64_t>& out,
               AttrMap attrs = {});
/// Runs `g` on opencl with `set` (none when null); returns output 0's values.
std::vector<float> run1(const Graph& g, const std::vector<std::vector<float>>& inputs,
                        std::shared_ptr<const config::openvino_custom::CustomLayerSet> set);
/// All outputs, in graph order.
std::vector<std::vector<float>> run(const Graph& g, const std::vector<std::vector<float>>& inputs,
                                    std::shared_ptr<const config::openvino_custom::CustomLayerSet> set);

}  // namespace nnbridge::test::custom
