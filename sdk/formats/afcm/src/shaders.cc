// Rebuilding each program's full GLSL source. TFLite stores shader bodies without their header
// and, when loading, prepends "#version 310 es" and a layout line made from the program's
// workgroup_size (gl/api.cc GetShaderHeader); the stored body starts with the newline that ended
// the header when the model was compiled (Serialize cuts the text after "in;").
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/afcm.h"

namespace nnbridge::formats::afcm {

std::string shader_header(uint32_t x, uint32_t y, uint32_t z) {
  return "#version 310 es\nlayout(local_size_x = " + std::to_string(x) + ", local_size_y = " + std::to_string(y) +
         ", local_size_z = " + std::to_string(z) + ") in;";
}

std::vector<std::string> shader_sources(const Graph& g) {
  Model m = to_model(g, [](ErrorId id, const std::string& where, const std::string& msg) {
    throw Error(id, msg, {}, where);
  });
  std::vector<std::string> out;
  if (!m.programs) return out;
  const std::size_t count = m.shaders ? m.shaders->size() : 0;
  for (std::size_t i = 0; i < m.programs->size(); ++i) {
    const Program& p = (*m.programs)[i];
    const std::string at = "programs[" + std::to_string(i) + "]";
    if (p.shader_index >= count)
      throw Error(ErrorId::DanglingReference,
                  "shader " + std::to_string(p.shader_index) + " is out of range (" + std::to_string(count) + " shaders)",
                  {}, at + ".shader_index");
    if (!p.workgroup_size) throw Error(ErrorId::AttributeValue, "absent: the header cannot be rebuilt", {}, at + ".workgroup_size");
    const std::string& body = (*m.shaders)[p.shader_index];
    const auto& w = *p.workgroup_size;
    out.push_back(shader_header(w[0], w[1], w[2]) + (body.empty() || body.front() != '\n' ? "\n" : "") + body);
  }
  return out;
}

}  // namespace nnbridge::formats::afcm
