// nnbridge_inspect: load a model, print its inputs and outputs, run it on the `cpu` backend,
// and convert it to another format -- the SDK as an embedding application uses it (README.md).
//
//   nnbridge_inspect MODEL [--inputs DIR] [--outputs DIR] [--convert OUT [--to FORMAT]]
//
// Inputs are read from DIR/<input name>.npy, or zero-filled when --inputs is absent; outputs
// are written to DIR/<output name>.npy. Exit status: 0 success, 1 the checker found errors,
// 2 usage, 3 bad input (the message names the file and the place in it), as the nnbridge CLI.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nnbridge/check.h>
#include <nnbridge/cpu_ref.h>
#include <nnbridge/error.h>
#include <nnbridge/exec.h>
#include <nnbridge/io.h>
#include <nnbridge/npy.h>

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path model;
  std::optional<fs::path> inputs, outputs, convert;
  std::string to;
};

std::optional<Args> parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--inputs" && (v = value())) a.inputs = v;
    else if (arg == "--outputs" && (v = value())) a.outputs = v;
    else if (arg == "--convert" && (v = value())) a.convert = v;
    else if (arg == "--to" && (v = value())) a.to = v;
    else if (!arg.starts_with("--") && a.model.empty()) a.model = arg;
    else return std::nullopt;
  }
  if (a.model.empty()) return std::nullopt;
  return a;
}

// "[1,8,8,1]"; -1 is an unknown dimension, "[?]" an unknown rank.
std::string shape_text(const nnbridge::TensorType& t) {
  if (t.unknown_rank) return "[?]";
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : "") + std::to_string(t.shape[i]);
  return s + "]";
}

void print_value(const char* role, const nnbridge::Value& v) {
  std::printf("%s %s %s %s\n", role, v.name.c_str(), std::string(nnbridge::to_string(v.type.dtype)).c_str(),
              shape_text(v.type).c_str());
}

// One tensor per graph input: DIR/<name>.npy, or zeros of the input's type.
nnbridge::TensorMap make_inputs(const nnbridge::Graph& g, const std::optional<fs::path>& dir) {
  nnbridge::TensorMap inputs;
  for (nnbridge::ValueId id : g.inputs) {
    const nnbridge::Value& v = g.values[id];
    if (dir) {
      inputs.emplace(v.name, nnbridge::read_npy(*dir / (v.name + ".npy")));
      continue;
    }
    const auto size = v.type.byte_size();
    if (!size)
      throw nnbridge::Error(nnbridge::ErrorCode::Invalid,
                            "input '" + v.name + "' has an unknown shape " + shape_text(v.type) +
                                ": give its values with --inputs");
    // Zero bytes are 0.0 for the float types and the integer 0 (not the zero point) for quantized ones.
    inputs.emplace(v.name, nnbridge::HostTensor::owned(v.type, std::vector<std::byte>(*size)));
  }
  return inputs;
}

int run(const Args& args) {
  // Load: the format is sniffed from the content; constants stay in the mapped file.
  nnbridge::Graph g = nnbridge::load(args.model);
  std::printf("model %s format %s values %zu nodes %zu\n", args.model.string().c_str(), g.source_format.c_str(),
              g.values.size(), g.nodes.size());
  for (nnbridge::ValueId id : g.inputs) print_value("input", g.values[id]);
  for (nnbridge::ValueId id : g.outputs) print_value("output", g.values[id]);

  // Walk the IR: how often each op occurs (canonical ONNX names, or format-native ones).
  std::map<std::string, int> ops;
  for (const nnbridge::Node& n : g.nodes) ++ops[n.op];
  std::printf("ops");
  for (const auto& [op, count] : ops) std::printf(" %s=%d", op.c_str(), count);
  std::printf("\n");

  // Check: findings never throw; errors mean the graph would not run or write correctly.
  int errors = 0;
  for (const nnbridge::Issue& issue : nnbridge::check(g)) {
    const bool error = issue.severity == nnbridge::Issue::Severity::Error;
    errors += error;
    std::printf("check %s %s: %s\n", error ? "error" : "warning", issue.where.c_str(), issue.message.c_str());
  }
  if (errors) return 1;

  // Run on the cpu backend: register it once, prepare a plan, run it.
  nnbridge::cpu_ref::register_backend();
  auto plan = nnbridge::find_backend("cpu")->prepare(g, nnbridge::BackendOptions{});
  const nnbridge::TensorMap results = plan->run(make_inputs(g, args.inputs));
  for (const auto& [name, type] : plan->output_types()) {
    const nnbridge::HostTensor& t = results.at(name);
    std::printf("result %s %s %s", name.c_str(), std::string(nnbridge::to_string(t.dtype())).c_str(),
                shape_text(t.type()).c_str());
    const std::vector<double> values = t.to_double();  // dequantized for quantized types
    for (std::size_t i = 0; i < values.size() && i < 4; ++i) std::printf(" %g", values[i]);
    std::printf("%s\n", values.size() > 4 ? " ..." : "");
    if (args.outputs) {
      fs::create_directories(*args.outputs);
      nnbridge::write_npy(*args.outputs / (name + ".npy"), t);
    }
  }

  // Convert: the format from --to, else the output's extension; written atomically.
  if (args.convert) {
    nnbridge::SaveOptions options;
    options.format = args.to;
    nnbridge::save(g, *args.convert, options);
    // Read it back: what format it is, and that it holds the same number of nodes.
    const nnbridge::Graph back = nnbridge::load(*args.convert);
    std::printf("converted %s format %s nodes %zu\n", args.convert->string().c_str(),
                nnbridge::detect_format(*args.convert).c_str(), back.nodes.size());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse_args(argc, argv);
  if (!args) {
    std::fprintf(stderr, "usage: %s MODEL [--inputs DIR] [--outputs DIR] [--convert OUT [--to FORMAT]]\n", argv[0]);
    return 2;
  }
  try {
    return run(*args);
  } catch (const nnbridge::Error& e) {
    // what() is "<file>: <where>: <message>"; code() tells Io, Malformed, Unsupported, ...
    std::fprintf(stderr, "error (%s): %s\n", nnbridge::to_string(e.code()), e.what());
    return 3;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
}
