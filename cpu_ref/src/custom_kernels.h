// How the cpu backend uses custom kernels (nnbridge/cpu_kernel_api.h, KernelRegistry in
// nnbridge/cpu_ref.h): the registry's entries, kernel choice per node, the custom shape
// function, and the Kernel closure that hands a custom compute function its buffers.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel.h"
#include "nnbridge/cpu_ref.h"

namespace nnbridge::cpu_ref {

struct KernelRegistry::Entry {
  // Declared first, so destroyed last: the kernel's std::function objects were built by the
  // library's code and are destroyed by it. Null for the application's kernels.
  std::shared_ptr<void> library;
  CustomKernel kernel;
  std::string source;  ///< "the application" or the library's path
};

struct RegistryAccess {
  static std::shared_ptr<const KernelRegistry::Entry> find(const KernelRegistry& r, std::string_view op, DataType dtype);
  /// Adds `e` after the same checks as KernelRegistry::add.
  static void add(KernelRegistry& r, std::shared_ptr<const KernelRegistry::Entry> e);
};

/// The custom kernels one prepare() sees: the "cpu" sets of options.custom_kernels, then the
/// libraries of options.extensions loaded in order. Throws as KernelRegistry::add / load_extension.
KernelRegistry effective_kernels(const BackendOptions& options);

/// The dtype a node's kernel is chosen by: its first input's, else its first declared output's.
DataType kernel_dtype(const Graph& g, const Node& n);

/// The custom kernel that runs a node of `op` and `dtype`, or null (the built-in one, if any):
/// one registered for (op, dtype), else for (op, any dtype), whether or not a built-in kernel
/// exists (the precedence rule of both backends, docs/api.md "Custom kernels and custom layers").
std::shared_ptr<const KernelRegistry::Entry> choose_custom(const KernelRegistry& r, std::string_view op, DataType dtype);

/// For the error about a node without a kernel: " (custom kernels for OP exist for float16, ...)"
/// when some are registered for other dtypes, else empty.
std::string other_dtypes_note(const KernelRegistry& r, std::string_view op);

/// The output types the custom kernel's shape function gives node `index` of `g` (with its
/// current input types), or nullopt when it has none. Throws Error: Invalid for a wrong count
/// of types or an std::invalid_argument from the function, Unsupported for other exceptions,
/// an nnbridge::Error's own code.
std::optional<std::vector<TensorType>> custom_infer(const KernelRegistry::Entry& e, const Graph& g, std::size_t index);

/// The Kernel that runs `e` for the node of `ctx` (types resolved): converts the backend's
/// float32 buffers to each tensor's storage form and back when the dtype is not float32.
/// Exceptions from the compute function become Error(Backend) prefixed with `label`.
Kernel make_custom_kernel(std::shared_ptr<const KernelRegistry::Entry> e, const KernelContext& ctx, std::string label);

}  // namespace nnbridge::cpu_ref
