#include "nnbridge/order.h"
#include "harness.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <system_error>

namespace nnbridge::fuzz {
namespace {

struct Scratch {
  std::filesystem::path dir;
  std::map<std::string, std::filesystem::path, std::less<>> files;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / ("nnbridge-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

std::string value_name(const Graph& g, ValueId id) {
  if (id >= g.values.size()) return "value " + std::to_string(id) + " (out of range)";
  return "value " + std::to_string(id) + " '" + g.values[id].name + "'";
}

// Compares the graph inputs (or outputs) `a` of `first` with `b` of `again`.
void expect_same_ends(const Graph& first, const std::vector<ValueId>& a, const Graph& again,
                      const std::vector<ValueId>& b, const char* which, std::string_view what) {
  if (a.size() != b.size())
    finding(what, std::string("the graph had ") + std::to_string(a.size()) + " " + which + ", read back " +
                      std::to_string(b.size()));
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] >= first.values.size() || b[k] >= again.values.size())
      finding(what, std::string(which) + "[" + std::to_string(k) + "] is " + value_name(first, a[k]) + ", read back " +
                        value_name(again, b[k]));
    const TensorType& ta = first.values[a[k]].type;
    const TensorType& tb = again.values[b[k]].type;
    if (ta.dtype != tb.dtype || ta.unknown_rank != tb.unknown_rank || ta.shape != tb.shape)
      finding(what, std::string(which) + "[" + std::to_string(k) + "] (" + value_name(first, a[k]) + ") was " +
                        describe(ta) + ", read back " + describe(tb));
  }
}

}  // namespace

void finding(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "fuzz: FINDING: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  std::abort();
}

std::string describe(const TensorType& t) {
  std::string s(to_string(t.dtype));
  if (t.unknown_rank) return s + "[?]";
  s += "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "]";
}

void expect_same_graph(const Graph& first, const Graph& again, std::string_view what) {
  if (first.nodes.size() != again.nodes.size())
    finding(what, "the graph had " + std::to_string(first.nodes.size()) + " nodes, read back " +
                      std::to_string(again.nodes.size()));
  // In each graph's stable topological order: the IR keeps a file's node order, while a format
  // whose node list is its execution order (VkGraph's chain) is written producers first.
  // A format whose reader and writer both keep a cycle compares in stored order.
  auto order = [](const Graph& g) {
    if (!find_cycle(g).empty()) {
      std::vector<std::size_t> stored(g.nodes.size());
      for (std::size_t i = 0; i < stored.size(); ++i) stored[i] = i;
      return stored;
    }
    return topological_order(g);
  };
  const std::vector<std::size_t> oa = order(first), ob = order(again);
  for (std::size_t i = 0; i < oa.size(); ++i)
    if (first.nodes[oa[i]].op != again.nodes[ob[i]].op)
      finding(what, "nodes[" + std::to_string(oa[i]) + "] (" + std::to_string(i) + " in topological order) was " +
                        first.nodes[oa[i]].op + ", read back " + again.nodes[ob[i]].op);
  expect_same_ends(first, first.inputs, again, again.inputs, "inputs", what);
  expect_same_ends(first, first.outputs, again, again.outputs, "outputs", what);
  std::vector<ValueId> ca, cb;
  for (ValueId v = 0; v < first.values.size(); ++v)
    if (first.values[v].constant) ca.push_back(v);
  for (ValueId v = 0; v < again.values.size(); ++v)
    if (again.values[v].constant) cb.push_back(v);
  if (ca.size() != cb.size())
    finding(what, "the graph had " + std::to_string(ca.size()) + " constants with data, read back " +
                      std::to_string(cb.size()));
  for (std::size_t k = 0; k < ca.size(); ++k) {
    const std::size_t sa = first.values[ca[k]].constant->size(), sb = again.values[cb[k]].constant->size();
    if (sa != sb)
      finding(what, "constant " + std::to_string(k) + " (" + value_name(first, ca[k]) + ") had " + std::to_string(sa) +
                        " bytes, read back " + std::to_string(sb) + " (" + value_name(again, cb[k]) + ")");
  }
}

void expect_same_text(std::string_view first, std::string_view again, std::string_view what) {
  if (first == again) return;
  std::size_t at = 0, line = 1;
  while (at < first.size() && at < again.size() && first[at] == again[at]) {
    if (first[at] == '\n') ++line;
    ++at;
  }
  auto line_of = [](std::string_view s, std::size_t pos) {
    const std::size_t begin = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    const std::size_t from = begin == std::string_view::npos || pos == 0 ? 0 : begin + 1;
    return std::string(s.substr(from, std::min<std::size_t>(s.find('\n', from) - from, 200)));
  };
  finding(what, "the texts differ at line " + std::to_string(line) + ": '" + line_of(first, at) + "' became '" +
                    line_of(again, at) + "'");
}

namespace {
std::size_t g_completed = 0;
}  // namespace

void completed() { ++g_completed; }
std::size_t completed_count() { return g_completed; }

const std::filesystem::path& scratch_file(std::string_view extension) {
  static Scratch scratch;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(scratch.dir, ec)) std::filesystem::remove_all(e.path(), ec);
  auto it = scratch.files.find(extension);
  if (it == scratch.files.end())
    it = scratch.files.emplace(std::string(extension), scratch.dir / ("out" + std::string(extension))).first;
  return it->second;
}

}  // namespace nnbridge::fuzz
