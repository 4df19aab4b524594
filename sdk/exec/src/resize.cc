// Resize's attributes, operands and taps (nnbridge/exec/resize.h).
#include "nnbridge/exec/resize.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

namespace {

struct Rules {
  std::string mode, ctm, nearest_mode;
  double cubic_a = -0.75;
  bool exclude_outside = false;
};

// Keys' cubic kernel with coefficient a at the four taps around ratio r.
std::vector<double> cubic(double r, double a) {
  auto near = [a](double t) { return ((a + 2) * t - (a + 3)) * t * t + 1; };         // |t| <= 1
  auto far = [a](double t) { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a; };  // 1 < |t| < 2
  const double s = 1 - r;
  return {far(r + 1), near(r), near(s), far(s + 1)};
}

bool identity(const ResizeAxis& t) {
  if (t.in != t.out) return false;
  for (int64_t o = 0; o < t.out; ++o) {
    if (t.outside[o]) return false;
    for (int k = 0; k < t.n; ++k) {
      const double wk = t.w[o * t.n + k];
      if (wk != 0.0 && !(wk == 1.0 && t.idx[o * t.n + k] == o)) return false;
    }
  }
  return true;
}

ResizeAxis axis_taps(const Rules& rules, int64_t in, int64_t out, double scale, double roi_start, double roi_end) {
  ResizeAxis t;
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
      t.idx[o * t.n + k] = std::clamp<int64_t>(at[k], 0, std::max<int64_t>(in - 1, 0));
      t.w[o * t.n + k] = coeffs[k];
    }
  }
  return t;
}

}  // namespace

ResizePlan resize_plan(const NodeContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (static_cast<int64_t>(ys.size()) != r) ctx.invalid(ErrorId::Shape, "output rank differs from X's");
  Rules rules;
  rules.mode = ctx.attr_string("mode", "nearest");
  rules.ctm = ctx.attr_string("coordinate_transformation_mode", "asymmetric");
  rules.nearest_mode = ctx.attr_string("nearest_mode", "floor");
  rules.cubic_a = ctx.attr_float("cubic_coeff_a", -0.75);
  rules.exclude_outside = ctx.attr_int("exclude_outside", 0) != 0;
  ResizePlan plan;
  plan.extrapolation_value = static_cast<float>(ctx.attr_float("extrapolation_value", 0.0));
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
    const FloatConstant& s = ctx.value(2, "scales");
    scales.assign(s.begin(), s.end());
  }
  if (!scales.empty()) {
    if (ctx.has_input(3)) ctx.invalid(ErrorId::Arity, "takes scales or sizes, not both");
    if (static_cast<int64_t>(scales.size()) != r) ctx.invalid(ErrorId::Shape, "scales needs one value per dim of X");
    for (double s : scales)
      if (!(s > 0) || !std::isfinite(s)) ctx.invalid(ErrorId::AttributeValue, "scales must be positive and finite");
  } else {
    if (!ctx.has_input(3)) ctx.invalid(ErrorId::Arity, "needs scales or sizes");
    if (to_ints(ctx.value(3, "sizes")) != ys) ctx.invalid(ErrorId::Shape, "sizes disagree with the output shape");
  }
  std::vector<double> roi;
  if (rules.ctm == "tf_crop_and_resize") {
    if (!ctx.has_input(1)) ctx.invalid(ErrorId::Arity, "tf_crop_and_resize needs roi");
    const FloatConstant& v = ctx.value(1, "roi");
    if (static_cast<int64_t>(v.size()) != 2 * r) ctx.invalid(ErrorId::Shape, "roi needs 2 * rank values");
    roi.assign(v.begin(), v.end());
  }
  for (int64_t d = r; d-- > 0;) {
    const double scale = scales.empty() ? static_cast<double>(ys[d]) / static_cast<double>(xs[d]) : scales[d];
    if (!scales.empty() && static_cast<double>(ys[d]) != std::floor(static_cast<double>(xs[d]) * scale))
      ctx.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " is not floor(in * scale)");
    if (ys[d] == 0) continue;
    if (xs[d] == 0) ctx.invalid(ErrorId::Shape, "cannot resize an empty dim to a non-empty one");
    ResizeAxis t = axis_taps(rules, xs[d], ys[d], scale, roi.empty() ? 0.0 : roi[d], roi.empty() ? 1.0 : roi[d + r]);
    if (identity(t)) continue;
    t.dim = d;
    plan.any_outside = plan.any_outside || std::find(t.outside.begin(), t.outside.end(), true) != t.outside.end();
    plan.passes.push_back(std::move(t));
  }
  return plan;
}

}  // namespace nnbridge::exec
