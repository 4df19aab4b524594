// Helpers for the `validate` / `run --settings` / `--benchmark-event` CLI tests: .npy element
// access by hand (the NumPy format's header rule, not nnbridge's reader) and protoc as the
// independent decoder of BenchmarkEvent files.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "process.h"
#include "support/shell_cli.h"

namespace nnbridge::test {

/// Byte offset of the data in a version 1.0 .npy file: 6 magic bytes, 2 version bytes, a
/// little-endian uint16 header length, the header (NumPy format.md, "Format Version 1.0").
inline std::size_t npy_data_offset(const std::string& bytes) {
  return 10 + (static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8));
}

/// Element `i` of a float32 .npy file's bytes.
inline float npy_float(const std::string& bytes, std::size_t i) {
  float v;
  std::memcpy(&v, bytes.data() + npy_data_offset(bytes) + 4 * i, 4);
  return v;
}

inline void set_npy_float(std::string& bytes, std::size_t i, float v) {
  std::memcpy(bytes.data() + npy_data_offset(bytes) + 4 * i, &v, 4);
}

/// `protoc --decode=tflite.proto.BenchmarkEvent` of `file` against schemas/tflite_accel.
inline std::optional<std::string> protoc_decode_event(const std::filesystem::path& file) {
  const std::filesystem::path proto = NNBRIDGE_TFLITE_ACCEL_PROTO;
  const std::string cmd = std::string("'") + NNBRIDGE_PROTOC + "' --decode=tflite.proto.BenchmarkEvent -I " +
                          q(proto.parent_path()) + " " + q(proto) + " < " + q(file) + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    MESSAGE("protoc --decode failed: " << out);
    return std::nullopt;
  }
  return out;
}

/// True when `text` contains `part`; prints `text` otherwise, to show what was there instead.
inline bool contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  MESSAGE("\"" << part << "\" not in:\n" << text);
  return false;
}

}  // namespace nnbridge::test
