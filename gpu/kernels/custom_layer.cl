// Moving a tensor between the backend's C-order (BFYX, unpadded) buffer and the layout a custom
// layer's <Tensor format> asks for, given that layout's pitches along B, F, Y, X (OpenVINO
// custom_primitive.cpp rules, computed on the host). One work item per element.
// The offset in the layout of element i of the C-order buffer.
int layout_offset(int i, int F, int Y, int X, int pb, int pf, int py, int px) {
  const int x = i % X;
  int r = i / X;
  const int y = r % Y;
  r /= Y;
  const int f = r % F;
  const int b = r / F;
  return b * pb + f * pf + y * py + x * px;
}

__kernel void custom_layer_to_layout(__global const float* src, __global float* dst, int F, int Y, int X,
                                     int pb, int pf, int py, int px) {
  const int i = get_global_id(0);
  dst[layout_offset(i, F, Y, X, pb, pf, py, px)] = src[i];
}

__kernel void custom_layer_from_layout(__global const float* src, __global float* dst, int F, int Y, int X,
                                       int pb, int pf, int py, int px) {
  const int i = get_global_id(0);
  dst[i] = src[layout_offset(i, F, Y, X, pb, pf, py, px)];
}
