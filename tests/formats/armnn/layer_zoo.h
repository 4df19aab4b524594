// Hand-written one-layer networks, one per Arm NN layer type, as flatc JSON (test data).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::test::armnn {

struct ZooCase {
  std::string layer;      ///< union member, e.g. "Convolution2dLayer"
  std::string fields;     ///< JSON members after "base" (descriptor, weights, ...), may be empty
  int inputs = 1, outputs = 1;
  std::string op;         ///< the op nnbridge must read it as ("" for Input/Output/Constant)
  /// Extra checks of the node, from values computed by hand from `fields`.
  std::function<void(const Graph&, const Node&)> expect;
};

/// Every layer type of the released schema except Input and Output (they frame each case).
const std::vector<ZooCase>& zoo();
/// The whole network JSON for one case: Input layers, the layer, one Output layer per output.
std::string zoo_json(const ZooCase& c);

}  // namespace nnbridge::test::armnn
