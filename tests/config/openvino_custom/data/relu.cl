// ReLU with a negative slope (Caffe ReLU negative_slope; OpenVINO's custom-layer documentation
// example): y = x for x >= 0, neg_slope * x otherwise. One work item per (x, y, b*f), as bound by
// global="X,Y,B*F"; every index goes through the pitches, so any <Tensor format> works.
__kernel void example_relu_kernel(const __global INPUT0_TYPE* input0, __global OUTPUT0_TYPE* output) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  const int bf = get_global_id(2);
  const int f = bf % OUTPUT0_DIMS[1];
  const int b = bf / OUTPUT0_DIMS[1];
  const int in_id = INPUT0_OFFSET + b * INPUT0_PITCHES[0] + f * INPUT0_PITCHES[1] + y * INPUT0_PITCHES[2] + x * INPUT0_PITCHES[3];
  const int out_id = OUTPUT0_OFFSET + b * OUTPUT0_PITCHES[0] + f * OUTPUT0_PITCHES[1] + y * OUTPUT0_PITCHES[2] + x * OUTPUT0_PITCHES[3];
  const INPUT0_TYPE v = input0[in_id];
  output[out_id] = v < 0 ? v * neg_slope : v;
}
