// ValueInfoProto / TypeProto <-> a Value's TensorType and its `onnx.*` attributes.
#pragma once

#include <string>

#include "internal.h"

namespace nnbridge::formats::onnx {

/// Sets `v.type` and the attributes that keep what TensorType does not (dim_param names,
/// denotations, an absent type or elem_type, the doc_string) from `info`. Throws
/// Error(Unsupported) naming `where` for a type that is not a tensor (sequence, map, optional,
/// sparse tensor) or an element type nnbridge has no dtype for.
void type_from_onnx(const ::onnx::ValueInfoProto& info, Value& v, const std::string& where);
/// The ValueInfoProto of `v` as type_from_onnx would read it back (name, type, doc_string).
::onnx::ValueInfoProto type_to_onnx(const Value& v);
/// The type an initializer's ValueInfoProto states: its data_type and dims, nothing else.
::onnx::ValueInfoProto type_of_constant(const Value& v);

}  // namespace nnbridge::formats::onnx
