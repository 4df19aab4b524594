// The ONNX adaptation table: opset-17 operators <-> canonical ops (sdk/core/src/ops/).
//
// Canonical ops carry ONNX's names and opset-17 inputs, but some also take an attribute form
// of an input (Reshape's shape, Tile's repeats), some have attributes ONNX lacks (data_layout,
// Softmax beta) and some lack attributes ONNX has (MaxPool storage_order). One row per ONNX
// operator says how its opset-17 form maps; the reader and the writer read the same rows in
// opposite directions. An operator without a row, or a node a row does not fit (another arity,
// a kept attribute with a value the canonical op cannot honour), stays the native op
// `onnx.<op_type>` with its attributes as they are.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr.h"

namespace nnbridge::formats::onnx {

/// How a canonical attribute that ONNX takes as an input is written.
enum class OperandKind {
  Ints,  ///< an Ints attribute -> int64 [n] initializer
};

/// A canonical attribute written as ONNX input `input` (OpRow::attr_operands).
struct Operand {
  int input;         ///< position among the ONNX node's inputs
  const char* attr;  ///< the canonical attribute
  OperandKind kind;
};

/// An ONNX attribute the canonical op lacks: kept as `onnx.attr.<name>` when its value is
/// `neutral` (or always, when `neutral` is unset and `any` is true); any other value makes the
/// node native.
struct KeptAttr {
  const char* name;
  std::optional<Attr> neutral;
  bool any = false;
};

/// A canonical attribute ONNX lacks: the writer writes the node only when it holds `value`
/// (the meaning ONNX's operator has) or, for `ok`, when the predicate accepts it.
struct FixedAttr {
  const char* name;
  std::optional<Attr> value;
  bool (*ok)(const Attr&) = nullptr;
  const char* why = "";  ///< for the writer's message
};

/// An attribute whose ONNX default differs from the canonical default: the reader writes the
/// ONNX default on the node when the file leaves it out (listing it in `onnx.implied`).
struct OnnxDefault {
  const char* name;
  Attr value;
};

enum class Special { None, Cast, ConstantOfShape };

struct OpRow {
  std::string op_type;  ///< the ONNX operator (domain ai.onnx, opset 17)
  std::string op;       ///< the canonical op
  std::vector<KeptAttr> kept;
  std::vector<FixedAttr> fixed;
  std::vector<OnnxDefault> defaults;
  /// Canonical attributes that ONNX takes as inputs the canonical op also accepts (Reshape-1's
  /// shape, Tile's repeats): the reader keeps the input; the writer turns the attribute into it.
  std::vector<Operand> attr_operands;
  Special special = Special::None;
  /// An attribute holding a TensorProto.DataType number that the canonical op takes as a dtype
  /// name (Cast's `to`, EyeLike's `dtype`); a type nnbridge lacks makes the node native.
  const char* dtype_attr = nullptr;
  const char* rule = "";  ///< the ONNX operator version and the rule the row follows

};

/// The row of ONNX operator `op_type` (default domain), or nullptr.
const OpRow* row_for_onnx(std::string_view op_type);
/// The row that writes canonical op `op`, or nullptr (the op has no ONNX opset-17 form).
const OpRow* row_for_canonical(std::string_view op);
/// Every row (for docs and tests).
const std::vector<OpRow>& op_rows();

}  // namespace nnbridge::formats::onnx
