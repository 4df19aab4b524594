// TFLite GPU OpenGL compiled models (.flow, FlatBuffers, schemas/afcm/compiled_model.fbs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/format.h"

namespace nnbridge::formats::afcm {

/// The handler registered as format "afcm" (extension .flow).
///
/// A compiled model is what TFLite's GL delegate serializes after lowering a network: a list of
/// compute-shader dispatches (Program) with their objects, uniform values and work-group counts,
/// and a table of shader bodies that programs share. Written by TFLite's
/// SerializedCompiledModelBuilder (tensorflow/lite/delegates/gpu/gl/serialization.cc), read by
/// DeserializeCompiledModel and gl/api.cc.
///
/// Sniffing: "AFCM" at bytes 4..7. TFLite's OpenCL program cache (cl/compiled_program_cache.fbs,
/// root CompiledCache) carries the same identifier: the reader tells the two apart by
/// verification and refuses a cache with Error(Unsupported) saying what it is. A buffer that
/// verifies both ways is taken for a cache when it lacks `programs` (which TFLite's GL writer
/// always stores) but has a field in the cache's slots; an empty root reads as an empty model.
///
/// How a CompiledModel maps to the IR (the reader and the writer agree on it):
/// - Each Program is one node, op `gl.Program`, in file order (the execution order), named
///   "programs[i]" (the file has no names; the writer does not store them). Its attributes:
///     gl.shader_index                      int: index into the graph's shader table
///     gl.number_workgroups, gl.workgroup_size   ints [x, y, z]
///     gl.binary.format (int), gl.binary.binary (bytes)   the ProgramBinary, when present
///   and one column per Object field, entry j for objects[j] (a list per field, not a key per
///   object, so a program of 100k objects costs lists, not 700k map entries):
///     gl.objects.access, .data_type, .type   strings: enum names as in the schema ("READ_WRITE",
///                                          "FLOAT16", "TEXTURE"); a number the schema does not
///                                          name is kept as its decimal text ("7")
///     gl.objects.binding                   ints
///     gl.objects.size_type                 strings: "Uint1" | "Uint2" | "Uint3" | "NONE"
///     gl.objects.size                      ints, flat: components(size_type) numbers per object
///                                          that has a size table, in object order
///     gl.objects.object_type               strings: "ObjectData" | "ObjectRef" | "NONE"
///   (a program without objects has no columns); and per UniformParameter (few per program):
///     gl.parameters[k].name (string), .type ("INT32", "UINT32", "FLOAT32", "INT32_2"),
///     gl.parameters[k].data_type           "DataInt32" | "DataUint32" | "DataFloat" | "NONE"
///     gl.parameters[k].data                ints (DataInt32, DataUint32) or floats (DataFloat,
///                                          float32 values held exactly), all values flat: a
///                                          vector<float4> of n entries is 4n floats
/// - Objects are the node's inputs, input j for objects[j]:
///     ObjectData: a constant value named "programs[i].objects[j]", dtype uint8, shape [bytes]:
///       the raw bytes as stored (whatever data_type says; TFLite writes INT8 data as UNKNOWN),
///       a view into the file, never copied (the writer stores any constant's bytes as they are);
///     ObjectRef: one value per global_id, shared by every program that refers to it, named
///       "global_id_<id>", attribute gl.global_id (int), dtype undefined and rank unknown (the
///       runtime's object manager supplies it). Every reference is a graph input, in order of
///       first use; those some program writes (access WRITE or READ_WRITE) are also graph
///       outputs, in order of first write. The writer ignores graph inputs and outputs.
///     no object (object_type NONE, or a union tag whose table is absent): kNoValue.
/// - Graph metadata: gl.dynamic_batch (bool, the Parameters table), gl.shaders (strings, the
///   shader table as stored: bodies without their "#version"/layout header).
/// - Presence is kept for a lossless round-trip: a table, vector or string the file leaves out
///   has no attribute; where that cannot show it, the path is listed in `gl.absent` (strings):
///   on the graph "programs"; on a node "objects", "parameters", "objects[j].size" (a size tag
///   without its table), "objects[j].object.data"
///   (an ObjectData without its vector: the value is an empty constant) and
///   "parameters[k].data.data" (a data table without its vector). A union tag set without its
///   table shows as the tag attribute with no value (no `.data` attribute; a kNoValue input).
///   Scalars equal to their default need nothing: they decode the same either way.
/// Reading a file and writing it back gives a buffer that flatc decodes to the same JSON,
/// including what TFLite drops (ProgramBinary, enum values it maps to UNKNOWN).
///
/// Errors (identifiers of nnbridge/error.h): bytes that do not verify (`where` names the part,
/// e.g. "programs[2].objects[0]") are Truncated (an offset or size past the end), DepthLimit,
/// ResourceLimit or VerifyFailed; bytes 4..7 other than "AFCM" BadIdentifier; a union member the
/// schema does not have BadEncoding; an OpenCL program cache Feature. The writer throws
/// Error(NoForm) for a node of another op (naming it) and an Invalid identifier (AttributeValue,
/// Arity, Narrowing, DanglingReference) for a gl.Program
/// that does not follow the form above ("nodes[3].attrs.gl.objects.binding[0]"), including an
/// attribute it does not know (it would be lost). Writing is deterministic and atomic.
///
/// Reader options: afcm.max_depth, afcm.max_tables, afcm.max_size: the FlatBuffers verifier's
/// bounds (VerifierLimits in nnbridge/format.h, whose defaults they override).
///
/// check() runs check_graph() on every graph holding gl.* ops or metadata, or read as afcm, once
/// the format is registered (sdk/io does so on first use).
FormatHandler format_handler();

/// The format's rules, appended to `issues`, with `where` in the file's field names
/// ("programs[0].parameters[3].data.data"); a gl.Program that does not follow the IR form is
/// reported as the writer would refuse it ("nodes[0].attrs..."). Each rule and its source:
/// - shaders, programs, parameters, and per program objects, parameters, number_workgroups,
///   workgroup_size must be present: TFLite's reader dereferences them unchecked (the 16-byte
///   empty model crashes it).                                                      (error)
/// - shader_index < number of shaders (TFLite never checks it).                     (error)
/// - number_workgroups and workgroup_size components >= 1 (a dispatch of 0 groups does
///   nothing; a compute shader's local size is at least 1).                         (error)
/// - bindings unique per program among objects of one type: buffers bind to shader-storage
///   binding points, textures to image units (gl/runtime.cc), two separate numberings. (error)
/// - object size and object unions set, with their tables (TFLite: "Texture size is not set",
///   "Object is not set"; absent tables and ObjectData.data are dereferenced).     (error)
/// - access, type known; type not UNKNOWN (TFLite's runtime binds BUFFER and TEXTURE only).
///   (error); data_type unknown (TFLite reads it as UNKNOWN) or UNKNOWN on a constant buffer
///   (runtime.cc takes its size modulo SizeOf(UNKNOWN) = 0).                        (warning)
/// - parameters (TFLite ParseParameter): name present; type known; data set, its union
///   member matching the type (INT32, INT32_2: DataInt32; UINT32: DataUint32; FLOAT32:
///   DataFloat), its table and vector present; lengths INT32 1, 2 or 4, UINT32 1 or 4,
///   INT32_2 even, FLOAT32 1, 2 or 4.                                               (error)
///   FLOAT32 with another multiple of 4 (0 included) is a vector<float4> as TFLite's writer
///   stores it, which its reader refuses.                                           (warning)
/// - every shader used by some program.                                             (warning)
void check_graph(const Graph& g, std::vector<Issue>& issues);

/// The header TFLite puts before a stored shader body (gl/api.cc GetShaderHeader), without its
/// final newline: "#version 310 es\nlayout(local_size_x = X, local_size_y = Y, local_size_z = Z) in;".
std::string shader_header(uint32_t x, uint32_t y, uint32_t z);

/// Each program's full GLSL source, in program order: shader_header(workgroup_size) followed by
/// its stored body, which starts with the newline that ended the header when TFLite compiled it
/// (a body that does not gets one inserted). Throws Error(Invalid) naming the place when a
/// program's shader_index is out of range, its workgroup_size absent, or the graph not in the
/// afcm IR form.
std::vector<std::string> shader_sources(const Graph& g);

}  // namespace nnbridge::formats::afcm
