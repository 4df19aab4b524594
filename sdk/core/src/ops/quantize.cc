// QuantizeLinear, DequantizeLinear, Cast, CastLike.
#include "ops/ops.h"

namespace nnbridge::ops {

void add_quantize_ops(std::vector<OpSchema>& out) {
  const std::string one_input =
      " With one input, scale and zero point come from the quantized tensor type's quantization (Arm NN).";
  out.push_back(make_op(
      "QuantizeLinear", 1, 3,
      {optional_attr("axis", AttrType::Int, Attr(int64_t{1}), "the per-axis quantization axis")},
      "q = saturate(round(x / scale) + zero_point). Output type is the declared quantized type (else the zero "
      "point's type, else UInt8 per ONNX)." + one_input,
      "ONNX QuantizeLinear-13; Arm NN Quantize", [](const InferenceContext& ctx) {
        const TensorType& x = input(ctx, 0);
        DataType fallback = ctx.input_types.size() > 2 && ctx.node.inputs[2] != kNoValue ? ctx.input_types[2].dtype
                                                                                         : DataType::UInt8;
        DataType dt = declared_dtype(ctx, 0,
                                     {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16,
                                      DataType::UInt8, DataType::Int8, DataType::Int16},
                                     fallback);
        return std::vector<TensorType>{TensorType{dt, x.shape, x.unknown_rank, std::nullopt}};
      }));
  out.push_back(make_op(
      "DequantizeLinear", 1, 3,
      {optional_attr("axis", AttrType::Int, Attr(int64_t{1}), "the per-axis quantization axis")},
      "x = (q - zero_point) * scale. Output Float32 unless the file declares Float16." + one_input,
      "ONNX DequantizeLinear-13; Arm NN Dequantize", [](const InferenceContext& ctx) {
        const TensorType& x = input(ctx, 0);
        DataType dt = declared_dtype(ctx, 0, {DataType::Float32, DataType::Float16}, DataType::Float32);
        return std::vector<TensorType>{TensorType{dt, x.shape, x.unknown_rank, std::nullopt}};
      }));
  out.push_back(make_op(
      "Cast", 1, 1,
      {optional_attr("to", AttrType::String,
                     "target dtype by nnbridge name (\"float32\", ...); absent: the declared output type. "
                     "(ONNX uses a TensorProto enum int here)")},
      "Converts each element to the target dtype: float to integer truncates toward zero (then saturates); a "
      "quantized input converts its storage integers and a quantized output stores the converted value (the "
      "quantization parameters take no part). Shape unchanged.",
      "ONNX Cast-13; Arm NN Cast (RefCastWorkload: quantization reset to scale 1, offset 0; Signed32 by static_cast)",
      [](const InferenceContext& ctx) {
        const TensorType& x = input(ctx, 0);
        DataType dt = DataType::Undefined;
        if (ctx.attr("to")) {
          auto p = parse_data_type(ctx.attr_string("to"));
          if (!p || *p == DataType::Undefined) fail("unknown dtype \"" + ctx.attr_string("to") + "\" in `to`");
          dt = *p;
        } else if (!ctx.declared_output_types.empty()) {
          dt = ctx.declared_output_types[0].dtype;
        }
        return std::vector<TensorType>{TensorType{dt, x.shape, x.unknown_rank, std::nullopt}};
      }));
  out.push_back(make_op("CastLike", 2, 2, {},
                        "Cast (above) of input 0 to the dtype of input 1 (target_type); input 1's values are not read. "
                        "Shape of input 0.",
                        "ONNX CastLike-15", [](const InferenceContext& ctx) {
                          const TensorType& x = input(ctx, 0);
                          return std::vector<TensorType>{
                              TensorType{input(ctx, 1).dtype, x.shape, x.unknown_rank, std::nullopt}};
                        }));
}

}  // namespace nnbridge::ops
