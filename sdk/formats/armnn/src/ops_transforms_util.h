// Helpers of the mapping table's transforms (ops_transforms.cc, ops_transforms_nd.cc): typed
// reads of fields and attributes, the Arm NN DataLayout names. Internal to the Arm NN format.
#pragma once

#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "ops.h"

namespace nnbridge::formats::armnn::transforms::detail {

using Ints = std::vector<int64_t>;

inline int64_t I(const FieldMap& f, const reflection::Object& o, const char* p) { return get_int(f, o, p); }
inline double F(const FieldMap& f, const reflection::Object& o, const char* p) { return get_float(f, o, p); }

inline const Attr* A(const AttrMap& a, const char* name) {
  auto it = a.find(name);
  return it == a.end() ? nullptr : &it->second;
}
// The *_from transforms receive the node's attributes completed with the core op registry's
// defaults (from_canonical), so the registry is the one source of default values; an
// attribute still missing here is a required one the node lacks.
inline const Attr& need(const AttrMap& a, const char* name) {
  const Attr* x = A(a, name);
  if (!x) throw Error(ErrorId::AttributeValue, std::string("attribute ") + name + " is missing and has no default");
  return *x;
}
inline int64_t ai(const AttrMap& a, const char* name) {
  const Attr& x = need(a, name);
  if (x.is<int64_t>()) return x.get<int64_t>();
  if (x.is<bool>()) return x.get<bool>() ? 1 : 0;
  throw Error(ErrorId::AttributeValue, std::string("attribute ") + name + " needs an integer");
}
inline double af(const AttrMap& a, const char* name) {
  const Attr& x = need(a, name);
  if (x.is<double>()) return x.get<double>();
  if (x.is<int64_t>()) return double(x.get<int64_t>());
  throw Error(ErrorId::AttributeValue, std::string("attribute ") + name + " needs a number");
}
// Lists whose ONNX default depends on the rank (pads, strides, ...) have no registry default:
// absent reads as empty and the caller applies the rank rule.
inline Ints aints(const AttrMap& a, const char* name) {
  const Attr* x = A(a, name);
  return x && x->is<Ints>() ? x->get<Ints>() : Ints{};
}
inline std::string astr(const AttrMap& a, const char* name) {
  const Attr& x = need(a, name);
  if (!x.is<std::string>()) throw Error(ErrorId::AttributeValue, std::string("attribute ") + name + " needs a string");
  return x.get<std::string>();
}
[[noreturn]] inline void unsupported(const std::string& msg) { throw Error(ErrorId::NoForm, msg); }

// Arm NN DataLayout enum: NHWC = 0, NCHW = 1, NDHWC = 2, NCDHW = 3.
inline const char* layout_name(int64_t v) {
  switch (v) {
    case 0: return "NHWC";
    case 1: return "NCHW";
    case 2: return "NDHWC";
    case 3: return "NCDHW";
    default: return nullptr;
  }
}
inline int64_t layout_value(const std::string& s) {
  if (s == "NHWC") return 0;
  if (s == "NCHW") return 1;
  if (s == "NDHWC") return 2;
  if (s == "NCDHW") return 3;
  unsupported("Arm NN has no data layout " + s);
}
inline float f32(double v) { return static_cast<float>(v); }
/// The node has a bias input (input 2) that is present.
inline bool has_bias(const MapContext& c) { return c.inputs.size() >= 3 && c.inputs[2].dtype != DataType::Undefined; }

}  // namespace nnbridge::formats::armnn::transforms::detail
