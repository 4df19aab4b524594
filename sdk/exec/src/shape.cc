// Shape helpers (nnbridge/exec/shape.h).
#include "nnbridge/exec/shape.h"

#include <cmath>
#include <limits>
#include <string>

#include "nnbridge/error.h"

namespace nnbridge::exec {

namespace {

std::string text(const Shape& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

}  // namespace

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

Shape broadcast_strides(const Shape& in, const Shape& out) {
  if (in.size() > out.size())
    throw Error(ErrorId::Shape, "shape " + text(in) + " has a higher rank than the output " + text(out));
  Shape st(out.size(), 0);
  const Shape own = strides_of(in);
  const std::size_t lead = out.size() - in.size();
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (in[d] == 1) continue;  // stretched: stride 0
    if (in[d] != out[lead + d])
      throw Error(ErrorId::Shape, "shape " + text(in) + " does not broadcast to the output " + text(out));
    st[lead + d] = own[d];
  }
  return st;
}

Shape to_ints(std::span<const float> v) {
  Shape out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x = std::nearbyint(static_cast<double>(v[i]));
    if (std::isnan(x)) out[i] = 0;
    else if (x >= 9.2233720368547758e18) out[i] = std::numeric_limits<int64_t>::max();
    else if (x <= -9.2233720368547758e18) out[i] = std::numeric_limits<int64_t>::min();
    else out[i] = static_cast<int64_t>(x);
  }
  return out;
}

}  // namespace nnbridge::exec
