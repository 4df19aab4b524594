// The pre-release ("seed") layout: same tables, other union tags and LayerType values.
#include "armnn/ArmnnSeedSchema_generated.h"
#include "internal.h"
#include "nnbridge/error.h"

namespace nnbridge::formats::armnn {

namespace {
// Seed union order: Addition, Input, Multiplication, Output, Softmax (tags 1..5).
// Released tags of the same tables: Addition 2, Input 9, Multiplication 10, Output 11, Softmax 15.
constexpr uint8_t kReleasedTag[6] = {0, 2, 9, 10, 11, 15};
// Seed LayerType: Addition 0, Input 1, Multiplication 2, Output 3, Softmax 4 (released: 6).
constexpr uint32_t kReleasedType[5] = {0, 1, 2, 3, 6};
}  // namespace

Layout layout_option(const std::map<std::string, std::string, std::less<>>& options) {
  auto it = options.find("armnn.layout");
  if (it == options.end() || it->second == "released") return Layout::Released;
  if (it->second == "seed") return Layout::Seed;
  throw Error(ErrorId::OptionValue, "armnn.layout must be 'released' or 'seed', not '" + it->second + "'");
}

uint8_t seed_tag_to_released(uint8_t tag) { return tag < 6 ? kReleasedTag[tag] : 0; }
uint8_t released_tag_to_seed(uint8_t tag) {
  for (uint8_t i = 1; i < 6; ++i)
    if (kReleasedTag[i] == tag) return i;
  return 0;
}
uint32_t seed_type_to_released(uint32_t type) { return type < 5 ? kReleasedType[type] : type; }
uint32_t released_type_to_seed(uint32_t type) {
  for (uint32_t i = 0; i < 5; ++i)
    if (kReleasedType[i] == type) return i;
  return type;
}

bool looks_like_seed(std::span<const std::byte> bytes, const VerifierLimits& limits) {
  namespace seed = ::armnn::armnnSerializer;
  auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier::Options o;
  o.max_depth = limits.max_depth;
  o.max_tables = limits.max_tables;
  flatbuffers::Verifier v(p, bytes.size(), o);
  if (!v.VerifyBuffer<seed::SerializedGraph>(nullptr)) return false;
  const auto* g = flatbuffers::GetRoot<seed::SerializedGraph>(p);
  if (!g->layers() || g->layers()->size() == 0) return false;
  bool released_disagrees = false;
  for (const auto* any : *g->layers()) {
    auto tag = static_cast<uint8_t>(any->layer_type());
    if (tag < 1 || tag > 5 || !any->layer()) return false;
    const seed::LayerBase* base = nullptr;
    switch (any->layer_type()) {
      case seed::Layer::InputLayer: base = any->layer_as_InputLayer()->base() ? any->layer_as_InputLayer()->base()->base() : nullptr; break;
      case seed::Layer::OutputLayer: base = any->layer_as_OutputLayer()->base() ? any->layer_as_OutputLayer()->base()->base() : nullptr; break;
      case seed::Layer::AdditionLayer: base = any->layer_as_AdditionLayer()->base(); break;
      case seed::Layer::MultiplicationLayer: base = any->layer_as_MultiplicationLayer()->base(); break;
      case seed::Layer::SoftmaxLayer: base = any->layer_as_SoftmaxLayer()->base(); break;
      default: return false;
    }
    if (!base) return false;
    auto type = static_cast<uint32_t>(base->layerType());
    if (type != uint32_t(tag - 1)) return false;  // seed: tag = LayerType + 1
    // Under the released numbering the same tag names another layer type.
    static constexpr uint32_t kReleasedTypeOfTag[6] = {0, 9, 0, 14, 23, 12};  // Activation, Addition, BatchToSpaceNd, BatchNormalization, Constant
    if (kReleasedTypeOfTag[tag] != type) released_disagrees = true;
  }
  return released_disagrees;
}

}  // namespace nnbridge::formats::armnn
