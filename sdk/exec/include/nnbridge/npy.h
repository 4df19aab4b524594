// NumPy .npy files (format versions 1.0, 2.0, 3.0: numpy/lib/format.py, NEP 1).
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "nnbridge/exec.h"

namespace nnbridge {

/// Decodes .npy bytes. Accepts versions 1, 2 and 3, C order only, little-endian (or
/// byte-order-free) dtypes '<f2' '<f4' '<f8' '|i1' '<i2' '<i4' '<i8' '|u1' '|b1'
/// (read as Float16, Float32, Float64, Int8, Int16, Int32, Int64, UInt8, Bool).
/// The tensor views `bytes` (kept alive by `owner`; pass nullptr to copy).
/// Throws Error(Malformed) naming `file` and the place ("header", "data") for a bad magic,
/// header, shape, size or truncated data; Error(Unsupported) for Fortran order, big-endian
/// or another dtype.
HostTensor parse_npy(std::span<const std::byte> bytes, const std::string& file = {},
                     std::shared_ptr<const void> owner = nullptr);
/// Maps and decodes `path` (no copy of the data). Throws Error(Io) when it cannot be read.
HostTensor read_npy(const std::filesystem::path& path);
/// Encodes a tensor: version 1.0 when the header fits 65535 bytes, else 2.0; the header is
/// padded so the data starts on a 64-byte boundary, as numpy does. Quantized types are
/// written as their storage type. Throws Error(Unsupported) for BFloat16 / Undefined.
std::vector<std::byte> encode_npy(const HostTensor& t);
/// Writes encode_npy(t) to `path` atomically (temporary file, then rename). Throws Error(Io)
/// naming the file.
void write_npy(const std::filesystem::path& path, const HostTensor& t);

}  // namespace nnbridge
