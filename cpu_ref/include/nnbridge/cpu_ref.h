// The CPU reference backend, registered as "cpu" (DESIGN.md "Backends").
//
// Every tensor is computed in float32: inputs, constants and intermediate results of other
// dtypes are converted to float32, each kernel computes in float32, and each node's result is
// then rounded to the node's declared output dtype and back (quantized types: requantized with
// round half away from zero and clamping, float16 rounded to nearest with ties away from zero,
// bfloat16 to nearest even), as Arm NN
// CpuRef's Decoder/Encoder pairs do (armnn/src/backends/reference/workloads/BaseIterator.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nnbridge/exec.h"

namespace nnbridge::cpu_ref {

/// The backend object ("cpu").
std::shared_ptr<const Backend> backend();
/// Registers backend() with nnbridge::register_backend(); call once before find_backend("cpu").
void register_backend();
/// The canonical ops this backend has a kernel for, sorted.
std::vector<std::string> supported_ops();

}  // namespace nnbridge::cpu_ref
