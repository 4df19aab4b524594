// Shared pieces of the Arm NN 20.08 peer harness: a deterministic generator, a network builder
// that records layer types and binding names, and CpuRef execution.
#pragma once

#include <armnn/ArmNN.hpp>
#include <armnn/INetwork.hpp>

#include <deque>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "npy.h"

namespace peer {

/// Where Debian's libarmnn-cpuref-backend22 installs the CpuRef dynamic backend.
inline constexpr const char* kDynamicBackendsPath = "/usr/lib/x86_64-linux-gnu/armnn22";

/// SplitMix64: a fixed, platform-independent sequence (std distributions are not specified
/// bit-exactly, so they would make the corpus depend on the standard library).
class Rng {
 public:
  explicit Rng(const std::string& seed);
  uint64_t next();
  float uniform(float lo, float hi);
  int64_t integer(int64_t lo, int64_t hi);  ///< Inclusive bounds.

 private:
  uint64_t state_;
};

/// NumPy dtype string for an Arm NN data type; throws for BFloat16 (no NumPy equivalent).
std::string npy_descr(armnn::DataType t);
armnn::TensorInfo tinfo(std::vector<unsigned> shape, armnn::DataType t = armnn::DataType::Float32,
                        float scale = 0.0f, int32_t offset = 0);

struct Binding {
  std::string name;
  armnn::LayerBindingId id;
};

/// Builds one case's network; keeps constant data alive and generates its inputs.
class Builder {
 public:
  explicit Builder(const std::string& case_name);

  armnn::INetwork& net() { return *net_; }
  armnn::INetworkPtr& net_ptr() { return net_; }
  Rng& rng() { return rng_; }

  /// Adds an Input layer and a random input in [lo, hi] (quantized types: raw values in [lo, hi]
  /// clamped to the type's range; Boolean: 0 or 1).
  armnn::IOutputSlot& input(const char* name, const armnn::TensorInfo& info, double lo = -2, double hi = 2);
  /// Adds an Output layer fed by `src`.
  void output(const char* name, armnn::IOutputSlot& src);
  /// Connects `ins` to `layer`'s input slots, sets its output infos, records `type`.
  armnn::IConnectableLayer* add(const char* type, armnn::IConnectableLayer* layer,
                                std::initializer_list<armnn::IOutputSlot*> ins,
                                std::vector<armnn::TensorInfo> outs);
  /// Single-output shorthand for add().
  armnn::IOutputSlot& op(const char* type, armnn::IConnectableLayer* layer,
                         std::initializer_list<armnn::IOutputSlot*> ins, const armnn::TensorInfo& out) {
    return add(type, layer, ins, {out})->GetOutputSlot(0);
  }
  /// Random constant data of `info` in [lo, hi] (see input()); the storage lives as long as the builder.
  armnn::ConstTensor constant(const armnn::TensorInfo& info, double lo = -1, double hi = 1);
  /// Constant data from explicit values converted to info's type.
  armnn::ConstTensor constant_of(const armnn::TensorInfo& info, const std::vector<double>& values);

  const std::vector<std::string>& layer_types() const { return types_; }
  const std::vector<Binding>& inputs() const { return inputs_; }
  const std::vector<Binding>& outputs() const { return outputs_; }
  const std::vector<NpyArray>& input_data() const { return input_data_; }

 private:
  void note(const char* type);
  std::vector<uint8_t> random_bytes(const armnn::TensorInfo& info, double lo, double hi);

  armnn::INetworkPtr net_;
  Rng rng_;
  std::vector<std::string> types_;
  std::vector<Binding> inputs_, outputs_;
  std::vector<NpyArray> input_data_;
  std::deque<std::vector<uint8_t>> storage_;
};

struct CaseDef {
  std::string name;
  std::function<void(Builder&)> build;
  /// A known Arm NN 20.08 defect that makes the deserialized network compute something other than
  /// the network that was built; recorded in case.json. Empty when the two agree.
  std::string armnn_defect = {};
  /// True when the serializer, not the deserializer, is at fault: the file then means what the
  /// deserialized network computes, so the expected outputs come from running that.
  bool outputs_from_file = false;
};

// Case families, one file each.
void add_elementwise_cases(std::vector<CaseDef>& out);
void add_conv_cases(std::vector<CaseDef>& out);
void add_shape_cases(std::vector<CaseDef>& out);
void add_misc_cases(std::vector<CaseDef>& out);
void add_conv_variant_cases(std::vector<CaseDef>& out);
void add_shape_variant_cases(std::vector<CaseDef>& out);
void add_recurrent_variant_cases(std::vector<CaseDef>& out);
std::vector<CaseDef> all_cases();

/// Wall-clock times of a timed CpuRef run (steady clock, seconds).
struct CpuRefTiming {
  int runs = 1;                ///< how many times to run the loaded network
  double prepare_s = 0;        ///< Optimize + LoadNetwork
  std::vector<double> run_s;   ///< one EnqueueWorkload each
  std::vector<double> run_cpu_s;  ///< the same, process CPU time (CLOCK_PROCESS_CPUTIME_ID)
};

/// Optimizes `net` for CpuRef, runs it once (or `timing->runs` times, recording each run's
/// time) and returns the outputs of the last run (NumPy form, in `outputs` order). Throws
/// armnn::Exception / std::runtime_error when CpuRef cannot.
std::vector<NpyArray> run_on_cpuref(const armnn::INetwork& net,
                                    const std::vector<std::pair<armnn::LayerBindingId, const NpyArray*>>& inputs,
                                    const std::vector<armnn::LayerBindingId>& outputs, CpuRefTiming* timing = nullptr);

/// Subcommands.
int cmd_generate(const std::string& self, const std::string& outdir, const std::string& only);
int cmd_inspect(const std::string& file);
int cmd_run(const std::string& file, const std::string& indir, const std::string& outdir);
/// `run` RUNS times on one loaded network; prints {"prepare_ms", "run_ms": [...], "median_ms",
/// "median_cpu_ms"} as JSON (wall-clock and process CPU time of EnqueueWorkload).
int cmd_time(const std::string& file, const std::string& indir, int runs);
/// Writes the benchmark networks into `outdir`; only the one named `only` unless it is empty.
int cmd_bench_models(const std::string& outdir, const std::string& only = "");
int cmd_examples(const std::string& outdir);
/// The example cpu extension's model and input (extension_example.cc).
int cmd_extension_example(const std::string& outdir);

}  // namespace peer
