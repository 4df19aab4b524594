// Rebuilding full GLSL sources: the header is TFLite's GetShaderHeader (gl/api.cc) made from each
// program's workgroup_size, and glslangValidator (Khronos' reference compiler) accepts the result.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "nnbridge/error.h"
#include "nnbridge/formats/afcm.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::afcm;
using nlohmann::json;
namespace afcm = nnbridge::formats::afcm;

namespace {

bool glslang_accepts(const std::string& source, const std::string& stem) {
  auto p = test::temp_dir() / (stem + ".comp");
  std::ofstream(p) << source;
  std::string cmd = std::string(NNBRIDGE_GLSLANG) + " -S comp '" + p.string() + "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

TEST_CASE("afcm shaders: the header as TFLite writes it") {
  CHECK(afcm::shader_header(1, 2, 3) ==
        "#version 310 es\nlayout(local_size_x = 1, local_size_y = 2, local_size_z = 3) in;");
}

TEST_CASE("afcm shaders: the sample's program uses shader 1 with local size 1x2x3") {
  auto p = test::shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  auto sources = afcm::shader_sources(read(*p));
  REQUIRE(sources.size() == 1);
  // The body "B" does not start with the newline TFLite's bodies keep: one is inserted.
  CHECK(sources[0] == "#version 310 es\nlayout(local_size_x = 1, local_size_y = 2, local_size_z = 3) in;\nB");
}

TEST_CASE("afcm shaders: one source per program, bodies shared, header per program") {
  json m = base_model();
  const std::string body =
      "\nlayout(std430) buffer;\nlayout(binding = 0) readonly buffer B0 { vec4 data[]; } input_data;\n"
      "layout(binding = 1) writeonly buffer B1 { vec4 data[]; } output_data;\n"
      "uniform float scale;\n"
      "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  output_data.data[i] = input_data.data[i] * scale;\n}\n";
  m["shaders"] = {body};
  m["programs"][1]["shader_index"] = 0;  // TFLite stores a body once, shared by programs
  auto sources = afcm::shader_sources(compile(m));
  REQUIRE(sources.size() == 2);
  CHECK(sources[0] == "#version 310 es\nlayout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;" + body);
  CHECK(sources[1] == "#version 310 es\nlayout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;" + body);
  if (std::string(NNBRIDGE_GLSLANG).empty()) {
    test::skip("glslangValidator is not installed (Debian glslang-tools)");
    return;
  }
  CHECK(glslang_accepts(sources[0], "program_0"));
  CHECK(glslang_accepts(sources[1], "program_1"));
  // Without the header the stored body is not a compute shader: the rebuild is what makes it one.
  CHECK(!glslang_accepts(body, "body_only"));
}

TEST_CASE("afcm shaders: an out-of-range shader index or a missing workgroup_size is an Error naming the program") {
  json m = base_model();
  m["programs"][1]["shader_index"] = 5;
  Graph g = compile(m);
  try {
    afcm::shader_sources(g);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::DanglingReference);  // shader 5 of 2
    CHECK(e.where() == "programs[1].shader_index");
  }
  m = base_model();
  m["programs"][0].erase("workgroup_size");
  CHECK_THROWS_AS(afcm::shader_sources(compile(m)), Error);
}
