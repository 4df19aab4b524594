#include "armnn/ArmnnSchema_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"

namespace nnbridge::formats::armnn {

namespace {

// Real Arm NN files carry no identifier: without "ARMN" at bytes 4..7, the root must be a
// table whose `layers` vector verifies and whose first layers (at most kSniffLayers) verify
// with a known union tag. The reader verifies the whole buffer afterwards; sniffing only
// tells formats apart, so it stays O(1) in the file size.
constexpr flatbuffers::uoffset_t kSniffLayers = 4;

bool sniff(std::span<const std::byte> bytes) {
  namespace fb = ::armnnSerializer;
  if (bytes.size() < 8 || bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) return false;
  auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (flatbuffers::BufferHasIdentifier(p, "ARMN")) return true;
  const size_t n = bytes.size();
  flatbuffers::Verifier v(p, n);
  if (!v.VerifyOffset(0)) return false;
  const auto* g = flatbuffers::GetRoot<fb::SerializedGraph>(p);
  if (!v.VerifyTableStart(reinterpret_cast<const uint8_t*>(g)) ||
      !reinterpret_cast<const flatbuffers::Table*>(g)->VerifyOffset(v, fb::SerializedGraph::VT_LAYERS))
    return false;
  const auto* layers = g->layers();
  if (!layers || !v.VerifyVector(layers) || layers->size() == 0) return false;
  for (flatbuffers::uoffset_t i = 0; i < layers->size() && i < kSniffLayers; ++i) {
    flatbuffers::Verifier vi(p, n);
    if (!vi.VerifyOffset(size_t(reinterpret_cast<const uint8_t*>(layers->Data()) - p) + size_t(i) * 4)) return false;
    const auto* l = layers->Get(i);
    if (!l->Verify(vi) || l->layer_type() == fb::Layer::NONE || !l->layer()) return false;
  }
  return true;
}

}  // namespace

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "armnn";
  h.description = "Arm NN serialized network (FlatBuffers, ArmnnSchema.fbs)";
  h.extensions = {"armnn"};
  h.reader_options = verifier_limit_options("armnn");
  h.reader_options.push_back("armnn.layout");
  h.writer_options = {"armnn.bindingIdsScheme", "armnn.weightsLayoutScheme", "armnn.constantTensorsAsInputs",
                      "armnn.fileIdentifier", "armnn.layout"};
  h.sniff = sniff;
  h.read = [](const Source& src, const LoadOptions& o) {
    LoadOptions with_limits = o;
    with_limits.limits = verifier_limits(o, "armnn");
    check_input_size(src.bytes.size(), with_limits.limits, "armnn");
    return read_graph(src, with_limits);
  };
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
    auto bytes = write_graph(g, o);
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
  };
  h.native_ops = "armnn";
  h.check = check_graph;
  return h;
}

}  // namespace nnbridge::formats::armnn
