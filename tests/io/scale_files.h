// Large files for the bounded scale tests, made by bench/scale_gen.py (the generator the scale
// benchmark uses: flatc, protoc and text, never nnbridge's writer).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace nnbridge::test {

/// Runs `scale_gen.py NAME N` into a fresh temporary folder and returns the path of the file it
/// made (NAME as in scale_gen.GENERATORS: "armnn", "afcm-objects", "settings-fb", ...). Fails
/// the test case (doctest REQUIRE) when the generator fails.
std::filesystem::path scale_file(const std::string& name, std::size_t n);

}  // namespace nnbridge::test
