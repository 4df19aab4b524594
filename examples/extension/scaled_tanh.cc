// An example cpu extension (README.md in this folder): a kernel for an op the built-in cpu
// backend does not have, registered through nnbridge/cpu_kernel_api.h only.
//
// `armnn.StandIn` (float32), for Arm NN StandIn layers named "ScaledTanh" with one input and one
// output (the StandIn descriptor's numInputs / numOutputs, read from the node's attributes). A
// StandIn layer is Arm NN's placeholder for an operator it does not know and carries no
// parameters, only its name, so this kernel fixes them: y = 1.7159 * tanh(2/3 * x), LeCun's
// scaled tanh (LeCun, Bottou, Orr, Müller, "Efficient BackProp", 1998, section 4.4), elementwise,
// output shape = input shape. StandIn layers of other names are refused (exit 3 naming the layer).
// Computed in double, rounded to float32 once.

#include <cmath>
#include <stdexcept>
#include <string>

#include "nnbridge/cpu_kernel_api.h"

namespace {

using nnbridge::DataType;
using nnbridge::TensorType;
using namespace nnbridge::cpu_ref;

constexpr double kAlpha = 1.7159;
constexpr double kBeta = 2.0 / 3.0;

void scaled_tanh(const KernelCall& call) {
  auto x = call.inputs[0].as<float>();
  auto y = call.outputs[0].as<float>();
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(kAlpha * std::tanh(kBeta * static_cast<double>(x[i])));
}

// One input, one output of the input's type; only StandIn layers named "ScaledTanh".
std::vector<TensorType> scaled_tanh_type(const CustomNode& n) {
  if (n.node.name != "ScaledTanh")
    throw std::runtime_error("this extension implements StandIn layers named \"ScaledTanh\" only, not \"" + n.node.name + "\"");
  const int64_t ins = n.attr_int("armnn.descriptor.numInputs", 1), outs = n.attr_int("armnn.descriptor.numOutputs", 1);
  if (ins != 1 || outs != 1 || n.inputs.size() != 1 || n.declared_outputs.size() != 1)
    throw std::invalid_argument("a ScaledTanh StandIn layer has one input and one output, this one has " + std::to_string(ins) +
                                " and " + std::to_string(outs));
  TensorType t = n.inputs[0];
  t.quantization.reset();
  return {t};
}

void register_kernels(KernelRegistrar& r) {
  r.add(CustomKernel{.op = "armnn.StandIn", .dtype = DataType::Float32, .infer = scaled_tanh_type, .compute = scaled_tanh});
}

}  // namespace

NNBRIDGE_CPU_EXTENSION(register_kernels)
