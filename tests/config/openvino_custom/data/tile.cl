// Tile (OpenVINO Tile-0 / Caffe Tile: attributes axis, tiles): the input repeated `tiles` times
// along `axis` of B, F, Y, X; output dim[axis] = tiles * input dim[axis]. One work item
// (global="1,1,1"), BFYX without padding.
__kernel void tile(const __global INPUT0_TYPE* input, __global OUTPUT0_TYPE* output) {
  int outer = 1, inner = 1;
  for (int i = 0; i < axis_; i++) outer *= INPUT0_DIMS[i];
  for (int i = axis_ + 1; i < INPUT0_DIMS_SIZE; i++) inner *= INPUT0_DIMS[i];
  const int block = INPUT0_DIMS[axis_] * inner;
  for (int o = 0; o < outer; o++)
    for (int t = 0; t < tiles_; t++)
      for (int k = 0; k < block; k++) output[(o * tiles_ + t) * block + k] = input[o * block + k];
}
