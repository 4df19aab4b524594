// nnbridge/attr_rename.h: the rename engine the Arm NN and VkGraph mapping tables share. Values
// by hand; the defaults from the ONNX operator specs (Softmax-13 axis -1, LeakyRelu-6 alpha 0.01).
#include <doctest/doctest.h>

#include "nnbridge/attr_rename.h"
#include "nnbridge/error.h"

using namespace nnbridge;

TEST_CASE("attr_rename: a field's value as the canonical attribute and back") {
  const AttrRename same{"descriptor.axis", "axis"};
  CHECK(rename_to_canonical(same, Attr(int64_t{-2})) == Attr(int64_t{-2}));
  CHECK(rename_from_canonical(same, Attr(int64_t{-2}), "Softmax") == Attr(int64_t{-2}));

  // ATen's keepdim (bool) is ONNX's keepdims (int 0 / 1).
  const AttrRename keep{"keepdim", "keepdims", RenameKind::BoolAsInt};
  CHECK(rename_to_canonical(keep, Attr(true)) == Attr(int64_t{1}));
  CHECK(rename_to_canonical(keep, Attr(false)) == Attr(int64_t{0}));
  CHECK(rename_to_canonical(keep, Attr(int64_t{7})) == Attr(int64_t{1}));
  CHECK(rename_from_canonical(keep, Attr(int64_t{0}), "aten.sum.dim_IntList") == Attr(false));
  CHECK(rename_from_canonical(keep, Attr(int64_t{1}), "aten.sum.dim_IntList") == Attr(true));
  CHECK_THROWS_AS(rename_to_canonical(keep, Attr(std::string("yes"))), Error);

  // One ATen dim is ONNX's axes list of one.
  const AttrRename dim{"dim", "axes", RenameKind::IntAsInts};
  CHECK(rename_to_canonical(dim, Attr(int64_t{3})) == Attr(std::vector<int64_t>{3}));
  CHECK(rename_from_canonical(dim, Attr(std::vector<int64_t>{3}), "aten.squeeze_copy.dim") == Attr(int64_t{3}));
  try {
    rename_from_canonical(dim, Attr(std::vector<int64_t>{1, 2}), "aten.squeeze_copy.dim");
    FAIL("two axes became one dim");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(std::string(e.what()).find("aten.squeeze_copy.dim takes one dim, not 2") != std::string::npos);
  }
}

TEST_CASE("attr_rename: with_schema_defaults adds what the node leaves to the schema, keeps what it sets") {
  const AttrMap softmax = with_schema_defaults("Softmax", {});
  REQUIRE(softmax.count("axis"));
  CHECK(softmax.at("axis") == Attr(int64_t{-1}));  // ONNX Softmax-13
  const AttrMap leaky = with_schema_defaults("LeakyRelu", {{"alpha", Attr(0.5)}});
  CHECK(leaky.at("alpha") == Attr(0.5));
  CHECK(with_schema_defaults("armnn.StandIn", {}).empty());  // no schema: nothing added
}
