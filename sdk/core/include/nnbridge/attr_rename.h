// The one rename engine of the formats' mapping tables: a format field (a path in an Arm NN
// layer table, an ATen argument of a VkGraph operator) that is a canonical attribute under
// another name, possibly in another form. Each table lists AttrRename rows; its reader and
// writer turn values with rename_to_canonical / rename_from_canonical, and complete a node's
// attributes with with_schema_defaults before deriving fields from them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "nnbridge/attr.h"

namespace nnbridge {

/// How a field's value becomes the canonical attribute's.
enum class RenameKind : uint8_t {
  Same,       ///< the same value
  BoolAsInt,  ///< a format bool that is an ONNX int attribute 0/1 (keepdims, ceil_mode)
  IntAsInts,  ///< a single int that is a one-element ONNX ints attribute (a dim that is `axes`)
};

/// One field that is canonical attribute `attr`.
struct AttrRename {
  std::string field;  ///< the format's name: "descriptor.axis" (Arm NN), "keepdim" (ATen)
  std::string attr;   ///< the canonical (ONNX) attribute name
  RenameKind kind = RenameKind::Same;
};

/// The field value `v` as the canonical attribute: Same as it is; BoolAsInt a bool (or an int,
/// nonzero meaning true) as int 0 / 1; IntAsInts an int as a one-element list. Error(Invalid,
/// AttributeValue) naming the field when `v` is not of the kind's type.
Attr rename_to_canonical(const AttrRename& r, const Attr& v);

/// The canonical attribute value `v` as the field: Same as it is; BoolAsInt an int as a bool (a
/// bool kept); IntAsInts a one-element list as its int. Error(Unsupported, NoForm) naming `owner`
/// (the operator or layer) and the field for a list of another length.
Attr rename_from_canonical(const AttrRename& r, const Attr& v, std::string_view owner);

/// `attrs` with every attribute the schema of `op` gives a default for and `attrs` lacks added at
/// that default (unchanged for an op without a schema): what a writer derives fields from.
AttrMap with_schema_defaults(std::string_view op, AttrMap attrs);

}  // namespace nnbridge
