// Bounded scale tests of the documents that are not graphs (issue 17): TFLite settings in each
// of the five forms with N entries in the repeated settings_to_test, read, written in the same
// form and read back; OpenVINO custom-layer XML with N CustomLayer elements, read (nnbridge
// writes no such XML). Oracles: the generator's N and its entries' values (bench/scale_gen.py:
// protoc --encode, flatc -b and text, never nnbridge), counted after the round trip by
// libprotobuf's own parser of the settings' proto-binary bytes. No time is asserted (the ctest
// TIMEOUT guards against a quadratic regression).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/config/tflite_accel.h"
#include "scale_files.h"
#include "tflite_accel/configuration.pb.h"

namespace fs = std::filesystem;
namespace ta = nnbridge::config::tflite_accel;

namespace {

void settings_round_trip(const std::string& form, std::size_t n) {
  const fs::path file = nnbridge::test::scale_file("settings-" + form, n);
  ta::LoadOptions lo;
  lo.message = "MinibenchmarkSettings";
  const ta::Settings s = ta::Settings::load(file, lo);
  const std::string name = file.filename().string();
  const fs::path out = file.parent_path() / ("out" + name.substr(name.find('.')));
  s.save(out);
  const ta::Settings back = ta::Settings::load(out, lo);
  CHECK(back == s);
  tflite::proto::MinibenchmarkSettings m;
  REQUIRE(m.ParseFromString(back.serialize(ta::Form::ProtoBinary)));
  REQUIRE(static_cast<std::size_t>(m.settings_to_test_size()) == n);
  // The generator's entry i has cpu_settings.num_threads = i % 8 + 1.
  for (std::size_t i : {std::size_t{0}, n / 2 + 3, n - 1})
    CHECK(m.settings_to_test(static_cast<int>(i)).cpu_settings().num_threads() == static_cast<int>(i % 8 + 1));
}

}  // namespace

TEST_CASE("scale settings proto-binary: 100000 settings_to_test read, written and read back") {
  settings_round_trip("proto-binary", 100000);
}

TEST_CASE("scale settings proto-text: 50000 settings_to_test read, written and read back") {
  settings_round_trip("proto-text", 50000);
}

TEST_CASE("scale settings proto-json: 50000 settings_to_test read, written and read back") {
  settings_round_trip("proto-json", 50000);
}

TEST_CASE("scale settings fb: 100000 settings_to_test read, written and read back") {
  settings_round_trip("fb", 100000);
}

TEST_CASE("scale settings fb-json: 50000 settings_to_test read, written and read back") {
  settings_round_trip("fb-json", 50000);
}

TEST_CASE("scale custom-layer XML: 50000 CustomLayer elements read") {
  const std::size_t n = 50000;
  const auto cfg = nnbridge::config::openvino_custom::load_custom_layers(nnbridge::test::scale_file("custom-layers", n));
  REQUIRE(cfg.gpu_layers.size() == n);
  CHECK(cfg.find("Op" + std::to_string(n - 1)) != nullptr);
  CHECK(cfg.gpu_layers.back().tensors.size() == 2);
}
