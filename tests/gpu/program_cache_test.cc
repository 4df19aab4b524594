// The opencl backend's program cache on disk (gpu.h "opencl.cache_dir"): binaries written on
// the first prepare, loaded instead of compiled on the next, and a damaged or foreign file
// ignored (rebuilt from source and rewritten) without changing any result.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "device.h"  // gpu/src: programs_built/programs_loaded/clear_program_cache
#include "nnbridge/gpu.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

// x [2, 3] -> Relu -> y.
Graph relu_graph() {
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{"Relu", "r", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  return g;
}

// Prepares and runs relu_graph() with the cache in `dir`; checks max(0, x) by hand.
void run_and_check(const fs::path& dir) {
  BackendOptions o;
  o.options["opencl.cache_dir"] = dir.string();
  auto plan = gpu::backend()->prepare(relu_graph(), o);
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(TensorType{DataType::Float32, {2, 3}, false, std::nullopt},
                                           std::vector<float>{-1, 2, -3, 4, 0, -0.5f});
  const TensorMap out = plan->run(in);
  auto y = out.at("y").values<float>();
  CHECK(std::vector<float>(y.begin(), y.end()) == std::vector<float>{0, 2, 0, 4, 0, 0});
}

std::vector<fs::path> binaries_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

}  // namespace

TEST_CASE("opencl cache_dir: binaries are written, loaded on the next prepare, and damaged files rebuilt") {
  if (gpu::list_devices().empty()) {
    test::skip("no OpenCL platform or device (install pocl-opencl-icd)");
    return;
  }
  const fs::path dir = test::temp_dir() / "clcache";  // not there yet: created on first store

  // First prepare: nothing in memory, nothing on disk -> built from source, one file written.
  gpu::clear_program_cache();
  int built = gpu::programs_built(), loaded = gpu::programs_loaded();
  run_and_check(dir);
  CHECK(gpu::programs_built() == built + 1);
  CHECK(gpu::programs_loaded() == loaded);
  const std::vector<fs::path> files = binaries_in(dir);
  REQUIRE(files.size() == 1);  // elementwise.cl; no temporary file left behind
  CHECK(files[0].extension() == ".clbin");
  const auto full_size = fs::file_size(files[0]);

  // Second prepare with the memory cache emptied (as in a new process): loaded from disk.
  gpu::clear_program_cache();
  built = gpu::programs_built(), loaded = gpu::programs_loaded();
  run_and_check(dir);
  CHECK(gpu::programs_built() == built);
  CHECK(gpu::programs_loaded() == loaded + 1);

  // Truncated file: ignored, rebuilt from source, rewritten whole.
  fs::resize_file(files[0], full_size / 2);
  gpu::clear_program_cache();
  built = gpu::programs_built(), loaded = gpu::programs_loaded();
  run_and_check(dir);
  CHECK(gpu::programs_built() == built + 1);
  CHECK(gpu::programs_loaded() == loaded);
  CHECK(fs::file_size(files[0]) == full_size);

  // A file recording another key (one byte of the stored platform name changed, as a file of
  // another driver at the same name would): ignored and rewritten.
  {
    std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(17 + 8);  // past "nnbridge-clbin-1\n" and the key size
    f.put('\x01');
  }
  gpu::clear_program_cache();
  built = gpu::programs_built(), loaded = gpu::programs_loaded();
  run_and_check(dir);
  CHECK(gpu::programs_built() == built + 1);
  CHECK(gpu::programs_loaded() == loaded);

  // The rewritten file loads again.
  gpu::clear_program_cache();
  loaded = gpu::programs_loaded();
  run_and_check(dir);
  CHECK(gpu::programs_loaded() == loaded + 1);
  CHECK(binaries_in(dir).size() == 1);
}

TEST_CASE("opencl cache_dir: an unwritable directory is not an error") {
  if (gpu::list_devices().empty()) {
    test::skip("no OpenCL platform or device (install pocl-opencl-icd)");
    return;
  }
  const fs::path file = test::temp_dir() / "not_a_dir";
  std::ofstream(file) << "x";  // cache_dir names a regular file: nothing can be stored under it
  gpu::clear_program_cache();
  run_and_check(file / "sub");
}
