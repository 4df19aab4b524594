// Operand checks of the integer and QLinear ops (nnbridge/exec/integer_ops.h).
#include "nnbridge/exec/integer_ops.h"

#include <string>

#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

void require_plain_integers(const NodeContext& ctx, std::initializer_list<std::size_t> inputs) {
  for (std::size_t i : inputs)
    if (ctx.has_input(i) && !is_integer(ctx.in[i].dtype))
      ctx.unsupported(ErrorId::DataType, "input " + std::to_string(i) + " is " + std::string(to_string(ctx.in[i].dtype)) +
                      " (plain integer operands are implemented)");
}

void requantized_range(const NodeContext& ctx, float& lo, float& hi) {
  switch (ctx.out[0].dtype) {
    case DataType::UInt8: lo = 0, hi = 255; return;
    case DataType::Int8: lo = -128, hi = 127; return;
    default: ctx.unsupported(ErrorId::DataType, "output type " + std::string(to_string(ctx.out[0].dtype)) + " (uint8 or int8 are implemented)");
  }
}

int64_t per_channel_count(const NodeContext& ctx, std::size_t i, int64_t n, const char* what) {
  if (!ctx.has_input(i)) return 0;
  const int64_t c = numel(ctx.in[i].shape);
  if (c != 1 && c != n) ctx.invalid(ErrorId::Shape, std::string(what) + " must have 1 or " + std::to_string(n) + " elements");
  return c;
}

}  // namespace nnbridge::exec
