// OpenVINO custom-layer configuration XML (seed document 003; issue 7): the GPU plugin's
// `SimpleGPU` layers, which the opencl backend runs, and the MYRIAD plugin's `MVCL` layers,
// which are parsed and checked but cannot run here (they name precompiled SHAVE binaries).
//
// Rules and their sources (OpenVINO, openvinotoolkit/openvino):
// - Document (intel_gpu/src/plugin/custom_layer.cpp LoadFromFile): every top-level element is
//   one `CustomLayer`; there is no wrapper element. Source file names are relative to the XML
//   file's directory.
// - SimpleGPU (custom_layer.cpp LoadSingleLayer): attributes name, type="SimpleGPU",
//   version="1"; one Kernel (entry; Source 1+, concatenated in order; Define 0+), one Buffers
//   (Tensor 1+ with arg-index, type input|output, port-index, format BFYX|BYXF|FYXB|YXFB|ANY
//   in either case, default BFYX; Data 0+ with arg-index and name), CompilerOptions 0/1
//   (options), WorkSizes 0/1 (global, local: comma-separated formulas; dim: output | input |
//   input,N; default output).
// - Define (intel_gpu/src/plugin/ops/custom.cpp CreateCustomOp): `#define <name> <value>`, value
//   = the op attribute named by `param` when the op has it, else `default`; type int[]/float[]
//   wraps it as `(int[]) {...}` / `(float[]) {...}`. A name may carry its value ("NUM 3").
// - Work-size formulas (intel_gpu/src/plugin/simple_math.cpp): integers, variables B F Y X (either
//   case), + - * / % and parentheses; * / % bind tighter than + -, operators of equal precedence
//   associate left; C++ int arithmetic (division truncates toward zero). Default global: the
//   element count of output 0 (B*F*Y*X); default local: none (the OpenCL runtime chooses).
// - Built-in JIT defines (intel_gpu/src/graph/impls/ocl/custom_primitive.cpp get_jit_constant,
//   kernel_selector/jitter.h): see builtin_defines().
// - MVCL (intel_myriad / vpu graph_transformer frontend custom_layer.cpp, custom_kernel.cpp):
//   type="MVCL", version="1"; a Where element 0/1 whose attributes restrict the variant to ops
//   with those attribute values; Kernel 1+ (entry, Source 1+); Parameters (Tensor: arg-name, type
//   input|output|input_buffer|output_buffer|data, port-index, format, and for buffers dim and
//   size; Data: arg-name, type data|local_data, source or dim, size; Scalar: arg-name, type
//   int|float, port-index, source) and WorkSizes (dim input,N | output,N; global; local) either
//   in the Kernel (current layout) or in the CustomLayer (2019 layout, as in the
//   customLayerBindings files); multi-stage layers number their stages 0..N-1 by a `stage`
//   attribute on each Kernel or on each CustomLayer entry of the same name.
//
// Where nnbridge is stricter than OpenVINO (OpenVINO crashes, computes garbage or silently keeps
// the last value): unknown elements and attributes, a missing or non-integer required attribute,
// division or modulo by zero, blanks after a formula, an unknown token, a bad `dim`, a repeated
// arg-index, and two layers of the same name (unless LoadCustomLayersOptions::allow_override)
// are errors. Every problem of a file is collected; load_custom_layers() throws one Error whose
// message lists each as `file:line: text`.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr.h"
#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"

namespace nnbridge::config::openvino_custom {

/// A tensor's memory layout as the GPU plugin names it (cldnn::format). ANY lets the plugin
/// choose; nnbridge then uses BFYX.
enum class TensorFormat { BFYX, BYXF, FYXB, YXFB, ANY };
/// "BFYX", ... ("ANY").
const char* to_string(TensorFormat f);

/// Where a layer element sits in its file: `file:line`.
struct Location {
  std::string file;  ///< the XML file as given to load_custom_layers()
  int line = 0;      ///< 1-based
  std::string text() const { return file + ":" + std::to_string(line); }
};

/// One `<Define>`: `#define name value`.
struct Define {
  std::string name;           ///< may hold the value too ("NUM 3")
  std::string param;          ///< the op attribute giving the value; empty when absent
  std::string type;           ///< "", "int", "float", "int[]" or "float[]"
  std::string default_value;  ///< used when the op has no attribute `param`
  Location where;
};

/// One `<Tensor>` of a SimpleGPU layer's Buffers.
struct TensorBinding {
  enum class Direction { Input, Output };
  int arg_index = 0;   ///< kernel argument (0-based)
  Direction type = Direction::Input;
  int port_index = 0;  ///< the node's input (or output) number
  TensorFormat format = TensorFormat::BFYX;
  Location where;
};

/// One `<Data>` of a SimpleGPU layer's Buffers: a blob of the layer (weights, biases). nnbridge
/// binds the node input whose value is named `name` (a float32 buffer, BFYX, 1-D).
struct DataBinding {
  int arg_index = 0;
  std::string name;
  Location where;
};

/// `dim` of WorkSizes: the tensor whose B, F, Y, X the formulas read.
struct DimSource {
  bool input = false;  ///< false: output 0
  int index = 0;       ///< the input number when `input`
};

/// A `type="SimpleGPU"` layer: everything needed to build and launch its kernel.
struct SimpleGpuLayer {
  std::string name;   ///< the op it implements
  std::string entry;  ///< the kernel function
  std::vector<std::filesystem::path> sources;  ///< resolved against the XML's directory, in order
  /// The sources' text, concatenated in order, each after a `// Custom Layer Kernel <path>` line;
  /// empty when loaded with require_sources = false (read when the layer runs).
  std::string source_text;
  std::vector<Define> defines;
  std::vector<TensorBinding> tensors;  ///< in file order
  std::vector<DataBinding> data;
  std::string compiler_options;         ///< passed to clBuildProgram as they are
  std::vector<std::string> global, local;  ///< formulas, at most 3 each; global empty: B*F*Y*X of output 0
  DimSource dim;
  Location where;
};

/// A parameter of an MVCL kernel, bound by argument name.
struct MvclParameter {
  enum class Kind { Tensor, Data, Scalar };
  Kind kind = Kind::Tensor;
  std::string arg_name;
  std::string type;    ///< Tensor: input|output|input_buffer|output_buffer|data; Data: data|local_data; Scalar: int|float
  std::optional<int> port_index;
  std::string format;  ///< Tensor only; default BFYX
  std::string source;  ///< Scalar/Data: op attribute, or I/O/In/On followed by .B/.F/.Y/.X
  std::string dim, size;
  Location where;
};

struct MvclKernel {
  std::string entry;
  std::vector<std::filesystem::path> sources;  ///< precompiled SHAVE binaries, never read
  int stage = 0;
  std::vector<MvclParameter> parameters;
  std::string dim;                          ///< "input,0", "output,0"
  std::vector<std::string> global, local;   ///< formulas
  Location where;
};

/// A `type="MVCL"` layer (one Where variant): parsed and checked, not executable here.
struct MvclLayer {
  std::string name;
  std::map<std::string, std::string> where_params;  ///< the Where element's attributes
  std::vector<MvclKernel> kernels;                  ///< in stage order
  Location where;
};

/// The layers of one or more XML files.
struct CustomLayerConfig {
  std::vector<SimpleGpuLayer> gpu_layers;
  std::vector<MvclLayer> mvcl_layers;
  /// Overridden duplicates (allow_override) and other non-fatal findings.
  std::vector<Issue> warnings;

  /// The SimpleGPU layer named `name`, or nullptr (a linear search; CustomLayerSet::find is indexed).
  const SimpleGpuLayer* find(std::string_view name) const;
};

struct LoadCustomLayersOptions {
  /// A later layer of the same name replaces an earlier one (with a warning) instead of being
  /// an error. (OpenVINO's GPU plugin silently keeps the last one.)
  bool allow_override = false;
  /// Read every SimpleGPU Source file now (a missing one is an error at its line). False: only
  /// resolve the paths (for checking files whose kernels are elsewhere); the opencl backend then
  /// reads them when a layer runs.
  bool require_sources = true;
  /// Resource limits (a file is untrusted input): the XML file and each kernel source may hold
  /// at most this many bytes, and must be regular files (a device such as /dev/zero, a FIFO or a
  /// directory is refused). Exceeding it is Error(Io) naming the file and the limit.
  std::uint64_t max_file_bytes = std::uint64_t{64} << 20;
};

/// Parentheses in a work-size formula nest at most this deep (OpenVINO has no limit; real
/// formulas use two or three levels). Deeper nesting is an error at its column.
inline constexpr int kMaxFormulaDepth = 256;

/// Reads one custom-layer file (the XML or a kernel source) under `max_bytes`: regular files
/// only. Throws Error(Io) naming `path` when it cannot be opened, is not a regular file, or is
/// larger than `max_bytes`.
std::string read_custom_layer_file(const std::filesystem::path& path, std::uint64_t max_bytes, std::string_view what);

/// Parses the custom-layer XML at `xml`. Throws Error(Io) when it cannot be read,
/// Error(Malformed) for XML that does not parse (with the line) or that has a DOCTYPE (entity
/// declarations are refused: they are XXE and entity-bomb vectors, and pugixml would leave an
/// undeclared `&name;` in the text verbatim), Error(Invalid) listing every
/// rule violation of the file, one per line, as `file:line: text`.
CustomLayerConfig load_custom_layers(const std::filesystem::path& xml, const LoadCustomLayersOptions& options = {});
/// The same for XML text in memory; `file` labels locations and its directory resolves sources.
CustomLayerConfig parse_custom_layers(std::string_view xml, const std::filesystem::path& file,
                                      const LoadCustomLayersOptions& options = {});
/// Adds `more` to `into` by the duplicate rule above (later files override earlier ones only
/// with allow_override). Throws Error(Invalid) listing every duplicate.
void merge_custom_layers(CustomLayerConfig& into, CustomLayerConfig more, const LoadCustomLayersOptions& options = {});

/// B, F, Y, X of a tensor (cldnn's 4-d view: a shape of rank r <= 4 fills B, F, Y, X from the
/// front, the rest are 1).
using Dims = std::array<int64_t, 4>;
/// `shape` as Dims; nullopt for a rank above 4.
std::optional<Dims> dims_of(std::span<const int64_t> shape);

/// Evaluates one work-size formula over `dims` (B, F, Y, X). Throws Error(Invalid) naming the
/// formula and the column for an unknown token, unbalanced parentheses, a missing operand,
/// blanks after the formula, division or modulo by zero, or a result outside int.
int64_t evaluate_work_size(std::string_view formula, const Dims& dims);
/// True when `formula` parses (variables set to 1, as OpenVINO's IsLegalSizeRule); `why` gets the reason.
bool is_legal_work_size(std::string_view formula, std::string* why = nullptr);

/// A tensor as a custom kernel sees it.
struct TensorLayout {
  Dims dims{1, 1, 1, 1};                    ///< B, F, Y, X, without padding
  TensorFormat format = TensorFormat::BFYX; ///< ANY is laid out as BFYX
  Dims lower_padding{0, 0, 0, 0};           ///< B, F, Y, X
  Dims upper_padding{0, 0, 0, 0};
  std::string type = "float";               ///< OpenCL C element type: float, half, char, uchar, int, long
};
/// Elements between neighbours along B, F, Y, X in the padded buffer (custom_primitive.cpp
/// add_layout_to_jit: e.g. BYXF: F 1, X = padded F, Y = padded X * padded F, B = padded Y * ...).
Dims pitches_of(const TensorLayout& t);
/// Elements from the buffer start to the first non-padding element: sum of pitch * lower padding.
int64_t offset_of(const TensorLayout& t);

/// The built-in defines OpenVINO's GPU plugin puts before a custom layer's source, in its order
/// and spelling: NUM_INPUTS; GLOBAL_WORKSIZE_SIZE, GLOBAL_WORKSIZE_INIT, GLOBAL_WORKSIZE, the same
/// for LOCAL_WORKSIZE (arrays as `(ulong []){ 16,1,1, } `, size_t on a 64-bit host); then for each
/// of INPUT0.., OUTPUT0..: _DIMS_SIZE, _DIMS_INIT, _DIMS (`(int []){ b,f,y,x, } `), _TYPE,
/// _FORMAT_<fmt> (empty), _LOWER_PADDING(_SIZE, _INIT), _UPPER_PADDING(_SIZE, _INIT),
/// _PITCHES(_SIZE, _INIT), _OFFSET. One `#define NAME VALUE` line each, after a
/// `// Custom Layer Built-ins` line.
std::string builtin_defines(std::span<const TensorLayout> inputs, std::span<const TensorLayout> outputs,
                            std::span<const std::size_t> global, std::span<const std::size_t> local);

/// An op attribute as a define value: integers in decimal, floats in shortest round-trip form
/// with a '.' or exponent (OpenVINO writes std::to_string, 6 decimals), bools 1/0, strings as
/// they are, lists comma-separated.
std::string attr_define_value(const Attr& a);
/// The layer's user defines for an op with attributes `attrs`, after a `// Custom Layer User
/// Defines` line.
std::string user_defines(const SimpleGpuLayer& layer, const AttrMap& attrs);

/// Custom layers handed to the opencl backend through BackendOptions::custom_kernels
/// (nnbridge/exec.h). Immutable.
class CustomLayerSet : public CustomKernelSet {
 public:
  explicit CustomLayerSet(CustomLayerConfig config);
  std::string_view backend() const override { return "opencl"; }
  const CustomLayerConfig& config() const noexcept { return config_; }
  /// The SimpleGPU layer named `name`, or nullptr: O(log n) through an index built once (a
  /// backend asks once per node).
  const SimpleGpuLayer* find(std::string_view name) const;

 private:
  CustomLayerConfig config_;
  std::map<std::string, std::size_t, std::less<>> index_;  ///< name -> position in config_.gpu_layers
};

/// Loads and merges `xml_files` in order (the `--custom-layers` option, repeatable) into one set
/// for BackendOptions::custom_kernels. Errors as load_custom_layers() and merge_custom_layers().
std::shared_ptr<const CustomLayerSet> custom_layer_set(std::span<const std::filesystem::path> xml_files,
                                                       const LoadCustomLayersOptions& options = {});

}  // namespace nnbridge::config::openvino_custom
