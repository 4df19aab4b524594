// nnbridge/exec/detection_post_process.h: armnn.DetectionPostProcess's node, read once for both
// backends.
#include "nnbridge/exec/detection_post_process.h"

#include <string>

namespace nnbridge::exec {

DetectionPostProcess detection_post_process(const NodeContext& ctx) {
  if (ctx.in.size() != 3 || ctx.out.size() != 4)
    ctx.invalid(ErrorId::Arity, "needs box_encodings, scores and the anchors, and 4 outputs (boxes, classes, scores, num_detections)");
  auto u = [&](const char* name, int64_t fallback) {
    const int64_t v = ctx.attr_int(std::string("armnn.descriptor.") + name, fallback);
    if (v < 0 || v > (int64_t{1} << 24)) ctx.invalid(ErrorId::AttributeValue, std::string(name) + " is out of range");
    return static_cast<unsigned>(v);
  };
  auto f = [&](const char* name, double fallback) { return static_cast<float>(ctx.attr_float(std::string("armnn.descriptor.") + name, fallback)); };
  DetectionPostProcess c;
  c.max_detections = u("maxDetections", 0);
  c.max_classes_per_detection = u("maxClassesPerDetection", 1);
  c.detections_per_class = u("detectionsPerClass", 1);
  c.num_classes = u("numClasses", 0);
  if (c.num_classes == 0) ctx.invalid(ErrorId::AttributeValue, "numClasses must be at least 1");
  c.score_threshold = f("nmsScoreThreshold", 0);
  c.iou_threshold = f("nmsIouThreshold", 0);
  c.regular = ctx.attr_int("armnn.descriptor.useRegularNms", 0) != 0;
  // Fast NMS runs over the first numBoxes of the per-box top scores; with no class kept per box
  // there are none, and Arm NN 20.08 CpuRef reads past its empty score list (undefined).
  if (!c.regular && c.max_classes_per_detection == 0)
    ctx.invalid(ErrorId::AttributeValue, "maxClassesPerDetection must be at least 1 with fast NMS (useRegularNms false)");
  c.scale_x = f("scaleX", 0);
  c.scale_y = f("scaleY", 0);
  c.scale_w = f("scaleW", 0);
  c.scale_h = f("scaleH", 0);

  const Shape& bs = ctx.in[0].shape;
  if (bs.size() != 3 || bs[0] != 1 || bs[2] != 4) ctx.invalid(ErrorId::Shape, "box_encodings must be [1, numBoxes, 4]");
  c.num_boxes = static_cast<unsigned>(bs[1]);
  if (numel(ctx.in[1].shape) != int64_t{c.num_boxes} * (c.num_classes + 1))
    ctx.invalid(ErrorId::Shape, "scores must be [1, numBoxes, numClasses + 1]");
  if (numel(ctx.in[2].shape) != int64_t{c.num_boxes} * 4) ctx.invalid(ErrorId::Shape, "anchors must be [numBoxes, 4]");
  const Shape& ob = ctx.out[0].shape;
  if (ob.size() != 3 || ob[2] != 4) ctx.invalid(ErrorId::Shape, "detection_boxes must be [1, maxDetections, 4]");
  c.out_rows = static_cast<unsigned>(ob[1]);
  if (numel(ctx.out[1].shape) != c.out_rows || numel(ctx.out[2].shape) != c.out_rows || numel(ctx.out[3].shape) != 1)
    ctx.invalid(ErrorId::Shape, "detection_classes and detection_scores must have maxDetections elements, num_detections one");
  for (const TensorType& t : ctx.out)
    if (t.dtype != DataType::Float32) ctx.unsupported(ErrorId::DataType, "DetectionPostProcess outputs must be float32 (as Arm NN writes them)");
  return c;
}

}  // namespace nnbridge::exec
