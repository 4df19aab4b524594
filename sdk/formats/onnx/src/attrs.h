// AttributeProto <-> Attr, and the unknown-field check shared by the reader.
#pragma once

#include <string>

#include "internal.h"

namespace nnbridge::formats::onnx {

/// One node attribute. INT, FLOAT, STRING and their lists are Attr values; a TENSOR is kept as
/// its serialized TensorProto (Bytes). Graph-valued (If/Loop/Scan bodies), sparse-tensor and
/// type-valued attributes, tensor lists and references to function attributes are
/// Error(Unsupported) naming `where`; an attribute without a type is Error(Malformed).
Attr attr_from_onnx(const ::onnx::AttributeProto& a, const std::string& where);
/// The inverse: Int and Bool -> INT, Float -> FLOAT, String -> STRING, lists likewise, Bytes ->
/// TENSOR (a serialized TensorProto). Throws Error(Invalid) naming `where` for bytes that do not
/// parse as one.
void attr_to_onnx(const std::string& name, const Attr& a, ::onnx::AttributeProto& out, const std::string& where);

/// The first field protobuf did not know (a newer ONNX, or damage) anywhere in `m`, as a path
/// ("graph.node[3]: field 17"); empty when there is none.
std::string first_unknown_field(const google::protobuf::Message& m, const std::string& path);

}  // namespace nnbridge::formats::onnx
