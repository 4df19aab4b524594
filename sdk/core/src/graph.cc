#include "nnbridge/graph.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace nnbridge {

std::optional<int64_t> TensorType::element_count() const {
  if (unknown_rank) return std::nullopt;
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return std::nullopt;
    // A file may declare any dims: refuse products that do not fit in int64 (docs/architecture.md "Readers are a security boundary").
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;  // no division per dimension
  }
  return n;
}

std::optional<int64_t> TensorType::byte_size() const {
  auto n = element_count();
  if (!n) return std::nullopt;
  auto es = static_cast<int64_t>(element_size(dtype));
  if (es != 0 && *n > std::numeric_limits<int64_t>::max() / es) return std::nullopt;
  return *n * es;
}

bool TensorType::fully_known() const {
  if (unknown_rank || dtype == DataType::Undefined) return false;
  return std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
}

ValueId Graph::add_value(Value v) {
  values.push_back(std::move(v));
  return static_cast<ValueId>(values.size() - 1);
}

std::size_t Graph::add_node(Node n) {
  nodes.push_back(std::move(n));
  return nodes.size() - 1;
}

std::optional<ValueId> Graph::find_value(std::string_view name) const {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i].name == name) return static_cast<ValueId>(i);
  return std::nullopt;
}

std::vector<std::size_t> Graph::producers() const {
  std::vector<std::size_t> p(values.size(), SIZE_MAX);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (ValueId o : nodes[i].outputs)
      if (o < p.size() && p[o] == SIZE_MAX) p[o] = i;
  return p;
}

}  // namespace nnbridge
