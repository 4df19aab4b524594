// CTCGreedyDecoder (OpenVINO CTCGreedyDecoder-1): data [T, N, C] (time-major class scores),
// sequence_indicators [T, N] (1 while the sequence goes on); output [N, T, 1, 1]: per batch, the
// arg-max class of each step in order, skipping the blank class C-1 and, when
// ctc_merge_repeated, a class equal to the previous step's; the rest filled with -1. One work
// item (global="1,1").
__kernel void ctc_greedy_decoder(const __global INPUT0_TYPE* data, const __global INPUT1_TYPE* seq,
                                 __global OUTPUT0_TYPE* output) {
  const int T = INPUT0_DIMS[0], N = INPUT0_DIMS[1], C = INPUT0_DIMS[2];
  for (int i = 0; i < N * T; i++) output[i] = -1;
  for (int n = 0; n < N; n++) {
    int prev = -1, k = 0;
    for (int t = 0; t < T; t++) {
      if (seq[t * N + n] == 0) break;
      int best = 0;
      for (int c = 1; c < C; c++)
        if (data[(t * N + n) * C + c] > data[(t * N + n) * C + best]) best = c;
      if (best < C - 1 && !(ctc_merge_repeated_ && best == prev)) output[n * T + k++] = best;
      prev = best;
    }
  }
}
