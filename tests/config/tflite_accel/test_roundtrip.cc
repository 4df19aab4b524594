// Every message of configuration.proto, with every field set (messages built by walking the
// descriptors, so a new field is covered without touching this file), goes through all five
// forms and comes back with every field, value and presence: the reference is libprotobuf's
// own wire encoding of the message the test built, not nnbridge output.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge::test::tflite_accel;

namespace {

std::string fill_name(Fill mode) { return mode == Fill::Distinct ? "distinct values" : "default values"; }

}  // namespace

TEST_CASE("tflite_accel round-trip: every message, every field set, through each of the five forms") {
  const auto names = ta::message_names();
  REQUIRE(names.size() == 33);  // `message` declarations in schemas/tflite_accel/configuration.proto
  for (const std::string& name : names) {
    for (Fill mode : {Fill::Distinct, Fill::Defaults}) {
      CAPTURE(name);
      CAPTURE(fill_name(mode));
      auto m = new_message(name);
      fill(*m, mode);
      const std::string wire = m->SerializeAsString();
      const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary, name);
      CHECK(s.warnings().empty());
      for (ta::Form form : kForms) {
        CAPTURE(ta::to_string(form));
        const std::string bytes = s.serialize(form);
        const ta::Settings back = ta::Settings::parse(bytes, form, name);
        CHECK(back.warnings().empty());
        CHECK(back.serialize(ta::Form::ProtoBinary) == wire);
        CHECK(back.serialize(form) == bytes);  // writers are deterministic
      }
    }
  }
}

TEST_CASE("tflite_accel round-trip: conversion between every pair of forms keeps the settings") {
  for (const std::string name : {"TFLiteSettings", "ComputeSettings", "MinibenchmarkSettings", "BenchmarkEvent",
                                 "MiniBenchmarkEvent", "BenchmarkEventStorage"}) {
    CAPTURE(name);
    auto m = new_message(name);
    fill(*m, Fill::Distinct);
    const std::string wire = m->SerializeAsString();
    for (ta::Form from : kForms) {
      const std::string in = ta::Settings::parse(wire, ta::Form::ProtoBinary, name).serialize(from);
      const ta::Settings loaded = ta::Settings::parse(in, from, name);
      for (ta::Form to : kForms) {
        CAPTURE(ta::to_string(from));
        CAPTURE(ta::to_string(to));
        const ta::Settings out = ta::Settings::parse(loaded.serialize(to), to, name);
        CHECK(out.serialize(ta::Form::ProtoBinary) == wire);
      }
    }
  }
}

TEST_CASE("tflite_accel round-trip: an empty message stays empty in every form") {
  for (const std::string& name : ta::message_names()) {
    CAPTURE(name);
    const ta::Settings empty(name);
    for (ta::Form form : kForms) {
      CAPTURE(ta::to_string(form));
      CHECK(ta::Settings::parse(empty.serialize(form), form, name).serialize(ta::Form::ProtoBinary).empty());
    }
  }
}

TEST_CASE("tflite_accel round-trip: presence of a single field at its default survives fb and fb-json") {
  // TFLite's fb->proto converter sets every scalar; nnbridge keeps exactly the fields present.
  auto m = from_text("TFLiteSettings", "cpu_settings { num_threads: -1 } coral_settings { performance: MAXIMUM }");
  const std::string wire = m->SerializeAsString();
  for (ta::Form form : {ta::Form::Fb, ta::Form::FbJson}) {
    CAPTURE(ta::to_string(form));
    const ta::Settings s = ta::Settings::parse(wire, ta::Form::ProtoBinary);
    const ta::Settings back = ta::Settings::parse(s.serialize(form), form);
    CHECK(back.serialize(ta::Form::ProtoText) ==
          "cpu_settings {\n  num_threads: -1\n}\ncoral_settings {\n  performance: MAXIMUM\n}\n");
  }
}

TEST_CASE("tflite_accel: Settings value semantics") {
  ta::Settings a = ta::Settings::parse("delegate: GPU", ta::Form::ProtoText);
  ta::Settings b = a;
  CHECK(a == b);
  b = ta::Settings::parse("delegate: XNNPACK", ta::Form::ProtoText);
  CHECK_FALSE(a == b);
  CHECK(a.message_name() == "TFLiteSettings");
  CHECK(ta::Settings("ComputeSettings").message_name() == "ComputeSettings");
  // Same bytes, other message: not equal.
  CHECK_FALSE(ta::Settings("ComputeSettings") == ta::Settings("TFLiteSettings"));
  CHECK_THROWS_AS(ta::Settings("NoSuchSettings"), nnbridge::Error);
}
