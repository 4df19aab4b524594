// The operand checks of ONNX's integer and QLinear ops (ConvInteger-10, MatMulInteger-10,
// QLinearConv-10, QLinearMatMul-10) that both backends make before building their kernels.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "nnbridge/exec/node_context.h"

namespace nnbridge::exec {

/// Error(Unsupported) naming the input when one of `inputs` that is present is not a plain
/// integer type (nnbridge/dtype.h is_integer: the quantized types carry their own scales).
void require_plain_integers(const NodeContext& ctx, std::initializer_list<std::size_t> inputs);
/// The saturation range of a requantized output (y_zero_point's type): [0, 255] for uint8,
/// [-128, 127] for int8 (ONNX QLinearConv / QLinearMatMul); Error(Unsupported) for another type.
void requantized_range(const NodeContext& ctx, float& lo, float& hi);
/// Element count of optional input `i` holding one value per tensor or per channel: 0 when
/// absent, 1, or `n`; any other count is Error(Invalid) naming `what`.
int64_t per_channel_count(const NodeContext& ctx, std::size_t i, int64_t n, const char* what);

}  // namespace nnbridge::exec
