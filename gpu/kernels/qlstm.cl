// armnn.QLstm (gpu/src/ops_qlstm.cc): one time step of Arm NN's quantized LSTM as
// cpu_ref/src/kernels/qlstm.cc computes it (Arm NN 20.08 CpuRef's RefQLstmWorkload), step for
// step: each step in float32, rounded into a quantized buffer (qz: round half away from zero,
// clamp) where cpu rounds. Tensors are float32 real values (quantized ones dequantized); the
// rounded buffers are ints in scratch. Three kernels:
//   qlstm_gate    one gate's pre-activation, one work item per (batch row, cell): the products
//                 with x then h added one at a time, each partial sum rounded; the peephole of
//                 i and f on cell_state_in.
//   qlstm_cell    layer norm (a whole row: one work item per batch row; without layer norm one
//                 per element), activations (tables the host computed with cpu's exp / tanh),
//                 the cell state, the output gate and the hidden state.
//   qlstm_output  projection (or the hidden state) into output and output_state_out, one work
//                 item per (batch row, output).
#pragma OPENCL FP_CONTRACT OFF

// exec::QFormat::quantize: std::min(std::max(r, lo), hi) (a NaN passes both), then the x86-64
// conversion of a NaN, INT_MIN.
int qz(float v, float scale, int zero, float lo, float hi) {
  float r = round(v / scale) + (float)zero;
  r = r < lo ? lo : r;
  r = hi < r ? hi : r;
  return isnan(r) ? INT_MIN : (int)r;
}
// An int16 buffer (exec::int16_format) with zero point 0.
int qz16(float v, float scale) { return qz(v, scale, 0, -32768.0f, 32767.0f); }
float dq(int q, float scale, int zero) { return (float)(q - zero) * scale; }

// exec::qlstm_table_index.
int tix(int q) { return q >= -32768 && q <= 32767 ? q + 32768 : 65536; }

// gates[gate_at + b * n_cell + r] = Q_scale(W_x[r] . x[b] + W_h[r] . h[b] (+ peep[r] * c[b, r])),
// summed as cpu's mac: q = Q(D(q) + w * v) for each term in turn, from Q(0) = 0.
__kernel void qlstm_gate(__global const float* x, __global const float* h, __global const float* c_in,
                         __global const float* w_x, __global const float* w_h, __global const float* peep,
                         __global int* gates, int gate_at, int n_in, int n_out, int n_cell, int has_peep, float scale) {
  const int i = (int)get_global_id(0);
  const int b = i / n_cell, r = i % n_cell;
  int q = qz16(0.0f, scale);
  for (int k = 0; k < n_in; ++k) q = qz16(dq(q, scale, 0) + w_x[r * n_in + k] * x[b * n_in + k], scale);
  for (int k = 0; k < n_out; ++k) q = qz16(dq(q, scale, 0) + w_h[r * n_out + k] * h[b * n_out + k], scale);
  if (has_peep) q = qz16(dq(q, scale, 0) + peep[r] * c_in[i], scale);
  gates[gate_at + i] = q;
}

// cpu's layer_norm of one gate over cells [k0, k1) of row `row` (the whole row), from the gate's
// format `s` into Q_{1/4096}. f: layer norm's floats (see qlstm_cell) for this gate.
void layer_norm(__global int* q, int row, int n, __global const float* lnw, __global const float* bias,
                float s, __global const float* f) {
  const float norm_s = f[0], bias_scale = f[1], type_scale = f[2], biased_s = f[3];
  float sum = 0.0f, sum_sq = 0.0f;
  for (int k = 0; k < n; ++k) {
    const float v = dq(q[row + k], s, 0);
    sum += v;
    sum_sq += v * v;
  }
  const float mean = sum / (float)n;
  const float variance = sum_sq / (float)n - mean * mean;
  const float inv = 1.0f / sqrt(variance == 0.0f ? 1e-8f : variance);
  for (int k = 0; k < n; ++k) q[row + k] = qz16((dq(q[row + k], s, 0) - mean) * inv, norm_s);
  for (int k = 0; k < n; ++k) q[row + k] = qz16(lnw[k] * dq(q[row + k], norm_s, 0), norm_s);
  for (int k = 0; k < n; ++k) {
    float raw = bias[k];
    if (type_scale != 0.0f) raw = round(raw / type_scale);
    q[row + k] = qz16(dq(q[row + k], norm_s, 0) + raw * bias_scale, biased_s);
  }
}

// One batch row (layer norm) or one element (ln 0): gates [4][B * n] as qlstm_gate left them;
// tables [5][65537] (i, f, c, o activations, then tanh of the cell state: exec::qlstm_activation_table).
// g: B n cifg peephole layer_norm cell_zero hidden_zero.
// f: [0..3] pre-activation scale of i f c o (intermediate), [4] cell scale, [5] cell lo, [6] cell
// hi, [7] cell clip, [8] hidden scale, [9 + 4 gate ..] layer norm of each gate: norm scale
// (input * weights * 1024), bias scale (weights / 1024), the bias's Int32 type scale (0: raw),
// 1 / 4096.
__kernel void qlstm_cell(__global int* gates, __global const int* tables, __global const float* c_in,
                         __global const float* peep_o, __global const float* ln_i, __global const float* ln_f,
                         __global const float* ln_c, __global const float* ln_o, __global const float* b_i,
                         __global const float* b_f, __global const float* b_c, __global const float* b_o,
                         __global float* cell_out, __global float* hidden, __global const int* g, __global const float* f) {
  const int B = g[0], n = g[1], cifg = g[2], peephole = g[3], ln = g[4], cell_zero = g[5], hidden_zero = g[6];
  const int size = B * n;
  const int id = (int)get_global_id(0);
  const int row = ln ? id * n : id;        // first element of the work item
  const int count = ln ? n : 1;            // elements it computes
  const float cell_s = f[4], cell_lo = f[5], cell_hi = f[6], clip = f[7], hid_s = f[8];
  __global int* gi = gates;
  __global int* gf = gates + size;
  __global int* gc = gates + 2 * size;
  __global int* go = gates + 3 * size;
  __global const int* t_i = tables;
  __global const int* t_f = tables + 65537;
  __global const int* t_c = tables + 2 * 65537;
  __global const int* t_o = tables + 3 * 65537;
  __global const int* t_tanh = tables + 4 * 65537;

  // i (unless CIFG), f, c: layer norm, then activation into Q_{cell} (kept with zero point 0).
  if (!cifg) {
    if (ln) layer_norm(gi, row, n, ln_i, b_i, f[0], f + 9);
    for (int k = 0; k < count; ++k) gi[row + k] = t_i[tix(gi[row + k])];
  }
  if (ln) layer_norm(gf, row, n, ln_f, b_f, f[1], f + 13);
  for (int k = 0; k < count; ++k) gf[row + k] = t_f[tix(gf[row + k])];
  if (ln) layer_norm(gc, row, n, ln_c, b_c, f[2], f + 17);
  for (int k = 0; k < count; ++k) gc[row + k] = t_c[tix(gc[row + k])];

  // The cell state in cell_state_out's format; cell_out holds it dequantized, gates' f slot its
  // ints (f is not read again).
  for (int k = 0; k < count; ++k) {
    const int e = row + k;
    int cq = qz(dq(gf[e], cell_s, 0) * c_in[e], cell_s, cell_zero, cell_lo, cell_hi);
    int other = cifg ? qz16(1.0f - dq(gf[e], cell_s, 0), cell_s) : gi[e];
    cq = qz(dq(cq, cell_s, cell_zero) + dq(gc[e], cell_s, 0) * dq(other, cell_s, 0), cell_s, cell_zero, cell_lo, cell_hi);
    if (clip > 0.0f) {
      float v = dq(cq, cell_s, cell_zero);
      v = v < clip ? v : clip;    // std::min(clip, v)
      v = -clip < v ? v : -clip;  // std::max(-clip, v)
      cq = qz(v, cell_s, cell_zero, cell_lo, cell_hi);
    }
    gf[e] = cq;
    cell_out[e] = dq(cq, cell_s, cell_zero);
  }

  // o: peephole on the new cell state, layer norm, activation.
  if (peephole)
    for (int k = 0; k < count; ++k) {
      const int e = row + k;
      go[e] = qz16(dq(go[e], f[3], 0) + peep_o[e % n] * cell_out[e], f[3]);
    }
  if (ln) layer_norm(go, row, n, ln_o, b_o, f[3], f + 21);
  for (int k = 0; k < count; ++k) {
    const int e = row + k;
    const int o = t_o[tix(go[e])];
    const int tc = t_tanh[tix(gf[e])];  // Q_{cell}(tanh(cell state))
    const int hq = qz(dq(o, cell_s, 0) * dq(tc, cell_s, 0), hid_s, hidden_zero, -128.0f, 127.0f);
    hidden[e] = dq(hq, hid_s, hidden_zero);
  }
}

// One (batch row, output) element. g: n_cell n_out projection has_bias out_zero state_zero.
// f: out scale lo hi, state scale lo hi, proj clip, proj bias scale (0: raw).
__kernel void qlstm_output(__global const float* hidden, __global const float* proj_w, __global const float* proj_b,
                           __global float* state_out, __global float* output, __global const int* g,
                           __global const float* f) {
  const int n = g[0], n_out = g[1], projection = g[2], has_bias = g[3], oz = g[4], sz = g[5];
  const float os = f[0], olo = f[1], ohi = f[2], ss = f[3], slo = f[4], shi = f[5], clip = f[6], bias_s = f[7];
  const int i = (int)get_global_id(0);
  const int b = i / n_out, r = i % n_out;
  int out_q;
  if (projection) {
    // An int16 accumulator with output's scale and zero point, from raw 0 or the bias.
    int acc = 0;
    if (has_bias) {
      const float raw = proj_b[r];
      acc = qz(bias_s != 0.0f ? raw * bias_s : raw, os, oz, -32768.0f, 32767.0f);
    }
    for (int k = 0; k < n; ++k) acc = qz(dq(acc, os, oz) + proj_w[r * n + k] * hidden[b * n + k], os, oz, -32768.0f, 32767.0f);
    out_q = qz(dq(acc, os, oz), os, oz, olo, ohi);
    if (clip > 0.0f) {
      float v = dq(out_q, os, oz);
      v = v < clip ? v : clip;
      v = -clip < v ? v : -clip;
      out_q = qz(v, os, oz, olo, ohi);
    }
  } else {
    out_q = qz(hidden[i], os, oz, olo, ohi);  // n_out == n_cell: element i of hidden
  }
  const float y = dq(out_q, os, oz);
  output[i] = y;
  state_out[i] = dq(qz(y, ss, sz, slo, shi), ss, sz);
}
