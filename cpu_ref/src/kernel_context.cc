// KernelContext attribute access and shape helpers.
#include "kernel.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace nnbridge::cpu_ref {

const Attr* KernelContext::attr(std::string_view name) const {
  auto it = node.attrs.find(name);
  if (it != node.attrs.end()) return &it->second;
  if (schema)
    if (const AttrSpec* s = schema->find_attr(name); s && s->default_value) return &*s->default_value;
  return nullptr;
}

int64_t KernelContext::attr_int(std::string_view name, int64_t fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<int64_t>()) return a->get<int64_t>();
  if (a->is<bool>()) return a->get<bool>() ? 1 : 0;
  invalid("attribute " + std::string(name) + " is not an int");
}

double KernelContext::attr_float(std::string_view name, double fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<double>()) return a->get<double>();
  if (a->is<int64_t>()) return static_cast<double>(a->get<int64_t>());
  invalid("attribute " + std::string(name) + " is not a float");
}

std::string KernelContext::attr_string(std::string_view name, std::string fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<std::string>()) return a->get<std::string>();
  invalid("attribute " + std::string(name) + " is not a string");
}

std::vector<int64_t> KernelContext::attr_ints(std::string_view name, std::vector<int64_t> fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<std::vector<int64_t>>()) return a->get<std::vector<int64_t>>();
  invalid("attribute " + std::string(name) + " is not a list of ints");
}

void KernelContext::unsupported(const std::string& what) const { throw Error(ErrorCode::Unsupported, what); }
void KernelContext::invalid(const std::string& what) const { throw Error(ErrorCode::Invalid, what); }

std::vector<float> implied_bias_scale(const KernelContext& ctx, int64_t channels) {
  if (!ctx.has_input(2) || ctx.in[2].dtype != DataType::Int32) return {};
  if (ctx.in[2].quantization && !ctx.in[2].quantization->scales.empty()) return {};
  const auto& xq = ctx.in[0].quantization;
  const auto& wq = ctx.in[1].quantization;
  if (!is_quantized(ctx.in[0].dtype) || !xq || xq->scales.empty() || !wq || wq->scales.empty()) return {};
  std::vector<float> s(static_cast<std::size_t>(channels));
  for (int64_t o = 0; o < channels; ++o) {
    const double ws = wq->scales.size() == static_cast<std::size_t>(channels) ? wq->scales[o] : wq->scales[0];
    s[o] = static_cast<float>(xq->scales[0] * ws);
  }
  return s;
}

void parallel_for(int threads, int64_t n, const std::function<void(int64_t)>& fn) {
  const int64_t workers = std::min<int64_t>(std::max(threads, 1), n);
  if (workers <= 1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex mu;
  auto work = [&] {
    for (int64_t i; (i = next.fetch_add(1)) < n;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

Shape strides_of(const Shape& s) {
  Shape st(s.size(), 1);
  for (std::size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

int64_t norm_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    throw Error(ErrorCode::Invalid, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace nnbridge::cpu_ref
