// Arm NN layer parameters that the reader wires as extra node inputs (LSTM weights, anchors...),
// found by name, and the scalar activations of Arm NN CpuRef (armnn/src/backends/reference/
// workloads/Activation.cpp) that the recurrent kernels apply element by element.
#pragma once

#include <cmath>

#include "../kernel.h"
#include "nnbridge/exec/armnn_params.h"

namespace nnbridge::cpu_ref {

/// The layer's constant parameters by field path (the exec floor's, shared with opencl).
using exec::ArmnnConstInputs;

/// Arm NN CpuRef's scalar activations, in float32 as Activation.cpp computes them.
inline float armnn_sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }
inline float armnn_tanh(float a, float b, float x) { return a * std::tanh(b * x); }

}  // namespace nnbridge::cpu_ref
