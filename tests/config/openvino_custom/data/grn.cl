// GRN (OpenVINO GRN-1, global response normalization across channels):
//   y[b,f,y,x] = x[b,f,y,x] / sqrt(sum over f' of x[b,f',y,x]^2 + bias)
// One work item per (b, y), as the GPU plugin's own GRN layer binds global="B,Y".
// Written for nnbridge's tests; reads every index through the plugin's built-in macros.
__kernel void grn(const __global INPUT0_TYPE* input, __global OUTPUT0_TYPE* output) {
  const int b = get_global_id(0);
  const int y = get_global_id(1);
  for (int x = 0; x < INPUT0_DIMS[3]; x++) {
    ACCUMULATOR_TYPE sum = 0;
    for (int f = 0; f < INPUT0_DIMS[1]; f++) {
      const ACCUMULATOR_TYPE v = input[INPUT0_OFFSET + b * INPUT0_PITCHES[0] + f * INPUT0_PITCHES[1] + y * INPUT0_PITCHES[2] +
                                       x * INPUT0_PITCHES[3]];
      sum += v * v;
    }
    const ACCUMULATOR_TYPE norm = sqrt(sum + bias_);
    for (int f = 0; f < INPUT0_DIMS[1]; f++)
      output[OUTPUT0_OFFSET + b * OUTPUT0_PITCHES[0] + f * OUTPUT0_PITCHES[1] + y * OUTPUT0_PITCHES[2] + x * OUTPUT0_PITCHES[3]] =
          input[INPUT0_OFFSET + b * INPUT0_PITCHES[0] + f * INPUT0_PITCHES[1] + y * INPUT0_PITCHES[2] + x * INPUT0_PITCHES[3]] / norm;
  }
}
