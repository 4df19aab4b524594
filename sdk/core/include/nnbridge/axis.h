// The axis rule every layer uses: one normalize_axis for shape inference and for both backends.
#pragma once

#include <cstdint>
#include <string_view>

namespace nnbridge {

/// `axis` made non-negative for a tensor of rank `rank`: axis + rank when axis < 0, else axis.
///
/// The accepted range is ONNX's for an axis attribute (onnx/docs/Operators.md, e.g. Softmax-13,
/// Concat-13, Gather-13: "Accepted range is [-r, r-1] where r = rank(input)"). Rank 0 therefore
/// accepts no axis at all: [-0, -1] is empty, and a scalar has no dimension to name (ONNX's
/// checker rejects axis 0 on a rank-0 Softmax, as onnxruntime does). An op whose axis indexes the
/// output of an inserted dimension (Unsqueeze, Concat of scalars) passes the rank it indexes into.
///
/// Throws Error(Invalid) "<what> <axis> is out of range [-r, r-1] for rank r"; the prepare loop
/// (nnbridge/exec/prepare.h) and shape inference put the node's label (`node 3 "name" (Op)`) in
/// front, so the error names the node.
int64_t normalize_axis(int64_t axis, int64_t rank, std::string_view what = "axis");

}  // namespace nnbridge
