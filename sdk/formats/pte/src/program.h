// A verified Program and the facts the reader and the writer both need of it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "executorch/program_generated.h"
#include "internal.h"
#include "nnbridge/format.h"
#include "nnbridge/formats/pte.h"

namespace nnbridge::formats::pte {

namespace et = ::executorch_flatbuffer;

/// The Program of a .pte's bytes, verified: the identifier is ET12 (another ET.. identifier is
/// Error(Unsupported)), the flatbuffer [0, program_size) passes the verifier under `limits`, and
/// every segment lies inside the file (Error(Malformed) naming "segments[k]").
struct ProgramView {
  const et::Program* program = nullptr;
  std::optional<ExtendedHeader> header;
  std::size_t program_size = 0;
  /// Absolute [offset, offset + size) of each Program.segments entry.
  std::vector<std::pair<std::size_t, std::size_t>> segments;
};
ProgramView view_program(std::span<const std::byte> file, const VerifierLimits& limits);

/// The method to read: `wanted` when not empty, else "forward", else the only one.
/// Error(Invalid) naming the methods when there is no such method.
std::size_t choose_method(const et::Program& p, const std::string& wanted);

/// Where the single Vulkan delegate of a method lives.
struct VulkanCall {
  std::size_t delegate = 0;                       ///< index in plan.delegates
  const et::DelegateCall* call = nullptr;
  et::DataLocation location = et::DataLocation::INLINE;
  uint32_t index = 0;                             ///< segment or backend_delegate_data index
};
/// The method's one DelegateCall to "VulkanBackend"; Error(Unsupported) describing what the
/// method holds otherwise.
VulkanCall vulkan_call(const et::Program& p, std::size_t plan);

/// A method that is not one Vulkan delegate as native nodes (pte.h): KernelCall -> `et.<name>.<overload>`,
/// DelegateCall -> `et.delegate` (attributes et.backend, et.delegate_index), each with `et.args`
/// and its non-tensor arguments as `et.arg.<k>`; the tensor arguments already defined (inputs,
/// constants, earlier outputs) are the node's inputs, the others its outputs. Constants from the
/// constant segment (or constant_buffer), EXTERNAL tensors from `ptd` by fully qualified name.
/// Control flow (JumpFalseCall, MoveCall) is Error(Unsupported).
Graph native_method(const et::Program& p, const ProgramView& v, const Source& src, std::size_t plan_index, const NamedData* ptd);

/// "<name>.<overload>" of operator `k` of a plan.
std::string operator_name(const et::ExecutionPlan& plan, std::size_t k);

}  // namespace nnbridge::formats::pte
