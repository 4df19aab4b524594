// Goes through the internal buffer: scratch = 2x, then y = scratch - 1.
__kernel void scratch_twice(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y, __global INPUT0_TYPE* scratch) {
  const uint i = get_global_id(0);
  scratch[i] = x[i] * 2;
  y[i] = scratch[i] - 1;
}

// Two internal buffers around the tensors (arguments 0 and 2): s1 = x + 1, s2 = 3x, y = s1 * s2.
__kernel void scratch_pair(__global INPUT0_TYPE* s1, __global const INPUT0_TYPE* x, __global INPUT0_TYPE* s2,
                           __global OUTPUT0_TYPE* y) {
  const uint i = get_global_id(0);
  s1[i] = x[i] + 1;
  s2[i] = x[i] * 3;
  y[i] = s1[i] * s2[i];
}

// A running sum kept in the internal buffer: y = the sum of x over every run of the plan so far.
__kernel void running_sum(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y, __global INPUT0_TYPE* acc) {
  const uint i = get_global_id(0);
  acc[i] += x[i];
  y[i] = acc[i];
}
