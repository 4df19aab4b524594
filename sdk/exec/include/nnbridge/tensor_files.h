// Tensor names as file names: how run / validate / conformance / Python spell `<name>.npy`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nnbridge {

/// The file name stem (before ".npy") of a tensor named `name`, or nullopt when the name needs
/// the positional fallback (below).
///
/// A Linux file name may hold any byte but '/' and NUL, and "." and ".." name folders. Tensor
/// names use '/' freely (TensorFlow scopes: "dense/Softmax", "raw_outputs/box_encodings"), and
/// Arm NN layer names and JSON strings may hold NUL, so three bytes are percent-encoded as in
/// RFC 3986: '%' as "%25", '/' as "%2F", NUL as "%00" ("dense/Softmax" <-> "dense%2FSoftmax").
/// Every other byte is kept. An empty name, "." and ".." cannot be spelt at all: nullopt.
/// (A name longer than the file system's limit, 255 bytes on ext4, fails when the file is
/// opened, with Error(Io) naming it.)
std::optional<std::string> tensor_file_stem(std::string_view name);

/// The tensor name a stem spells (the inverse of tensor_file_stem): nullopt when `stem` is not
/// a spelling tensor_file_stem writes (a '%' not followed by "25", "2F" or "00", lower-case hex,
/// a raw '/' or NUL, or a stem that decodes to "", "." or "..").
std::optional<std::string> tensor_name_of_stem(std::string_view stem);

/// The file name stems of a graph's inputs (`role` "input") or outputs ("output"), by position:
/// tensor_file_stem of each name, or the positional fallback `<role>_<i>` (i: the position in
/// the graph's input or output list, "input_0", "output_2") for an empty name, "." or "..".
/// Throws Error(Invalid) naming both tensors when two of them would share a file (a fallback
/// that equals another tensor's name, or a graph that lists one name twice).
std::vector<std::string> tensor_file_stems(const std::vector<std::string>& names, std::string_view role);

}  // namespace nnbridge
