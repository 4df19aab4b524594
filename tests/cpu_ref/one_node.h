// A graph of one node for kernel tests: inputs are graph inputs x0, x1, ... unless a constant
// is given for them (or the slot is left absent), outputs y0, y1, ... (a dim of -1 in a
// declared output is left to shape inference). Run it on the cpu backend with run().
#pragma once

#include <span>
#include <string>
#include <vector>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/graph.h"

namespace nnbridge::test {

inline TensorType typed(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }
inline TensorType f32(std::vector<int64_t> shape) { return typed(DataType::Float32, std::move(shape)); }

template <class T>
Buffer bytes_of(const std::vector<T>& v) {
  return Buffer::copy_of(std::as_bytes(std::span<const T>(v)));
}

struct OneNode {
  Graph g;
  Node n;
  explicit OneNode(std::string op, AttrMap attrs = {}) : n{std::move(op), "n", {}, {}, std::move(attrs)} {}
  OneNode& in(TensorType t) {
    ValueId id = g.add_value(Value{"x" + std::to_string(n.inputs.size()), std::move(t), std::nullopt, {}});
    g.inputs.push_back(id);
    n.inputs.push_back(id);
    return *this;
  }
  template <class T>
  OneNode& constant(TensorType t, const std::vector<T>& v) {
    n.inputs.push_back(g.add_value(Value{"c" + std::to_string(n.inputs.size()), std::move(t), bytes_of(v), {}}));
    return *this;
  }
  OneNode& absent() {
    n.inputs.push_back(kNoValue);
    return *this;
  }
  Graph done(std::vector<TensorType> outs) {
    for (std::size_t i = 0; i < outs.size(); ++i) {
      ValueId y = g.add_value(Value{"y" + std::to_string(i), outs[i], std::nullopt, {}});
      n.outputs.push_back(y);
      g.outputs.push_back(y);
    }
    g.add_node(n);
    return g;
  }
  Graph done(TensorType out) { return done(std::vector<TensorType>{std::move(out)}); }
};

/// Runs `g` on the cpu backend; `threads` 0: as many as the machine has.
inline TensorMap run(const Graph& g, TensorMap inputs = {}, int threads = 0) {
  cpu_ref::register_backend();
  BackendOptions opt;
  opt.threads = threads;
  return find_backend("cpu")->prepare(g, opt)->run(inputs);
}

inline HostTensor ft(std::vector<int64_t> shape, std::vector<float> v) {
  return HostTensor::from_values<float>(f32(std::move(shape)), v);
}

/// Output i's values as T.
template <class T = float>
std::vector<T> y_of(const TensorMap& m, int i = 0) {
  auto v = m.at("y" + std::to_string(i)).values<T>();
  return std::vector<T>(v.begin(), v.end());
}

}  // namespace nnbridge::test
