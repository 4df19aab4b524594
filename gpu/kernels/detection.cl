// armnn.DetectionPostProcess (gpu/src/ops_detection.cc) as cpu computes it
// (cpu_ref/src/kernels/detection_post_process.cc, after Arm NN 20.08 CpuRef): dpp_decode turns
// each box's encoding into corners (one work item per box), dpp_select runs the non-maximum
// suppression and the final ranking (one work-group: the walk is sequential and data-dependent,
// so item 0 takes its sequential steps and the group shares out the filtering and each step's
// suppression, with barriers between), dpp_rows writes the output rows (one work item per row).
// N boxes, C classes (without the background), M entries of selection scratch, L items in the
// selection's work-group.
//
// cpu orders scores with std::partial_sort, so the order among equal scores is libstdc++'s:
// a heap select over the first k positions followed by a heap sort of them. dpp_partial_sort
// takes the same steps (make_heap, the sift-down and sift-up of libstdc++'s stl_heap.h with its
// index arithmetic, the same comparisons in the same order), so ties come out as on cpu.
//
// The int scratch `is` holds, in order: boxes [M], classes [M], final [M], the detection count
// [1], kept [N], order [N], suppressed [N] and (fast NMS) best [min(L, N) * C]; the float
// scratch `fs` holds kept_scores [N] and picked [M] (the buffers are sized at prepare).
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// expf as cpu's std::exp gives it: glibc's expf is correctly rounded but for rare cases, so go
// through double where the device has it (OpenCL's float exp may be 3 ulp off).
float dpp_exp(float x) {
#if defined(cl_khr_fp64)
  return (float)exp((double)x);
#else
  return exp(x);
#endif
}

// Box i's corners (ymin, xmin, ymax, xmax) from its encoding (ty, tx, th, tw) and anchor
// (ycenter, xcenter, h, w).
__kernel void dpp_decode(__global const float* enc, __global const float* anchors, __global float* corners, float scale_x,
                         float scale_y, float scale_w, float scale_h) {
  const int i = (int)get_global_id(0);
  __global const float* e = enc + 4 * i;
  __global const float* a = anchors + 4 * i;
  const float yc = e[0] / scale_y * a[2] + a[0];
  const float xc = e[1] / scale_x * a[3] + a[1];
  const float half_h = 0.5f * dpp_exp(e[2] / scale_h) * a[2];
  const float half_w = 0.5f * dpp_exp(e[3] / scale_w) * a[3];
  corners[4 * i + 0] = yc - half_h;
  corners[4 * i + 1] = xc - half_w;
  corners[4 * i + 2] = yc + half_h;
  corners[4 * i + 3] = xc + half_w;
}

// std::max / std::min on floats as libstdc++ writes them ((a < b) ? b : a, (b < a) ? b : a):
// fmax and fmin differ where a NaN is involved.
float dpp_max(float a, float b) { return a < b ? b : a; }
float dpp_min(float a, float b) { return b < a ? b : a; }

float dpp_iou(__global const float* a, __global const float* b) {
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  const float ymin = dpp_max(a[0], b[0]), xmin = dpp_max(a[1], b[1]);
  const float ymax = dpp_min(a[2], b[2]), xmax = dpp_min(a[3], b[3]);
  const float inter = dpp_max(ymax - ymin, 0.0f) * dpp_max(xmax - xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}

// The heap below holds indices into `v`; x goes before y when v[x] > v[y] (cpu's top_k
// comparator), so the heap's top is the smallest value and the sorted run is descending.
bool dpp_before(__global const float* v, int x, int y) { return v[x] > v[y]; }

// libstdc++'s __push_heap: moves `value` up from `hole` while its parent goes before it.
void dpp_push_heap(__global int* f, int hole, int top, int value, __global const float* v) {
  int parent = (hole - 1) / 2;
  while (hole > top && dpp_before(v, f[parent], value)) {
    f[hole] = f[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  f[hole] = value;
}

// libstdc++'s __adjust_heap: moves the hole at `hole` down to a leaf along the children that go
// later (the right one unless the right goes before the left), then pushes `value` up from there.
void dpp_adjust_heap(__global int* f, int hole, int len, int value, __global const float* v) {
  const int top = hole;
  int second = hole;
  while (second < (len - 1) / 2) {
    second = 2 * (second + 1);
    if (dpp_before(v, f[second], f[second - 1])) second--;
    f[hole] = f[second];
    hole = second;
  }
  if ((len & 1) == 0 && second == (len - 2) / 2) {
    second = 2 * (second + 1);
    f[hole] = f[second - 1];
    hole = second - 1;
  }
  dpp_push_heap(f, hole, top, value, v);
}

// libstdc++'s __make_heap over f[0, len).
void dpp_make_heap(__global int* f, int len, __global const float* v) {
  if (len < 2) return;
  for (int parent = (len - 2) / 2;; --parent) {
    dpp_adjust_heap(f, parent, len, f[parent], v);
    if (parent == 0) return;
  }
}

// libstdc++'s __pop_heap(first, first + len, first + result).
void dpp_pop_heap(__global int* f, int len, int result, __global const float* v) {
  const int value = f[result];
  f[result] = f[0];
  dpp_adjust_heap(f, 0, len, value, v);
}

// std::partial_sort(f, f + k, f + n) with cpu's comparator: libstdc++'s __heap_select, then
// __sort_heap over the first k.
void dpp_partial_sort(__global int* f, int k, int n, __global const float* v) {
  dpp_make_heap(f, k, v);
  for (int i = k; i < n; ++i)
    if (dpp_before(v, f[i], f[0])) dpp_pop_heap(f, k, i, v);
  for (int len = k; len > 1;) {
    --len;
    dpp_pop_heap(f, len, len, v);
  }
}

// cpu's nms(), run by the whole work-group (every item calls it; it returns the same count to
// each): the entries i < n_in of s (s[i * stride]) whose score reaches score_threshold, best
// first; every visited entry, taken or not, suppresses the later ones whose box overlaps it by
// more than iou_threshold (entry i's box is box i). Writes the taken entries to `result` (at most
// min(limit, kept)) and returns their count. The filter keeps cpu's order (each item counts its
// own run of entries, item 0 turns the counts into offsets); item 0 sorts; then each visited
// entry's suppression of the later ones is shared out, a barrier after each, so the next entry's
// state is the one cpu sees. counts: local-size + 1 local ints.
int dpp_nms(int n_in, __global const float* corners, __global const float* s, int stride, float score_threshold, int limit,
            float iou_threshold, __global float* kept_scores, __global int* kept, __global int* order,
            __global int* suppressed, __global int* result, __local int* counts) {
  const int lid = (int)get_local_id(0), L = (int)get_local_size(0);
  const int run = (n_in + L - 1) / L;
  const int lo = min(n_in, lid * run), hi = min(n_in, lo + run);
  int mine = 0;
  for (int i = lo; i < hi; ++i)
    if (s[i * stride] >= score_threshold) ++mine;
  counts[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int sum = 0;
    for (int t = 0; t < L; ++t) {
      const int c = counts[t];
      counts[t] = sum;
      sum += c;
    }
    counts[L] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int at = counts[lid];
  const int n = counts[L];
  for (int i = lo; i < hi; ++i) {
    const float x = s[i * stride];
    if (x >= score_threshold) {
      kept_scores[at] = x;
      kept[at] = i;
      ++at;
    }
  }
  for (int i = lid; i < n; i += L) {
    order[i] = i;
    suppressed[i] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) dpp_partial_sort(order, n, n, kept_scores);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const int wanted = min(limit, n);
  int count = 0;
  // Every item reads the same suppressed[order[i]] (written before the last barrier; entry i is
  // never written while it is visited), so each counts alike and all leave the loop together.
  for (int i = 0; i < n && count < wanted; ++i) {
    const int oi = order[i];
    if (!suppressed[oi]) {
      if (lid == 0) result[count] = kept[oi];
      ++count;
    }
    __global const float* a = corners + 4 * kept[oi];
    for (int j = i + 1 + lid; j < n; j += L) {
      const int oj = order[j];
      if (dpp_iou(a, corners + 4 * kept[oj]) > iou_threshold) suppressed[oj] = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  return count;
}

// One work-group. Regular NMS (regular 1): NMS per class with limit detections_per_class, then
// the max_detections best of every class's survivors. Fast NMS: each box's best per_box classes
// form one list of entries (entry b * per_box + r: box b's r-th best class; the boxes shared out
// over the items, each ranking in its own C ints of `best`), on which NMS runs once with limit
// max_detections over the first N entries, reading entry e's corners from box e (cpu's and
// CpuRef's quirk; only those N entries are computed, the rest are never read). Leaves the count
// after final_order (is[3M]) and writes it to num_detections.
__kernel void dpp_select(__global const float* scores, __global const float* corners, __global float* fs,
                         __global int* is, __global float* num_detections, __local int* counts, int N, int C, int M,
                         int regular, int per_box, int detections_per_class, int max_detections, float score_threshold,
                         float iou_threshold) {
  const int lid = (int)get_local_id(0), L = (int)get_local_size(0);
  __global float* kept_scores = fs;
  __global float* picked = fs + N;
  __global int* boxes = is;
  __global int* classes = boxes + M;
  __global int* final_order = classes + M;
  __global int* count = final_order + M;
  __global int* kept = count + 1;
  __global int* order = kept + N;
  __global int* suppressed = order + N;
  const int with_bg = C + 1;
  if (regular) {
    int selected = 0;
    for (int k = 0; k < C; ++k) {
      const int got = dpp_nms(N, corners, scores + k + 1, with_bg, score_threshold, detections_per_class, iou_threshold,
                              kept_scores, kept, order, suppressed, boxes + selected, counts);
      if (lid == 0)
        for (int j = selected; j < selected + got; ++j) {
          picked[j] = scores[boxes[j] * with_bg + k + 1];
          classes[j] = k;
        }
      selected += got;
    }
    if (lid == 0) {
      const int num_out = min(max_detections, selected);
      for (int j = 0; j < selected; ++j) final_order[j] = j;
      dpp_partial_sort(final_order, num_out, selected, picked);
      *count = num_out;
      num_detections[0] = (float)num_out;
    }
  } else {
    for (int b = lid; b * per_box < N; b += L) {
      __global const float* s = scores + b * with_bg + 1;
      __global int* best = suppressed + N + lid * C;
      for (int k = 0; k < C; ++k) best[k] = k;
      dpp_partial_sort(best, per_box, C, s);
      for (int r = 0; r < per_box && b * per_box + r < N; ++r) {
        const int e = b * per_box + r;
        picked[e] = s[best[r]];
        classes[e] = best[r];
        boxes[e] = b;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const int got = dpp_nms(N, corners, picked, 1, score_threshold, max_detections, iou_threshold, kept_scores, kept, order,
                            suppressed, final_order, counts);
    if (lid == 0) {
      const int num_out = min(max_detections, got);
      *count = num_out;
      num_detections[0] = (float)num_out;
    }
  }
}

// Output row i: the i-th detection (its corners, class and score), zeros past the count.
__kernel void dpp_rows(__global const float* corners, __global const float* fs, __global const int* is,
                       __global float* out_boxes, __global float* out_classes, __global float* out_scores, int N, int M) {
  const int i = (int)get_global_id(0);
  __global const float* picked = fs + N;
  __global const int* boxes = is;
  __global const int* classes = boxes + M;
  __global const int* final_order = classes + M;
  const int num_out = final_order[M];
  if (i < num_out) {
    const int e = final_order[i];
    out_scores[i] = picked[e];
    out_classes[i] = (float)classes[e];
    for (int k = 0; k < 4; ++k) out_boxes[4 * i + k] = corners[4 * boxes[e] + k];
  } else {
    out_scores[i] = 0.0f;
    out_classes[i] = 0.0f;
    for (int k = 0; k < 4; ++k) out_boxes[4 * i + k] = 0.0f;
  }
}
