// TensorInfo and ConstTensor <-> TensorType and Buffer, with lossless residuals.
//
// The rule used throughout this folder ("derive and diff"): the writer derives every field
// it can from the IR (here: a TensorType); the reader compares the fields in the file with
// what the writer would derive and keeps only the differences, as `<prefix><field>` attrs
// (and `<prefix>absent`, the fields the file leaves out that the writer would write). So a
// float32 tensor from Arm NN carries no extra attrs, and a deprecated enum value or an odd
// scale survives a round-trip.
#pragma once

#include <string>

#include "armnn/ArmnnSchema_generated.h"
#include "fields.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::formats::armnn {

/// Records in `attrs` how `actual` differs from `derived` (keys prefixed by `prefix`).
void diff_fields(const FieldMap& actual, const FieldMap& derived, const std::string& prefix, AttrMap& attrs);
/// Applies the residuals recorded by diff_fields; `accept(key)` filters which attrs apply.
void overlay_fields(FieldMap& fields, const AttrMap& attrs, const std::string& prefix,
                    const std::function<bool(std::string_view)>& accept = {});

/// Arm NN DataType enum value <-> DataType. Throws Error(Unsupported) naming `where`.
DataType from_armnn_dtype(int64_t v, const std::string& where);
int64_t to_armnn_dtype(DataType t, const std::string& where);

/// TensorInfo fields (as read by read_fields) -> TensorType. Throws Error(Malformed).
TensorType tensor_type_of(const FieldMap& info, const std::string& where);
/// The TensorInfo fields a writer derives from `t`.
FieldMap derive_tensor_info(const TensorType& t, const std::string& where);

/// The common case without the generic field walk: true (and `out` set) when `info` is a
/// TensorInfo whose every field is what derive_tensor_info would write for its type, so that
/// read_tensor_info would record no residual; false otherwise (nothing thrown, `out` unspecified).
/// With `residuals` set, also a non-quantized type whose quantizationScale or quantizationOffset
/// is not 0 (flatc leaves an absent quantizationScale at the schema default, 1.0): those two are
/// recorded there under `prefix`, as read_tensor_info's comparison by value would (-0.0 is no
/// residual, NaN is one), and nothing else is touched when false is returned.
bool read_plain_tensor_info(const armnnSerializer::TensorInfo* info, TensorType& out, AttrMap* residuals = nullptr,
                            const std::string& prefix = {});

/// Reads a TensorInfo table into its type plus residual attrs under `prefix`.
TensorType read_tensor_info(const armnnSerializer::TensorInfo* info, const std::string& prefix, AttrMap& attrs,
                            const std::string& where);
/// Builds a TensorInfo table for `t` with the residuals under `prefix` applied.
flatbuffers::uoffset_t write_tensor_info(flatbuffers::FlatBufferBuilder& b, const TensorType& t,
                                         const AttrMap& attrs, const std::string& prefix, const std::string& where);

/// A ConstTensor as a constant Value (no copy: a view into `src`). Residual attrs of its
/// info go under `info_prefix`. Checks data size and data kind against the TensorInfo.
/// With `reference` set, the info residuals are taken against that type (a Constant layer's
/// output slot type) instead of the ConstTensor's own.
Value read_const_tensor(const armnnSerializer::ConstTensor* ct, const Source& src, const std::string& info_prefix,
                        const std::string& where, const TensorType* reference = nullptr);
/// Builds a ConstTensor from a constant value (info residuals under `info_prefix`).
flatbuffers::uoffset_t write_const_tensor(flatbuffers::FlatBufferBuilder& b, const Value& v,
                                          const std::string& info_prefix, const std::string& where);

/// Depthwise weights between Arm NN's layouts: [M, I, H, W] (weightsLayoutScheme 0) and
/// [1, H, W, I*M] (scheme 1, kernel_layout "1HWO"); output channel o = i * M + m. Copies.
/// `in_channels` (I) is needed going back to [M, I, H, W]. Throws Error(Unsupported).
Value permute_depthwise(const Value& v, bool to_1hwo, int64_t in_channels);
/// Depthwise weights of an ONNX Conv with group = I (kernel_layout "OIHW", [I*M, 1, H, W],
/// output channel o = i * M + m) in Arm NN's [M, I, H, W] or [1, H, W, I*M]. Copies. Throws
/// Error(Unsupported) when the shape is not [I*M, 1, H, W] for `in_channels` I.
Value depthwise_from_oihw(const Value& v, bool to_1hwo, int64_t in_channels);

}  // namespace nnbridge::formats::armnn
