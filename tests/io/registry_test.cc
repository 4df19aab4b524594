// The format registry: built-ins present without any registration call, replacement by name,
// lookup by extension.
#include <doctest/doctest.h>

#include "nnbridge/io.h"
#include "toy_format.h"

using namespace nnbridge;

TEST_CASE("io registry: the built-in formats are there on first use, in order") {
  auto all = all_formats();
  REQUIRE(all.size() >= 2);
  CHECK(all[0]->name == "armnn");
  CHECK(all[1]->name == "json");
  REQUIRE(find_format("armnn") != nullptr);
  REQUIRE(find_format("json") != nullptr);
  CHECK(find_format("armnn")->extensions == std::vector<std::string>{"armnn"});
  CHECK(find_format("json")->extensions == std::vector<std::string>{"json"});
  CHECK(find_format("nosuch") == nullptr);
  for (const FormatHandler* h : all) {
    CHECK(h->read);
    CHECK(h->write);
    CHECK(h->sniff);
  }
}

TEST_CASE("io registry: lookup by extension ignores the dot and the case") {
  CHECK(find_format_by_extension(".armnn")->name == "armnn");
  CHECK(find_format_by_extension("ARMNN")->name == "armnn");
  CHECK(find_format_by_extension(".Json")->name == "json");
  CHECK(find_format_by_extension(".bin") == nullptr);
  CHECK(find_format_by_extension("") == nullptr);
  CHECK(find_format_by_extension(".") == nullptr);
}

TEST_CASE("io registry: lookup by path takes the longest extension that ends the name") {
  // Oracle: the extension lists of the built-in handlers ("armnn.json" is armnn-json's).
  CHECK(find_format_by_path("net.armnn.json")->name == "armnn-json");
  CHECK(find_format_by_path("dir.x/NET.ARMNN.JSON")->name == "armnn-json");
  CHECK(find_format_by_path("net.json")->name == "json");
  CHECK(find_format_by_path("net.armnn")->name == "armnn");
  CHECK(find_format_by_path("armnn.json")->name == "json");  // "armnn" is the stem here
  CHECK(find_format_by_path(".json") == nullptr);
  CHECK(find_format_by_path("net.bin") == nullptr);
}

TEST_CASE("io registry: registering a name again replaces the handler, not appends") {
  register_format(test::toy_format("first"));
  const std::size_t n = all_formats().size();
  const FormatHandler* first = find_format("toy");
  REQUIRE(first != nullptr);
  CHECK(first->description == "first");
  register_format(test::toy_format("second"));
  CHECK(all_formats().size() == n);
  CHECK(find_format("toy")->description == "second");
  // The replaced handler stays valid for callers that still hold it.
  CHECK(first->description == "first");
  CHECK(find_format_by_extension("toy")->description == "second");
}
