// Values from the dispatch coordinates and the declared output dims, so that a layout or work
// size that swapped axes shows in the result (a flat copy would hide it).
__kernel void row_column(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  y[row * OUTPUT0_DIMS[3] + col] = (OUTPUT0_TYPE)(row * 100 + col);
}

// Rank 3: B, F, Y are the shape's three dims; X is 1.
__kernel void row_column_3d(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const int k = get_global_id(0);
  const int j = get_global_id(1);
  const int i = get_global_id(2);
  y[(i * OUTPUT0_DIMS[1] + j) * OUTPUT0_DIMS[2] + k] = (OUTPUT0_TYPE)(i * 1000 + j * 100 + k);
}
