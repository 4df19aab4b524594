// Entry points shared by the handler, the reader and the writer.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <span>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::formats::armnn {

/// The two union/LayerType numberings nnbridge knows.
enum class Layout { Released, Seed };
/// Parses the `armnn.layout` option ("released" or "seed"); throws Error(Invalid).
Layout layout_option(const std::map<std::string, std::string, std::less<>>& options);

/// Seed union tag (1..5) -> released union tag, and seed LayerType -> released LayerType.
uint8_t seed_tag_to_released(uint8_t tag);
uint8_t released_tag_to_seed(uint8_t tag);  ///< 0 when the seed layout has no such layer
uint32_t seed_type_to_released(uint32_t type);
uint32_t released_type_to_seed(uint32_t type);

/// True when `bytes` verify as a seed-layout graph whose union tags agree with its
/// LayerBase.layerType under the seed numbering but not under the released one.
bool looks_like_seed(std::span<const std::byte> bytes, const VerifierLimits& limits);

/// Reads a SerializedGraph (see format_handler() for the options).
Graph read_graph(const Source& src, const LoadOptions& options);
/// Serializes `g`; deterministic (the same graph gives the same bytes).
std::vector<uint8_t> write_graph(const Graph& g, const SaveOptions& options);
/// The attribute `k` of `a`, or nullptr; its int value, or nullopt when absent or not an int.
inline const Attr* find_attr(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it == a.end() ? nullptr : &it->second;
}
inline std::optional<int64_t> attr_int(const AttrMap& a, const std::string& k) {
  const Attr* x = find_attr(a, k);
  if (x && x->is<int64_t>()) return x->get<int64_t>();
  return std::nullopt;
}

/// The graph rewritten into the forms an Arm NN file needs (lower.cc), or nullopt when `g`
/// already has them (no copy is made).
std::optional<Graph> lower_for_armnn(const Graph& g);

/// The featureVersions writer options under `prefix` ("armnn", "armnn-json") with their meanings
/// and defaults (handler.cc; FormatHandler::option_docs).
std::map<std::string, OptionDoc, std::less<>> writer_option_docs(const std::string& prefix);

/// Arm NN's rules for check() (check.cc): identity fields in range, inputIds/outputIds resolvable.
void check_graph(const Graph& g, std::vector<Issue>& issues);
/// check_graph that also gives each issue's identifier in `out` (same order; all are errors).
void check_graph_ids(const Graph& g, std::vector<Issue>& issues, std::vector<ErrorId>* out);

}  // namespace nnbridge::formats::armnn
