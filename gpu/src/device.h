// Device choice and the per-process program cache of the opencl backend.
#pragma once

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
};

/// The device `spec` names (gpu.h "opencl.device"): empty = the first GPU, else the first
/// device; digits = that index; other text = the first device whose label contains it.
/// Throws Error(Unsupported) when there is no OpenCL device at all, Error(Invalid) when
/// `spec` matches none (the message lists the devices). Devices are opened once per process.
std::shared_ptr<const Device> open_device(std::string_view spec);

/// The program built from `source` for `dev`, from the in-memory cache keyed by device, source
/// hash and build options, else built now. A build failure throws Error(Backend) whose message
/// holds `what` (the node asking for it), `file` and the compiler's build log.
cl::Program get_program(const Device& dev, std::string_view file, const std::string& source, const std::string& what);
/// get_program() for the embedded kernel file `file` ("conv.cl").
cl::Program get_embedded_program(const Device& dev, std::string_view file, const std::string& what);
/// How many programs get_program() has built in this process (the cache's misses).
int programs_built();

}  // namespace nnbridge::gpu
