// A generated corpus of malformed inputs (issue 9, "Robustness"): deterministic mutations of
// real files, each built to be invalid, so every one must end in exit 3 with a message naming
// the file. Mutation classes: truncation at each class of offset (inside the header, at the
// root table, at its vtable, mid-file, the last word), offsets pointing outside the buffer,
// vtables that cannot be, out-of-range indices and union tags, dimensions whose element count
// overflows, and (IR JSON) cycles and dangling ids.
#pragma once

#include <string>
#include <vector>

namespace nnbridge::test::corpus {

struct Malformed {
  std::string name;   ///< what was done, e.g. "truncate@root" or "layers[0].layer_type=238"
  std::string bytes;  ///< the file's content
};

/// Format-neutral FlatBuffer mutations of `fb` (a whole buffer): truncations at offset classes,
/// root offset / root vtable / vtable size made impossible.
std::vector<Malformed> flatbuffer_mutations(const std::string& fb);
/// Arm NN SerializedGraph semantics: a union tag outside the Layer enum, a connection to a
/// layer that does not exist, an output shape whose element count overflows int64, a layers
/// vector longer than the file.
std::vector<Malformed> armnn_mutations(const std::string& fb);
/// VkGraph semantics (a bare VK00 buffer): an args index past `values`, a value union tag past
/// GraphTypes, a tensor whose dims overflow, an input id past `values`.
std::vector<Malformed> vkgraph_mutations(const std::string& fb);
/// The VH00 header of a delegate payload: each offset and size pointing outside.
std::vector<Malformed> vkdelegate_mutations(const std::string& payload);
/// TFLite GL compiled model semantics: an object union tag outside ObjectVariant.
std::vector<Malformed> afcm_mutations(const std::string& fb);
/// nnbridge IR JSON (as `nnbridge dump` writes it): truncations, cycles (a node consuming its own
/// or a later node's output), dangling value ids, an element count overflowing int64, an unknown
/// dtype, a value produced twice.
std::vector<Malformed> ir_json_mutations(const std::string& json);
/// NumPy .npy: truncations, bad magic / version / header length, an unknown dtype, a shape whose
/// element count overflows, a negative dimension.
std::vector<Malformed> npy_mutations(const std::string& npy);
/// protobuf wire format: a cut last byte, wire type 7, a length past the end.
std::vector<Malformed> proto_binary_mutations(const std::string& pb);
/// JSON text settings (fb-json / proto-json): the closing brace cut, an unknown key, a bad enum name.
std::vector<Malformed> settings_json_mutations(const std::string& json);

}  // namespace nnbridge::test::corpus
