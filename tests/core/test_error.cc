#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"

using nnbridge::Error;
using nnbridge::ErrorCode;
using nnbridge::ErrorId;

TEST_CASE("Error::what is the identifier, then file, place and message, leaving out empty parts") {
  CHECK(std::string(Error(ErrorId::DanglingReference, "refers to layer 40 of 12", "model.armnn",
                          "layers[12].layer.base.index")
                        .what()) == "[nnbridge.invalid.401] model.armnn: layers[12].layer.base.index: refers to layer 40 of 12");
  CHECK(std::string(Error(ErrorCode::Io, "cannot open", "a.json").what()) == "[nnbridge.io.100] a.json: cannot open");
  CHECK(std::string(Error(ErrorCode::Io, "bad", "", "values[1]").what()) == "[nnbridge.io.100] values[1]: bad");
  CHECK(std::string(Error(ErrorCode::Io, "bad").what()) == "[nnbridge.io.100] bad");
  // A place that ends in "]" is still followed by ": ".
  CHECK(std::string(Error(ErrorId::Shape, "bad", "", "nodes[0]").what()) == "[nnbridge.invalid.403] nodes[0]: bad");
}

TEST_CASE("Error::with_file keeps identifier, code, place and message") {
  Error e(ErrorId::Truncated, "truncated", "", "nodes[2]");
  Error f = e.with_file("m.json");
  CHECK(f.code() == ErrorCode::Malformed);
  CHECK(f.id() == ErrorId::Truncated);
  CHECK(f.where() == "nodes[2]");
  CHECK(f.message() == "truncated");
  CHECK(f.file() == "m.json");
  CHECK(std::string(f.what()) == "[nnbridge.malformed.201] m.json: nodes[2]: truncated");
}

TEST_CASE("ErrorCode names are the documented lower-case words") {
  CHECK(std::strcmp(to_string(ErrorCode::Io), "io") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Malformed), "malformed") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Unsupported), "unsupported") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Invalid), "invalid") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Backend), "backend") == 0);
}

TEST_CASE("an identifier's hundreds digit is its code, and a code alone gives the code's x00") {
  // docs/errors.md: 1xx io, 2xx malformed, 3xx unsupported, 4xx invalid, 5xx backend.
  CHECK(nnbridge::code_of(ErrorId::IoTooLarge) == ErrorCode::Io);
  CHECK(nnbridge::code_of(ErrorId::DepthLimit) == ErrorCode::Malformed);
  CHECK(nnbridge::code_of(ErrorId::NoForm) == ErrorCode::Unsupported);
  CHECK(nnbridge::code_of(ErrorId::Cycle) == ErrorCode::Invalid);
  CHECK(nnbridge::code_of(ErrorId::Build) == ErrorCode::Backend);
  CHECK(to_string(ErrorId::Cycle) == "nnbridge.invalid.405");
  CHECK(to_string(ErrorId::UnknownOption) == "nnbridge.unsupported.305");
  CHECK(Error(ErrorCode::Backend, "x").id() == ErrorId::BackendOther);
  CHECK(to_string(Error(ErrorCode::Malformed, "x").id()) == "nnbridge.malformed.200");
}
