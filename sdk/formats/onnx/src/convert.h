// The version converter step of the reader.
#pragma once

#include <filesystem>
#include <memory>

#include "internal.h"

namespace nnbridge::formats::onnx {

/// `m` itself when it imports opset 17 of the default domain (or none), else the model ONNX's
/// version converter makes of it at opset 17 (after onnx::checker and shape inference; ir_version
/// at least 8; value_info only for the names the file had; external initializers as the file has
/// them). `path` (the model file, may be empty) lets the checker find external data. Throws
/// Error(Unsupported) naming the field for what the IR cannot hold (the converter would drop it),
/// Error(Invalid) when the checker refuses the model, and Error(Unsupported) with the converter's
/// message and the first node it fails on alone when it cannot convert.
std::shared_ptr<::onnx::ModelProto> to_opset17(std::shared_ptr<::onnx::ModelProto> m, const std::filesystem::path& path);

}  // namespace nnbridge::formats::onnx
