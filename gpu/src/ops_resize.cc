// Resize of the opencl backend (kernels/data.cl resize_pass, resize_extrapolate): ONNX Resize-13
// (and Resize-11's tf_half_pixel_for_nn) on any rank by cpu's rules (cpu_ref/src/kernels/resize.cc:
// the modes are separable; one pass per resized dim, last dim first, each output index reading
// its taps with weights computed in double on the host at prepare and rounded to float between
// passes as cpu does; tf_crop_and_resize's extrapolation_value where a coordinate samples outside).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

struct Rules {
  std::string mode, ctm, nearest_mode;
  double cubic_a = -0.75;
  bool exclude_outside = false;
};

// The taps of one resized dim: n per output index (input index, weight), and which output
// indices sample outside the input (tf_crop_and_resize).
struct Taps {
  int64_t in = 0, out = 0;
  int n = 1;
  std::vector<int> idx;
  std::vector<double> w;
  std::vector<int> outside;

  bool identity() const {
    if (in != out) return false;
    for (int64_t o = 0; o < out; ++o) {
      if (outside[o]) return false;
      for (int k = 0; k < n; ++k) {
        const double wk = w[o * n + k];
        if (wk != 0.0 && !(wk == 1.0 && idx[o * n + k] == o)) return false;
      }
    }
    return true;
  }
};

// Keys' cubic kernel with coefficient a at the four taps around ratio r.
std::vector<double> cubic(double r, double a) {
  auto near = [a](double t) { return ((a + 2) * t - (a + 3)) * t * t + 1; };         // |t| <= 1
  auto far = [a](double t) { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a; };  // 1 < |t| < 2
  const double s = 1 - r;
  return {far(r + 1), near(r), near(s), far(s + 1)};
}

Taps taps_of(const Rules& rules, int64_t in, int64_t out, double scale, double roi_start, double roi_end) {
  Taps t;
  t.in = in;
  t.out = out;
  t.n = rules.mode == "cubic" ? 4 : rules.mode == "linear" ? 2 : 1;
  const double length = scale * static_cast<double>(in), last = static_cast<double>(in - 1);
  for (int64_t o = 0; o < out; ++o) {
    const double x = static_cast<double>(o);
    const std::string& c = rules.ctm;
    double xo;  // the output index's coordinate in the input
    bool outside = false;
    if (c == "align_corners") xo = length == 1 ? 0.0 : x * last / (length - 1);
    else if (c == "asymmetric") xo = x / scale;
    else if (c == "pytorch_half_pixel") xo = length == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    else if (c == "tf_half_pixel_for_nn") xo = (x + 0.5) / scale;
    else if (c == "tf_crop_and_resize") {
      xo = (length == 1 ? (roi_end - roi_start) * last / 2 : x * (roi_end - roi_start) * last / (length - 1)) + roi_start * last;
      outside = xo < 0 || xo > last;
    } else {
      xo = (x + 0.5) / scale - 0.5;  // half_pixel
    }
    if (!std::isfinite(xo)) xo = 0;
    xo = std::clamp(xo, -1e15, 1e15);
    const double fl = std::floor(xo);
    const bool whole = fl == xo;
    const int64_t left = static_cast<int64_t>(whole ? fl - 1 : fl);  // ratio r in (0, 1]
    const double r = whole ? 1.0 : xo - fl;
    std::vector<double> coeffs;
    std::vector<int64_t> at;
    if (t.n == 1) {
      const std::string& m = rules.nearest_mode;
      bool right = true;
      if (!whole) right = m == "round_prefer_floor" ? r > 0.5 : m == "round_prefer_ceil" ? r >= 0.5 : m != "floor";
      coeffs = {1.0};
      at = {left + (right ? 1 : 0)};
    } else if (t.n == 2) {
      coeffs = {1 - r, r};
      at = {left, left + 1};
    } else {
      coeffs = cubic(r, rules.cubic_a);
      at = {left - 1, left, left + 1, left + 2};
    }
    if (rules.exclude_outside && t.n > 1) {
      double sum = 0;
      for (std::size_t k = 0; k < at.size(); ++k) {
        if (at[k] < 0 || at[k] >= in) coeffs[k] = 0;
        sum += coeffs[k];
      }
      if (sum != 0)
        for (double& cf : coeffs) cf /= sum;
    }
    for (int k = 0; k < t.n; ++k) {
      t.idx.push_back(static_cast<int>(std::clamp<int64_t>(at[k], 0, std::max<int64_t>(in - 1, 0))));
      t.w.push_back(coeffs[k]);
    }
    t.outside.push_back(outside ? 1 : 0);
  }
  return t;
}

struct Pass {
  int n = 1, in = 0, out = 0, inner = 1;
  int64_t items = 0;
  cl::Buffer idx, w_hi, w_lo;
};

Launch resize(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& xs = k.in[0].shape;
  const Shape& ys = k.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (static_cast<int64_t>(ys.size()) != r) k.invalid("output rank differs from X's");
  Rules rules;
  rules.mode = k.attr_string("mode", "nearest");
  rules.ctm = k.attr_string("coordinate_transformation_mode", "asymmetric");
  rules.nearest_mode = k.attr_string("nearest_mode", "floor");
  rules.cubic_a = k.attr_float("cubic_coeff_a", -0.75);
  rules.exclude_outside = k.attr_int("exclude_outside", 0) != 0;
  const float extrapolation = static_cast<float>(k.attr_float("extrapolation_value", 0.0));
  if (rules.mode != "nearest" && rules.mode != "linear" && rules.mode != "cubic") k.unsupported("Resize mode " + rules.mode);
  static const char* const ctms[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (std::none_of(std::begin(ctms), std::end(ctms), [&](const char* m) { return rules.ctm == m; }))
    k.unsupported("coordinate_transformation_mode " + rules.ctm);
  const std::string& nm = rules.nearest_mode;
  if (nm != "round_prefer_floor" && nm != "round_prefer_ceil" && nm != "floor" && nm != "ceil") k.unsupported("nearest_mode " + nm);
  // scales (input 2) or sizes (input 3); an empty scales beside sizes is Resize-11's placeholder.
  std::vector<double> scales;
  if (k.has_input(2)) {
    const std::vector<float>& s = k.value(2, "scales");
    scales.assign(s.begin(), s.end());
  }
  if (!scales.empty()) {
    if (k.has_input(3)) k.invalid("takes scales or sizes, not both");
    if (static_cast<int64_t>(scales.size()) != r) k.invalid("scales needs one value per dim of X");
    for (double s : scales)
      if (!(s > 0) || !std::isfinite(s)) k.invalid("scales must be positive and finite");
  } else {
    if (!k.has_input(3)) k.invalid("needs scales or sizes");
    if (exec::to_ints(k.value(3, "sizes")) != ys) k.invalid("sizes disagree with the output shape");
  }
  std::vector<double> roi;
  if (rules.ctm == "tf_crop_and_resize") {
    if (!k.has_input(1)) k.invalid("tf_crop_and_resize needs roi");
    const std::vector<float>& v = k.value(1, "roi");
    if (static_cast<int64_t>(v.size()) != 2 * r) k.invalid("roi needs 2 * rank values");
    roi.assign(v.begin(), v.end());
  }
  c.to_int(numel(xs));
  const int64_t total = c.to_int(numel(ys));
  // The passes, last dim first, skipping dims the transform leaves as they are.
  Shape cur = xs;
  std::vector<Pass> passes;
  std::vector<int> flags, flag_at(static_cast<std::size_t>(r), -1);
  int64_t largest = 1;
  for (int64_t d = r; d-- > 0;) {
    const double scale = scales.empty() ? static_cast<double>(ys[d]) / static_cast<double>(xs[d]) : scales[d];
    if (!scales.empty() && static_cast<double>(ys[d]) != std::floor(static_cast<double>(xs[d]) * scale))
      k.invalid("output dim " + std::to_string(d) + " is not floor(in * scale)");
    if (ys[d] == 0) continue;
    if (xs[d] == 0) k.invalid("cannot resize an empty dim to a non-empty one");
    const Taps t = taps_of(rules, xs[d], ys[d], scale, roi.empty() ? 0.0 : roi[d], roi.empty() ? 1.0 : roi[d + r]);
    if (t.identity()) continue;
    if (std::find(t.outside.begin(), t.outside.end(), 1) != t.outside.end()) {
      flag_at[d] = static_cast<int>(flags.size());
      flags.insert(flags.end(), t.outside.begin(), t.outside.end());
    }
    cur[d] = ys[d];
    int64_t inner = 1;
    for (int64_t e = d + 1; e < r; ++e) inner *= cur[e];
    std::vector<float> hi, lo;
    for (double w : t.w) {
      hi.push_back(static_cast<float>(w));
      lo.push_back(static_cast<float>(w - static_cast<double>(hi.back())));
    }
    passes.push_back(Pass{t.n, c.to_int(t.in), c.to_int(t.out), c.to_int(inner), c.to_int(numel(cur)), c.ints(t.idx), c.floats(hi),
                          c.floats(lo)});
    largest = std::max(largest, numel(cur));
  }
  // Passes before the last write into two buffers of the plan in turn.
  std::vector<cl::Buffer> tmp;
  for (std::size_t i = 0; i < std::min<std::size_t>(2, passes.size() > 0 ? passes.size() - 1 : 0); ++i)
    tmp.emplace_back(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(largest) * sizeof(float));
  cl::Kernel pass_k = c.kernel("data.cl", "resize_pass"), extra_k = c.kernel("data.cl", "resize_extrapolate");
  std::vector<int> meta{static_cast<int>(r)};
  for (int64_t v : ys) meta.push_back(c.to_int(v));
  meta.insert(meta.end(), flag_at.begin(), flag_at.end());
  cl::Buffer mb = c.ints(meta), fb = c.ints(flags);
  const bool any_outside = !flags.empty();
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (total == 0) return;
    if (passes.empty()) {
      dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(total) * sizeof(float));
    } else {
      for (std::size_t p = 0; p < passes.size(); ++p) {
        const Pass& s = passes[p];
        const cl::Buffer& src = p == 0 ? in[0] : tmp[(p - 1) % 2];
        const cl::Buffer& dst = p + 1 == passes.size() ? out[0] : tmp[p % 2];
        set_args(pass_k, src, dst, s.idx, s.w_hi, s.w_lo, s.n, s.in, s.out, s.inner);
        enqueue(dev, pass_k, s.items);
      }
    }
    if (!any_outside) return;
    set_args(extra_k, out[0], mb, fb, extrapolation);
    enqueue(dev, extra_k, total);
  };
}

}  // namespace

void add_resize_ops(OpTable& t) { t["Resize"] = resize; }

}  // namespace nnbridge::gpu
