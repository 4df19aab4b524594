// The OpenCL backend, registered as "opencl" (docs/architecture.md "Backends").
//
// It runs the same graphs as "cpu" on any OpenCL 1.2+ device (PoCL on the CPU in CI, GPUs
// elsewhere), with the same numeric rules: every tensor lives on the device as float32; inputs
// and constants of other dtypes are converted to float32 on the host first, and each node's
// result is rounded to the node's declared output dtype and back (quantized types: requantized
// with round half away from zero and clamping, Arm NN armnn::Quantize) by the very conversion
// functions cpu uses (nnbridge/exec/convert.h), so the two backends cannot disagree on that rule.
// float16 and bfloat16 are therefore computed in float32 and rounded per node (float16: ties
// away from zero, as cpu and Arm NN's Half.hpp; bfloat16: ties to even), bit for bit as cpu, on
// every device: no kernel uses the `half` type, so cl_khr_fp16 is neither needed nor used
// (PoCL's CPU device does not report it). Division and sqrt are correctly rounded, as cpu's,
// on every device that offers it (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT: PoCL, NVIDIA's driver);
// OpenCL's default allows 2.5 ulp for x / y, which moved a DynamicQuantizeLinear result one step
// on an NVIDIA H200 until the kernels were built with -cl-fp32-correctly-rounded-divide-sqrt.
//
// Options (BackendOptions::options):
//   opencl.device    = N | text   the N-th device of all platforms (0-based, in list_devices()
//                                 order), or the first whose "platform: device" name contains
//                                 `text` (case-sensitive). Default: the first GPU, else the first
//                                 device of any type. No match: Error(Invalid) listing the devices.
//   opencl.fallback  = none | cpu `cpu` adds "cpu" to BackendOptions::fallback: a node whose op
//                                 has no opencl kernel (or whose kernel refuses its form or fails
//                                 to build) runs on the cpu backend, found with find_backend("cpu")
//                                 (register it first), prepared with the caller's full options, so
//                                 the application's custom cpu kernels and extensions reach it; its
//                                 inputs are read back, run, and its outputs written to the device.
//                                 With `none` (the default) and an empty BackendOptions::fallback,
//                                 prepare() throws Error(Unsupported) naming the node and the op.
//                                 Plan::placement() says which backend runs each node.
//   opencl.cache_dir = DIR        keep built program binaries (clGetProgramInfo CL_PROGRAM_BINARIES)
//                                 in DIR (created if missing), one file per (platform, device
//                                 name, driver version, build options, source), written to a
//                                 temporary file and renamed into place; later prepares, in any
//                                 process, load them with clCreateProgramWithBinary instead of
//                                 compiling. A missing, truncated, corrupt or stale file (other
//                                 driver, other source: the file records the whole key, which is
//                                 compared) is ignored: the program is built from source and the
//                                 file rewritten. Never an error, nor is an unwritable DIR.
//                                 Default: no disk cache.
// Any other "opencl.*" key is Error(Unsupported), identifier nnbridge.unsupported.305
// (ErrorId::UnknownOption), as an unknown reader or writer option is.
//
// Custom layers: BackendOptions::custom_kernels may hold OpenVINO custom-layer sets
// (nnbridge::config::openvino_custom::custom_layer_set(), nnbridge/config/openvino_custom.h). A
// node runs the SimpleGPU layer named N, in preference to any built-in kernel, when its op is N,
// when it is an Arm NN StandIn layer (`armnn.StandIn`) named N, or a VkGraph operator `vk.N`:
// its inputs are the layer's input ports 0.., its outputs the output ports 0.. (or, when the
// layer's output port-indices only fit so, the IR port ids after the inputs), Define `param`s
// read the node's attributes. A <Tensor> asking for BYXF/FYXB/YXFB gets a device-side reorder;
// an ANY output is written in input 0's layout; type="internal" Tensors get scratch buffers kept
// by the plan. Replacing the built-in kernel is the precedence rule cpu custom kernels follow
// too (docs/api.md "Custom kernels and custom layers").
//
// Programs are built once per process for each (device, source text, build options) and kept
// in memory (the key compared whole, never just a hash of it); a build failure is Error(Backend) carrying the node, the kernel file and the
// compiler's build log. A plan holds one device buffer per tensor; run() calls on one plan are
// serialized (they share those buffers).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/exec.h"

namespace nnbridge::gpu {

/// The backend object ("opencl").
std::shared_ptr<const Backend> backend();
/// Registers backend() with nnbridge::register_backend(); call once before find_backend("opencl").
void register_backend();
/// The canonical ops this backend has a kernel for, sorted.
std::vector<std::string> supported_ops();

/// One OpenCL device as the ICD loader reports it.
struct DeviceInfo {
  int index = 0;          ///< position over all platforms, in platform then device order
  std::string platform;   ///< CL_PLATFORM_NAME
  std::string name;       ///< CL_DEVICE_NAME
  bool gpu = false;       ///< CL_DEVICE_TYPE includes CL_DEVICE_TYPE_GPU
  std::string version;    ///< CL_DEVICE_VERSION ("OpenCL 3.0 PoCL ...")
  std::string driver;     ///< CL_DRIVER_VERSION (the implementation's own version text)
};
/// Every device of every platform; empty when there is no OpenCL platform (no ICD installed).
/// Never throws.
std::vector<DeviceInfo> list_devices();
/// The device `opencl.device = spec` selects, by the rule above (the one prepare() applies; ""
/// is the default). Throws Error(Unsupported) when there is no OpenCL device at all,
/// Error(Invalid) when `spec` matches none (the message lists the devices), Error(Backend) when
/// the ICD fails while listing them.
DeviceInfo select_device(std::string_view spec);
/// The device `plan` runs on, when backend() prepared it; nullopt for another backend's plan and
/// for an input-bound plan (nnbridge/exec/input_bound.h: it prepares again, with the same
/// options, on each run, so select_device() of its opencl.device names the device). Never throws.
std::optional<DeviceInfo> plan_device(const Plan& plan);

}  // namespace nnbridge::gpu
