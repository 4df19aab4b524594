// Copies every built-in define of OpenVINO's GPU plugin into `dump` (work item (0, 0) only), and
// copies INPUT0 to OUTPUT0 element by element through both tensors' pitches and offsets, so a
// test can check each macro's value and that the layouts agree with them.
// Format codes: BFYX 0, BYXF 1, FYXB 2, YXFB 3.
#if defined(INPUT0_FORMAT_BFYX)
#define IN_FMT 0
#elif defined(INPUT0_FORMAT_BYXF)
#define IN_FMT 1
#elif defined(INPUT0_FORMAT_FYXB)
#define IN_FMT 2
#elif defined(INPUT0_FORMAT_YXFB)
#define IN_FMT 3
#else
#define IN_FMT -1
#endif
#if defined(OUTPUT0_FORMAT_BFYX)
#define OUT_FMT 0
#elif defined(OUTPUT0_FORMAT_BYXF)
#define OUT_FMT 1
#elif defined(OUTPUT0_FORMAT_FYXB)
#define OUT_FMT 2
#elif defined(OUTPUT0_FORMAT_YXFB)
#define OUT_FMT 3
#else
#define OUT_FMT -1
#endif

#define PUT_ARRAY(NAME)                                         \
  dump[k++] = NAME##_SIZE;                                      \
  for (int i = 0; i < NAME##_SIZE; i++) dump[k++] = NAME[i];

#define PUT_TENSOR(T, FMT)                                      \
  PUT_ARRAY(T##_DIMS)                                           \
  dump[k++] = sizeof(T##_TYPE);                                 \
  dump[k++] = FMT;                                              \
  PUT_ARRAY(T##_LOWER_PADDING)                                  \
  PUT_ARRAY(T##_UPPER_PADDING)                                  \
  PUT_ARRAY(T##_PITCHES)                                        \
  dump[k++] = T##_OFFSET;                                       \
  { const int init[] = T##_PITCHES_INIT; dump[k++] = init[3]; }

__kernel void dump_macros(const __global INPUT0_TYPE* in, __global OUTPUT0_TYPE* out, __global float* dump) {
  const int gx = get_global_id(0), gy = get_global_id(1);
  if (gx == 0 && gy == 0) {
    int k = 0;
    dump[k++] = NUM_INPUTS;
    PUT_ARRAY(GLOBAL_WORKSIZE)
    PUT_ARRAY(LOCAL_WORKSIZE)
    PUT_TENSOR(INPUT0, IN_FMT)
    PUT_TENSOR(OUTPUT0, OUT_FMT)
    dump[k++] = 12345;  // end marker
    for (int b = 0; b < INPUT0_DIMS[0]; b++)
      for (int f = 0; f < INPUT0_DIMS[1]; f++)
        for (int y = 0; y < INPUT0_DIMS[2]; y++)
          for (int x = 0; x < INPUT0_DIMS[3]; x++)
            out[OUTPUT0_OFFSET + b * OUTPUT0_PITCHES[0] + f * OUTPUT0_PITCHES[1] + y * OUTPUT0_PITCHES[2] + x * OUTPUT0_PITCHES[3]] =
                in[INPUT0_OFFSET + b * INPUT0_PITCHES[0] + f * INPUT0_PITCHES[1] + y * INPUT0_PITCHES[2] + x * INPUT0_PITCHES[3]];
  }
}
