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
//   (Tensor 1+ with arg-index, type input|output|internal, port-index, format
//   BFYX|BYXF|FYXB|YXFB|ANY in either case, default BFYX, and for internal a size formula;
//   Data 0+ with arg-index and name), CompilerOptions 0/1 (options), WorkSizes 0/1 (global,
//   local: comma-separated formulas; dim: output | input | input,N; default output).
// - Formats (plugin/ops/custom.cpp, graph/include/custom_gpu_primitive_inst.h): an input
//   Tensor with a format gets the input reordered to it (the first Tensor of a port decides);
//   ANY leaves the producer's layout (BFYX here). An output Tensor's format is the layout the
//   kernel writes, reordered back to BFYX; ANY means input 0's layout as the kernel sees it
//   (calc_output_layouts), BFYX for a node without inputs.
// - Internal buffers (graph/impls/ocl/custom_primitive.cpp, OpenVINO 2026): one device buffer
//   per internal Tensor, of `size` elements of input 0's type (evaluate_internal_size()),
//   allocated once per compiled node and kept across runs, bound at its arg-index.
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
  /// Input and Output bind a node port; Internal (type="internal") is a scratch buffer the
  /// plugin allocates for the kernel alone (custom_primitive.cpp allocate_internal_buffers).
  enum class Direction { Input, Output, Internal };
  int arg_index = 0;   ///< kernel argument (0-based)
  Direction type = Direction::Input;
  /// Input: the node's input number. Output: the node's output number, or its IR port id
  /// (outputs numbered after the inputs); resolve_ports() says which. Internal: required by
  /// OpenVINO's parser on every Tensor, without a meaning here.
  int port_index = 0;
  TensorFormat format = TensorFormat::BFYX;
  /// Internal only: the element count, a product of non-negative integers and INPUT0_DIMS[i]
  /// (evaluate_internal_size()). Empty for Input and Output.
  std::string size;
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

/// B, F, Y, X as the work-size formulas of a node see them (custom_gpu_primitive.hpp
/// update_work_group_size). `from_input` false (dim="output", the default): output 0's shape
/// fills B, F, Y, X from the front and missing dims are 1 ([3, 4]: B=3, F=4, Y=X=1, as the
/// kernel's OUTPUT0_DIMS). `from_input` true (dim="input,N"): input N's shape fills X, Y, F, B
/// from the back and missing dims are 0 ([3, 4]: X=4, Y=3, F=B=0), so a formula over a dim the
/// input lacks gives a work size the backend refuses. (The plugin gates the back-filled dims by
/// the output's rank instead of the input's: nnbridge uses the input's own rank.) nullopt for
/// a rank above 4.
std::optional<Dims> work_size_dims(std::span<const int64_t> shape, bool from_input);

/// Checks the syntax of an internal buffer's size formula: factors joined by '*', each a
/// non-negative decimal integer or INPUT0_DIMS[i] (i a decimal index), blanks allowed around
/// them. That is all the GPU plugin's evaluate_size_expr reads (it substitutes INPUT0_DIMS[i]
/// and multiplies the '*'-separated numbers); anything else is an error here where OpenVINO
/// would parse a prefix or throw. False with `why` on error.
bool is_legal_internal_size(std::string_view formula, std::string* why = nullptr);
/// Evaluates an internal buffer's size formula over input 0's shape (INPUT0_DIMS[i] is
/// `input0_shape[i]`, the shape as the graph has it, not the 4-d B, F, Y, X view). Throws
/// Error(Invalid) naming the formula for a syntax error, an index at or past the rank, or a
/// product above 2^53.
int64_t evaluate_internal_size(std::string_view formula, std::span<const int64_t> input0_shape);

/// The node port each <Tensor> of `layer` binds, in layer.tensors order, for a node with
/// `inputs` inputs and `outputs` outputs (Internal entries get 0). Input: port-index is the
/// input number. Output: OpenVINO's GPU plugin (plugin/ops/custom.cpp CreateCustomOp) keeps an
/// output's port-index only when it is below the node's input count (else none), and through
/// its single-output releases bound the node's one output whatever the number, which is how
/// files written with IR port ids ran there (an IR layer numbers its output ports after its
/// inputs: Cosh's output is port 1). nnbridge reads the output port-indices of a layer in one
/// numbering: output numbers when every one is below `outputs`, else IR port ids when every one
/// lies in [inputs, inputs + outputs) (output = port-index - inputs). Throws Error(Invalid)
/// naming the layer and line when neither fits or an input port is past `inputs`.
std::vector<std::size_t> resolve_ports(const SimpleGpuLayer& layer, std::size_t inputs, std::size_t outputs);

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
/// (nnbridge/exec.h). Immutable. A layer runs every node whose op is its name (an Arm NN
/// StandIn layer named so, a VkGraph operator vk.<name>) and replaces the backend's built-in
/// kernel for that op: the one precedence rule of both backends (cpu custom kernels too), as
/// OpenVINO's GPU plugin looks an op's type up in the custom layers before its own primitives
/// (ProgramBuilder::CreateSingleLayerPrimitive).
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
