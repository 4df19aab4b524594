// FlatBuffers JSON text of a buffer, printed from the reflection schema.
//
// What flatc --json prints (field names, enum values by name, unions as `<field>_type` plus
// the member table, structs as objects), with one difference: floats are written as the
// shortest text that reads back to the same bits (flatc 2.0.8's printer keeps 6 digits after
// the point, so 1e-7 or a quantization scale of 0.00390625 would not survive it).
#pragma once

#include <flatbuffers/reflection.h>

#include <cstdint>
#include <string>

namespace nnbridge::formats::armnn {

/// JSON of the table `root` (of type `obj`) in a verified buffer, keys quoted (strict JSON,
/// which flatbuffers::Parser and flatc -b read as well as their non-strict form). Fields are
/// in id order; absent fields are left out, as flatc does. Throws Error(Unsupported) for a
/// string that is not UTF-8 (JSON cannot hold it), naming the field path.
std::string table_to_json(const reflection::Schema& schema, const reflection::Object& obj,
                          const flatbuffers::Table& root);

}  // namespace nnbridge::formats::armnn
