// Device enumeration and choice; the program cache (in memory here, on disk in binary_cache.cc).
#include "device.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "binary_cache.h"
#include "embedded_kernels.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"

namespace nnbridge::gpu {

namespace {

struct Found {
  DeviceInfo info;
  cl::Device device;
};

std::vector<Found> enumerate() {
  std::vector<Found> out;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // CL_PLATFORM_NOT_FOUND_KHR: no ICD installed
  }
  for (const auto& p : platforms) {
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform without devices
    }
    for (const auto& d : devices) {
      Found f;
      f.info.index = static_cast<int>(out.size());
      f.info.platform = p.getInfo<CL_PLATFORM_NAME>();
      f.info.name = d.getInfo<CL_DEVICE_NAME>();
      f.info.gpu = (d.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
      f.info.version = d.getInfo<CL_DEVICE_VERSION>();
      f.info.driver = d.getInfo<CL_DRIVER_VERSION>();
      f.device = d;
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::string label_of(const DeviceInfo& i) { return i.platform + ": " + i.name; }

std::mutex g_mutex;
int g_built = 0, g_loaded = 0;
std::map<std::tuple<cl_device_id, std::string, std::string>, cl::Program> g_cache;  // guarded by g_mutex

}  // namespace

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  try {
    for (auto& f : enumerate()) out.push_back(f.info);
  } catch (const cl::Error&) {
  }
  return out;
}

namespace {

// The opencl.device rule (gpu.h): empty = the first GPU, else the first device; digits = that
// index; other text = the first device whose "platform: device" label contains it.
const Found& choose(const std::vector<Found>& all, std::string_view spec) {
  if (all.empty()) throw Error(ErrorId::UnsupportedOther, "the opencl backend found no OpenCL platform or device (is an ICD such as pocl-opencl-icd installed?)");
  const Found* pick = nullptr;
  if (spec.empty()) {
    auto gpu = std::find_if(all.begin(), all.end(), [](const Found& f) { return f.info.gpu; });
    pick = gpu != all.end() ? &*gpu : &all.front();
  } else if (std::all_of(spec.begin(), spec.end(), [](char c) { return c >= '0' && c <= '9'; }) && spec.size() < 6) {
    const std::size_t n = std::stoul(std::string(spec));
    if (n < all.size()) pick = &all[n];
  } else {
    for (const auto& f : all)
      if (label_of(f.info).find(spec) != std::string::npos) {
        pick = &f;
        break;
      }
  }
  if (!pick) {
    std::string list;
    for (const auto& f : all) list += "\n  " + std::to_string(f.info.index) + ": " + label_of(f.info);
    throw Error(ErrorId::OptionValue, "no OpenCL device matches opencl.device=\"" + std::string(spec) + "\"; devices:" + list);
  }
  return *pick;
}

}  // namespace

DeviceInfo select_device(std::string_view spec) {
  std::vector<Found> all;
  try {
    all = enumerate();
  } catch (const cl::Error& e) {
    throw Error(ErrorId::Device, std::string("opencl: listing the devices: ") + e.what() + " failed with " + std::to_string(e.err()));
  }
  return choose(all, spec).info;
}

std::shared_ptr<const Device> open_device(std::string_view spec) {
  static std::map<cl_device_id, std::shared_ptr<const Device>> opened;
  std::vector<Found> all = enumerate();
  const Found* pick = &choose(all, spec);
  std::lock_guard lock(g_mutex);
  auto& slot = opened[pick->device()];
  if (!slot) {
    auto d = std::make_shared<Device>();
    d->device = pick->device;
    d->context = cl::Context(d->device);
    d->queue = cl::CommandQueue(d->context, d->device);
    d->label = label_of(pick->info);
    if (d->device.getInfo<CL_DEVICE_SINGLE_FP_CONFIG>() & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)
      d->build_options += " -cl-fp32-correctly-rounded-divide-sqrt";
    slot = d;
  }
  return slot;
}

cl::Program get_program(const Device& dev, std::string_view file, const std::string& source, const std::string& what) {
  return get_program(dev, file, source, what, dev.build_options);
}

cl::Program get_program(const Device& dev, std::string_view file, const std::string& source, const std::string& what,
                        const std::string& options) {
  // The whole source and options are the key (not a hash of them): equal keys, equal programs.
  const auto key = std::make_tuple(dev.device(), source, options);
  std::lock_guard lock(g_mutex);
  if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
  if (std::optional<cl::Program> loaded = load_cached_binary(dev, source, options)) {
    ++g_loaded;
    g_cache.emplace(key, *loaded);
    return *loaded;
  }
  cl::Program program(dev.context, source);
  try {
    program.build(std::vector<cl::Device>{dev.device}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev.device);
    } catch (const cl::Error&) {
      log = "(no build log)";
    }
    throw Error(ErrorId::Build, what + ": building " + std::string(file) + " for " + dev.label + " failed (" +
                                        e.what() + " " + std::to_string(e.err()) + "); build log:\n" + log);
  }
  ++g_built;
  store_cached_binary(dev, program, source, options);
  g_cache.emplace(key, program);
  return program;
}

cl::Program get_embedded_program(const Device& dev, std::string_view file, const std::string& what) {
  for (const auto& s : embedded_sources())
    if (file == s.name) return get_program(dev, file, s.text, what);
  throw Error(ErrorId::Build, what + ": no embedded kernel file " + std::string(file));
}

int programs_built() {
  std::lock_guard lock(g_mutex);
  return g_built;
}

int programs_loaded() {
  std::lock_guard lock(g_mutex);
  return g_loaded;
}

void clear_program_cache() {
  std::lock_guard lock(g_mutex);
  g_cache.clear();
}

}  // namespace nnbridge::gpu
