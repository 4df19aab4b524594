#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"

using nnbridge::Error;
using nnbridge::ErrorCode;

TEST_CASE("Error::what joins file, place and message, leaving out empty parts") {
  CHECK(std::string(Error(ErrorCode::Invalid, "refers to layer 40 of 12", "model.armnn", "layers[12].layer.base.index")
                        .what()) == "model.armnn: layers[12].layer.base.index: refers to layer 40 of 12");
  CHECK(std::string(Error(ErrorCode::Io, "cannot open", "a.json").what()) == "a.json: cannot open");
  CHECK(std::string(Error(ErrorCode::Io, "bad", "", "values[1]").what()) == "values[1]: bad");
  CHECK(std::string(Error(ErrorCode::Io, "bad").what()) == "bad");
}

TEST_CASE("Error::with_file keeps code, place and message") {
  Error e(ErrorCode::Malformed, "truncated", "", "nodes[2]");
  Error f = e.with_file("m.json");
  CHECK(f.code() == ErrorCode::Malformed);
  CHECK(f.where() == "nodes[2]");
  CHECK(f.message() == "truncated");
  CHECK(f.file() == "m.json");
  CHECK(std::string(f.what()) == "m.json: nodes[2]: truncated");
}

TEST_CASE("ErrorCode names are the documented lower-case words") {
  CHECK(std::strcmp(to_string(ErrorCode::Io), "io") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Malformed), "malformed") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Unsupported), "unsupported") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Invalid), "invalid") == 0);
  CHECK(std::strcmp(to_string(ErrorCode::Backend), "backend") == 0);
}
