// Which layout a node's tensors have, as far as a kernel's split across threads cares
// (exec::NodeContext::channels_last): the IR's tensors carry no layout, the nodes that read
// images do (data_layout NCHW / NHWC).
#pragma once

#include <cstddef>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::cpu_ref {

/// Whether an input of node `n` of `g` is channels-last: written by a node whose data_layout is
/// "NHWC" (Arm NN's and TFLite's convolutions and pools in the IR), directly or through up to 8
/// elementwise nodes (Add, Sub, Mul, Div, Relu, Clip, Sigmoid, Tanh, HardSwish, LeakyRelu),
/// following the first input of each. A node with data_layout "NCHW" (or any other) ends the
/// search for that input. `producer[v]`: the node that writes value v, SIZE_MAX for none.
bool channels_last_input(const Graph& g, const Node& n, const std::vector<std::size_t>& producer);

}  // namespace nnbridge::cpu_ref
