// y = x * SCALE + SHIFT, one work item per element (SCALE and SHIFT: the layer's Defines).
__kernel void scale_shift(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const uint i = get_global_id(0);
  y[i] = x[i] * SCALE + SHIFT;
}
