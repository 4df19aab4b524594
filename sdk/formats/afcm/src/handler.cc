#include "afcm/compiled_model_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/afcm.h"

namespace nnbridge::formats::afcm {
namespace {

bool sniff(std::span<const std::byte> bytes) {
  return bytes.size() >= 8 && flatbuffers::BufferHasIdentifier(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                               ::tflite::gpu::gl::data::CompiledModelIdentifier());
}

std::vector<uint8_t> write_graph(const Graph& g) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].op != kProgramOp)
      throw Error(ErrorId::NoForm,
                  "op '" + g.nodes[i].op + "' has no afcm form (a compiled model holds only gl.Program dispatches)", {},
                  "nodes[" + std::to_string(i) + "]" + (g.nodes[i].name.empty() ? "" : " '" + g.nodes[i].name + "'"));
  Model m = to_model(g, [](ErrorId id, const std::string& where, const std::string& msg) {
    throw Error(id, msg, {}, where);
  });
  return write_model(m);
}

}  // namespace

void check_graph(const Graph& g, std::vector<Issue>& issues) {
  Model m = to_model(
      g,
      [&](ErrorId, const std::string& where, const std::string& msg) {
        issues.push_back({Issue::Severity::Error, where, msg});
      },
      nullptr, /*only_programs=*/false);
  check_model(m, issues);
}

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "afcm";
  h.description = "TFLite GPU OpenGL compiled model (FlatBuffers, gl/compiled_model.fbs)";
  h.extensions = {"flow"};
  h.sniff = sniff;
  h.reader_options = verifier_limit_options("afcm");
  h.option_docs = verifier_limit_option_docs("afcm");
  h.read = [](const Source& src, const LoadOptions& o) {
    const VerifierLimits limits = verifier_limits(o, "afcm");
    check_input_size(src.bytes.size(), limits, "afcm");
    return to_graph(read_model(src, limits));
  };
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions&) {
    auto bytes = write_graph(g);
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
  };
  h.native_ops = "gl";
  h.check = check_graph;
  return h;
}

}  // namespace nnbridge::formats::afcm
