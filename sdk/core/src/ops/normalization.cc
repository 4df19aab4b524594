// Normalizations.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

std::vector<TensorType> infer_layer_norm(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  std::vector<TensorType> outs = same_as_input0(ctx);
  if (ctx.node.outputs.size() > 1) {
    // ONNX LayerNormalization-17: Mean and InvStdDev keep X's rank with dims from `axis` on set to 1.
    TensorType stat = x;
    stat.quantization.reset();
    if (!x.unknown_rank) {
      int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
      for (std::size_t i = static_cast<std::size_t>(axis); i < stat.shape.size(); ++i) stat.shape[i] = 1;
    }
    for (std::size_t i = 1; i < ctx.node.outputs.size(); ++i) outs.push_back(stat);
  } else if (!x.unknown_rank) {
    normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  }
  return outs;
}

std::vector<TensorType> same_checking_layout(const InferenceContext& ctx) {
  is_nhwc(ctx);
  return same_as_input0(ctx);
}

}  // namespace

void add_normalization_ops(std::vector<OpSchema>& out) {
  auto eps = [](double d) { return optional_attr("epsilon", AttrType::Float, Attr(d), "added to the variance"); };
  out.push_back(make_op("BatchNormalization", 5, 5, {eps(1e-5), data_layout_attr()},
                        "Inference form: scale * (X - mean) / sqrt(var + epsilon) + B, per channel; inputs X, "
                        "scale [C], B [C], mean [C], var [C]. Output has X's type.",
                        "ONNX BatchNormalization-15 (inference); Arm NN BatchNormalization", same_checking_layout));
  out.push_back(make_op("InstanceNormalization", 1, 3,
                        {eps(1e-5), data_layout_attr(),
                         optional_attr("gamma", AttrType::Float, Attr(1.0), "scalar scale when input `scale` is absent"),
                         optional_attr("beta", AttrType::Float, Attr(0.0), "scalar bias when input `B` is absent")},
                        "Per instance and channel: scale * (x - mean) / sqrt(var + epsilon) + B over the spatial "
                        "dims; inputs X, [scale [C]], [B [C]].",
                        "ONNX InstanceNormalization-6; Arm NN InstanceNormalization (scalar gamma/beta)",
                        same_checking_layout));
  out.push_back(make_op("LpNormalization", 1, 1,
                        {optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "the axis normalized over"),
                         optional_attr("p", AttrType::Int, Attr(int64_t{2}), "the norm's order (1 or 2)"),
                         optional_attr("epsilon", AttrType::Float, Attr(0.0),
                                       "lower bound of the squared norm: x / sqrt(max(sum x^2, epsilon)) (Arm NN)")},
                        "x / ||x||_p along `axis`.",
                        "ONNX LpNormalization-1; Arm NN L2Normalization (eps)", [](const InferenceContext& ctx) {
                          const TensorType& x = input(ctx, 0);
                          if (!x.unknown_rank) normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
                          return same_as_input0(ctx);
                        }));
  out.push_back(make_op("LRN", 1, 1,
                        {optional_attr("alpha", AttrType::Float, Attr(1e-4), "scale"),
                         optional_attr("beta", AttrType::Float, Attr(0.75), "exponent"),
                         optional_attr("bias", AttrType::Float, Attr(1.0), "offset (Arm NN k)"),
                         required_attr("size", AttrType::Int, "number of channels summed over (diameter)"),
                         data_layout_attr()},
                        "Local response normalization across channels: x / (bias + alpha/size * sum x^2)^beta.",
                        "ONNX LRN-13; Arm NN Normalization (Across, LocalBrightness)", same_checking_layout));
  OpSchema ln = make_op("LayerNormalization", 2, 3,
                        {optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "first normalized axis"),
                         eps(1e-5)},
                        "Normalizes over dims [axis, rank): (x - mean) / sqrt(var + epsilon) * scale + B; optional "
                        "outputs Mean and InvStdDev.",
                        "ONNX LayerNormalization-17", infer_layer_norm);
  ln.max_outputs = 3;
  out.push_back(std::move(ln));
}

}  // namespace nnbridge::ops
