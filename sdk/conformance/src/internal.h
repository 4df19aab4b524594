// What a case asks for (case.json, docs/conformance.md) and the loaders the checks share.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "nnbridge/conformance.h"
#include "nnbridge/exec.h"
#include "nnbridge/format.h"

namespace nnbridge::conformance {

struct ExpectedError {
  std::string code;              ///< "Malformed", "Invalid", ... (ErrorCode names); implied by `id`
  std::string id;                ///< "nnbridge.malformed.201" (the stable identifier); may be empty
  std::string message_contains;  ///< a fragment of Error::what(); may be empty
  std::string stage = "load";    ///< "load" (decode) or "run" (execution)
};

/// Tolerances by output dtype name ("float32", "float16", ...) with "quantized" for the
/// quantized types; float32's is the fallback for other float types.
struct ToleranceSpec {
  std::map<std::string, Tolerance, std::less<>> by_dtype;
  Tolerance for_type(DataType t) const;
};

/// One set of inputs and expected outputs.
struct DataSet {
  std::string label;  ///< "" for inputs/ + outputs/, else the test_data_set folder name
  std::filesystem::path inputs, outputs;
  bool positional = false;  ///< ONNX-style: input_<i>.pb / output_<j>.pb by position
};

/// One entry of case.json `conversions`: a format name, or {"to": name, "options": {...}}.
struct Conversion {
  std::string to;                                                 ///< the format written
  std::map<std::string, std::string, std::less<>> options;        ///< writer options (SaveOptions::options)
};

struct CaseSpec {
  std::filesystem::path dir;
  std::filesystem::path model;
  LoadOptions load_options;
  bool has_manifest = false;
  std::optional<bool> roundtrip;  ///< unset: when the format can write
  std::vector<Conversion> conversions;
  std::optional<ExpectedError> expect_error;
  std::vector<std::string> backends;                       ///< empty: every requested one
  std::map<std::string, std::string> skip_backends;        ///< backend -> why
  std::string skip;                                        ///< the whole case, why
  std::string outputs_absent_because;
  /// case.json `checks`: the checks the case is for ("decode", "ir", "roundtrip", "convert",
  /// "run"); each must happen. Empty (the key left out): the case must execute ("run"), unless
  /// it expects an error or says why outputs are absent.
  std::vector<std::string> checks;
  /// Whether the case passes only when some expected output was compared (docs/conformance.md).
  bool requires_run() const;
  std::vector<std::filesystem::path> extensions;           ///< cpu extension libraries
  ToleranceSpec tolerance;
  std::vector<DataSet> data_sets;
  std::optional<double> timeout_s;  ///< this case's own limit, replacing the run's --timeout
};

/// Reads `dir/case.json` (when present) and finds the model and data sets. Throws
/// Error(Invalid) naming case.json and the key for a key of the wrong type or an unknown value.
CaseSpec read_case(const std::filesystem::path& dir);

/// The limit for the child checking the case in `dir`: its case.json `timeout_s` when that
/// reads, else `run_default` (a case.json that does not read fails in the child, with a reason).
std::chrono::milliseconds case_timeout(const std::filesystem::path& dir, std::chrono::milliseconds run_default);

/// True when `dir` is a case folder (case.json, or a model.* next to test_data_set_* folders).
bool is_case_dir(const std::filesystem::path& dir);

/// The model file of an ONNX-style folder: the one `model.*` file; empty when none or several.
std::filesystem::path find_model_file(const std::filesystem::path& dir);

/// An ONNX TensorProto file as a host tensor (raw_data or the typed *_data field, little-endian,
/// C order). Throws Error(Malformed) for bytes protobuf cannot parse or data of the wrong size,
/// Error(Unsupported) for strings, complex types, external data or segments.
HostTensor read_tensor_proto(const std::filesystem::path& path);

/// A case result as JSON (the child's result line, reports and results files) and back; the
/// reader throws nlohmann::json::exception for a missing key or a value of the wrong type.
nlohmann::json result_to_json(const CaseResult& r);
CaseResult result_from_json(const nlohmann::json& j);

/// Flatc's JSON of `file` under `schema`, "" when flatc refuses it.
std::string flatc_json(const std::string& flatc, const std::filesystem::path& schema, const std::filesystem::path& file);

}  // namespace nnbridge::conformance
