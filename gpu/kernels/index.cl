// Index-driven kernels of the opencl backend (gpu/src/ops_index.cc): Gather, GatherElements,
// GatherND, ScatterND, ScatterElements, OneHot, TopK, NonZero, Compress. Indices arrive as floats
// (the backend's storage) and every one is checked before it is used: a kernel that meets an
// index outside the range cpu_ref accepts reads and writes nothing through it and lowers `bad`
// (set to INT_MAX by the host) to its position with atomic_min, so the host reports the first
// offending position, the one cpu's in-order loop stops at.
#pragma OPENCL FP_CONTRACT OFF

// Whether index value v names one of `dim` elements after truncation toward zero (cpu's
// static_cast<int64_t>), negative values counting from the end: trunc(v) in [-dim, dim).
int truncated_ok(float v, int dim) { return v > -(float)dim - 1.0f && v < (float)dim; }
// The index made non-negative, once truncated_ok.
int truncated(float v, int dim) {
  const int i = (int)v;
  return i < 0 ? i + dim : i;
}

// The offset of index tuple t[0..k) in dims m[0..k) with strides m[k..2k), or -1 when an entry is
// out of range (cpu_ref/src/kernels/gather_scatter.cc tuple_offset).
int tuple_offset(__global const float* t, int k, __global const int* m) {
  int off = 0;
  for (int j = 0; j < k; ++j) {
    if (!truncated_ok(t[j], m[j])) return -1;
    off += truncated(t[j], m[j]) * m[k + j];
  }
  return off;
}

// Gather (ONNX Gather-13): x viewed as [outer][dim][inner], idx of ni elements, y [outer][ni][inner].
__kernel void gather_axis(__global const float* x, __global const float* idx, __global float* y, int ni, int inner,
                          int dim, __global int* bad) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, k = (i / inner) % ni, o = i / (inner * ni);
  const float v = idx[k];
  if (!truncated_ok(v, dim)) {
    atomic_min(bad, k);
    y[i] = 0.0f;
    return;
  }
  y[i] = x[(o * dim + truncated(v, dim)) * inner + e];
}

// GatherElements (ONNX GatherElements-13), one work item per index. m: idx dims[rank], x strides[rank].
__kernel void gather_elements(__global const float* x, __global const float* idx, __global float* y, int rank,
                              __global const int* m, int axis, int dim, __global int* bad) {
  const int i = (int)get_global_id(0);
  int rem = i, off = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rem % m[d];
    rem /= m[d];
    if (d != axis) off += c * m[rank + d];
  }
  const float v = idx[i];
  if (!(v >= -(float)dim && v < (float)dim)) {
    atomic_min(bad, i);
    y[i] = 0.0f;
    return;
  }
  y[i] = x[off + truncated(v, dim) * m[rank + axis]];
}

// GatherND (ONNX GatherND-13): y viewed as [tuples][slice]; tuple t (k values) names, in batch
// t / per_batch, the slice at batch * batch_stride + its offset. m: dims[k], strides[k].
__kernel void gather_nd(__global const float* x, __global const float* idx, __global float* y, int k, int slice,
                        int per_batch, int batch_stride, __global const int* m, __global int* bad) {
  const int i = (int)get_global_id(0);
  const int t = i / slice, s = i % slice;
  const int off = tuple_offset(idx + t * k, k, m);
  if (off < 0) {
    atomic_min(bad, t);
    y[i] = 0.0f;
    return;
  }
  y[i] = x[(t / per_batch) * batch_stride + off + s];
}

// ScatterND (ONNX ScatterND-18), per index tuple: its slice number (offset in the leading k dims,
// m: dims[k], strides[k]) gets the lowest tuple naming it; an out-of-range tuple lowers bad[0].
__kernel void scatter_nd_mark(__global const float* idx, __global int* marker, int k, __global const int* m,
                              __global int* bad) {
  const int t = (int)get_global_id(0);
  const int lin = tuple_offset(idx + t * k, k, m);
  if (lin < 0) atomic_min(bad, t);
  else atomic_min(marker + lin, t);
}

// A tuple whose slice a lower tuple names repeats it: bad[1] gets the first such tuple.
__kernel void scatter_nd_repeats(__global const float* idx, __global const int* marker, int k, __global const int* m,
                                 __global int* bad) {
  const int t = (int)get_global_id(0);
  const int lin = tuple_offset(idx + t * k, k, m);
  if (lin >= 0 && marker[lin] != t) atomic_min(bad + 1, t);
}

// Reduction none with distinct tuples: one work item per update element, y already holds data.
__kernel void scatter_nd_write(__global const float* idx, __global const float* upd, __global float* y, int k,
                               int slice, __global const int* m) {
  const int i = (int)get_global_id(0);
  const int t = i / slice, s = i % slice;
  const int lin = tuple_offset(idx + t * k, k, m);
  if (lin >= 0) y[lin * slice + s] = upd[i];
}

// The reductions (1 add, 2 sub, 3 mul, 4 max, 5 min; cpu's std::max / std::min): one work item per
// element of a slice, combining the tuples in order with the element as updated so far, or with
// data's own (with_data: combine_with "data"; data_is_shape: 0).
__kernel void scatter_nd_reduce(__global const float* data, __global const float* idx, __global const float* upd,
                                __global float* y, int k, int slice, int tuples, __global const int* m, int red,
                                int with_data, int from_shape) {
  const int s = (int)get_global_id(0);
  for (int t = 0; t < tuples; ++t) {
    const int lin = tuple_offset(idx + t * k, k, m);
    if (lin < 0) continue;
    const int at = lin * slice + s;
    const float base = with_data ? (from_shape ? 0.0f : data[at]) : y[at];
    const float u = upd[t * slice + s];
    float v = u;
    if (red == 1) v = base + u;
    else if (red == 2) v = base - u;
    else if (red == 3) v = base * u;
    else if (red == 4) v = base < u ? u : base;
    else if (red == 5) v = u < base ? u : base;
    y[at] = v;
  }
}

// ScatterElements (ONNX ScatterElements-16/18), one work item per line of idx along `axis` (the
// positions that can name one element), in order. y already holds data. m: idx dims[rank], y
// strides[rank]. red: 0 none, 1 add, 2 mul, 3 max, 4 min.
__kernel void scatter_elements(__global const float* idx, __global const float* upd, __global float* y, int rank,
                               __global const int* m, int axis, int dim, int red, __global int* bad) {
  const int line = (int)get_global_id(0);
  int rem = line, base = 0, pos = 0, pos_stride = 1, axis_pos_stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (d == axis) {
      axis_pos_stride = pos_stride;
    } else {
      const int c = rem % m[d];
      rem /= m[d];
      base += c * m[rank + d];
      pos += c * pos_stride;
    }
    pos_stride *= m[d];
  }
  for (int a = 0; a < m[axis]; ++a) {
    const int p = pos + a * axis_pos_stride;
    const float v = idx[p];
    if (!(v >= -(float)dim && v < (float)dim)) {
      atomic_min(bad, p);
      return;
    }
    __global float* t = y + base + truncated(v, dim) * m[rank + axis];
    const float u = upd[p];
    if (red == 0) *t = u;
    else if (red == 1) *t = *t + u;
    else if (red == 2) *t = *t * u;
    else if (red == 3) *t = *t < u ? u : *t;
    else *t = u < *t ? u : *t;
  }
}

// OneHot (ONNX OneHot-11): y viewed as [outer][depth][inner], idx as [outer][inner], vals =
// [off, on]; an index outside [-depth, depth) leaves its column off.
__kernel void one_hot(__global const float* idx, __global const float* vals, __global float* y, int depth, int inner) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, j = (i / inner) % depth, o = i / (inner * depth);
  const float v = idx[o * inner + e];
  const int on = v >= -(float)depth && v < (float)depth && truncated(v, depth) == j;
  y[i] = on ? vals[1] : vals[0];
}

// TopK (ONNX TopK-11): one work item per element a of x viewed as [outer][dim][inner]; its rank is
// the number of elements of its column ordered before it (NaN above every number, ties by index),
// and a rank below k is its output position.
__kernel void top_k(__global const float* x, __global float* values, __global float* indices, int dim, int inner, int k,
                    int largest) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, a = (i / inner) % dim, o = i / (inner * dim);
  __global const float* p = x + o * dim * inner + e;
  const float va = p[a * inner];
  const int na = isnan(va);
  int rank = 0;
  for (int b = 0; b < dim && rank < k; ++b) {
    if (b == a) continue;
    const float vb = p[b * inner];
    const int nb = isnan(vb);
    int before;
    if (na != nb) before = largest ? nb : na;
    else if (!na && va != vb) before = largest ? vb > va : vb < va;
    else before = b < a;
    rank += before;
  }
  if (rank < k) {
    const int at = (o * k + rank) * inner + e;
    values[at] = va;
    indices[at] = (float)a;
  }
}

// NonZero (ONNX NonZero-13), one work item: res[0] = the count; when it is `planned`, y [rank][planned]
// gets the coordinates (dims m[0..rank), strides m[rank..2rank)) of each non-zero in C order.
__kernel void non_zero(__global const float* x, __global float* y, int total, int rank, __global const int* m,
                       int planned, __global int* res) {
  int n = 0;
  for (int i = 0; i < total; ++i) n += x[i] != 0.0f;
  res[0] = n;
  if (n != planned) return;
  int col = 0;
  for (int i = 0; i < total; ++i) {
    if (x[i] == 0.0f) continue;
    for (int d = 0; d < rank; ++d) y[d * n + col] = (float)((i / m[rank + d]) % m[d]);
    ++col;
  }
}

// Compress (ONNX Compress-11), one work item: keep[] gets the true positions of cond below dim,
// res[0] their count, res[1] the first true position at or past dim (INT_MAX: none).
__kernel void compress_select(__global const float* cond, __global int* keep, int c, int dim, __global int* res) {
  int n = 0, past = INT_MAX;
  for (int j = 0; j < c; ++j) {
    if (cond[j] == 0.0f) continue;
    if (j >= dim) {
      past = j;
      break;
    }
    keep[n++] = j;
  }
  res[0] = n;
  res[1] = past;
}

// y viewed as [outer][n][inner] from x [outer][dim][inner] at the kept positions.
__kernel void compress_gather(__global const float* x, __global const int* keep, __global float* y, int n, int dim,
                              int inner) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, q = (i / inner) % n, o = i / (inner * n);
  y[i] = x[(o * dim + keep[q]) * inner + e];
}

// Unique (ONNX Unique-11) over `dim` slices of x viewed as [outer][dim][inner] (a slice: its
// outer * inner elements; flat: outer = inner = 1). Slices compare element by element in order,
// NaN equal to NaN and above every number.
int unique_cmp(__global const float* x, int a, int b, int dim, int inner, int len) {
  for (int k = 0; k < len; ++k) {
    const float va = x[((k / inner) * dim + a) * inner + k % inner], vb = x[((k / inner) * dim + b) * inner + k % inner];
    const int na = isnan(va), nb = isnan(vb);
    if (na || nb) {
      if (na != nb) return na ? 1 : -1;
    } else if (va != vb) {
      return va < vb ? -1 : 1;
    }
  }
  return 0;
}

// Per slice j: first[j] = the first slice equal to it.
__kernel void unique_first(__global const float* x, __global int* first, int dim, int inner, int len) {
  const int j = (int)get_global_id(0);
  int f = 0;
  while (f < j && unique_cmp(x, f, j, dim, inner, len) != 0) ++f;
  first[j] = f;
}

// Per first occurrence j: its output position (the number of first occurrences ordered before it:
// by value when sorted, else by position) in pos[j], rep[position] = j, count[position] = its
// slices; res[0] counts the distinct slices.
__kernel void unique_place(__global const float* x, __global const int* first, __global int* pos, __global int* rep,
                           __global int* count, int dim, int inner, int len, int sorted, __global int* res) {
  const int j = (int)get_global_id(0);
  if (first[j] != j) return;
  int p = 0, n = 0;
  for (int f = 0; f < dim; ++f) {
    if (first[f] == j) ++n;
    if (first[f] != f || f == j) continue;
    p += sorted ? unique_cmp(x, f, j, dim, inner, len) < 0 : f < j;
  }
  pos[j] = p;
  rep[p] = j;
  count[p] = n;
  atomic_inc(res);
}

// Y [outer][u][inner] from the slices rep[0..u).
__kernel void unique_gather(__global const float* x, __global const int* rep, __global float* y, int u, int dim, int inner) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, q = (i / inner) % u, o = i / (inner * u);
  y[i] = x[(o * dim + rep[q]) * inner + e];
}

// indices [u], inverse_indices [dim], counts [u] as floats (want: which of them the node has).
__kernel void unique_outputs(__global const int* first, __global const int* pos, __global const int* rep,
                             __global const int* count, __global float* indices, __global float* inverse,
                             __global float* counts, int u, int want_indices, int want_inverse, int want_counts) {
  const int j = (int)get_global_id(0);
  if (want_inverse) inverse[j] = (float)pos[first[j]];
  if (j < u) {
    if (want_indices) indices[j] = (float)rep[j];
    if (want_counts) counts[j] = (float)count[j];
  }
}

// ReverseSequence (ONNX ReverseSequence-10): element (b, t) of the first two dims ([batch][steps]
// when batch_first, else [steps][batch]) takes step len - 1 - t of its batch entry while t < len =
// lens[b]; a length outside [0, steps] lowers bad to b and its entry copies nothing.
__kernel void reverse_sequence(__global const float* x, __global const float* lens, __global float* y, int batch,
                               int steps, int inner, int batch_first, __global int* bad) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, bt = i / inner;
  const int b = batch_first ? bt / steps : bt % batch, t = batch_first ? bt % steps : bt / batch;
  const int bs = batch_first ? steps : 1, ts = batch_first ? 1 : batch;
  const float lv = lens[b];
  if (!(lv >= 0.0f && lv <= (float)steps)) {
    atomic_min(bad, b);
    y[i] = 0.0f;
    return;
  }
  const int len = (int)lv;
  const int src = t < len ? len - 1 - t : t;
  y[i] = x[(b * bs + src * ts) * inner + e];
}
