// The on-disk program cache of the opencl backend (gpu.h "opencl.cache_dir").
//
// One file per program, `<dir>/<16 hex digits>.clbin`, the digits being the 64-bit FNV-1a hash
// of the key (platform name, device name, driver version, build options, source text). The file
// holds the whole key and the device binary (clGetProgramInfo CL_PROGRAM_BINARIES); a load
// compares the stored key with the wanted one byte for byte, so neither a hash collision nor a
// driver update can hand back a wrong program. Layout (integers little-endian as written by
// this host): "nnbridge-clbin-1\n", u64 key size, key, u64 binary size, binary, nothing after.
#pragma once

#include <optional>
#include <string>

#include "device.h"

namespace nnbridge::gpu {

/// The program for (`dev`, `source`, `options`) created from the binary in dev.cache_dir and
/// built; std::nullopt when dev.cache_dir is empty or the file is missing, unreadable,
/// truncated, of another key, or rejected by the driver. Never throws.
std::optional<cl::Program> load_cached_binary(const Device& dev, const std::string& source, const std::string& options);

/// Writes `program`'s binary for dev.device to dev.cache_dir (created if missing) through a
/// temporary file renamed into place, so readers never see half a file. Does nothing when
/// dev.cache_dir is empty; failures (read-only directory, full disk) are ignored. Never throws.
void store_cached_binary(const Device& dev, const cl::Program& program, const std::string& source,
                         const std::string& options);

}  // namespace nnbridge::gpu
