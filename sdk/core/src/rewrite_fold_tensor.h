// The small constants fold_shape_arithmetic (nnbridge/rewrite.h) evaluates: one tensor type
// whose elements are held exactly (integers and bools as int64, float32 / float64 as double),
// the element moves every data-movement op shares (an output shape and, per output element, the
// input element it copies), numpy broadcasting (ONNX's multidirectional broadcasting), and the
// data-movement ops themselves (rewrite_fold_move.cc; the arithmetic is in rewrite_fold.cc).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/graph.h"
#include "rewrite_edit.h"

namespace nnbridge::rewrite_detail {

// At most this many elements are read or made by one folded node: 1 MiB of float32 (a shifted
// window attention mask of 64 windows of 7 x 7 tokens is 153,664).
inline constexpr std::size_t kMaxFolded = std::size_t(1) << 18;

struct Folded {
  DataType dtype = DataType::Int64;
  Ints shape;
  Ints ints;                  // Int64 / Int32 / Bool elements (bool as 0 / 1)
  std::vector<double> reals;  // Float32 / Float64 elements (float32 ones are float32 values)

  bool real() const { return dtype == DataType::Float32 || dtype == DataType::Float64; }
  std::size_t size() const { return real() ? reals.size() : ints.size(); }
};

// Whether a dtype is one a Folded holds.
bool foldable_dtype(DataType dt);

// The constant value v as a Folded: a foldable dtype, a known shape and at most kMaxFolded
// elements; nullopt otherwise.
std::optional<Folded> folded_constant(const Graph& g, ValueId v);

// The little-endian bytes of t in its dtype.
Buffer folded_bytes(const Folded& t);

// Output element k is element src[k] of t; the output has t's dtype and the given shape.
Folded take(const Folded& t, Ints shape, const std::vector<std::size_t>& src);

// Row-major strides of a shape.
Ints strides_of(const Ints& shape);

// Numpy broadcasting of the shapes (ONNX multidirectional broadcasting): the output shape, and
// per input the element each output element reads; nullopt when two dims differ and neither is 1,
// or the output would hold more than kMaxFolded elements.
struct Broadcast {
  Ints shape;
  std::vector<std::vector<std::size_t>> src;
};
std::optional<Broadcast> broadcast(const std::vector<const Ints*>& shapes);

// Input k of n as an int constant's elements, else attribute `attr` (empty when absent too);
// nullopt for an input that is not an int constant.
std::optional<Ints> ints_operand(const Graph& g, const Node& n, std::size_t k, const char* attr);
// Input k of n when it is an int (or bool) constant.
std::optional<Folded> int_input(const Graph& g, const Node& n, std::size_t k);

// The data-movement ops on a constant `a` (input 0 of n), each by ONNX's rule stated where it
// is defined (rewrite_fold_move.cc); nullopt where the rule leaves the result undefined or the
// operands are not constants.
std::optional<Folded> fold_gather(const Graph& g, const Node& n, const Folded& a);
std::optional<Folded> fold_transpose(const Node& n, const Folded& a);
std::optional<Folded> fold_concat(const Graph& g, const Node& n, const Folded& a);
std::optional<Folded> fold_slice(const Graph& g, const Node& n, const Folded& a);
std::optional<Folded> fold_scatter_nd(const Graph& g, const Node& n, const Folded& data);

}  // namespace nnbridge::rewrite_detail
