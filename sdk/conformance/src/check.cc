// run_case(): the checks one case asks for, in this process (docs/conformance.md).
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "internal.h"
#include "nnbridge/conformance.h"
#include "nnbridge/error.h"
#include "nnbridge/json_syntax.h"
#include "nnbridge/io.h"
#include "nnbridge/json.h"
#include "nnbridge/npy.h"
#include "nnbridge/tensor_files.h"

namespace nnbridge::conformance {

namespace fs = std::filesystem;

namespace {

/// A check that did not hold: the case fails with this text.
struct CheckFailed {
  std::string reason;
};

/// A fresh folder for written files, removed when the case ends.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/nnbridge-conformance-XXXXXX";
    if (!mkdtemp(tmpl)) throw Error(ErrorId::IoWrite, "cannot create a temporary folder", "/tmp");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const char* code_name(ErrorCode c) {
  switch (c) {
    case ErrorCode::Io: return "Io";
    case ErrorCode::Malformed: return "Malformed";
    case ErrorCode::Unsupported: return "Unsupported";
    case ErrorCode::Invalid: return "Invalid";
    case ErrorCode::Backend: return "Backend";
  }
  return "?";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The IR as JSON with every constant inline, parsed (so formatting never matters).
nlohmann::json ir_json(const Graph& g) {
  JsonWriteOptions o;
  o.inline_limit = SIZE_MAX;
  return nlohmann::json::parse(to_json(g, o));
}

/// The first differing place between two JSON documents, as a JSON pointer.
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  nlohmann::json patch = nlohmann::json::diff(a, b);
  return patch.empty() ? std::string() : patch[0].value("path", std::string("/"));
}

// Schemas of the FlatBuffers formats, relative to CaseOptions::schemas_dir (this repository's schemas/).
const std::map<std::string, std::string, std::less<>> kFlatcSchemas = {
    {"armnn", "armnn/ArmnnSchema.fbs"}, {"afcm", "afcm/compiled_model.fbs"}, {"vkgraph", "vkgraph/schema.fbs"}};

/// Tensors in a graph's input (or output) order; an empty slot has no file.
struct OrderedTensors {
  std::vector<std::optional<HostTensor>> tensors;
};

const TensorType& value_type(const Graph& g, ValueId id) { return g.values.at(id).type; }

/// Whether a tensor file of dtype `file` holds the bits of graph dtype `graph`: the same storage
/// type, or uint16 for bfloat16 (ONNX 1.12's test generator writes bfloat16 data as UINT16 tensors,
/// NumPy having no bfloat16; the bits are the same).
bool same_storage(DataType graph, DataType file) {
  return storage_type(graph) == file || (graph == DataType::BFloat16 && file == DataType::UInt16);
}

/// Tags `t` with the graph's dtype and quantization (an .npy or .pb has storage integers only).
HostTensor as_graph_type(const HostTensor& t, const TensorType& graph_type, const fs::path& file, const std::string& what) {
  if (!same_storage(graph_type.dtype, t.dtype()))
    throw Error(ErrorId::TypeMismatch,
                what + " needs dtype " + std::string(to_string(storage_type(graph_type.dtype))) + ", the file has " +
                    std::string(to_string(t.dtype())),
                file.string());
  TensorType type = graph_type;
  type.unknown_rank = false;
  type.shape = t.shape();
  return HostTensor::from_buffer(std::move(type), t.buffer());
}

/// Reads a data set against graph `g`: inputs (all required) and expected outputs (those present).
void read_data_set(const DataSet& ds, const Graph& g, OrderedTensors& in, OrderedTensors& out) {
  auto value_name = [&](ValueId id) { return g.values.at(id).name; };
  in.tensors.assign(g.inputs.size(), std::nullopt);
  out.tensors.assign(g.outputs.size(), std::nullopt);
  if (ds.positional) {
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
      const fs::path p = ds.inputs / ("input_" + std::to_string(i) + ".pb");
      if (!fs::exists(p))
        throw Error(ErrorId::MissingInput, "no file for graph input " + std::to_string(i) + " (\"" + value_name(g.inputs[i]) + "\")",
                    p.string());
      in.tensors[i] = as_graph_type(read_tensor_proto(p), value_type(g, g.inputs[i]), p, "graph input " + std::to_string(i));
    }
    if (fs::exists(ds.inputs / ("input_" + std::to_string(g.inputs.size()) + ".pb")))
      throw Error(ErrorId::Arity, "more input files than the graph's " + std::to_string(g.inputs.size()) + " inputs",
                  ds.inputs.string());
    for (std::size_t j = 0; j < g.outputs.size(); ++j) {
      const fs::path p = ds.outputs / ("output_" + std::to_string(j) + ".pb");
      if (!fs::exists(p)) continue;
      HostTensor t = read_tensor_proto(p);
      const TensorType& want = value_type(g, g.outputs[j]);
      out.tensors[j] = want.dtype == DataType::BFloat16 && t.dtype() == DataType::UInt16
                           ? as_graph_type(t, want, p, "graph output " + std::to_string(j))
                           : std::move(t);
    }
    return;
  }
  // <name>.npy as nnbridge/tensor_files.h spells it ("dense/Softmax" is dense%2FSoftmax.npy).
  auto stems = [&](const std::vector<ValueId>& ids, std::string_view role) {
    std::vector<std::string> names;
    for (ValueId id : ids) names.push_back(value_name(id));
    return tensor_file_stems(names, role);
  };
  const std::vector<std::string> in_stems = stems(g.inputs, "input"), out_stems = stems(g.outputs, "output");
  std::map<std::string, std::size_t> in_index, out_index;
  for (std::size_t i = 0; i < in_stems.size(); ++i) in_index[in_stems[i]] = i;
  for (std::size_t j = 0; j < out_stems.size(); ++j) out_index[out_stems[j]] = j;
  std::error_code no_folder;  // a missing inputs/ reads as empty: each graph input is then missing
  for (const auto& e : fs::directory_iterator(ds.inputs, no_folder)) {
    if (e.path().extension() != ".npy") continue;
    auto it = in_index.find(e.path().stem().string());
    if (it == in_index.end())
      throw Error(ErrorId::MissingInput, "not the file of a graph input ('%' and '/' in a name are written %25 and %2F)",
                  e.path().string());
    const std::size_t i = it->second;
    in.tensors[i] = as_graph_type(read_npy(e.path()), value_type(g, g.inputs[i]), e.path(),
                                  "graph input \"" + value_name(g.inputs[i]) + "\"");
  }
  for (std::size_t i = 0; i < g.inputs.size(); ++i)
    if (!in.tensors[i])
      throw Error(ErrorId::MissingInput, "no file for graph input \"" + value_name(g.inputs[i]) + "\"",
                  (ds.inputs / (in_stems[i] + ".npy")).string());
  if (!fs::is_directory(ds.outputs)) return;
  for (const auto& e : fs::directory_iterator(ds.outputs)) {
    if (e.path().extension() != ".npy") continue;
    auto it = out_index.find(e.path().stem().string());
    if (it == out_index.end())
      throw Error(ErrorId::DanglingReference, "not the file of a graph output ('%' and '/' in a name are written %25 and %2F)",
                  e.path().string());
    out.tensors[it->second] = read_npy(e.path());
  }
}

bool any(const OrderedTensors& t) {
  for (const auto& x : t.tensors)
    if (x) return true;
  return false;
}

/// Runs `g` on `backend` with inputs by position and compares the expected outputs by position;
/// throws CheckFailed naming the output.
void execute(const Graph& g, const std::string& backend_name, const BackendOptions& bo, const OrderedTensors& in,
             const OrderedTensors& expected, const ToleranceSpec& tol, const std::string& label) {
  auto backend = find_backend(backend_name);
  if (!backend) throw CheckFailed{"no backend named \"" + backend_name + "\""};
  if (g.inputs.size() != in.tensors.size() || g.outputs.size() != expected.tensors.size())
    throw CheckFailed{label + ": the graph has " + std::to_string(g.inputs.size()) + " inputs and " +
                      std::to_string(g.outputs.size()) + " outputs, the case " + std::to_string(in.tensors.size()) +
                      " and " + std::to_string(expected.tensors.size())};
  TensorMap inputs;
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    const TensorType& want = value_type(g, g.inputs[i]);
    const HostTensor& t = *in.tensors[i];
    TensorType type = want;
    type.shape = t.shape();
    type.unknown_rank = false;
    inputs[g.values[g.inputs[i]].name] = HostTensor::from_buffer(std::move(type), t.buffer());
  }
  std::unique_ptr<Plan> plan = backend->prepare(g, bo);
  TensorMap actual = plan->run(inputs);
  for (std::size_t j = 0; j < g.outputs.size(); ++j) {
    if (!expected.tensors[j]) continue;
    const std::string& name = g.values[g.outputs[j]].name;
    auto it = actual.find(name);
    const DataType dt = it == actual.end() ? DataType::Undefined : it->second.dtype();
    TensorMap one{{name, *expected.tensors[j]}};
    for (const OutputReport& r : compare_outputs(actual, one, tol.for_type(dt), backend_name)) {
      if (r.passed) continue;
      std::ostringstream s;
      s << label << ": output \"" << name << "\": " << r.message;
      // The error measures mean something only when shapes and dtypes matched; steps only for
      // quantized outputs (storage integers apart).
      if (r.message.rfind("values", 0) == 0) {
        s << " (max abs " << r.max_abs_error << ", max rel " << r.max_rel_error;
        if (is_quantized(dt)) s << ", steps " << r.max_steps;
        else if (r.atol > 0) s << ", atol " << r.atol << ", rtol " << tol.for_type(dt).rtol;
        s << ")";
      }
      throw CheckFailed{s.str()};
    }
  }
}

class CaseRun {
 public:
  CaseRun(const fs::path& dir, const CaseOptions& o, CaseResult& r) : dir_(dir), opt_(o), r_(r) {}

  void go() {
    spec_ = read_case(dir_);
    if (!spec_.skip.empty()) {
      r_.status = Status::Skip;
      r_.reason = spec_.skip;
      return;
    }
    const auto& ee = spec_.expect_error;
    Graph g;
    try {
      g = load(spec_.model, spec_.load_options);
    } catch (const Error& e) {
      if (ee && ee->stage == "load") return expect(e);
      throw;
    }
    if (ee && ee->stage == "load")
      throw CheckFailed{"loaded without error; expected " + ee->code + " containing \"" + ee->message_contains + "\""};
    r_.checks.push_back("decode");
    const std::string format = g.source_format.empty() ? detect_format(spec_.model) : g.source_format;
    check_ir(g);
    check_roundtrip(g, format);
    std::vector<std::pair<std::string, Graph>> graphs{{"", g}};
    for (const Conversion& c : spec_.conversions) graphs.emplace_back(c.to, convert(g, c));
    try {
      check_execution(graphs);
    } catch (const Error& e) {
      if (ee && ee->stage == "run") return expect(e);
      throw;
    }
    if (ee) throw CheckFailed{"ran without error; expected " + ee->code + " containing \"" + ee->message_contains + "\""};
    check_asked_for();
    if (!not_run_.empty()) {
      // Nothing failed, but nothing was executed either: the backends asked for were all left out.
      r_.status = Status::Skip;
      r_.reason = "nothing executed: " + not_run_;
      return;
    }
    r_.status = Status::Pass;
  }

 private:
  void expect(const Error& e) {
    const ExpectedError& x = *spec_.expect_error;
    if (code_name(e.code()) != x.code)
      throw CheckFailed{std::string("expected ") + x.code + ", got " + code_name(e.code()) + ": " + e.what()};
    if (!x.id.empty() && to_string(e.id()) != x.id)
      throw CheckFailed{"expected " + x.id + ", got " + to_string(e.id()) + ": " + e.what()};
    if (std::string(e.what()).find(x.message_contains) == std::string::npos)
      throw CheckFailed{"the " + x.code + " message lacks \"" + x.message_contains + "\": " + e.what()};
    r_.checks.push_back("expect_error");
    r_.status = Status::Pass;
    // A backend that raised the expected error did what the case asks.
    for (auto& [b, br] : r_.backends)
      if (br.status == Status::Fail) br = {Status::Pass, "the expected error"};
  }

  /// Every check case.json `checks` lists happened (a "run" entry covers every "run:..." check).
  void check_asked_for() {
    for (const std::string& want : spec_.checks) {
      const bool done = std::any_of(r_.checks.begin(), r_.checks.end(), [&](const std::string& c) {
        return c == want || c.rfind(want + ":", 0) == 0 || c.rfind(want + "+", 0) == 0;
      });
      if (done || (want == "run" && !not_run_.empty())) continue;
      std::string why;
      if (want == "ir") why = ": the case has no model.json";
      if (want == "convert") why = ": the case lists no \"conversions\"";
      if (want == "roundtrip") why = ": the format cannot be written";
      throw CheckFailed{"case.json checks lists \"" + want + "\", which was not done" + why};
    }
  }

  void check_ir(const Graph& g) {
    const fs::path expected = dir_ / "model.json";
    if (!spec_.has_manifest || !fs::exists(expected) || spec_.model == expected) return;
    nlohmann::json want;
    try {
      want = nlohmann::json::parse(read_text(expected));
    } catch (const nlohmann::json::exception& e) {
      throw json_syntax_error(e, expected.string());
    }
    // Compare through the IR's own reader so that the expected file may inline or leave out defaults.
    nlohmann::json got = ir_json(g);
    nlohmann::json want_ir = ir_json(read_json_file(expected));
    if (got != want_ir) throw CheckFailed{"IR differs from model.json at " + first_difference(want_ir, got)};
    r_.checks.push_back("ir");
  }

  void check_roundtrip(const Graph& g, const std::string& format) {
    const FormatHandler* h = find_format(format);
    const bool can_write = h && h->write;
    if (spec_.roundtrip == false) return;
    if (!can_write) {
      if (spec_.roundtrip == true) throw CheckFailed{"roundtrip: format " + format + " cannot be written"};
      return;
    }
    TempDir tmp;
    const fs::path out = tmp.path() / ("rewritten" + spec_.model.extension().string());
    SaveOptions so;
    so.format = format;
    save(g, out, so);
    LoadOptions lo = spec_.load_options;
    lo.format = format;
    Graph back = load(out, lo);
    const nlohmann::json a = ir_json(g), b = ir_json(back);
    if (a != b) throw CheckFailed{"roundtrip: the rewritten file reads differently at " + first_difference(a, b)};
    auto schema = kFlatcSchemas.find(format);
    if (!opt_.flatc.empty() && schema != kFlatcSchemas.end() && spec_.load_options.options.empty()) {
      const std::string want = flatc_json(opt_.flatc, opt_.schemas_dir / schema->second, spec_.model);
      const std::string got = flatc_json(opt_.flatc, opt_.schemas_dir / schema->second, out);
      if (want.empty()) throw CheckFailed{"roundtrip: flatc cannot decode the original file"};
      if (got.empty()) throw CheckFailed{"roundtrip: flatc cannot decode the rewritten file"};
      if (want != got) {
        const auto d = first_difference(nlohmann::json::parse(want), nlohmann::json::parse(got));
        throw CheckFailed{"roundtrip: flatc decodes the rewritten file differently at " + d};
      }
      r_.checks.push_back("roundtrip+flatc");
    } else {
      r_.checks.push_back("roundtrip");
    }
  }

  Graph convert(const Graph& g, const Conversion& c) {
    const std::string& to = c.to;
    const FormatHandler* h = find_format(to);
    if (!h || !h->write) throw CheckFailed{"convert: no format named \"" + to + "\" that can be written"};
    TempDir tmp;
    const std::string ext = h->extensions.empty() ? ".bin" : h->extensions.front();
    const fs::path out = tmp.path() / ("converted" + (ext.front() == '.' ? ext : "." + ext));
    SaveOptions so;
    so.format = to;
    so.options = c.options;
    save(g, out, so);
    if (!c.options.empty()) {
      // What the writer options made of the output: every file written, as the folder lists them.
      std::string opts, files;
      for (const auto& [k, v] : c.options) opts += (opts.empty() ? "" : " ") + k + "=" + v;
      std::vector<std::pair<std::string, std::uintmax_t>> written;
      for (const auto& e : fs::directory_iterator(tmp.path()))
        if (e.is_regular_file()) written.emplace_back(e.path().filename().string(), e.file_size());
      std::sort(written.begin(), written.end());
      for (const auto& [name, size] : written)
        files += (files.empty() ? "" : ", ") + name + " (" + std::to_string(size) + " bytes)";
      r_.notes.push_back("convert:" + to + " with " + opts + " wrote " + files);
    }
    LoadOptions lo;
    lo.format = to;
    // Constants stay valid after `tmp` goes: a mapping outlives its file's removal (POSIX).
    Graph back = load(out, lo);
    r_.checks.push_back("convert:" + to);
    return back;
  }

  // A case that must execute (CaseSpec::requires_run) fails when a data set compares nothing
  // (no data set at all, no expected output files); when every backend asked for is left out by
  // the case (`backends`, `skip_backends`), it is skipped with their reasons, never passed.
  void check_execution(const std::vector<std::pair<std::string, Graph>>& graphs) {
    const bool must_run = spec_.requires_run();
    if (!spec_.outputs_absent_because.empty()) {
      r_.notes.push_back("not executed: " + spec_.outputs_absent_because);
      return;
    }
    if (spec_.data_sets.empty()) {
      if (must_run)
        throw CheckFailed{"nothing executed: no data set (inputs/ and outputs/, or test_data_set_<k>/); a case that "
                          "only decodes or round-trips says so in case.json \"checks\""};
      return;
    }
    const Graph& g = graphs.front().second;
    std::size_t ran = 0;
    std::string left_out;
    for (const DataSet& ds : spec_.data_sets) {
      OrderedTensors in, expected;
      read_data_set(ds, g, in, expected);
      if (!any(expected)) {
        const std::string where = ds.label.empty() ? std::string() : " (" + ds.label + ")";
        if (must_run)
          throw CheckFailed{"nothing executed" + where + ": no expected output in " + ds.outputs.string() +
                            (ds.positional ? " (output_<j>.pb)" : " (<graph output name>.npy)")};
        r_.notes.push_back("not executed" + where + ": no expected outputs");
        continue;
      }
      for (const std::string& b : opt_.backends) {
        if (!spec_.backends.empty() && std::find(spec_.backends.begin(), spec_.backends.end(), b) == spec_.backends.end()) {
          r_.notes.push_back(b + ": not a backend of this case");
          r_.backends[b] = {Status::Skip, "not a backend of this case"};
          if (ds.label == spec_.data_sets.front().label) left_out += (left_out.empty() ? "" : "; ") + b + ": not a backend of this case";
          continue;
        }
        if (auto s = spec_.skip_backends.find(b); s != spec_.skip_backends.end()) {
          r_.notes.push_back(b + ": skipped: " + s->second);
          r_.backends[b] = {Status::Skip, s->second};
          if (ds.label == spec_.data_sets.front().label) left_out += (left_out.empty() ? "" : "; ") + b + ": skipped: " + s->second;
          continue;
        }
        ++ran;
        BackendOptions bo;
        bo.options = opt_.backend_options;
        for (const fs::path& e : spec_.extensions) bo.extensions.push_back(e.string());
        for (const auto& [to, graph] : graphs) {
          std::string label = "run:" + b + (to.empty() ? "" : ":" + to) + (ds.label.empty() ? "" : ":" + ds.label);
          try {
            execute(graph, b, bo, in, expected, spec_.tolerance, label);
          } catch (const CheckFailed& f) {
            r_.backends[b] = {Status::Fail, f.reason};
            throw;
          } catch (const Error& e) {
            r_.backends[b] = {Status::Fail, std::string(code_name(e.code())) + ": " + e.what()};
            throw;
          }
          r_.backends[b] = {Status::Pass, ""};
          r_.checks.push_back(label);
        }
      }
    }
    if (must_run && ran == 0) {
      if (left_out.empty()) throw CheckFailed{"nothing executed: no backend was requested"};
      not_run_ = left_out;
    }
  }

  fs::path dir_;
  const CaseOptions& opt_;
  CaseResult& r_;
  CaseSpec spec_;
  std::string not_run_;  ///< why no backend asked for ran (the case is then skipped)
};

}  // namespace

Status status_from_string(const std::string& s) {
  if (s == "PASS") return Status::Pass;
  if (s == "FAIL") return Status::Fail;
  if (s == "SKIP") return Status::Skip;
  throw Error(ErrorId::OptionValue, "\"" + s + "\" is not a case status (PASS, FAIL, SKIP)");
}

const char* to_string(Status s) {
  switch (s) {
    case Status::Pass: return "PASS";
    case Status::Fail: return "FAIL";
    case Status::Skip: return "SKIP";
  }
  return "?";
}

CaseResult run_case(const fs::path& dir, const std::string& name, const CaseOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  CaseResult r;
  r.name = name;
  try {
    CaseRun(dir, options, r).go();
  } catch (const CheckFailed& f) {
    r.status = Status::Fail;
    r.reason = f.reason;
  } catch (const Error& e) {
    r.status = Status::Fail;
    r.reason = std::string(code_name(e.code())) + ": " + e.what();
  } catch (const std::bad_alloc&) {
    r.status = Status::Fail;
    r.reason = "out of memory";
  } catch (const std::exception& e) {
    r.status = Status::Fail;
    r.reason = std::string("internal error: ") + e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace nnbridge::conformance
