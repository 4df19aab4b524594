#include "armnn/ArmnnSchema_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"
#include "ops.h"

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

// The layer type a node was read from (and is written as): `armnn.layer` where the reader set it
// (a layer whose row is not the op's first, an Output layer), else the op's first row, as the
// writer picks it. Nodes of no layer (armnn.InputSlotOverride) have none.
std::string layer_of(const Node& n) {
  if (auto it = n.attrs.find("armnn.layer"); it != n.attrs.end() && it->second.is<std::string>())
    return it->second.get<std::string>();
  const OpRow* r = row_for_op(n.op, "");
  return r ? r->layer : std::string();
}

}  // namespace

/// Meanings and defaults of the armnn writer options, shared with armnn-json (json_form.cc).
std::map<std::string, OptionDoc, std::less<>> writer_option_docs(const std::string& prefix) {
  return {
      {prefix + ".bindingIdsScheme",
       {"featureVersions.bindingIdsScheme: 0 binds inputs/outputs by layer index, 1 by layerBindingId",
        "the read graph's, else 1"}},
      {prefix + ".weightsLayoutScheme",
       {"featureVersions.weightsLayoutScheme: depthwise weights as [M, I, H, W] (0) or [1, H, W, I*M] (1)",
        "the read graph's, else 0"}},
      {prefix + ".constantTensorsAsInputs",
       {"featureVersions.constantTensorsAsInputs: weights inside the layer (0) or as Constant layers (1)",
        "the read graph's, else 0"}},
  };
}

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "armnn";
  h.description = "Arm NN serialized network (FlatBuffers, ArmnnSchema.fbs)";
  h.extensions = {"armnn"};
  h.reader_options = verifier_limit_options("armnn");
  h.reader_options.push_back("armnn.layout");
  h.writer_options = {"armnn.bindingIdsScheme", "armnn.weightsLayoutScheme", "armnn.constantTensorsAsInputs",
                      "armnn.fileIdentifier", "armnn.layout"};
  h.option_docs = verifier_limit_option_docs("armnn");
  h.option_docs.merge(writer_option_docs("armnn"));
  h.option_docs["armnn.layout"] = {
      "reader: released | seed (the pre-release seed schema's union order, read only when asked for); "
      "writer: the layout to write",
      "released (writer: the read graph's)"};
  h.option_docs["armnn.fileIdentifier"] = {"1 writes the \"ARMN\" file identifier, 0 leaves it out",
                                           "the read graph's, else 1"};
  h.native_op = layer_of;
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
