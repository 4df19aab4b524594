// LeCun's scaled tanh, y = 1.7159 * tanh(2x/3) (Efficient BackProp, 1998, 4.4): the operator the
// Arm NN StandIn layer of examples/extension stands for. One work item per element (the default
// global work size, B*F*Y*X of output 0).
__kernel void scaled_tanh(const __global INPUT0_TYPE* x, __global OUTPUT0_TYPE* y) {
  const int i = get_global_id(0);
  y[i] = 1.7159f * tanh(x[i] * (2.0f / 3.0f));
}
