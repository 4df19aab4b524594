// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, the integer matrix products
// (MatMulInteger, QLinearMatMul; the integer convolutions are in conv_pool.cc), Cast, CastLike.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

// MatMul's inference on inputs a and b, with output dtype `dt`.
std::vector<TensorType> infer_integer_matmul(const InferenceContext& ctx, std::size_t a, std::size_t b, DataType dt) {
  const std::vector<TensorType> ab{input(ctx, a), input(ctx, b)};
  const std::vector<const Buffer*> none(2, nullptr);
  InferenceContext sub{ctx.node, ab, none, find_schema("MatMul")};
  std::vector<TensorType> out = find_schema("MatMul")->infer(sub);
  out.at(0).dtype = dt;
  return out;
}

}  // namespace

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
  OpSchema dyn = make_op(
      "DynamicQuantizeLinear", 1, 1, {},
      "Outputs y (UInt8, X's shape), y_scale (Float32 scalar) and y_zero_point (UInt8 scalar): scale = (max(0, max x) - "
      "min(0, min x)) / 255, zero_point = saturate(round_half_even(-min(0, min x) / scale)), y = saturate("
      "round_half_even(x / scale) + zero_point).",
      "ONNX DynamicQuantizeLinear-11", [](const InferenceContext& ctx) {
        const TensorType& x = input(ctx, 0);
        return std::vector<TensorType>{TensorType{DataType::UInt8, x.shape, x.unknown_rank, std::nullopt},
                                       TensorType{DataType::Float32, {}, false, std::nullopt},
                                       TensorType{DataType::UInt8, {}, false, std::nullopt}};
      });
  dyn.min_outputs = dyn.max_outputs = 3;
  out.push_back(std::move(dyn));
  out.push_back(make_op(
      "MatMulInteger", 2, 4, {},
      "Int32 Y = numpy.matmul(A - a_zero_point, B - b_zero_point), accumulated exactly in integers; a_zero_point a "
      "scalar or one per row of A, b_zero_point a scalar or one per column of B (absent: 0).",
      "ONNX MatMulInteger-10", [](const InferenceContext& ctx) { return infer_integer_matmul(ctx, 0, 1, DataType::Int32); }));
  out.push_back(make_op(
      "QLinearMatMul", 8, 8, {},
      "Inputs a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point. acc = numpy.matmul(a - a_zp, "
      "b - b_zp) exactly in integers; y = saturate(round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point) "
      "in y_zero_point's type. a's scale / zero point: a scalar or one per row; b's: a scalar or one per column.",
      "ONNX QLinearMatMul-10", [](const InferenceContext& ctx) {
        return infer_integer_matmul(ctx, 0, 3, ctx.input_types.size() > 7 ? ctx.input_types[7].dtype : DataType::Undefined);
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
          if (!p || *p == DataType::Undefined) fail(ErrorId::AttributeValue, "unknown dtype \"" + ctx.attr_string("to") + "\" in `to`");
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
