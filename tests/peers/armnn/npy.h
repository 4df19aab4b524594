// A minimal NumPy .npy (format version 1.0) reader and writer for the peer harness.
// Format: NumPy NEP 1 / numpy.lib.format: magic "\x93NUMPY", version 1.0, little-endian uint16
// header length, a Python-literal dict {'descr', 'fortran_order', 'shape'} padded with spaces to a
// multiple of 64 bytes (ending in '\n'), then the raw C-order data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace peer {

struct NpyArray {
  std::string descr;            ///< NumPy dtype string, e.g. "<f4", "|u1", "|b1".
  std::vector<uint64_t> shape;  ///< Dimensions, outermost first (C order); empty for a scalar.
  std::vector<uint8_t> data;    ///< Raw little-endian element bytes.
};

/// Writes `a` to `path`; throws std::runtime_error on I/O failure.
void write_npy(const std::filesystem::path& path, const NpyArray& a);
/// Reads a version 1.x/2.x C-order .npy file; throws std::runtime_error on anything else.
NpyArray read_npy(const std::filesystem::path& path);

}  // namespace peer
