// The writer's external data: which initializers go to which data file, at which offset.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "internal.h"

namespace nnbridge::formats::onnx {

/// Where one initializer's bytes go.
struct Placement {
  std::string location;  ///< relative to the model's folder
  uint64_t offset = 0, length = 0;
  /// TensorProto.external_data entries, in order.
  std::vector<std::pair<std::string, std::string>> entries;
};

struct ExternalPlan {
  std::unordered_map<ValueId, Placement> placed;
  struct File {
    std::string location;
    std::vector<std::pair<uint64_t, ValueId>> parts;  ///< offset, value
    uint64_t size = 0;
  };
  std::vector<File> files;
};

/// Decides the layout from the writer options onnx.external_data (auto | true | false),
/// onnx.external_data_threshold (bytes) and onnx.external_data_location (formats/onnx.h).
/// Throws Error(Invalid) for a bad option value or an unsafe location.
ExternalPlan plan_external(const Graph& g, const std::filesystem::path& model, const SaveOptions& o);
/// The TensorProto of an external initializer: name, dims, data_type, doc_string, location.
void external_header(const Value& v, const Placement& p, ::onnx::TensorProto& t);
/// Writes the data files and the model in one atomic step (write_files_atomic). A data file
/// that exists is replaced only when the model file being replaced names it, or with the
/// writer option onnx.overwrite_external_data=true; one that already holds the same bytes (the
/// source's, converting beside it) is left alone; otherwise Error(Io) naming it.
void write_with_external(const Graph& g, const std::filesystem::path& model, std::span<const std::byte> bytes,
                         const ExternalPlan& plan, const SaveOptions& o);

}  // namespace nnbridge::formats::onnx
