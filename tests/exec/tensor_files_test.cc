// Tensor names as file names (nnbridge/tensor_files.h). Oracle: RFC 3986 percent-encoding of
// '%', '/' and NUL worked out by hand (ASCII '%' = 0x25, '/' = 0x2F, NUL = 0x00), and Linux's
// file-name rule (any byte but '/' and NUL; "." and ".." are folders).
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/tensor_files.h"

using namespace nnbridge;
using namespace std::string_literals;

TEST_CASE("tensor_file_stem: '%', '/' and NUL percent-encoded, every other byte kept") {
  CHECK(tensor_file_stem("dense/Softmax") == "dense%2FSoftmax");
  CHECK(tensor_file_stem("raw_outputs/box_encodings") == "raw_outputs%2Fbox_encodings");
  CHECK(tensor_file_stem("100%/x") == "100%25%2Fx");
  CHECK(tensor_file_stem("a\0b"s) == "a%00b");
  CHECK(tensor_file_stem("FullyConnected:0:5") == "FullyConnected:0:5");
  CHECK(tensor_file_stem(".x") == ".x");
  CHECK(tensor_file_stem("caf\xc3\xa9 \\ *?") == "caf\xc3\xa9 \\ *?");
  CHECK_FALSE(tensor_file_stem(""));
  CHECK_FALSE(tensor_file_stem("."));
  CHECK_FALSE(tensor_file_stem(".."));
  CHECK(tensor_file_stem("...") == "...");
}

TEST_CASE("tensor_name_of_stem: only the spelling tensor_file_stem writes") {
  CHECK(tensor_name_of_stem("dense%2FSoftmax") == "dense/Softmax");
  CHECK(tensor_name_of_stem("100%25%2Fx") == "100%/x");
  CHECK(tensor_name_of_stem("a%00b") == "a\0b"s);
  CHECK(tensor_name_of_stem("plain") == "plain");
  CHECK_FALSE(tensor_name_of_stem("dense%2fSoftmax"));  // lower-case hex is not written
  CHECK_FALSE(tensor_name_of_stem("50%"));
  CHECK_FALSE(tensor_name_of_stem("a%41"));  // 'A' is never encoded
  CHECK_FALSE(tensor_name_of_stem("a/b"));
  CHECK_FALSE(tensor_name_of_stem("%2E"));
  CHECK_FALSE(tensor_name_of_stem(""));
  for (const std::string& name : {"x/y/z"s, "%%"s, "a%2Fb"s, "\0"s, "/"s})
    CHECK(tensor_name_of_stem(*tensor_file_stem(name)) == name);
}

TEST_CASE("tensor_file_stems: positional fallback for '', '.', '..', shared files refused") {
  CHECK(tensor_file_stems({"a/b", "", ".", ".."}, "output") ==
        std::vector<std::string>{"a%2Fb", "output_1", "output_2", "output_3"});
  CHECK(tensor_file_stems({"", "x"}, "input") == std::vector<std::string>{"input_0", "x"});
  try {
    tensor_file_stems({"input_1", ""}, "input");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::DuplicateName);  // two values would share one file name
    CHECK(e.message().find("\"input_1\"") != std::string::npos);
    CHECK(e.message().find("input_1.npy") != std::string::npos);
  }
}
