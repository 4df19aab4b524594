// Shared by the fuzz harnesses. Each harness feeds the fuzzer's bytes to one reader from
// memory; an nnbridge::Error is the expected answer to bad bytes, and anything else (a crash,
// another exception, a sanitizer report, a hang) is a finding. What a reader accepts is also
// checked and written back, so the checker and the writers see every graph a reader can produce;
// what a writer accepted must read back and agree with the first read (docs/architecture.md
// "Fidelity rules": a writer never writes what its own reader rejects). A disagreement is a
// finding too: the harness prints it and aborts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "nnbridge/error.h"
#include "nnbridge/graph.h"

namespace nnbridge::fuzz {

inline std::span<const std::byte> as_bytes(const uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

/// Runs `fn`; swallows nnbridge::Error only. Returns false when fn threw one.
template <class Fn>
bool clean(Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const nnbridge::Error&) {
    return false;
  }
}

/// A finding: prints "fuzz: FINDING: <what>: <detail>" to stderr and aborts.
[[noreturn]] void finding(std::string_view what, std::string_view detail);

/// Runs `fn`, where an nnbridge::Error is a finding (the step must succeed: reading back what a
/// writer accepted). `what` names the step ("read back the armnn file the writer wrote").
template <class Fn>
void must(std::string_view what, Fn&& fn) {
  try {
    fn();
  } catch (const nnbridge::Error& e) {
    finding(what, e.what());
  }
}

/// "float32[1, 3, -1]" ("float32[?]" for an unknown rank), for messages.
std::string describe(const TensorType& t);

/// A finding unless `again` (a graph read back from what a writer made of `first`) agrees with
/// `first` on what every graph format carries: the number of nodes and each node's op, in
/// order; the number of graph inputs and outputs and each one's dtype and shape; and the
/// constants (values with data), in value order, with each one's byte size.
void expect_same_graph(const Graph& first, const Graph& again, std::string_view what);

/// A finding unless the two texts are equal (names the first differing line of each).
void expect_same_text(std::string_view first, std::string_view again, std::string_view what);

/// A finding unless the two tensors (nnbridge::HostTensor, or anything with type() and bytes())
/// have the same type (dtype, shape, quantization) and the same bytes.
template <class Tensor>
void expect_same_tensor(const Tensor& first, const Tensor& again, std::string_view what) {
  if (!(first.type() == again.type()))
    finding(what, "the type changed: " + describe(first.type()) + " read back as " + describe(again.type()));
  const auto a = first.bytes(), b = again.bytes();
  if (a.size() != b.size() || !std::equal(a.begin(), a.end(), b.begin()))
    finding(what, "the data changed (" + std::to_string(a.size()) + " bytes read back as " + std::to_string(b.size()) +
                      ", or the same count with other bytes)");
}

/// Counts an input that went through every stage of its harness (read, and whatever follows:
/// written, read back and compared); smoke_main.cc reports the count and fails when it is 0,
/// so that seeds which only exercise the rejections are noticed.
void completed();
/// The number of completed() calls so far.
std::size_t completed_count();

/// A scratch file of this process for writers that only write to a path (in $TMPDIR, else
/// /tmp; removed at exit), named with `extension` (".armnn"). Each call first empties the
/// scratch folder, so what a writer put beside the file (a .pte's .ptd) never meets the next input.
const std::filesystem::path& scratch_file(std::string_view extension);

}  // namespace nnbridge::fuzz
