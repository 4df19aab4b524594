// The one reading of an Einsum equation: shape inference (sdk/core/src/ops/matrix.cc) and the
// backends' kernels parse it here.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace nnbridge {

/// An Einsum equation with every dim of every operand named by a label id in [0, labels).
/// Letters get the ids 0.. in order of first appearance; the dims an ellipsis stands for get
/// further ids, one per broadcast position counted from the right, shared by all operands
/// (an operand's ellipsis covers its last-aligned positions, NumPy's broadcasting).
struct EinsumTerms {
  std::vector<std::vector<int>> inputs;  ///< per operand, the label of each of its dims
  std::vector<int> output;               ///< the label of each output dim
  int labels = 0;                        ///< number of distinct labels
  std::vector<bool> broadcast;           ///< per label: stands for ellipsis dims (a 1 broadcasts)
};

/// Parses ONNX Einsum-12's `equation` ("ij,jk->ik", "...ii->...i", "i,i") for operands of the
/// given ranks. Spaces are ignored. Explicit form: the output term after "->" names each output
/// dim (each label at most once; an ellipsis there stands for the broadcast dims). Implicit form
/// (no "->"): the broadcast dims, then the letters that appear exactly once, in alphabetical
/// order. Letters are a-z and A-Z. Labels missing from the output are summed over; a label
/// repeated within one operand takes its diagonal. Throws Error(Invalid) naming the problem
/// (term count, rank, a stray character, an output label no operand has, ...).
EinsumTerms parse_einsum(std::string_view equation, const std::vector<int64_t>& ranks);

}  // namespace nnbridge
