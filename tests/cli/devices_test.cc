// `nnbridge devices [--json]` and the device `run --json` names, judged against the OpenCL ICD
// loader read here directly through OpenCL's C API (clGetPlatformIDs, clGetDeviceIDs,
// clGetDeviceInfo), not through nnbridge's enumeration; with no platform (OCL_ICD_VENDORS pointing
// the ocl-icd loader at an empty folder) the command must say so and succeed.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nnbridge/io.h"
#include "process.h"
#include "support/paths.h"

using namespace nnbridge;
using namespace nnbridge::test;
namespace fs = std::filesystem;

namespace {

struct IcdDevice {
  std::string platform, name, version, driver;
  bool gpu = false;
};

std::string text_of(cl_int (*get)(void*, cl_uint, size_t, void*, size_t*), void* obj, cl_uint what) {
  size_t n = 0;
  if (get(obj, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  get(obj, what, n, s.data(), nullptr);
  return std::string(s.c_str());  // up to the terminating NUL
}

cl_int platform_info(void* p, cl_uint w, size_t n, void* v, size_t* r) {
  return clGetPlatformInfo(static_cast<cl_platform_id>(p), w, n, v, r);
}
cl_int device_info(void* d, cl_uint w, size_t n, void* v, size_t* r) {
  return clGetDeviceInfo(static_cast<cl_device_id>(d), w, n, v, r);
}

// Every device of every platform, in platform then device order.
std::vector<IcdDevice> icd_devices() {
  std::vector<IcdDevice> out;
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devices(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      IcdDevice x;
      x.platform = text_of(platform_info, p, CL_PLATFORM_NAME);
      x.name = text_of(device_info, d, CL_DEVICE_NAME);
      x.version = text_of(device_info, d, CL_DEVICE_VERSION);
      x.driver = text_of(device_info, d, CL_DRIVER_VERSION);
      cl_device_type type = 0;
      clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      x.gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
      out.push_back(x);
    }
  }
  return out;
}

// gpu.h's documented default: the first GPU, else the first device.
int default_index(const std::vector<IcdDevice>& all) {
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].gpu) return static_cast<int>(i);
  return all.empty() ? -1 : 0;
}

void check_entry(const nlohmann::json& e, const IcdDevice& d, int index) {
  CHECK(e.at("index") == index);
  CHECK(e.at("platform") == d.platform);
  CHECK(e.at("name") == d.name);
  CHECK(e.at("gpu") == d.gpu);
  CHECK(e.at("version") == d.version);
  CHECK(e.at("driver") == d.driver);
}

// x [2, 3] float32 -> Relu -> y, x = [-1, 2, -3, 4, 0, 5] in dir/in as a hand-written .npy.
fs::path relu_model(const fs::path& dir) {
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{"Relu", "relu", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  save(g, dir / "model.json");
  fs::create_directories(dir / "in");
  // NumPy format 1.0: magic, version, little-endian header length, header padded to 128 bytes.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  header.resize(128 - 10 - 1, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  const float x[] = {-1, 2, -3, 4, 0, 5};
  bytes.append(reinterpret_cast<const char*>(x), sizeof x);
  write_file(dir / "in" / "x.npy", bytes);
  return dir / "model.json";
}

}  // namespace

TEST_CASE("devices --json: the backends and every OpenCL device the ICD loader reports") {
  const std::vector<IcdDevice> icd = icd_devices();
  RunResult r = run_cli({"devices", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("backends") == nlohmann::json::array({"cpu", "opencl"}));
  CHECK(j.at("opencl").at("built") == true);
  const auto& devices = j.at("opencl").at("devices");
  REQUIRE(devices.size() == icd.size());
  for (std::size_t i = 0; i < icd.size(); ++i) check_entry(devices[i], icd[i], static_cast<int>(i));
  const int def = default_index(icd);
  if (def < 0) CHECK(j.at("opencl").at("default").is_null());
  else CHECK(j.at("opencl").at("default") == def);
  if (icd.empty()) MESSAGE("no OpenCL platform here: only the empty listing was checked");
}

TEST_CASE("devices: one line per device with its index and names and the default starred") {
  const std::vector<IcdDevice> icd = icd_devices();
  RunResult r = run_cli({"devices"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.rfind("backends: cpu, opencl\n", 0) == 0);
  if (icd.empty()) {
    CHECK(r.out.find("no OpenCL platform is installed") != std::string::npos);
    return;
  }
  const int def = default_index(icd);
  for (std::size_t i = 0; i < icd.size(); ++i) {
    const std::string start = "\n  " + std::to_string(i) + (static_cast<int>(i) == def ? " *" : "  ");
    const auto at = r.out.find(start);
    REQUIRE_MESSAGE(at != std::string::npos, r.out);
    const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    CHECK(line.find(icd[i].platform) != std::string::npos);
    CHECK(line.find(icd[i].name) != std::string::npos);
    CHECK(line.find(icd[i].driver) != std::string::npos);
    CHECK(line.find(icd[i].gpu ? "yes" : "no") != std::string::npos);
  }
}

TEST_CASE("devices: with no OpenCL platform installed it says so and exits 0") {
  const fs::path empty = temp_dir() / "no-icds";
  fs::create_directories(empty);
  // ocl-icd reads the vendor .icd files from OCL_ICD_VENDORS instead of /etc/OpenCL/vendors.
  RunResult r = run_program({"/usr/bin/env", "OCL_ICD_VENDORS=" + empty.string(), NNBRIDGE_CLI, "devices"});
  CHECK_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("opencl: no OpenCL platform is installed") != std::string::npos);
  r = run_program({"/usr/bin/env", "OCL_ICD_VENDORS=" + empty.string(), NNBRIDGE_CLI, "devices", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("opencl").at("devices").empty());
  CHECK(j.at("opencl").at("default").is_null());
}

TEST_CASE("run --json: names the OpenCL device and driver the opencl plan ran on") {
  const std::vector<IcdDevice> icd = icd_devices();
  if (icd.empty()) {
    skip("no OpenCL platform or device (install pocl-opencl-icd)");
    return;
  }
  const fs::path dir = temp_dir();
  const fs::path model = relu_model(dir);
  auto run = [&](const std::vector<std::string>& extra, const std::string& out) {
    std::vector<std::string> args = {"run", model.string(), "--inputs", (dir / "in").string(), "--outputs", (dir / out).string(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunResult r = run_cli(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return nlohmann::json::parse(r.out);
  };
  // Default: gpu.h's rule, the first GPU else the first device.
  nlohmann::json s = run({"--backend", "opencl"}, "o1");
  CHECK(s.at("backend") == "opencl");
  const int def = default_index(icd);
  check_entry(s.at("device"), icd[def], def);
  // By index and by a substring of "platform: device": the last device.
  const int last = static_cast<int>(icd.size()) - 1;
  s = run({"--backend", "opencl", "--device", std::to_string(last)}, "o2");
  check_entry(s.at("device"), icd[last], last);
  s = run({"--backend", "opencl", "--device", icd[last].name}, "o3");
  int first_match = 0;
  while ((icd[first_match].platform + ": " + icd[first_match].name).find(icd[last].name) == std::string::npos) ++first_match;
  check_entry(s.at("device"), icd[first_match], first_match);
  // cpu names no OpenCL device.
  s = run({"--backend", "cpu"}, "o4");
  CHECK_FALSE(s.contains("device"));
}
