// Resize (ONNX Resize-13, any rank): the output is computed one dim at a time (the modes are
// separable; ONNX's reference interpolates the last dim first and so do we). Per output index
// x of a dim with input length `in`:
// - scale = the `scales` input's value when given, else out / in; ONNX's reference takes
//   length_resized = scale * in (a float) in the formulas below;
// - x_original by coordinate_transformation_mode: half_pixel (x + 0.5) / scale - 0.5;
//   pytorch_half_pixel the same, or -0.5 when length_resized is 1; align_corners
//   x * (in - 1) / (length_resized - 1), or 0; asymmetric x / scale; tf_half_pixel_for_nn
//   (Resize-11) (x + 0.5) / scale; tf_crop_and_resize start * (in - 1) + x * (end - start) *
//   (in - 1) / (length_resized - 1), or (end - start) * (in - 1) / 2 + start * (in - 1), with
//   start/end from `roi`, and extrapolation_value wherever x_original leaves [0, in - 1];
// - the taps: L = floor(x_original), or x_original - 1 when it is whole (ratio r = x_original -
//   L in (0, 1]); nearest takes L or L + 1 (nearest_mode: round_prefer_floor L when r <= 0.5,
//   round_prefer_ceil when r < 0.5, floor L, ceil L + 1; always L + 1 when r = 1), linear
//   weighs L and L + 1 by 1 - r and r, cubic L - 1 .. L + 2 by Keys' kernel with a =
//   cubic_coeff_a; indices beyond the edge read the edge (ONNX pads with edge values), and
//   with exclude_outside they get weight 0, the others renormalised.
// Arm NN CpuRef's Resize (armnn/src/backends/reference/workloads/Resize.cpp) is among these:
// nearest asymmetric floor, nearest halfPixelCenters = tf_half_pixel_for_nn floor, nearest
// alignCorners = align_corners round_prefer_ceil (roundf), bilinear asymmetric / half_pixel /
// align_corners (its clamp of a negative source to 0 gives what the edge taps give).
// data_layout does not matter here: sizes and scales are per dim of X in its own order.
#include <algorithm>
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

// The taps of one output dim: `n` per output index (index into the input dim, weight), and
// whether the output index samples outside (tf_crop_and_resize).
struct AxisTaps {
  int64_t in = 0, out = 0;
  int n = 1;
  std::vector<int64_t> idx;
  std::vector<double> w;
  std::vector<bool> outside;
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

struct Rules {
  std::string mode, ctm, nearest_mode;
  double cubic_a = -0.75;
  bool exclude_outside = false;
};

std::vector<double> cubic_coeffs(double r, double a) {
  const double s = 1 - r;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
          ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

AxisTaps axis_taps(const Rules& rules, int64_t in, int64_t out, double scale, double roi_start, double roi_end) {
  AxisTaps t;
  t.in = in;
  t.out = out;
  t.n = rules.mode == "cubic" ? 4 : rules.mode == "linear" ? 2 : 1;
  t.idx.resize(static_cast<std::size_t>(out * t.n));
  t.w.resize(static_cast<std::size_t>(out * t.n));
  t.outside.assign(static_cast<std::size_t>(out), false);
  const double length_resized = scale * static_cast<double>(in);
  const double last = static_cast<double>(in - 1);
  for (int64_t o = 0; o < out; ++o) {
    const double x = static_cast<double>(o);
    double xo = 0;
    const std::string& c = rules.ctm;
    if (c == "align_corners") xo = length_resized == 1 ? 0.0 : x * last / (length_resized - 1);
    else if (c == "asymmetric") xo = x / scale;
    else if (c == "pytorch_half_pixel") xo = length_resized == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    else if (c == "tf_half_pixel_for_nn") xo = (x + 0.5) / scale;
    else if (c == "tf_crop_and_resize") {
      xo = length_resized == 1 ? (roi_end - roi_start) * last / 2 : x * (roi_end - roi_start) * last / (length_resized - 1);
      xo += roi_start * last;
      if (xo < 0 || xo > last) t.outside[o] = true;
    } else {
      xo = (x + 0.5) / scale - 0.5;  // half_pixel
    }
    if (!std::isfinite(xo)) xo = 0;  // an empty input dim or an infinite scale: any tap reads the edge
    xo = std::clamp(xo, -1e15, 1e15);
    const double fl = std::floor(xo);
    const bool whole = fl == xo;
    const int64_t left = static_cast<int64_t>(whole ? fl - 1 : fl);
    const double r = whole ? 1.0 : xo - fl;
    std::vector<double> coeffs;
    std::vector<int64_t> at;
    if (t.n == 1) {
      bool right = true;
      const std::string& m = rules.nearest_mode;
      if (!whole) {
        if (m == "round_prefer_floor") right = r > 0.5;
        else if (m == "round_prefer_ceil") right = r >= 0.5;
        else if (m == "floor") right = false;
      }
      coeffs = {1.0};
      at = {left + (right ? 1 : 0)};
    } else if (t.n == 2) {
      coeffs = {1 - r, r};
      at = {left, left + 1};
    } else {
      coeffs = cubic_coeffs(r, rules.cubic_a);
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
      t.idx[o * t.n + k] = std::clamp<int64_t>(at[k], 0, std::max<int64_t>(in - 1, 0));
      t.w[o * t.n + k] = coeffs[k];
    }
  }
  return t;
}

Kernel make_resize(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (static_cast<int64_t>(ys.size()) != r) ctx.invalid("output rank differs from X's");
  Rules rules;
  rules.mode = ctx.attr_string("mode", "nearest");
  rules.ctm = ctx.attr_string("coordinate_transformation_mode", "asymmetric");
  rules.nearest_mode = ctx.attr_string("nearest_mode", "floor");
  rules.cubic_a = ctx.attr_float("cubic_coeff_a", -0.75);
  rules.exclude_outside = ctx.attr_int("exclude_outside", 0) != 0;
  const float extrapolation = static_cast<float>(ctx.attr_float("extrapolation_value", 0.0));
  if (rules.mode != "nearest" && rules.mode != "linear" && rules.mode != "cubic") ctx.unsupported("Resize mode " + rules.mode);
  static const char* const ctms[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (std::none_of(std::begin(ctms), std::end(ctms), [&](const char* c) { return rules.ctm == c; }))
    ctx.unsupported("coordinate_transformation_mode " + rules.ctm);
  const std::string& nm = rules.nearest_mode;
  if (nm != "round_prefer_floor" && nm != "round_prefer_ceil" && nm != "floor" && nm != "ceil")
    ctx.unsupported("nearest_mode " + nm);
  // scales (input 2) or sizes (input 3); an empty scales beside sizes is Resize-11's placeholder.
  std::vector<double> scales;
  if (ctx.has_input(2)) {
    const std::vector<float>& s = ctx.value(2, "scales");
    scales.assign(s.begin(), s.end());
  }
  if (!scales.empty()) {
    if (ctx.has_input(3)) ctx.invalid("takes scales or sizes, not both");
    if (static_cast<int64_t>(scales.size()) != r) ctx.invalid("scales needs one value per dim of X");
    for (double s : scales)
      if (!(s > 0) || !std::isfinite(s)) ctx.invalid("scales must be positive and finite");
  } else {
    if (!ctx.has_input(3)) ctx.invalid("needs scales or sizes");
    const Shape sizes = exec::to_ints(ctx.value(3, "sizes"));
    if (sizes != ys) ctx.invalid("sizes disagree with the output shape");
  }
  std::vector<double> roi;
  if (rules.ctm == "tf_crop_and_resize") {
    if (!ctx.has_input(1)) ctx.invalid("tf_crop_and_resize needs roi");
    const std::vector<float>& v = ctx.value(1, "roi");
    if (static_cast<int64_t>(v.size()) != 2 * r) ctx.invalid("roi needs 2 * rank values");
    roi.assign(v.begin(), v.end());
  }
  // The passes, last dim first, skipping dims the transform leaves as they are.
  std::vector<AxisTaps> passes;
  std::vector<int64_t> pass_dim;
  bool any_outside = false;
  for (int64_t d = r; d-- > 0;) {
    const double scale = scales.empty() ? static_cast<double>(ys[d]) / static_cast<double>(xs[d]) : scales[d];
    if (!scales.empty() && static_cast<double>(ys[d]) != std::floor(static_cast<double>(xs[d]) * scale))
      ctx.invalid("output dim " + std::to_string(d) + " is not floor(in * scale)");
    if (ys[d] == 0) continue;
    if (xs[d] == 0) ctx.invalid("cannot resize an empty dim to a non-empty one");
    AxisTaps t = axis_taps(rules, xs[d], ys[d], scale, roi.empty() ? 0.0 : roi[d], roi.empty() ? 1.0 : roi[d + r]);
    if (t.identity()) continue;
    any_outside = any_outside || std::find(t.outside.begin(), t.outside.end(), true) != t.outside.end();
    passes.push_back(std::move(t));
    pass_dim.push_back(d);
  }
  std::vector<std::vector<bool>> outside(static_cast<std::size_t>(r));
  if (any_outside)
    for (std::size_t p = 0; p < passes.size(); ++p) outside[static_cast<std::size_t>(pass_dim[p])] = passes[p].outside;
  const int64_t total = numel(ys);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    if (total == 0) return;
    Shape cur = xs;
    std::vector<float> a(in[0], in[0] + numel(xs)), b;
    for (std::size_t p = 0; p < passes.size(); ++p) {
      const AxisTaps& t = passes[p];
      const std::size_t d = static_cast<std::size_t>(pass_dim[p]);
      int64_t outer = 1, inner = 1;
      for (std::size_t k = 0; k < d; ++k) outer *= cur[k];
      for (std::size_t k = d + 1; k < cur.size(); ++k) inner *= cur[k];
      b.assign(static_cast<std::size_t>(outer * t.out * inner), 0.0f);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < t.out; ++j) {
          float* dst = b.data() + (o * t.out + j) * inner;
          for (int64_t i = 0; i < inner; ++i) {
            double acc = 0;
            for (int k = 0; k < t.n; ++k)
              acc += t.w[j * t.n + k] * static_cast<double>(a[static_cast<std::size_t>((o * t.in + t.idx[j * t.n + k]) * inner + i)]);
            dst[i] = static_cast<float>(acc);
          }
        }
      cur[d] = t.out;
      a.swap(b);
    }
    std::copy(a.begin(), a.end(), out[0]);
    if (!any_outside) return;
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    for (int64_t e = 0; e < total; ++e) {
      bool off = false;
      for (std::size_t d = 0; d < idx.size() && !off; ++d) off = !outside[d].empty() && outside[d][static_cast<std::size_t>(idx[d])];
      if (off) out[0][e] = extrapolation;
      for (std::size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < ys[d]) break;
        idx[d] = 0;
      }
    }
  };
}

}  // namespace

void add_resize_kernels(KernelTable& t) { t["Resize"] = make_resize; }

}  // namespace nnbridge::cpu_ref
