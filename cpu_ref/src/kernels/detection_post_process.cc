// armnn.DetectionPostProcess: SSD box decoding and non-maximum suppression as Arm NN 20.08
// CpuRef computes them (armnn/src/backends/reference/workloads/DetectionPostProcess.cpp, after
// TfLite's detection_postprocess custom op).
//
// Inputs: box_encodings [1, N, 4] (ty, tx, th, tw per anchor), scores [1, N, numClasses + 1]
// (class 0 is the background and is skipped), anchors [N, 4] (ycenter, xcenter, h, w; the
// layer's constant, wired by the reader as the third input). Attributes
// armnn.descriptor.{maxDetections, maxClassesPerDetection, detectionsPerClass,
// nmsScoreThreshold, nmsIouThreshold, numClasses, useRegularNms, scaleX, scaleY, scaleW,
// scaleH}. Outputs (float32): detection_boxes [1, D, 4] (ymin, xmin, ymax, xmax),
// detection_classes [1, D] (class index without the background), detection_scores [1, D],
// num_detections [1]; D is the declared second dim of detection_boxes. Rows past the number
// of detections are zeros.
//
// Decoding: yc = ty / scaleY * ha + ya, xc = tx / scaleX * wa + xa,
// h/2 = 0.5 exp(th / scaleH) ha, w/2 = 0.5 exp(tw / scaleW) wa.
// NMS (per list of scores): keep scores >= nmsScoreThreshold, order by score (std::partial_sort,
// descending), walk that order taking every box not yet suppressed until the limit is reached;
// every visited box, taken or not, suppresses the later ones whose IoU with it exceeds
// nmsIouThreshold.
// Regular NMS: NMS per class with limit detectionsPerClass, then the maxDetections best of all
// classes. Fast NMS: each box's best min(maxClassesPerDetection, numClasses) classes form one
// score list on which NMS runs once with limit maxDetections. As in CpuRef, fast NMS scans only
// the first N entries of that list and takes entry k's box corners from box k: with more than
// one class per box, entry k belongs to box k / classesPerBox, so the IoU is computed on other
// boxes than the ones output. Kept so that results equal CpuRef's.
// The node's attributes, shapes and refusals are the exec floor's (nnbridge/exec/
// detection_post_process.h), which opencl reads too (gpu/src/ops_detection.cc).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "armnn_params.h"
#include "nnbridge/exec/detection_post_process.h"

namespace nnbridge::cpu_ref {

namespace {

std::vector<unsigned> iota_k(unsigned k) {
  std::vector<unsigned> v(k);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// Puts the indices of the k largest values first, in descending order.
void top_k(unsigned k, unsigned* idx, const float* values, unsigned n) {
  std::partial_sort(idx, idx + k, idx + n, [values](unsigned i, unsigned j) { return values[i] > values[j]; });
}

float iou(const float* a, const float* b) {
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  const float ymin = std::max(a[0], b[0]), xmin = std::max(a[1], b[1]);
  const float ymax = std::min(a[2], b[2]), xmax = std::min(a[3], b[3]);
  const float inter = std::max(ymax - ymin, 0.0f) * std::max(xmax - xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}

// Indices into `scores` (read as box indices for `corners`) that survive NMS, best first.
std::vector<unsigned> nms(unsigned num_boxes, const std::vector<float>& corners, const std::vector<float>& scores,
                          float score_threshold, unsigned limit, float iou_threshold) {
  std::vector<float> kept_scores;
  std::vector<unsigned> kept;
  for (unsigned i = 0; i < num_boxes; ++i)
    if (scores[i] >= score_threshold) {
      kept_scores.push_back(scores[i]);
      kept.push_back(i);
    }
  const unsigned n = static_cast<unsigned>(kept.size());
  std::vector<unsigned> order = iota_k(n);
  top_k(n, order.data(), kept_scores.data(), n);
  const unsigned wanted = std::min(limit, n);
  std::vector<unsigned> result;
  std::vector<bool> suppressed(n, false);
  for (unsigned i = 0; i < n; ++i) {
    if (result.size() >= wanted) break;
    if (!suppressed[order[i]]) result.push_back(kept[order[i]]);
    for (unsigned j = i + 1; j < n; ++j)
      if (iou(&corners[kept[order[i]] * 4], &corners[kept[order[j]] * 4]) > iou_threshold) suppressed[order[j]] = true;
  }
  return result;
}

Kernel make_dpp(const KernelContext& ctx) {
  const exec::DetectionPostProcess c = exec::detection_post_process(ctx);
  return [c](std::span<const float* const> in, std::span<float* const> out) {
    const float *enc = in[0], *score_in = in[1], *anchors = in[2];
    std::vector<float> corners(static_cast<std::size_t>(c.num_boxes) * 4);
    for (unsigned i = 0; i < c.num_boxes; ++i) {
      const float* e = enc + i * 4;
      const float* a = anchors + i * 4;
      const float yc = e[0] / c.scale_y * a[2] + a[0];
      const float xc = e[1] / c.scale_x * a[3] + a[1];
      const float half_h = 0.5f * std::exp(e[2] / c.scale_h) * a[2];
      const float half_w = 0.5f * std::exp(e[3] / c.scale_w) * a[3];
      corners[i * 4 + 0] = yc - half_h;
      corners[i * 4 + 1] = xc - half_w;
      corners[i * 4 + 2] = yc + half_h;
      corners[i * 4 + 3] = xc + half_w;
    }
    const unsigned with_bg = c.num_classes + 1;
    std::vector<float> scores(score_in, score_in + static_cast<std::size_t>(c.num_boxes) * with_bg);

    std::vector<unsigned> order, boxes, classes;
    std::vector<float> picked;
    unsigned num_out = 0;
    if (c.regular) {
      std::vector<float> class_scores(c.num_boxes);
      for (unsigned k = 0; k < c.num_classes; ++k) {
        for (unsigned i = 0; i < c.num_boxes; ++i) class_scores[i] = scores[i * with_bg + k + 1];
        for (unsigned i : nms(c.num_boxes, corners, class_scores, c.score_threshold, c.detections_per_class, c.iou_threshold)) {
          boxes.push_back(i);
          picked.push_back(class_scores[i]);
          classes.push_back(k);
        }
      }
      const unsigned selected = static_cast<unsigned>(boxes.size());
      num_out = std::min(c.max_detections, selected);
      order = iota_k(selected);
      top_k(num_out, order.data(), picked.data(), selected);
    } else {
      const unsigned per_box = c.classes_per_box();
      for (unsigned b = 0; b < c.num_boxes; ++b) {
        const float* s = scores.data() + b * with_bg + 1;
        std::vector<unsigned> best = iota_k(c.num_classes);
        top_k(per_box, best.data(), s, c.num_classes);
        for (unsigned i = 0; i < per_box; ++i) {
          picked.push_back(s[best[i]]);
          classes.push_back(best[i]);
          boxes.push_back(b);
        }
      }
      order = nms(c.num_boxes, corners, picked, c.score_threshold, c.max_detections, c.iou_threshold);
      num_out = std::min(c.max_detections, static_cast<unsigned>(order.size()));
    }

    float *out_boxes = out[0], *out_classes = out[1], *out_scores = out[2];
    for (unsigned i = 0; i < c.out_rows; ++i) {
      const bool real = i < num_out;
      const unsigned e = real ? order[i] : 0;
      out_scores[i] = real ? picked[e] : 0.f;
      out_classes[i] = real ? static_cast<float>(classes[e]) : 0.f;
      for (int k = 0; k < 4; ++k) out_boxes[i * 4 + k] = real ? corners[boxes[e] * 4 + k] : 0.f;
    }
    out[3][0] = static_cast<float>(num_out);
  };
}

}  // namespace

void add_detection_post_process_kernels(KernelTable& t) { t["armnn.DetectionPostProcess"] = make_dpp; }

}  // namespace nnbridge::cpu_ref
