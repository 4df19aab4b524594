// ONNX RNN-14 / GRU-14 / LSTM-14 as cpu_ref/src/kernels/rnn.cc and lstm_cell.h compute them:
// one work item per (direction d, batch row b) runs that row's steps in order, its state and gate
// pre-activations in `scratch` ((3 + G) * H floats per item: h, c, c_new, pre). Each gate's
// pre-activation x W^T + h R^T + Wb + Rb is summed in acc_t (double where the device has it, as
// cpu) and rounded to float; the cell arithmetic after it is float, without contraction.
// g: S B I H D G layout1 reverse lbr has_b has_len has_h0 has_c0 has_p n_out per_dir.
// acts: per direction per_dir triples (kind, alpha, beta); kinds as rnn_act below.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

// 0 Sigmoid, 1 Tanh, 2 Relu, 3 Affine, 4 LeakyRelu, 5 ThresholdedRelu, 6 ScaledTanh,
// 7 HardSigmoid, 8 Elu, 9 Softsign, 10 Softplus (ONNX's activation functions of the same names).
float rnn_act(__global const float* a, float x) {
  const int kind = (int)a[0];
  const float alpha = a[1], beta = a[2];
  switch (kind) {
    case 0: return 1.0f / (1.0f + exp(-x));
    case 1: return tanh(x);
    case 2: return fmax(0.0f, x);
    case 3: return alpha * x + beta;
    case 4: return x < 0 ? alpha * x : x;
    case 5: return x > alpha ? x : 0.0f;
    case 6: return alpha * tanh(beta * x);
    case 7: return fmax(0.0f, fmin(1.0f, alpha * x + beta));
    case 8: return x < 0 ? alpha * (exp(x) - 1.0f) : x;
    case 9: return x / (1.0f + fabs(x));
    default: return log1p(exp(x));
  }
}

float rnn_clip(float v, float clip) { return clip > 0 ? fmin(fmax(v, -clip), clip) : v; }

__kernel void rnn(__global const float* X, __global const float* Wt, __global const float* Rt, __global const float* Bt,
                  __global const float* lens, __global const float* h0, __global const float* c0,
                  __global const float* Pt, __global float* Y, __global float* Yh, __global float* Yc,
                  __global float* scratch, __global const int* g, __global const float* acts, float clip) {
  const int S = g[0], B = g[1], I = g[2], H = g[3], D = g[4], G = g[5], layout1 = g[6], rev_all = g[7], lbr = g[8];
  const int has_b = g[9], has_len = g[10], has_h0 = g[11], has_c0 = g[12], has_p = g[13], n_out = g[14], per_dir = g[15];
  const int item = (int)get_global_id(0);
  const int d = item / B, b = item % B;
  const int GH = G * H;
  __global float* h = scratch + (long)item * (3 + G) * H;
  __global float* c = h + H;
  __global float* cn = c + H;
  __global float* pre = cn + H;
  __global const float* W = Wt + (long)d * GH * I;
  __global const float* R = Rt + (long)d * GH * H;
  __global const float* Wb = has_b ? Bt + (long)d * 2 * GH : 0;
  __global const float* act = acts + d * per_dir * 3;
  const int reverse = rev_all || d == 1;
  const int h_at = (layout1 ? b * D + d : d * B + b) * H;
  int len = S;
  if (has_len) len = (int)clamp(lens[b], 0.0f, (float)S);  // the host refuses values outside [0, S]
  for (int t = 0; t < S; ++t) {
    __global float* y = Y + (layout1 ? (b * S + t) * D + d : (t * D + d) * B + b) * H;
    for (int k = 0; k < H; ++k) y[k] = 0.0f;
  }
  for (int k = 0; k < H; ++k) {
    h[k] = has_h0 ? h0[h_at + k] : 0.0f;
    c[k] = has_c0 ? c0[h_at + k] : 0.0f;
  }
  for (int step = 0; step < len; ++step) {
    const int t = reverse ? len - 1 - step : step;
    __global const float* x = X + (layout1 ? b * S + t : t * B + b) * I;
    // Pre-activations of the gates before GRU's h gate (all of RNN's and LSTM's) from h.
    const int g1 = G == 3 ? 2 : G;
    for (int r = 0; r < g1 * H; ++r) {
      acc_t acc = has_b ? (acc_t)Wb[r] + Wb[GH + r] : 0;
      for (int j = 0; j < I; ++j) acc += (acc_t)W[r * I + j] * x[j];
      for (int j = 0; j < H; ++j) acc += (acc_t)R[r * H + j] * h[j];
      pre[r] = (float)acc;
    }
    if (G == 1) {
      for (int k = 0; k < H; ++k) h[k] = rnn_act(act, rnn_clip(pre[k], clip));
    } else if (G == 3) {
      for (int k = 0; k < 2 * H; ++k) pre[k] = rnn_act(act, rnn_clip(pre[k], clip));
      for (int r = 2 * H; r < 3 * H; ++r) {
        const int k = r - 2 * H;
        acc_t xw = has_b ? (acc_t)Wb[r] : 0, hr = has_b ? (acc_t)Wb[GH + r] : 0;
        for (int j = 0; j < I; ++j) xw += (acc_t)W[r * I + j] * x[j];
        for (int j = 0; j < H; ++j) hr += (acc_t)R[r * H + j] * (lbr ? h[j] : pre[H + j] * h[j]);
        pre[r] = (float)(lbr ? xw + (acc_t)pre[H + k] * hr : xw + hr);
      }
      for (int k = 0; k < H; ++k) {
        const float z = pre[k];
        const float hh = rnn_act(act + 3, rnn_clip(pre[2 * H + k], clip));
        h[k] = (1.0f - z) * hh + z * h[k];
      }
    } else {
      // ONNX gate order i, o, f, c; P holds i, o, f.
      __global const float* P = has_p ? Pt + (long)d * 3 * H : 0;
      for (int k = 0; k < H; ++k) {
        float gi = pre[k], go = pre[H + k], gf = pre[2 * H + k], gc = pre[3 * H + k];
        if (P) gi = gi + P[k] * c[k];
        gi = rnn_act(act, rnn_clip(gi, clip));
        if (P) gf = gf + P[2 * H + k] * c[k];
        gf = rnn_act(act, rnn_clip(gf, clip));
        gc = rnn_clip(gc, clip);
        float cnew = gf * c[k];
        gc = rnn_act(act + 3, gc);
        cnew = cnew + gc * gi;
        if (P) go = go + P[H + k] * cnew;
        go = rnn_act(act, rnn_clip(go, clip));
        cn[k] = cnew;
        pre[H + k] = go * rnn_act(act + 6, cnew);
      }
      for (int k = 0; k < H; ++k) {
        h[k] = pre[H + k];
        c[k] = cn[k];
      }
    }
    __global float* y = Y + (layout1 ? (b * S + t) * D + d : (t * D + d) * B + b) * H;
    for (int k = 0; k < H; ++k) y[k] = h[k];
  }
  if (n_out > 1)
    for (int k = 0; k < H; ++k) Yh[h_at + k] = h[k];
  if (n_out > 2)
    for (int k = 0; k < H; ++k) Yc[h_at + k] = c[k];
}
