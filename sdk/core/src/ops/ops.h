// Internal helpers shared by the op-family files: attribute declarations and shape arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"

namespace nnbridge::ops {

// ---- declaring schemas ----
AttrSpec optional_attr(std::string name, AttrType type, Attr default_value, std::string doc);
/// An optional attribute without a default (its absence means something, e.g. Conv kernel_shape).
AttrSpec optional_attr(std::string name, AttrType type, std::string doc);
AttrSpec required_attr(std::string name, AttrType type, std::string doc);
/// `data_layout` ("NCHW" | "NHWC", default "NCHW"): where the channel dimension is.
AttrSpec data_layout_attr();

/// A schema with `inputs` in [min_in, max_in] (max -1: variadic) and one output.
OpSchema make_op(std::string name, int min_in, int max_in, std::vector<AttrSpec> attrs, std::string doc,
                 std::string source, ShapeInferenceFn infer);
/// Inference for ops whose single output has the type and shape of input 0.
std::vector<TensorType> same_as_input0(const InferenceContext& ctx);

// ---- shape inference ----
/// Throws Error(Shape): inputs whose shapes or ranks do not fit the op.
[[noreturn]] void fail(const std::string& message);
/// Throws Error(id), for the failures that are not about shapes (AttributeValue, Arity).
[[noreturn]] void fail(ErrorId id, const std::string& message);
/// The type of input `i`; throws Error(Invalid) when the node has fewer inputs.
const TensorType& input(const InferenceContext& ctx, std::size_t i);
TensorType unknown_rank(DataType dtype);
bool rank_known(const TensorType& t);
// normalize_axis(axis, rank, what): nnbridge/axis.h, the one axis rule of every layer.
/// NumPy broadcasting of two shapes (-1 = unknown). Throws on incompatible known dims.
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
/// Broadcasts all inputs (kNoValue inputs skipped); dtype from `dtype_input`, or `dtype` if set.
TensorType broadcast_inputs(const InferenceContext& ctx, std::optional<DataType> dtype = std::nullopt);
/// The contents of a constant Int32/Int64 1-D input, or nullopt when not constant.
std::optional<std::vector<int64_t>> constant_ints(const InferenceContext& ctx, std::size_t input);
/// The contents of a constant Float32/Float64 input, or nullopt when not constant (or another dtype).
std::optional<std::vector<double>> constant_floats(const InferenceContext& ctx, std::size_t input);
/// Whether the node has input `i` (present and not kNoValue: an optional input left out is not given).
bool input_given(const InferenceContext& ctx, std::size_t i);
/// The element count of 1-D input `i` when its type says it (shape [k], k known), else -1.
int64_t length_of(const InferenceContext& ctx, std::size_t i);
/// The contents of a constant input of a numeric dtype (floating, integer or Bool; not quantized)
/// as doubles, or nullopt when not constant.
std::optional<std::vector<double>> constant_values(const InferenceContext& ctx, std::size_t input);
/// The declared dtype of output `i` when it is one of `allowed`, else `fallback`.
DataType declared_dtype(const InferenceContext& ctx, std::size_t i, std::initializer_list<DataType> allowed,
                        DataType fallback);
/// True when `data_layout` is "NHWC"; throws for a value other than NCHW/NHWC.
bool is_nhwc(const InferenceContext& ctx);
/// Index of the channel axis and of spatial axis `i` for a tensor of `rank` (N first).
inline int64_t channel_axis(bool nhwc, int64_t rank) { return nhwc ? rank - 1 : 1; }
inline int64_t spatial_axis(bool nhwc, int64_t i) { return nhwc ? 1 + i : 2 + i; }
/// a + b and a * b on attribute values from untrusted files; throw Error(Invalid) on int64 overflow.
int64_t checked_add(int64_t a, int64_t b);
int64_t checked_mul(int64_t a, int64_t b);
/// Multiplies two dims where -1 is unknown.
int64_t mul_dims(int64_t a, int64_t b);
/// Product of dims in [from, to), -1 if any is unknown.
int64_t product(const std::vector<int64_t>& shape, std::size_t from, std::size_t to);
/// Checks an attribute list's length.
void expect_size(const std::vector<int64_t>& v, std::size_t n, const char* what);

// ---- one registration function per op family ----
void add_elementwise_ops(std::vector<OpSchema>& out);
void add_activation_ops(std::vector<OpSchema>& out);
void add_conv_pool_ops(std::vector<OpSchema>& out);
void add_normalization_ops(std::vector<OpSchema>& out);
void add_tensor_shape_ops(std::vector<OpSchema>& out);
void add_slice_gather_ops(std::vector<OpSchema>& out);
void add_reduce_ops(std::vector<OpSchema>& out);
void add_quantize_ops(std::vector<OpSchema>& out);
void add_misc_ops(std::vector<OpSchema>& out);
void add_index_ops(std::vector<OpSchema>& out);
void add_value_shaped_ops(std::vector<OpSchema>& out);
void add_matrix_ops(std::vector<OpSchema>& out);
void add_axis_ops(std::vector<OpSchema>& out);
void add_loss_ops(std::vector<OpSchema>& out);
void add_rnn_ops(std::vector<OpSchema>& out);

}  // namespace nnbridge::ops
