// Helpers the opencl op files share (ops_data.cc, ops_index.cc, ops_nn.cc): kernel arguments in
// order, cpu's node naming in run-time messages, small operands read at run time, and the flag
// through which a kernel reports the first out-of-range index it met.
#pragma once

#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "ops.h"

namespace nnbridge::gpu {

/// Sets each argument of `k` in order.
template <class... A>
void set_args(cl::Kernel& k, const A&... a) {
  cl_uint i = 0;
  (k.setArg(i++, a), ...);
}

/// The node as cpu_ref's run-time messages name it: `Op` or `Op 'name'`.
inline std::string who(const KernelContext& k) {
  return k.node.name.empty() ? k.node.op : k.node.op + " '" + k.node.name + "'";
}

/// `v` as an int (negative allowed), or Error(Unsupported) beyond the kernels' 32-bit indexing.
inline int signed_int(const OpContext& c, int64_t v) {
  if (v < INT_MIN || v > INT_MAX) c.k.unsupported("a value of " + std::to_string(v) + " does not fit the kernels' 32-bit indexing");
  return static_cast<int>(v);
}

/// A small input (a scalar such as K, depth or axis) a launch needs on the host: its constant's
/// values, else read back from the device at run time (which waits for the queue).
class RunValue {
 public:
  RunValue() = default;
  RunValue(const KernelContext& k, std::size_t input) : n_(static_cast<std::size_t>(numel(k.in[input].shape))) {
    if (input < k.constants.size() && k.constants[input])
      constant_ = std::vector<float>(k.constants[input]->begin(), k.constants[input]->end());
  }
  bool is_constant() const { return constant_.has_value(); }
  std::vector<float> get(const Device& dev, const cl::Buffer& b) const {
    if (constant_) return *constant_;
    std::vector<float> v(n_);
    if (n_) dev.queue.enqueueReadBuffer(b, CL_TRUE, 0, n_ * sizeof(float), v.data());
    return v;
  }

 private:
  std::size_t n_ = 0;
  std::optional<std::vector<float>> constant_;
};

/// `count` ints on the device that kernels lower with atomic_min (the first offending position
/// of an index check): reset() sets them to INT_MAX before the kernels, read() waits for the
/// queue and returns them.
class IndexFlags {
 public:
  IndexFlags() = default;
  IndexFlags(const Device& dev, std::size_t count)
      : count_(count), buf_(dev.context, CL_MEM_READ_WRITE, count * sizeof(cl_int)) {}
  const cl::Buffer& buffer() const { return buf_; }
  void reset(const Device& dev) const {
    dev.queue.enqueueFillBuffer(buf_, cl_int{INT_MAX}, 0, count_ * sizeof(cl_int));
  }
  std::vector<int> read(const Device& dev) const {
    std::vector<int> v(count_);
    dev.queue.enqueueReadBuffer(buf_, CL_TRUE, 0, count_ * sizeof(cl_int), v.data());
    return v;
  }
  /// One float of `b` at element `at` (the index value a message quotes).
  static float element(const Device& dev, const cl::Buffer& b, int at) {
    float v = 0;
    dev.queue.enqueueReadBuffer(b, CL_TRUE, static_cast<std::size_t>(at) * sizeof(float), sizeof(float), &v);
    return v;
  }

 private:
  std::size_t count_ = 0;
  cl::Buffer buf_;
};

/// One output dim of a strided gather (data.cl gather_strided): coordinate c reads input
/// coordinate start + c * step, brought into [0, len) by mode, `stride` input elements apart.
struct GatherDim {
  int64_t size = 1, start = 0, step = 1, len = 1, stride = 0;
  int mode = 0;  ///< 0 none (always inside), 1 constant, 2 edge, 3 reflect, 4 symmetric, 5 wrap
};
/// A dim read whole, in order.
inline GatherDim plain(int64_t size, int64_t stride) { return GatherDim{size, 0, 1, size, stride, 0}; }

/// One gather_strided launch (ops_data.cc): y[i] = x[base + sum over dims], `fill` where a
/// constant-mode dim falls outside; as a Launch it reads input slot in_slot, writes output slot out_slot.
struct StridedGather {
  cl::Kernel k;
  cl::Buffer meta;
  int rank = 0, base = 0;
  float fill = 0;
  int64_t n = 0;
  std::size_t in_slot = 0, out_slot = 0;

  void run(const Device& dev, const cl::Buffer& in, const cl::Buffer& out);
  void operator()(const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    run(dev, in[in_slot], out[out_slot]);
  }
};
/// The gather over `dims` (the output's dims, in order) of the node's input `in_slot`.
StridedGather strided_gather(const OpContext& c, const std::vector<GatherDim>& dims, int64_t base, float fill = 0,
                             std::size_t in_slot = 0, std::size_t out_slot = 0);

}  // namespace nnbridge::gpu
