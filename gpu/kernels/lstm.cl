// armnn.Lstm (gpu/src/ops_lstm.cc): one time step of Arm NN's float32 LSTM layer as
// cpu_ref/src/kernels/lstm.cc and lstm_cell.h compute it (Arm NN 20.08 CpuRef, RefLstmWorkload
// and LstmUtils). One work item per batch row b does the whole step for that row, in cpu's order:
// each gate's pre-activation starts from its bias (0 under layer norm) and adds the products of
// W_x x then W_h h_in one at a time in float; then the peephole term, the row's layer norm
// (epsilon 1e-8 where the variance is exactly 0, then * LN_w + bias) and the sigmoid, gate by
// gate (i, f, then c, then o after c_out). Everything is float without contraction, and the min /
// max / clip below pick as std::min / std::max do (NaN included).
//
// The gates are worked on in place in the scratch output, which ends as CpuRef's working buffer:
// gate-major, [input, cell, forget, output] (CIFG: [cell, forget, output]), each B x nCell.
// Absent parameters (the input gate's under CIFG, peephole, projection, projection bias, layer
// norm) arrive as a dummy buffer that the flags keep unread.
// act: activationFunc, 0 none (CpuRef applies nothing), 1 relu, 3 relu6, 4 tanh, 6 sigmoid.
#pragma OPENCL FP_CONTRACT OFF

float lstm_min(float a, float b) { return b < a ? b : a; }  // std::min(a, b)
float lstm_max(float a, float b) { return a < b ? b : a; }  // std::max(a, b)
float lstm_clip(float x, float limit) { return lstm_max(-limit, lstm_min(limit, x)); }
float lstm_sigmoid(float x) { return 1.0f / (1.0f + exp(-x)); }

float lstm_act(int act, float x) {
  switch (act) {
    case 1: return lstm_max(0.0f, x);
    case 3: return lstm_min(6.0f, lstm_max(0.0f, x));
    case 4: return tanh(x);
    case 6: return lstm_sigmoid(x);
    default: return x;
  }
}

// g[r] = (bias[r] or 0) + sum_c Wx[r][c] x[c] + sum_c Wh[r][c] h[c], accumulated in that order.
void lstm_pre(__global float* g, int n, int layer_norm, __global const float* bias, __global const float* Wx,
              __global const float* x, int n_in, __global const float* Wh, __global const float* h, int n_out) {
  for (int r = 0; r < n; ++r) {
    float s = layer_norm ? 0.0f : bias[r];
    for (int c = 0; c < n_in; ++c) s = s + Wx[r * n_in + c] * x[c];
    for (int c = 0; c < n_out; ++c) s = s + Wh[r * n_out + c] * h[c];
    g[r] = s;
  }
}

// g[k] += w[k] * c[k] (peephole).
void lstm_peephole(__global float* g, int n, __global const float* w, __global const float* c) {
  for (int k = 0; k < n; ++k) g[k] = g[k] + w[k] * c[k];
}

// One row: LN_w * (x - mean) / stddev + bias (LstmUtils MeanStddevNormalization with
// RefLstmWorkload's epsilon, VectorBatchVectorCwiseProduct, VectorBatchVectorAdd).
void lstm_layer_norm(__global float* row, int n, __global const float* w, __global const float* bias) {
  float sum = 0.0f, sum_sq = 0.0f;
  for (int k = 0; k < n; ++k) {
    sum += row[k];
    sum_sq += row[k] * row[k];
  }
  const float mean = sum / (float)n;
  const float variance = sum_sq / (float)n - mean * mean;
  const float inv = 1.0f / sqrt(variance == 0.0f ? 1e-8f : variance);
  for (int k = 0; k < n; ++k) {
    float v = (row[k] - mean) * inv;
    v = w[k] * v;
    row[k] = v + bias[k];
  }
}

// A sigmoid gate: peephole (when p), layer norm (when ln), sigmoid.
void lstm_gate(__global float* g, int n, __global const float* p, __global const float* c, int ln,
               __global const float* ln_w, __global const float* bias) {
  if (p) lstm_peephole(g, n, p, c);
  if (ln) lstm_layer_norm(g, n, ln_w, bias);
  for (int k = 0; k < n; ++k) g[k] = lstm_sigmoid(g[k]);
}

// cfg: batch nIn nCell nOut cifg peephole projection has_proj_bias layer_norm act.
__kernel void armnn_lstm(__global const float* x_all, __global const float* h_all, __global const float* c_all,
                         __global const float* W_xi, __global const float* W_xf, __global const float* W_xc,
                         __global const float* W_xo, __global const float* W_hi, __global const float* W_hf,
                         __global const float* W_hc, __global const float* W_ho, __global const float* b_i,
                         __global const float* b_f, __global const float* b_c, __global const float* b_o,
                         __global const float* p_i, __global const float* p_f, __global const float* p_o,
                         __global const float* proj_w, __global const float* proj_b, __global const float* ln_i,
                         __global const float* ln_f, __global const float* ln_c, __global const float* ln_o,
                         __global float* scratch, __global float* h_out_all, __global float* c_out_all,
                         __global float* y_all, __global const int* cfg, float clip_cell, float clip_proj) {
  const int B = cfg[0], n_in = cfg[1], n = cfg[2], n_out = cfg[3], cifg = cfg[4], peephole = cfg[5];
  const int projection = cfg[6], has_proj_b = cfg[7], ln = cfg[8], act = cfg[9];
  const int b = (int)get_global_id(0);
  const long gs = (long)B * n;
  __global const float* x = x_all + (long)b * n_in;
  __global const float* h_in = h_all + (long)b * n_out;
  __global const float* c_in = c_all + (long)b * n;
  __global float* c_out = c_out_all + (long)b * n;
  __global float* y = y_all + (long)b * n_out;
  __global float* h_out = h_out_all + (long)b * n_out;
  __global float* gi = cifg ? 0 : scratch + (long)b * n;
  __global float* gc = scratch + (cifg ? 0 : gs) + (long)b * n;
  __global float* gf = scratch + (cifg ? 1 : 2) * gs + (long)b * n;
  __global float* go = scratch + (cifg ? 2 : 3) * gs + (long)b * n;

  if (!cifg) lstm_pre(gi, n, ln, b_i, W_xi, x, n_in, W_hi, h_in, n_out);
  lstm_pre(gf, n, ln, b_f, W_xf, x, n_in, W_hf, h_in, n_out);
  lstm_pre(gc, n, ln, b_c, W_xc, x, n_in, W_hc, h_in, n_out);
  lstm_pre(go, n, ln, b_o, W_xo, x, n_in, W_ho, h_in, n_out);

  if (!cifg) lstm_gate(gi, n, peephole ? p_i : 0, c_in, ln, ln_i, b_i);
  lstm_gate(gf, n, peephole ? p_f : 0, c_in, ln, ln_f, b_f);
  if (ln) lstm_layer_norm(gc, n, ln_c, b_c);
  for (int k = 0; k < n; ++k) {
    float c = gf[k] * c_in[k];
    const float g = lstm_act(act, gc[k]);
    gc[k] = g;
    if (cifg) {
      gf[k] = 1.0f - gf[k];
      c = c + g * gf[k];
    } else {
      c = c + g * gi[k];
    }
    c_out[k] = clip_cell > 0 ? lstm_clip(c, clip_cell) : c;
  }
  lstm_gate(go, n, peephole ? p_o : 0, c_out, ln, ln_o, b_o);
  for (int k = 0; k < n; ++k) {
    const float g = act ? lstm_act(act, c_out[k]) : gc[k];
    gc[k] = g;
    go[k] = go[k] * g;
  }

  if (projection) {
    for (int r = 0; r < n_out; ++r) {
      float s = has_proj_b ? proj_b[r] : 0.0f;
      for (int c = 0; c < n; ++c) s = s + proj_w[r * n + c] * go[c];
      y[r] = clip_proj > 0 ? lstm_clip(s, clip_proj) : s;
    }
  } else {
    for (int k = 0; k < n_out; ++k) y[k] = go[k];
  }
  for (int k = 0; k < n_out; ++k) h_out[k] = y[k];
}
