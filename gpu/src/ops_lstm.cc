// armnn.Lstm on the opencl backend (kernels/lstm.cl armnn_lstm): one time step of Arm NN's
// float32 LSTM layer, one work item per batch row computing what cpu_ref/src/kernels/lstm.cc
// computes, in its order. The node (descriptor, sizes, parameters, refusals) is the exec floor's
// reading (nnbridge/exec/armnn_lstm.h), the same cpu's kernel reads.
#include <vector>

#include "nnbridge/exec/armnn_lstm.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

Launch armnn_lstm(const OpContext& c) {
  const exec::ArmnnLstm l = exec::armnn_lstm(c.k);
  const exec::ArmnnLstm::Config& cfg = l.config;
  const exec::ArmnnLstm::Dims& s = l.shape;
  const exec::ArmnnLstm::Params p = l.params;
  // Every index the kernel forms fits an int (scratch is the largest activation, the weights
  // n_cell * max(n_in, n_out) and n_out * n_cell).
  c.to_int(s.batch * s.n_cell * 4);
  c.to_int(s.batch * s.n_in);
  c.to_int(s.batch * s.n_out);
  c.to_int(s.n_cell * s.n_in);
  c.to_int(s.n_cell * s.n_out);
  std::vector<int> g;
  for (int64_t v : {s.batch, s.n_in, s.n_cell, s.n_out, int64_t{cfg.cifg}, int64_t{cfg.peephole}, int64_t{cfg.projection},
                    int64_t{p.proj_b >= 0}, int64_t{cfg.layer_norm}, int64_t{cfg.act}})
    g.push_back(c.to_int(v));
  const cl::Buffer gb = c.ints(g);
  const float clip_cell = cfg.clip_cell, clip_proj = cfg.clip_proj;
  const int64_t rows = s.batch;
  cl::Kernel kern = c.kernel("lstm.cl", "armnn_lstm");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    // An absent parameter: input 0 stands in, which the kernel's flags keep unread.
    auto param = [&](int i) -> const cl::Buffer& { return in[i >= 0 ? static_cast<std::size_t>(i) : 0]; };
    set_args(kern, in[0], in[1], in[2], param(p.w_xi), param(p.w_xf), param(p.w_xc), param(p.w_xo), param(p.w_hi),
             param(p.w_hf), param(p.w_hc), param(p.w_ho), param(p.b_i), param(p.b_f), param(p.b_c), param(p.b_o),
             param(p.p_i), param(p.p_f), param(p.p_o), param(p.proj_w), param(p.proj_b), param(p.ln_i), param(p.ln_f),
             param(p.ln_c), param(p.ln_o), out[0], out[1], out[2], out[3], gb, clip_cell, clip_proj);
    enqueue(dev, kern, rows);
  };
}

}  // namespace

void add_lstm_ops(OpTable& t) { t["armnn.Lstm"] = armnn_lstm; }

}  // namespace nnbridge::gpu
