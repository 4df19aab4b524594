// TensorFlow StridedSlice indices (nnbridge/strided_slice.h).
#include "nnbridge/strided_slice.h"

#include <algorithm>
#include <string>

#include "nnbridge/error.h"

namespace nnbridge {

std::vector<StridedDim> resolve_strided_slice(const std::vector<int64_t>& dims, const std::vector<int64_t>& begin,
                                              const std::vector<int64_t>& end, const std::vector<int64_t>& strides,
                                              int64_t begin_mask, int64_t end_mask, int64_t shrink_axis_mask) {
  if (end.size() != begin.size() || strides.size() != begin.size() || begin.size() > dims.size())
    throw Error(ErrorId::Shape, "begin, end and strides must have one entry each per sliced dim (" + std::to_string(begin.size()) +
                                    ", " + std::to_string(end.size()) + ", " + std::to_string(strides.size()) + " for " +
                                    std::to_string(dims.size()) + " dims)");
  std::vector<StridedDim> out(dims.size());
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const int64_t dim = dims[d];
    StridedDim& s = out[d];
    s.end = dim, s.count = dim;
    if (d >= begin.size()) continue;
    const auto bit = [&](int64_t mask) { return d < 63 && ((mask >> d) & 1) != 0; };
    const std::string entry = "entry " + std::to_string(d);
    s.step = strides[d];
    if (s.step == 0) throw Error(ErrorId::AttributeValue, entry + ": strides must not be 0");
    if (bit(shrink_axis_mask)) {
      s.begin = begin[d] < 0 ? begin[d] + dim : begin[d];
      if (s.begin < 0 || s.begin >= dim)
        throw Error(ErrorId::AttributeValue, entry + ": the shrink index " + std::to_string(begin[d]) + " is outside the dim of " +
                                                 std::to_string(dim));
      s.end = s.begin + 1, s.step = 1, s.count = 1, s.shrink = true;
      continue;
    }
    const bool up = s.step > 0;
    const auto resolve = [&](int64_t v, bool masked, bool is_begin) {
      if (masked) return up ? (is_begin ? 0 : dim) : (is_begin ? dim - 1 : -1);
      if (v < 0) v += dim;
      return up ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    s.begin = resolve(begin[d], bit(begin_mask), true);
    s.end = resolve(end[d], bit(end_mask), false);
    const int64_t span = up ? s.end - s.begin : s.begin - s.end, size = up ? s.step : -s.step;
    s.count = span <= 0 ? 0 : (span + size - 1) / size;
    if (s.count == 0) s.begin = 0, s.end = 0;
  }
  return out;
}

}  // namespace nnbridge
