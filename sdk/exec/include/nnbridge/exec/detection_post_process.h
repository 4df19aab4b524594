// armnn.DetectionPostProcess as both backends read it (cpu_ref/src/kernels/detection_post_process.cc,
// gpu/src/ops_detection.cc): the layer's descriptor with Arm NN's defaults and range checks, the
// shapes of its inputs and outputs, and the refusals, read once.
#pragma once

#include <algorithm>

#include "nnbridge/exec/armnn_params.h"

namespace nnbridge::exec {

/// One DetectionPostProcess node (Arm NN 20.08 DetectionPostProcessDescriptor, field names in
/// armnn.descriptor.*): box_encodings [1, num_boxes, 4], scores [1, num_boxes, num_classes + 1],
/// anchors [num_boxes, 4]; out_rows is the declared second dim of detection_boxes (the rows
/// written; those past the detection count are zeros).
struct DetectionPostProcess {
  unsigned max_detections = 0;             ///< maxDetections (default 0)
  unsigned max_classes_per_detection = 1;  ///< maxClassesPerDetection (default 1; fast NMS only)
  unsigned detections_per_class = 1;       ///< detectionsPerClass (default 1; regular NMS only)
  unsigned num_classes = 0;                ///< numClasses, without the background class
  float score_threshold = 0;               ///< nmsScoreThreshold: scores below it are dropped
  float iou_threshold = 0;                 ///< nmsIouThreshold: an IoU above it suppresses
  float scale_x = 0, scale_y = 0, scale_w = 0, scale_h = 0;  ///< scaleX, scaleY, scaleW, scaleH (default 0)
  bool regular = false;                    ///< useRegularNms (default false: fast NMS)
  unsigned num_boxes = 0, out_rows = 0;

  /// Fast NMS: the classes kept per box, min(maxClassesPerDetection, numClasses).
  unsigned classes_per_box() const { return std::min(max_classes_per_detection, num_classes); }
};

/// Reads node `ctx`: three inputs (box_encodings, scores, the anchors the Arm NN reader wires
/// third) and four float32 outputs (detection_boxes [1, D, 4], detection_classes and
/// detection_scores of D elements, num_detections of one). The unsigned attributes must lie in
/// [0, 2^24]. Error(Invalid) for another arity, an unsigned attribute out of range, numClasses 0,
/// maxClassesPerDetection 0 with fast NMS (Arm NN 20.08 CpuRef reads past an empty list there)
/// and shapes that disagree with each other or with numClasses; Error(Unsupported, DataType) for
/// an output that is not float32 (Arm NN writes them so).
DetectionPostProcess detection_post_process(const NodeContext& ctx);

}  // namespace nnbridge::exec
