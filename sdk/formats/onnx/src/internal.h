// Entry points and IR key names shared by the onnx reader, writer, tensor codec and op table.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nnbridge/formats/onnx.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"
#include "onnx/onnx_pb.h"

namespace nnbridge::formats::onnx {

/// The opset the reader converts every model to and the writer writes (the newest ONNX 1.12's
/// version converter and checker know).
inline constexpr int64_t kOpset = 17;
/// The IR version the writer gives a graph that was not read from ONNX (ONNX 1.12's IR_VERSION).
inline constexpr int64_t kIrVersion = 8;

/// Reads a ModelProto (see format_handler() for the mapping and the options).
Graph read_model(const Source& src, const LoadOptions& options);
/// Builds, checks (onnx::checker, strict shape inference) and writes the model and its external
/// data files atomically.
void write_model(const Graph& g, const std::filesystem::path& path, const SaveOptions& options);
/// The format's rules for its native onnx.* ops (check.cc): ONNX's input and output counts.
void check_graph(const Graph& g, std::vector<Issue>& out);

/// Names of the `onnx.*` graph metadata, value and node attributes (formats/onnx.h lists them).
namespace keys {
// Graph metadata: ModelProto and GraphProto fields, present when the file sets them.
inline const std::string kIrVersion = "onnx.ir_version";
inline const std::string kOpsetDomain = "onnx.opset_import.domain";
inline const std::string kOpsetDomainSet = "onnx.opset_import.domain_set";
inline const std::string kOpsetVersion = "onnx.opset_import.version";
inline const std::string kProducerName = "onnx.producer_name";
inline const std::string kProducerVersion = "onnx.producer_version";
inline const std::string kDomain = "onnx.domain";
inline const std::string kModelVersion = "onnx.model_version";
inline const std::string kDocString = "onnx.doc_string";
inline const std::string kGraphName = "onnx.graph.name";
inline const std::string kGraphDocString = "onnx.graph.doc_string";
inline const std::string kPropsKey = "onnx.metadata_props.key";
inline const std::string kPropsValue = "onnx.metadata_props.value";
// Value attributes.
inline const std::string kInputIndex = "onnx.input_index";          ///< an initializer listed in graph.input
inline const std::string kInitializer = "onnx.initializer";         ///< false: a Constant node's value
inline const std::string kValueInfoIndex = "onnx.value_info_index";  ///< its place in graph.value_info
inline const std::string kDimParams = "onnx.dim_param";             ///< per dim, "" for none
inline const std::string kDimDenotations = "onnx.dim_denotation";
inline const std::string kDenotation = "onnx.denotation";           ///< TypeProto.denotation
inline const std::string kElemTypeAbsent = "onnx.elem_type_absent";
inline const std::string kTypeAbsent = "onnx.type_absent";          ///< the ValueInfoProto has no type
inline const std::string kValueDocString = "onnx.doc_string";       ///< the ValueInfoProto's
inline const std::string kSecondInfo = "onnx.value_info";           ///< Bytes: another ValueInfoProto of the name
inline const std::string kOutputInfo = "onnx.output_info";          ///< Bytes: graph.output's entry, when it differs
inline const std::string kInputInfo = "onnx.input_info";            ///< Bytes: graph.input's entry of an initializer, when it differs
inline const std::string kAbsentOutput = "onnx.absent";             ///< an unnamed ("") node output
inline const std::string kTensorDocString = "onnx.tensor.doc_string";
inline const std::string kTensorName = "onnx.tensor.name";           ///< a Constant node's tensor name, when set
inline const std::string kStorage = "onnx.tensor.storage";           ///< "float_data", ... (absent: raw_data)
inline const std::string kExternalKeys = "onnx.external_data.key";
inline const std::string kExternalValues = "onnx.external_data.value";
inline const std::string kLocationSet = "onnx.tensor.data_location_set";  ///< data_location DEFAULT written explicitly
inline const std::string kConstantNode = "onnx.constant_node";           ///< Int: its place in graph.node
inline const std::string kConstantNodeName = "onnx.constant_node.name";
inline const std::string kConstantNodeDoc = "onnx.constant_node.doc_string";
inline const std::string kConstantNodeDomain = "onnx.constant_node.domain";
inline const std::string kConstantAttr = "onnx.constant_node.attribute";  ///< "value", "value_float", ...
// Node attributes.
inline const std::string kNodeDomain = "onnx.domain";
inline const std::string kNodeDocString = "onnx.doc_string";
inline const std::string kNameSet = "onnx.name_set";               ///< NodeProto.name set to ""
inline const std::string kAttrOrder = "onnx.attribute_order";      ///< when not sorted by name
inline const std::string kAttrDocPrefix = "onnx.attribute_doc.";   ///< + attribute name
inline const std::string kImplied = "onnx.implied";                ///< attributes the file left to ONNX's default
inline const std::string kKeptPrefix = "onnx.attr.";               ///< ONNX attributes the canonical op lacks
inline const std::string kTrailingAbsent = "onnx.trailing_absent_outputs";
inline const std::string kTensorAttrPrefix = "onnx.tensor_attr.";  ///< Bytes: a TENSOR attribute's TensorProto
}  // namespace keys

// dtype_from_onnx: declared in the public header (nnbridge/formats/onnx.h), shared with the conformance runner.
/// The TensorProto.DataType of an nnbridge dtype; nullopt for the quantized types.
std::optional<int32_t> dtype_to_onnx(DataType t);
/// "FLOAT", "STRING", ... for messages.
std::string onnx_type_name(int32_t elem_type);

/// Where a reader finds external data: the model's folder and the limits.
struct ExternalData {
  std::filesystem::path folder;  ///< empty: the model was not read from a file
  std::string file;              ///< the model file, for messages
};

/// A TensorProto as a typed constant. `owner` keeps the proto alive for raw_data views (no copy);
/// typed fields (float_data, ...) are copied once. External data is mapped from its file.
/// Sets on `attrs` what a writer needs to write the same TensorProto back (storage field,
/// doc_string, external_data entries). Throws Error naming `where`.
struct DecodedTensor {
  TensorType type;
  Buffer data;
  AttrMap attrs;
};
/// `raw_data`, when given, stands for t.raw_data() (the bytes slim_model left in the file;
/// `owner` then keeps them alive).
DecodedTensor decode_tensor(const ::onnx::TensorProto& t, const std::shared_ptr<const void>& owner,
                            const ExternalData& ext, const std::string& where,
                            std::optional<std::span<const std::byte>> raw_data = std::nullopt);
/// The elements of a constant integer (int32/int64) tensor, or of a float one as doubles.
std::optional<std::vector<int64_t>> constant_ints(const Value& v);
std::optional<std::vector<double>> constant_floats(const Value& v);

/// Fills `t` (name, dims, data_type, data in the storage field `attrs` name; raw_data by default).
/// Throws Error(Unsupported) for a dtype ONNX has no type for.
void encode_tensor(const Value& v, ::onnx::TensorProto& t, const std::string& where);
/// `values` as a TensorProto of `elem_type` (a float, integer or bool type) named `name`, in raw_data.
void make_tensor(const std::string& name, int32_t elem_type, const std::vector<double>& values,
                 std::vector<int64_t> dims, ::onnx::TensorProto& t);
/// `values` as an INT64 TensorProto of shape [n] (exact: no trip through double).
void make_int64_tensor(const std::string& name, const std::vector<int64_t>& values, ::onnx::TensorProto& t);

}  // namespace nnbridge::formats::onnx
