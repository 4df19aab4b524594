// Device choice and the per-process program cache of the opencl backend.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <CL/opencl.hpp>

namespace nnbridge::gpu {

/// A chosen device with its context and in-order queue.
struct Device {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  std::string label;  ///< "platform: device"
  /// The embedded kernels' build options: "-cl-std=CL1.2", plus
  /// "-cl-fp32-correctly-rounded-divide-sqrt" where CL_DEVICE_SINGLE_FP_CONFIG offers
  /// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT. OpenCL 1.2 (section 7.4) lets single-precision x / y
  /// be 2.5 ulp off and sqrt 3 ulp unless asked; cpu's are IEEE-754 correctly rounded, and a
  /// quotient one ulp off moves rint(x / scale) across a .5 tie (NVIDIA's driver did that in
  /// ONNX's DynamicQuantizeLinear test). PoCL offers and honours the option.
  std::string build_options = "-cl-std=CL1.2";
  /// opencl.cache_dir (gpu.h): where get_program() keeps program binaries; empty = memory only.
  /// open_device() leaves it empty; prepare() copies the Device and sets it for its plan.
  std::filesystem::path cache_dir;
};

/// The device `spec` names (gpu.h "opencl.device"): empty = the first GPU, else the first
/// device; digits = that index; other text = the first device whose label contains it.
/// Throws Error(Unsupported) when there is no OpenCL device at all, Error(Invalid) when
/// `spec` matches none (the message lists the devices). Devices are opened once per process.
std::shared_ptr<const Device> open_device(std::string_view spec);

/// The program built from `source` for `dev`: from the in-memory cache (key: device, the full
/// source text and the build options, compared whole), else from dev.cache_dir when set (a
/// binary file whose recorded key matches; a missing, corrupt or stale file is ignored), else
/// built now from source (and then written to dev.cache_dir). A build failure throws
/// Error(Backend) whose message holds `what` (the node asking for it), `file` and the build log.
cl::Program get_program(const Device& dev, std::string_view file, const std::string& source, const std::string& what);
/// get_program() with the given build options instead of the embedded kernels'
/// Device::build_options (custom layers pass their CompilerOptions as written).
cl::Program get_program(const Device& dev, std::string_view file, const std::string& source, const std::string& what,
                        const std::string& options);
/// get_program() for the embedded kernel file `file` ("conv.cl").
cl::Program get_embedded_program(const Device& dev, std::string_view file, const std::string& what);
/// How many programs get_program() has built from source in this process.
int programs_built();
/// How many programs get_program() has loaded from a cache_dir binary in this process.
int programs_loaded();
/// Empties the in-memory program cache (tests: the next get_program() goes to disk or source).
void clear_program_cache();

}  // namespace nnbridge::gpu
