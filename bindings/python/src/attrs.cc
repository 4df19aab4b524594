// Attributes (nnbridge::Attr) <-> Python values: int, float, bool, str, bytes and lists of the
// first four. An empty list becomes an Ints attribute (the JSON form's rule for empty lists
// needs a type; ints is the ONNX default for shape-like attributes).
#include "common.h"

namespace nnbridge::py_bind {

namespace {

enum class Kind { Bool, Int, Float, String, Other };

Kind kind_of(py::handle h) {
  static py::object np_bool = py::module_::import("numpy").attr("bool_");
  static py::object np_integer = py::module_::import("numpy").attr("integer");
  static py::object np_floating = py::module_::import("numpy").attr("floating");
  if (py::isinstance<py::bool_>(h) || py::isinstance(h, np_bool)) return Kind::Bool;
  if (py::isinstance<py::int_>(h) || py::isinstance(h, np_integer)) return Kind::Int;
  if (py::isinstance<py::float_>(h) || py::isinstance(h, np_floating)) return Kind::Float;
  if (py::isinstance<py::str>(h)) return Kind::String;
  return Kind::Other;
}

}  // namespace

py::object attr_to_py(const Attr& a) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Bytes>) {
          return py::bytes(reinterpret_cast<const char*>(v.data.data()), v.data.size());
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          py::list l;
          for (bool b : v) l.append(py::bool_(b));
          return l;
        } else {
          return py::cast(v);
        }
      },
      a.value);
}

Attr attr_from_py(py::handle h, const std::string& name) {
  if (py::isinstance<py::bytes>(h) || py::isinstance<py::bytearray>(h)) {
    std::string s = py::isinstance<py::bytes>(h) ? h.cast<std::string>() : std::string(py::bytes(h.cast<py::bytearray>()));
    Bytes b;
    b.data.assign(reinterpret_cast<const uint8_t*>(s.data()), reinterpret_cast<const uint8_t*>(s.data()) + s.size());
    return b;
  }
  switch (kind_of(h)) {
    case Kind::Bool: return Attr(h.cast<bool>());
    case Kind::Int: return Attr(h.cast<int64_t>());
    case Kind::Float: return Attr(h.cast<double>());
    case Kind::String: return Attr(h.cast<std::string>());
    case Kind::Other: break;
  }
  if (py::isinstance<py::sequence>(h) || py::isinstance<py::array>(h)) {
    py::list items = py::module_::import("builtins").attr("list")(h);
    if (items.empty()) return Attr(std::vector<int64_t>{});
    // The list's type is the widest of its elements: bools only, ints (and bools), numbers, strings.
    bool all_bool = true, all_int = true, all_num = true, all_str = true;
    for (auto item : items) {
      Kind k = kind_of(item);
      all_bool = all_bool && k == Kind::Bool;
      all_int = all_int && (k == Kind::Int || k == Kind::Bool);
      all_num = all_num && k != Kind::String && k != Kind::Other;
      all_str = all_str && k == Kind::String;
    }
    if (all_bool) return Attr(items.cast<std::vector<bool>>());
    if (all_int) return Attr(items.cast<std::vector<int64_t>>());
    if (all_num) return Attr(items.cast<std::vector<double>>());
    if (all_str) return Attr(items.cast<std::vector<std::string>>());
  }
  throw py::type_error("attribute \"" + name + "\": " + std::string(py::str(py::type::of(h))) +
                       " is not an attribute type (int, float, bool, str, bytes, or a list of int, float, bool or str)");
}

py::dict attrs_to_py(const AttrMap& attrs) {
  py::dict d;
  for (const auto& [k, v] : attrs) d[py::str(k)] = attr_to_py(v);
  return d;
}

AttrMap attrs_from_py(const py::handle& obj) {
  AttrMap out;
  if (obj.is_none()) return out;
  if (py::isinstance<AttrsView>(obj)) return obj.cast<const AttrsView&>().get();
  // A dict, or any mapping / iterable of pairs (dict() of it); TypeError otherwise.
  py::dict d = py::isinstance<py::dict>(obj) ? py::reinterpret_borrow<py::dict>(obj) : py::dict(py::reinterpret_borrow<py::object>(obj));
  for (auto item : d) {
    std::string key = py::str(item.first);
    out[key] = attr_from_py(item.second, key);
  }
  return out;
}

std::map<std::string, std::string, std::less<>> options_from_kwargs(const py::dict& kw, const std::string& format) {
  std::map<std::string, std::string, std::less<>> out;
  for (auto item : kw) {
    std::string key = py::str(item.first);
    if (key.find('.') == std::string::npos) {
      if (format.empty()) throw Error(ErrorId::UnknownOption, "option \"" + key + "\": no format to namespace it by (name the format)");
      key = format + "." + key;
    }
    py::handle v = item.second;
    std::string value;
    if (py::isinstance<py::bool_>(v)) value = v.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::str>(v) || py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)) value = py::str(v);
    else if (py::hasattr(v, "__fspath__")) value = py::str(py::module_::import("os").attr("fspath")(v));
    else throw py::type_error("option \"" + key + "\": a str, int, float or bool, not " + std::string(py::str(py::type::of(v))));
    out[key] = value;
  }
  return out;
}

}  // namespace nnbridge::py_bind
