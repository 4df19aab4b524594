// Bad bytes: every failure is an nnbridge::Error naming the place, never a crash; the OpenCL
// program cache (same identifier, another root) is named for what it is.
#include <doctest/doctest.h>

#include <cstring>

#include "afcm/compiled_model_generated.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/afcm.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::afcm;
using nlohmann::json;
namespace fb = ::tflite::gpu::gl::data;

namespace {

// Reads `bytes`; returns the error's identifier and place, or nullopt when it read.
std::optional<std::pair<ErrorId, std::string>> read_error(std::vector<uint8_t> bytes, std::string* message = nullptr) {
  try {
    read_bytes(std::move(bytes));
  } catch (const Error& e) {
    if (message) *message = e.message();
    return std::pair{e.id(), e.where()};
  }
  return std::nullopt;
}

std::vector<uint8_t> base_bytes() {
  auto p = flatc_binary(base_model().dump(), "base");
  REQUIRE(!p.empty());
  return file_bytes(p);
}

std::vector<uint8_t> cl_cache(const json& j) {
  auto p = flatc_binary(j.dump(), "cache", cl_schema());
  REQUIRE(!p.empty());
  return file_bytes(p);
}

}  // namespace

TEST_CASE("afcm malformed: every truncation and every single-byte change is an Error or reads, no crash") {
  const auto good = base_bytes();
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = read_error(std::vector<uint8_t>(good.begin(), good.begin() + n));
    CHECK_MESSAGE(r.has_value(), "prefix of " << n << " bytes read");
  }
  std::size_t refused = 0, accepted = 0;
  for (std::size_t i = 0; i < good.size(); ++i)
    for (uint8_t x : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
      auto bad = good;
      bad[i] ^= x;
      try {
        Graph g = read_bytes(bad);
        // Whatever reads must also check and write without throwing past nnbridge::Error
        // (writing every one would cost a synced file each: every 16th is written).
        findings(g);
        if (accepted++ % 16 == 0) try {
            write(g, "mutated");
          } catch (const Error&) {
          }
      } catch (const Error&) {
        ++refused;
      }
    }
  CHECK(refused > 0);
}

TEST_CASE("afcm malformed: too short, no identifier") {
  std::string msg;
  auto r = read_error({0x0c, 0, 0, 0}, &msg);
  REQUIRE(r);
  CHECK(r->first == ErrorId::Truncated);  // 4 bytes: no room for the root offset and identifier
  auto bytes = base_bytes();
  bytes[4] = 'X';
  r = read_error(bytes, &msg);
  REQUIRE(r);
  CHECK(r->first == ErrorId::BadIdentifier);
  CHECK(r->second == "(file identifier)");
}

TEST_CASE("afcm malformed: a bad offset inside a program is located") {
  auto bytes = base_bytes();
  const auto* root = fb::GetCompiledModel(bytes.data());
  const auto* objects = root->programs()->Get(0)->objects();
  const std::size_t slot = std::size_t(objects->Data() - bytes.data()) + 4;  // objects[1]'s offset
  const uint32_t far = 0x7ffffff0u;
  std::memcpy(&bytes[slot], &far, 4);
  auto r = read_error(bytes);
  REQUIRE(r);
  // Past FlatBuffers' 2 GiB bound: no longer file could hold it, so not a truncation.
  CHECK(r->first == ErrorId::VerifyFailed);
  CHECK(r->second == "programs[0].objects[1]");
  // The same place, 64 bytes past the end of the buffer: what a cut-short file has.
  const uint32_t near = uint32_t(bytes.size() - slot + 64);
  std::memcpy(&bytes[slot], &near, 4);
  r = read_error(bytes);
  REQUIRE(r);
  CHECK(r->first == ErrorId::Truncated);
  CHECK(r->second == "programs[0].objects[1]");
}

TEST_CASE("afcm malformed: over the verifier's table limit") {
  auto p = flatc_binary(base_model().dump(), "limits");
  REQUIRE(!p.empty());
  auto m = MappedFile::open(p);
  LoadOptions o;
  o.limits.max_tables = 3;
  Source s{m->bytes(), m, "limits.flow", p};
  try {
    formats::afcm::format_handler().read(s, o);
    FAIL("read past afcm.max_tables");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::ResourceLimit);
  }
  o.limits = {};
  CHECK_NOTHROW(formats::afcm::format_handler().read(s, o));
}

TEST_CASE("afcm malformed: a union member the schema does not have") {
  flatbuffers::FlatBufferBuilder b;
  auto size = fb::CreateUint1(b, 1).Union();
  fb::ObjectBuilder ob(b);
  ob.add_size_type(static_cast<fb::ObjectSize>(9));
  ob.add_size(size);
  auto object = ob.Finish();
  std::vector<flatbuffers::Offset<fb::Object>> objects{object};
  auto program = fb::CreateProgram(b, b.CreateVector(objects));
  std::vector<flatbuffers::Offset<fb::Program>> programs{program};
  fb::FinishCompiledModelBuffer(b, fb::CreateCompiledModel(b, 0, 0, b.CreateVector(programs)));
  std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  auto r = read_error(bytes);
  REQUIRE(r);
  CHECK(r->first == ErrorId::BadEncoding);  // ObjectSize 9: no member of the union
  CHECK(r->second == "programs[0].objects[0].size_type");
}

TEST_CASE("afcm: an OpenCL program cache (same AFCM identifier) is named, not misread") {
  const json caches[] = {
      {{"driver_version", "OpenCL 3.0 test"}, {"programs", {{{"fingerprint", 42}, {"binary", {1, 2, 3, 4}}}}}},
      {{"programs", {{{"fingerprint", 1}, {"binary", {9}}}, {{"fingerprint", 2}}}}},
      {{"driver_version", "1.2"}},
      {{"programs", json::array()}},
  };
  for (const auto& c : caches) {
    CAPTURE(c.dump());
    auto bytes = cl_cache(c);
    REQUIRE(std::string(bytes.begin() + 4, bytes.begin() + 8) == "AFCM");
    auto r = read_error(bytes);
    REQUIRE(r);
    CHECK(r->first == ErrorId::Feature);
    CHECK(r->second == "(root)");
  }
  // An empty cache is also an empty compiled model: it reads as one (nothing to misread).
  Graph g = read_bytes(cl_cache(json::object()));
  CHECK(g.nodes.empty());
  // And a GL model is never taken for a cache, however small.
  json tiny = {{"programs", json::array()}};
  CHECK(read(flatc_binary(tiny.dump(), "tiny")).nodes.empty());
}
