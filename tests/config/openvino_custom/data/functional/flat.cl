// Element by element, in the buffers' own order (no pitches): the result is right only when the
// output is read in the layout the input had.
__kernel void half_up(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const uint i = get_global_id(0);
  y[i] = x[i] + (OUTPUT0_TYPE)0.5f;
}

__kernel void plus_one(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const uint i = get_global_id(0);
  y[i] = x[i] + (OUTPUT0_TYPE)1;
}
