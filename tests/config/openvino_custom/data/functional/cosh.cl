// cosh(x) = (e^x + e^-x) / 2, one work item per element.
__kernel void cosh_kernel(__global const INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const uint i = get_global_id(0);
  y[i] = (exp(x[i]) + exp(-x[i])) / 2;
}
