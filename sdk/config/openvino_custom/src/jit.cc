// The text put before a custom layer's OpenCL source: the GPU plugin's built-in defines
// (intel_gpu graph/impls/ocl/custom_primitive.cpp get_jit_constant and add_layout_to_jit, with
// kernel_selector/jitter.h's spelling of arrays) and the layer's user defines
// (plugin/ops/custom.cpp CreateCustomOp).
#include <charconv>
#include <cmath>
#include <sstream>

#include "nnbridge/config/openvino_custom.h"

namespace nnbridge::config::openvino_custom {

const char* to_string(TensorFormat f) {
  switch (f) {
    case TensorFormat::BFYX: return "BFYX";
    case TensorFormat::BYXF: return "BYXF";
    case TensorFormat::FYXB: return "FYXB";
    case TensorFormat::YXFB: return "YXFB";
    case TensorFormat::ANY: return "ANY";
  }
  return "?";
}

std::optional<Dims> dims_of(std::span<const int64_t> shape) {
  if (shape.size() > 4) return std::nullopt;
  Dims d{1, 1, 1, 1};
  for (std::size_t i = 0; i < shape.size(); ++i) d[i] = shape[i];
  return d;
}

Dims pitches_of(const TensorLayout& t) {
  enum { B, F, Y, X };
  Dims p{};  // padded sizes
  for (int i = 0; i < 4; ++i) p[i] = t.dims[i] + t.lower_padding[i] + t.upper_padding[i];
  Dims s{};
  switch (t.format) {
    case TensorFormat::BYXF:
      s[F] = 1, s[X] = p[F], s[Y] = p[X] * s[X], s[B] = p[Y] * s[Y];
      break;
    case TensorFormat::YXFB:
      s[B] = 1, s[F] = p[B], s[X] = p[F] * s[F], s[Y] = p[X] * s[X];
      break;
    case TensorFormat::FYXB:
      s[B] = 1, s[X] = p[B], s[Y] = p[X] * s[X], s[F] = p[Y] * s[Y];
      break;
    case TensorFormat::BFYX:
    case TensorFormat::ANY:  // laid out as BFYX here
      s[X] = 1, s[Y] = p[X], s[F] = p[Y] * s[Y], s[B] = p[F] * s[F];
      break;
  }
  return s;
}

int64_t offset_of(const TensorLayout& t) {
  const Dims s = pitches_of(t);
  int64_t o = 0;
  for (int i = 0; i < 4; ++i) o += s[i] * t.lower_padding[i];
  return o;
}

namespace {

// jitter.h VectorDataJitConstant: NAME_SIZE, NAME_INIT `{ a,b, } `, NAME `(type []){ a,b, } `.
template <class T>
void add_array(std::vector<std::pair<std::string, std::string>>& defs, const std::string& name, const char* type,
               std::span<const T> values) {
  std::string init = "{ ";
  for (const T& v : values) init += std::to_string(v) + ",";
  init += " } ";
  defs.emplace_back(name + "_SIZE", std::to_string(values.size()));
  defs.emplace_back(name + "_INIT", init);
  defs.emplace_back(name, "(" + std::string(type) + " [])" + init);
}

void add_layout(std::vector<std::pair<std::string, std::string>>& defs, const std::string& name, const TensorLayout& t) {
  auto ints = [](const Dims& d) {
    std::array<int, 4> out{};
    for (int i = 0; i < 4; ++i) out[i] = static_cast<int>(d[i]);
    return out;
  };
  const auto dims = ints(t.dims), lower = ints(t.lower_padding), upper = ints(t.upper_padding), pitches = ints(pitches_of(t));
  add_array<int>(defs, name + "_DIMS", "int", dims);
  defs.emplace_back(name + "_TYPE", t.type);
  const TensorFormat shown = t.format == TensorFormat::ANY ? TensorFormat::BFYX : t.format;
  defs.emplace_back(name + "_FORMAT_" + to_string(shown), "");
  add_array<int>(defs, name + "_LOWER_PADDING", "int", lower);
  add_array<int>(defs, name + "_UPPER_PADDING", "int", upper);
  add_array<int>(defs, name + "_PITCHES", "int", pitches);
  defs.emplace_back(name + "_OFFSET", std::to_string(offset_of(t)));
}

// A floating value as C source that stays floating and reads back exactly.
std::string float_text(double v) {
  if (std::isnan(v)) return "NAN";
  if (std::isinf(v)) return v < 0 ? "-INFINITY" : "INFINITY";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string builtin_defines(std::span<const TensorLayout> inputs, std::span<const TensorLayout> outputs,
                            std::span<const std::size_t> global, std::span<const std::size_t> local) {
  std::vector<std::pair<std::string, std::string>> defs;
  defs.emplace_back("NUM_INPUTS", std::to_string(inputs.size()));
  // size_t on a 64-bit host: jitter.h GetTypeName<uint64_t> is "ulong".
  add_array<std::size_t>(defs, "GLOBAL_WORKSIZE", "ulong", global);
  add_array<std::size_t>(defs, "LOCAL_WORKSIZE", "ulong", local);
  for (std::size_t i = 0; i < inputs.size(); ++i) add_layout(defs, "INPUT" + std::to_string(i), inputs[i]);
  for (std::size_t i = 0; i < outputs.size(); ++i) add_layout(defs, "OUTPUT" + std::to_string(i), outputs[i]);
  std::string out = "// Custom Layer Built-ins\n\n";
  for (const auto& [name, value] : defs) out += "#define " + name + " " + value + "\n";
  return out;
}

std::string attr_define_value(const Attr& a) {
  auto join = [](const auto& list, auto one) {
    std::string s;
    for (std::size_t i = 0; i < list.size(); ++i) s += (i ? "," : "") + one(list[i]);
    return s;
  };
  switch (a.type()) {
    case AttrType::Int: return std::to_string(a.get<int64_t>());
    case AttrType::Float: return float_text(a.get<double>());
    case AttrType::Bool: return a.get<bool>() ? "1" : "0";
    case AttrType::String: return a.get<std::string>();
    case AttrType::Ints: return join(a.get<std::vector<int64_t>>(), [](int64_t v) { return std::to_string(v); });
    case AttrType::Floats: return join(a.get<std::vector<double>>(), float_text);
    case AttrType::Bools: return join(a.get<std::vector<bool>>(), [](bool v) { return std::string(v ? "1" : "0"); });
    case AttrType::Strings: return join(a.get<std::vector<std::string>>(), [](const std::string& v) { return v; });
    case AttrType::Bytes: break;
  }
  throw Error(ErrorId::NoForm, "a bytes attribute cannot be the value of a #define");
}

std::string user_defines(const SimpleGpuLayer& layer, const AttrMap& attrs) {
  std::string out = "// Custom Layer User Defines\n";
  for (const Define& d : layer.defines) {
    std::string value;
    auto it = d.param.empty() ? attrs.end() : attrs.find(d.param);
    if (it != attrs.end()) {
      try {
        value = attr_define_value(it->second);
      } catch (const Error& e) {
        throw Error(e.id(), "custom layer \"" + layer.name + "\" (" + d.where.text() + "): Define " + d.name + ": attribute \"" +
                                  d.param + "\": " + e.message());
      }
    } else {
      if (!d.param.empty() && d.default_value.empty())
        throw Error(ErrorId::AttributeValue, "custom layer \"" + layer.name + "\" (" + d.where.text() + "): Define " + d.name +
                                            " takes the op attribute \"" + d.param + "\", which the node does not have, and has no default");
      value = d.default_value;
    }
    const bool array = d.type == "int[]" || d.type == "float[]";
    out += "#define " + d.name + " " + (array ? "(" + d.type + ") {" + value + "}" : value) + "\n";
  }
  return out;
}

}  // namespace nnbridge::config::openvino_custom
