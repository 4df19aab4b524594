// armnn.QLstm on the opencl backend (kernels/qlstm.cl): one time step of Arm NN's quantized
// LSTM, computing what cpu_ref/src/kernels/qlstm.cc computes (Arm NN 20.08 CpuRef), each step
// rounded into the same quantized buffer in the same order. The node (formats, descriptor,
// sizes, parameters, refusals) is the exec floor's reading (nnbridge/exec/armnn_qlstm.h), the
// same cpu's kernel reads. Tensors are float32 real values on both backends.
//
// Launches: qlstm_gate once per gate present (B * nCell items each), qlstm_cell (one item per
// batch row with layer norm, else one per element), qlstm_output (B * nOut items). Scratch,
// allocated here: the four gates' int16 buffers [4, B, nCell] and the hidden state [B, nCell].
// The activations (sigmoid, tanh) read int16 buffers, so they are tables of every input
// (exec::qlstm_activation_table), computed here with the host's exp / tanh: the device rounds
// each activation exactly as cpu does, whatever its own exp / tanh would give.
#include <algorithm>
#include <vector>

#include "nnbridge/exec/armnn_qlstm.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

using exec::QFormat;
using exec::QLstmConfig;

Launch armnn_qlstm(const OpContext& c) {
  const QLstmConfig q = exec::armnn_qlstm(c.k);
  const int64_t B = q.batch, n = q.n_cell, size = B * n;
  // Every index the kernels form fits an int: 5 tables, 4 gate buffers, inputs and outputs, the
  // gate weights [n_cell, n_in or n_out] and the projection's [n_out, n_cell].
  c.to_int(5 * exec::kQLstmTableSize);
  c.to_int(4 * size);
  c.to_int(B * q.n_in);
  c.to_int(B * q.n_out);
  c.to_int(n * std::max(q.n_in, q.n_out));
  const int n_in = c.to_int(q.n_in), n_out = c.to_int(q.n_out), n_cell = c.to_int(n);

  // The activation tables: i, f, c, o from their pre-activation buffer (layer norm's Q_{1/4096},
  // else the intermediate scale) into cell_state_out's format; then tanh of the cell state into
  // Q_{cell scale}. (Under CIFG the i table is left as zeros: nothing reads it.)
  std::vector<int> tables(static_cast<std::size_t>(5 * exec::kQLstmTableSize), 0);
  const QFormat biased = exec::int16_format(1.f / 4096);
  for (int g = 0; g < 4; ++g) {
    if (g == QLstmConfig::kI && q.cifg) continue;
    const QFormat pre = q.layer_norm ? biased : exec::int16_format(q.inter[g]);
    const std::vector<int32_t> t = exec::qlstm_activation_table(pre, q.cell, g == QLstmConfig::kC);
    std::copy(t.begin(), t.end(), tables.begin() + g * exec::kQLstmTableSize);
  }
  {
    const std::vector<int32_t> t = exec::qlstm_activation_table(q.cell, exec::int16_format(q.cell.scale), true);
    std::copy(t.begin(), t.end(), tables.begin() + 4 * exec::kQLstmTableSize);
  }

  std::vector<float> cf = {q.inter[0], q.inter[1], q.inter[2], q.inter[3], q.cell.scale, q.cell.lo, q.cell.hi, q.cell_clip,
                           q.hidden.scale};
  for (int g = 0; g < 4; ++g)
    cf.insert(cf.end(), {q.input_scale * q.ln_scale[g] * 1024, q.ln_scale[g] / 1024, q.bias_type_scale[g], biased.scale});
  const std::vector<int> cg = {c.to_int(B), n_cell, int{q.cifg}, int{q.peephole}, int{q.layer_norm}, q.cell.zero, q.hidden.zero};
  const std::vector<int> og = {n_cell, n_out, int{q.projection}, int{q.proj_b >= 0}, q.output.zero, q.state_out.zero};
  const std::vector<float> of = {q.output.scale, q.output.lo, q.output.hi, q.state_out.scale, q.state_out.lo, q.state_out.hi,
                                 q.proj_clip, q.proj_bias_scale};

  const cl::Buffer tb(c.dev.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, tables.size() * sizeof(int), tables.data());
  const cl::Buffer cgb = c.ints(cg), cfb = c.floats(cf), ogb = c.ints(og), ofb = c.floats(of);
  const std::size_t scratch = static_cast<std::size_t>(std::max<int64_t>(size, 1));
  const cl::Buffer gates(c.dev.context, CL_MEM_READ_WRITE, 4 * scratch * sizeof(cl_int));
  const cl::Buffer hidden(c.dev.context, CL_MEM_READ_WRITE, scratch * sizeof(float));

  cl::Kernel gate_k[4];  // one per gate present, each keeping its own arguments
  for (int g = 0; g < 4; ++g)
    if (!(g == QLstmConfig::kI && q.cifg)) gate_k[g] = c.kernel("qlstm.cl", "qlstm_gate");
  cl::Kernel cell_k = c.kernel("qlstm.cl", "qlstm_cell");
  cl::Kernel out_k = c.kernel("qlstm.cl", "qlstm_output");
  const int64_t cell_items = q.layer_norm ? B : size, out_items = B * q.n_out;
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    // An absent parameter: input 0 stands in, which the kernels' flags keep unread.
    auto param = [&](int i) -> const cl::Buffer& { return in[i >= 0 ? static_cast<std::size_t>(i) : 0]; };
    for (int g = 0; g < 4; ++g) {
      if (g == QLstmConfig::kI && q.cifg) continue;
      const bool peep = g != QLstmConfig::kC && g != QLstmConfig::kO && q.peephole;
      set_args(gate_k[g], in[0], in[1], in[2], param(q.w_x[g]), param(q.w_h[g]), param(peep ? q.peep[g] : -1), gates,
               static_cast<int>(g * size), n_in, n_out, n_cell, int{peep}, q.inter[g]);
      enqueue(dev, gate_k[g], size);
    }
    set_args(cell_k, gates, tb, in[2], param(q.peep[QLstmConfig::kO]), param(q.ln[0]), param(q.ln[1]), param(q.ln[2]),
             param(q.ln[3]), param(q.bias[0]), param(q.bias[1]), param(q.bias[2]), param(q.bias[3]), out[1], hidden, cgb, cfb);
    enqueue(dev, cell_k, cell_items);
    set_args(out_k, hidden, param(q.proj_w), param(q.proj_b), out[0], out[2], ogb, ofb);
    enqueue(dev, out_k, out_items);
  };
}

}  // namespace

void add_qlstm_ops(OpTable& t) { t["armnn.QLstm"] = armnn_qlstm; }

}  // namespace nnbridge::gpu
