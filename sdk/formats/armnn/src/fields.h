// Generic, schema-driven access to Arm NN tables (FlatBuffers reflection).
//
// A layer's descriptor and other non-tensor fields are read into a FieldMap: one entry per
// scalar (defaults included), per present string or vector, and a `true` marker per present
// sub-table, keyed by the field path ("descriptor.padLeft", "descriptor.origins.numViews",
// "descriptor.viewOrigins[1].data"; a vector of tables stores its length under its own path).
// The writer builds tables back from such a map. Going through the schema instead of one
// hand-written function per descriptor keeps every field of all 73 layer types lossless.
#pragma once

#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/reflection.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr.h"

namespace nnbridge::formats::armnn {

using FieldMap = std::map<std::string, Attr, std::less<>>;

/// The released schema (embedded binary schema).
const reflection::Schema& schema();
/// The table named `name` ("armnnSerializer.Convolution2dLayer"); throws Error(Invalid) if unknown.
const reflection::Object& object(std::string_view name);
/// Fields of `obj` in id order (reflection lists them by name); computed once per process.
const std::vector<const reflection::Field*>& fields_by_id(const reflection::Object& obj);
/// The table type of an Obj field, or nullptr.
const reflection::Object* field_object(const reflection::Field& f);

/// Reads every field of table `t` (of type `obj`) into `out` under `prefix`, except those for
/// which `skip(field)` is true (the caller handles them: LayerBase, ConstTensors).
void read_fields(const reflection::Object& obj, const flatbuffers::Table* t, const std::string& prefix,
                 FieldMap& out, const std::function<bool(const reflection::Field&)>& skip = {});

/// Appends to `key` bytes that determine what read_fields(obj, t, ..., skip) would read, for a
/// table whose fields (those not skipped) are scalars or tables of such fields: each scalar as
/// its value with the schema default applied, each sub-table as a presence byte. Equal keys of
/// one `obj` mean equal FieldMaps (bit-equal floats, NaN included). Returns false (key
/// unspecified) when a field is a string, vector, union or struct: the caller reads the fields.
bool scalar_key(const reflection::Object& obj, const flatbuffers::Table* t, std::string& key,
                const std::function<bool(const reflection::Field&)>& skip = {});

/// Builds a table of type `obj` from the entries of `in` under `prefix`; `extra` supplies
/// offsets for the fields the caller built itself (by field name).
flatbuffers::uoffset_t build_table(flatbuffers::FlatBufferBuilder& b, const reflection::Object& obj,
                                   const std::string& prefix, const FieldMap& in,
                                   const std::map<std::string, flatbuffers::uoffset_t>& extra = {});

/// The value a scalar field path has when absent (the schema default); nullopt-like empty Attr
/// (index 0 = int 0) is never returned for unknown paths: throws Error(Invalid).
Attr default_of(const reflection::Object& obj, std::string_view path);

/// Adds `true` markers for every table on the path of each key ("a.b.c" -> "a", "a.b")
/// where the schema says that segment is a table.
void add_markers(const reflection::Object& obj, FieldMap& m);

/// Typed reads with schema defaults for absent entries.
int64_t get_int(const FieldMap& m, const reflection::Object& obj, std::string_view path);
double get_float(const FieldMap& m, const reflection::Object& obj, std::string_view path);
bool get_bool(const FieldMap& m, const reflection::Object& obj, std::string_view path);
std::vector<int64_t> get_ints(const FieldMap& m, std::string_view path);

}  // namespace nnbridge::formats::armnn
