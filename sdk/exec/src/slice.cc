// Slice's operands (nnbridge/exec/slice.h).
#include "nnbridge/exec/slice.h"

#include <algorithm>
#include <string>
#include <vector>

#include "nnbridge/axis.h"

namespace nnbridge::exec {

SliceWindow slice_window(const NodeContext& ctx) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const Shape starts = to_ints(ctx.value(1, "starts")), ends = to_ints(ctx.value(2, "ends"));
  Shape axes, steps(starts.size(), 1);
  if (ctx.has_input(3)) axes = to_ints(ctx.value(3, "axes"));
  else
    for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (ctx.has_input(4)) steps = to_ints(ctx.value(4, "steps"));
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    ctx.invalid(ErrorId::Shape, "starts, ends, axes and steps differ in length");
  SliceWindow w{Shape(r, 0), Shape(r, 1), is};
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const int64_t a = normalize_axis(axes[i], r, "axes value"), st = steps[i], dim = is[a];
    if (seen[a]) ctx.invalid(ErrorId::AttributeValue, "axes repeats " + std::to_string(a));
    seen[a] = true;
    if (st == 0) ctx.invalid(ErrorId::AttributeValue, "steps must not be 0");
    int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i], e = ends[i] < 0 ? ends[i] + dim : ends[i];
    s = st > 0 ? std::clamp<int64_t>(s, 0, dim) : std::clamp<int64_t>(s, 0, dim - 1);
    e = st > 0 ? std::clamp<int64_t>(e, 0, dim) : std::clamp<int64_t>(e, -1, dim - 1);
    const int64_t span = st > 0 ? e - s : s - e, as = st > 0 ? st : -st;
    w.count[a] = span <= 0 ? 0 : span / as + (span % as != 0);
    w.begin[a] = w.count[a] ? s : 0;
    w.step[a] = st;
  }
  if (w.count != ctx.out[0].shape) ctx.invalid(ErrorId::Shape, "output shape disagrees with the slice");
  return w;
}

std::vector<StridedDim> strided_slice_dims(const NodeContext& ctx) {
  if (ctx.attr_int("ellipsis_mask", 0) != 0 || ctx.attr_int("new_axis_mask", 0) != 0)
    ctx.unsupported("StridedSlice with ellipsis_mask or new_axis_mask");
  const Shape begin = ctx.attr_ints("begin"), end = ctx.attr_ints("end");
  Shape strides = ctx.attr_ints("strides");
  if (strides.empty()) strides.assign(begin.size(), 1);
  std::vector<StridedDim> dims;
  try {
    dims = resolve_strided_slice(ctx.in[0].shape, begin, end, strides, ctx.attr_int("begin_mask", 0),
                                 ctx.attr_int("end_mask", 0), ctx.attr_int("shrink_axis_mask", 0));
  } catch (const Error& e) {
    ctx.invalid(e.id(), e.message());
  }
  int64_t count = 1;
  for (const StridedDim& d : dims) count *= d.count;
  if (count != numel(ctx.out[0].shape)) ctx.invalid(ErrorId::Shape, "output size does not match the slice");
  return dims;
}

}  // namespace nnbridge::exec
