#include "armnn/ArmnnSchema_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"

namespace nnbridge::formats::armnn {

namespace {

// Real Arm NN files carry no identifier: without "ARMN" at bytes 4..7, the bytes must
// verify as a SerializedGraph with at least one layer whose union tag is known.
bool sniff(std::span<const std::byte> bytes) {
  if (bytes.size() < 8 || bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) return false;
  auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (flatbuffers::BufferHasIdentifier(p, "ARMN")) return true;
  flatbuffers::Verifier v(p, bytes.size());
  if (!v.VerifyBuffer<::armnnSerializer::SerializedGraph>(nullptr)) return false;
  const auto* g = flatbuffers::GetRoot<::armnnSerializer::SerializedGraph>(p);
  if (!g->layers() || g->layers()->size() == 0) return false;
  for (const auto* l : *g->layers())
    if (!l || l->layer_type() == ::armnnSerializer::Layer::NONE || !l->layer()) return false;
  return true;
}

}  // namespace

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "armnn";
  h.description = "Arm NN serialized network (FlatBuffers, ArmnnSchema.fbs)";
  h.extensions = {"armnn"};
  h.sniff = sniff;
  h.read = [](const Source& src, const LoadOptions& o) { return read_graph(src, o); };
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
    auto bytes = write_graph(g, o);
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
  };
  return h;
}

}  // namespace nnbridge::formats::armnn
