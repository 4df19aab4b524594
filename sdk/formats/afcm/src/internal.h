// Entry points shared by the handler, the flatbuffer side, the IR side and the rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "model.h"
#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::formats::afcm {

/// The native op of this format.
inline constexpr const char* kProgramOp = "gl.Program";

/// Verifies `src` as a CompiledModel and decodes it; ObjectData bytes are views into `src`.
/// Throws Error(Malformed) naming the failing part ("programs[2].objects[0]"), and
/// Error(Unsupported) for an OpenCL program cache (same identifier, another root).
Model read_model(const Source& src, const VerifierLimits& limits);
/// Serializes `m` with the AFCM identifier; deterministic.
std::vector<uint8_t> write_model(const Model& m);
/// True when read_model takes `bytes` (AFCM identifier, verified as a CompiledModel when `gl_ok`)
/// for TFLite's OpenCL program cache, which shares the identifier: it verifies as a
/// CompiledCache and, if it also verifies as a CompiledModel, lacks `programs` while holding a
/// field the cache has too.
bool reads_as_program_cache(std::span<const std::byte> bytes, const VerifierLimits& limits, bool gl_ok);

/// The IR form of `m` (documented in nnbridge/formats/afcm.h).
Graph to_graph(const Model& m);

/// Called for each way `g` fails to be an afcm graph in the IR form: `id` is the Invalid
/// identifier (nnbridge/error.h), `where` an IR path ("nodes[3].attrs.gl.objects.binding[0]"),
/// `message` says what is wrong.
using ProblemFn = std::function<void(ErrorId id, const std::string& where, const std::string& message)>;
/// The model an afcm graph stands for. Decoding carries on past a problem (skipping what it
/// cannot read) so that the checker sees all of them; the writer throws at the first.
/// `program_nodes` receives, per program, the index of its node. With `only_programs`, a node
/// of another op is a problem (the writer's view); without, it is skipped (the checker's).
Model to_model(const Graph& g, const ProblemFn& problem, std::vector<std::size_t>* program_nodes = nullptr,
               bool only_programs = true);

/// The format's rules on a decoded model (see check_graph in nnbridge/formats/afcm.h).
void check_model(const Model& m, std::vector<Issue>& issues);

}  // namespace nnbridge::formats::afcm
