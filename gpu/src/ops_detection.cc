// armnn.DetectionPostProcess on the opencl backend (kernels/detection.cl): SSD box decoding and
// non-maximum suppression as cpu computes them (cpu_ref/src/kernels/detection_post_process.cc,
// after Arm NN 20.08 CpuRef), ties included. The node's attributes, shapes and refusals are the
// exec floor's (nnbridge/exec/detection_post_process.h), the ones cpu reads.
//
// Three kernels per run: the boxes decoded in parallel; the selection on one work-group (NMS
// walks its ranking in order and every step depends on the ones before: item 0 sorts, the group
// shares out the filtering and each step's suppression); the output rows in parallel. The
// selection's scratch lives in two device buffers sized here from num_boxes, num_classes and
// the work-group's size, so nothing in the kernels has a fixed size.
#include <algorithm>

#include "nnbridge/exec/detection_post_process.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

Launch detection_post_process(const OpContext& c) {
  const exec::DetectionPostProcess d = exec::detection_post_process(c.k);
  const int64_t N = d.num_boxes, C = d.num_classes;
  // Indexing in the kernels: scores [N, C + 1] and corners [N, 4] as ints.
  c.to_int(N * (C + 1));
  c.to_int(N * 4);
  cl::Kernel decode = c.kernel("detection.cl", "dpp_decode");
  cl::Kernel select = c.kernel("detection.cl", "dpp_select");
  cl::Kernel write_rows = c.kernel("detection.cl", "dpp_rows");
  // The selection's work-group: up to 256 items share out the filtering and the suppression.
  const std::size_t group = std::min<std::size_t>({256, select.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(c.dev.device),
                                                   c.dev.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>().at(0)});
  // Selection entries: regular NMS keeps at most min(detectionsPerClass, N) boxes per class;
  // fast NMS reads only the first N entries of its per-box list.
  const int64_t M = d.regular ? C * std::min<int64_t>(d.detections_per_class, N) : N;
  // Fast NMS: each item that ranks a box's classes has C ints of its own (items past the boxes
  // have none), at most N * C, which the scores' check above bounds.
  const int64_t best = d.regular ? 0 : std::min<int64_t>(static_cast<int64_t>(group), N) * C;
  const int64_t int_count = c.to_int(3 * M + 1 + 3 * N + best), float_count = c.to_int(N + M);
  auto buffer = [&c](int64_t count, std::size_t size) {
    return cl::Buffer(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(count, 1)) * size);
  };
  const cl::Buffer corners = buffer(4 * N, sizeof(cl_float)), fs = buffer(float_count, sizeof(cl_float));
  const cl::Buffer is = buffer(int_count, sizeof(cl_int));
  const int n = c.to_int(N), classes = c.to_int(C), m = c.to_int(M), rows = c.to_int(d.out_rows);
  const int regular = d.regular ? 1 : 0, per_box = c.to_int(d.classes_per_box());
  const int per_class = c.to_int(d.detections_per_class), max_detections = c.to_int(d.max_detections);
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(decode, in[0], in[2], corners, d.scale_x, d.scale_y, d.scale_w, d.scale_h);
    enqueue(dev, decode, n);
    set_args(select, in[1], corners, fs, is, out[3], cl::Local((group + 1) * sizeof(cl_int)), n, classes, m, regular, per_box,
             per_class, max_detections, d.score_threshold, d.iou_threshold);
    dev.queue.enqueueNDRangeKernel(select, cl::NullRange, cl::NDRange(group), cl::NDRange(group));
    set_args(write_rows, corners, fs, is, out[0], out[1], out[2], n, m);
    enqueue(dev, write_rows, rows);
  };
}

}  // namespace

void add_detection_ops(OpTable& t) { t["armnn.DetectionPostProcess"] = detection_post_process; }

}  // namespace nnbridge::gpu
