// nnbridge/exec/conv_with_clamp.h: ExecuTorch's conv_with_clamp as a Conv and two bounds.
#include "nnbridge/exec/conv_with_clamp.h"

#include <limits>
#include <string_view>

#include "nnbridge/exec/torch_pool.h"

namespace nnbridge::exec {

ConvWithClamp conv_with_clamp(const NodeContext& c) {
  if (const Attr* t = c.has_attr("transposed") ? c.attr(std::string_view("transposed")) : nullptr; t && t->is<bool>() && t->get<bool>())
    c.unsupported("conv_with_clamp with transposed = true");
  const std::size_t spatial = c.in.at(0).shape.size() >= 2 ? c.in[0].shape.size() - 2 : 0;
  if (spatial != 2) c.unsupported("conv_with_clamp is implemented for 2-D convolution (rank-4 input)");
  const Shape s = aten_pair(c, "stride", {1, 1}), p = aten_pair(c, "padding", {0, 0}), d = aten_pair(c, "dilation", {1, 1});
  ConvWithClamp r;
  r.conv.op = "Conv";
  r.conv.name = c.node.name;
  r.conv.inputs = c.node.inputs;
  r.conv.outputs = c.node.outputs;
  r.conv.attrs["strides"] = Attr(s);
  r.conv.attrs["pads"] = Attr(Shape{p[0], p[1], p[0], p[1]});
  r.conv.attrs["dilations"] = Attr(d);
  r.conv.attrs["group"] = Attr(c.attr_int("groups", 1));
  r.lo = c.has_attr("output_min") ? static_cast<float>(c.attr_float("output_min")) : -std::numeric_limits<float>::infinity();
  r.hi = c.has_attr("output_max") ? static_cast<float>(c.attr_float("output_max")) : std::numeric_limits<float>::infinity();
  if (r.lo > r.hi) c.invalid(ErrorId::AttributeValue, "output_min is above output_max");
  return r;
}

}  // namespace nnbridge::exec
