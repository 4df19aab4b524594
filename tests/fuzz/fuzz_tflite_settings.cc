// Fuzz harness for TFLite acceleration settings (sdk/config/tflite_accel) in one form
// (NNBRIDGE_FUZZ_FORM: ProtoBinary, ProtoText, ProtoJson, Fb, FbJson): bytes -> Settings::parse
// -> check() -> serialize() in every form -> parse() in that form, which must succeed and give
// settings equal to the first read (tflite_accel.h: conversion between the forms is lossless;
// a form that cannot express something refuses to write it).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "harness.h"
#include "nnbridge/config/tflite_accel.h"

#ifndef NNBRIDGE_FUZZ_FORM
#error "define NNBRIDGE_FUZZ_FORM to a tflite_accel::Form enumerator"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge::config::tflite_accel;
  namespace fuzz = nnbridge::fuzz;
  constexpr Form kForm = Form::NNBRIDGE_FUZZ_FORM;
  std::optional<Settings> s;
  if (!fuzz::clean([&] { s = Settings::parse(fuzz::as_bytes(data, size), kForm); })) return 0;
  (void)s->check();
  (void)s->debug_text();
  bool written = false;
  for (Form to : {Form::ProtoBinary, Form::ProtoText, Form::ProtoJson, Form::Fb, Form::FbJson}) {
    std::string out;
    if (!fuzz::clean([&] { out = s->serialize(to); })) continue;
    const std::string what = std::string(to_string(kForm)) + " written as " + std::string(to_string(to)) + " and read back";
    std::optional<Settings> back;
    fuzz::must(what, [&] { back = Settings::parse(out, to); });
    if (!(*back == *s)) fuzz::finding(what, "the settings differ:\n" + s->debug_text() + "became\n" + back->debug_text());
    written = true;
  }
  if (written) fuzz::completed();
  return 0;
}
