// libFuzzer harness for OpenVINO custom-layer XML (sdk/config/openvino_custom): text ->
// parse_custom_layers() (sources resolved, not read) -> every SimpleGPU layer's work-size
// formulas evaluated over fixed dims, and its JIT defines built for an empty op.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.h"
#include "nnbridge/config/openvino_custom.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  namespace ov = nnbridge::config::openvino_custom;
  namespace fuzz = nnbridge::fuzz;
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  ov::LoadCustomLayersOptions options;
  options.require_sources = false;
  ov::CustomLayerConfig config;
  if (!fuzz::clean([&] { config = ov::parse_custom_layers(xml, "/nonexistent/fuzz.xml", options); })) return 0;
  const ov::Dims dims{1, 3, 5, 7};
  for (const ov::SimpleGpuLayer& layer : config.gpu_layers) {
    for (const auto* formulas : {&layer.global, &layer.local})
      for (const std::string& f : *formulas) fuzz::clean([&] { (void)ov::evaluate_work_size(f, dims); });
    fuzz::clean([&] { (void)ov::user_defines(layer, {}); });
  }
  for (const ov::MvclLayer& layer : config.mvcl_layers)
    for (const ov::MvclKernel& k : layer.kernels)
      for (const auto* formulas : {&k.global, &k.local})
        for (const std::string& f : *formulas) fuzz::clean([&] { (void)ov::is_legal_work_size(f); });
  fuzz::completed();
  return 0;
}
