// The on-disk program cache (binary_cache.h).
#include "binary_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

namespace nnbridge::gpu {

namespace {

constexpr char kMagic[] = "nnbridge-clbin-1\n";

std::string key_of(const Device& dev, const std::string& source, const std::string& options) {
  const cl::Platform platform(dev.device.getInfo<CL_DEVICE_PLATFORM>());
  std::string key;
  for (const std::string& part : {platform.getInfo<CL_PLATFORM_NAME>(), dev.device.getInfo<CL_DEVICE_NAME>(),
                                  dev.device.getInfo<CL_DRIVER_VERSION>(), options})
    key += part + '\0';
  return key + source;
}

// FNV-1a, 64 bits (http://www.isthe.com/chongo/tech/comp/fnv/): only names the file; the key
// stored inside decides.
std::filesystem::path file_of(const Device& dev, const std::string& key) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.clbin", static_cast<unsigned long long>(h));
  return dev.cache_dir / name;
}

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

bool get_u64(const std::string& in, std::size_t& pos, uint64_t& v) {
  if (in.size() - pos < sizeof v) return false;
  std::memcpy(&v, in.data() + pos, sizeof v);
  pos += sizeof v;
  return true;
}

}  // namespace

std::optional<cl::Program> load_cached_binary(const Device& dev, const std::string& source, const std::string& options) {
  if (dev.cache_dir.empty()) return std::nullopt;
  try {
    const std::string key = key_of(dev, source, options);
    std::ifstream f(file_of(dev, key), std::ios::binary);
    if (!f) return std::nullopt;
    const std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::size_t magic = sizeof kMagic - 1;
    if (data.compare(0, magic, kMagic) != 0) return std::nullopt;
    std::size_t pos = magic;
    uint64_t n = 0;
    if (!get_u64(data, pos, n) || n != key.size() || data.size() - pos < n || data.compare(pos, n, key) != 0)
      return std::nullopt;
    pos += n;
    if (!get_u64(data, pos, n) || n == 0 || data.size() - pos != n) return std::nullopt;
    cl::Program::Binaries binaries{std::vector<unsigned char>(data.begin() + static_cast<std::ptrdiff_t>(pos), data.end())};
    std::vector<cl_int> status;
    cl::Program program(dev.context, std::vector<cl::Device>{dev.device}, binaries, &status);
    if (status.empty() || status[0] != CL_SUCCESS) return std::nullopt;
    program.build(std::vector<cl::Device>{dev.device}, options.c_str());
    return program;
  } catch (...) {  // cl::Error from a rejected binary, a filesystem error: rebuild from source
    return std::nullopt;
  }
}

void store_cached_binary(const Device& dev, const cl::Program& program, const std::string& source,
                         const std::string& options) {
  if (dev.cache_dir.empty()) return;
  static std::atomic<unsigned> counter{0};
  std::filesystem::path tmp;
  try {
    const std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.size() != 1 || binaries[0].empty()) return;
    const std::string key = key_of(dev, source, options);
    std::string data(kMagic);
    put_u64(data, key.size());
    data += key;
    put_u64(data, binaries[0].size());
    data.append(binaries[0].begin(), binaries[0].end());
    std::error_code ec;
    std::filesystem::create_directories(dev.cache_dir, ec);
    const std::filesystem::path target = file_of(dev, key);
    tmp = target;
    tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      f.write(data.data(), static_cast<std::streamsize>(data.size()));
      f.close();
      if (!f) throw std::runtime_error("write failed");
    }
    std::filesystem::rename(tmp, target);  // atomic on POSIX within one directory
  } catch (...) {
    std::error_code ec;
    if (!tmp.empty()) std::filesystem::remove(tmp, ec);
  }
}

}  // namespace nnbridge::gpu
