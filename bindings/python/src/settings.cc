// nnbridge._nnbridge._settings: TFLite acceleration settings (nnbridge/config/tflite_accel.h)
// in its five forms; the Python module nnbridge.settings re-exports it.
#include "common.h"
#ifdef NNBRIDGE_PY_HAVE_TFLITE_ACCEL
#include "nnbridge/config/tflite_accel.h"
#endif

namespace nnbridge::py_bind {

#ifdef NNBRIDGE_PY_HAVE_TFLITE_ACCEL
namespace {

namespace ta = nnbridge::config::tflite_accel;

std::optional<ta::Form> form_arg(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  if (auto f = ta::form_from_name(*name)) return f;
  throw Error(ErrorId::UnknownFormat, "\"" + *name + "\" is not a settings form (proto-binary, proto-text, proto-json, fb, fb-json)");
}

ta::Form required_form(const std::string& name) { return *form_arg(name); }

std::filesystem::path fspath(py::handle h) {
  return py::module_::import("os").attr("fspath")(h).cast<std::filesystem::path>();
}

// max_size=, max_depth=, max_tables= as the reader options settings.max_* (ta::reader_limits).
VerifierLimits limits_from_kwargs(const py::kwargs& kw) {
  std::map<std::string, std::string, std::less<>> options;
  for (auto item : kw) options["settings." + std::string(py::str(item.first))] = std::string(py::str(item.second));
  return ta::reader_limits(options);
}

}  // namespace

void bind_settings(py::module_& parent) {
  py::module_ m = parent.def_submodule("_settings", "TFLite acceleration settings (see nnbridge.settings).");
  m.def("forms", [] {
    return std::vector<std::string>{"proto-binary", "proto-text", "proto-json", "fb", "fb-json"};
  }, "The five form names.");
  m.def("form_from_path", [](py::handle p) -> std::optional<std::string> {
    auto f = ta::form_from_path(fspath(p));
    return f ? std::optional<std::string>(std::string(ta::to_string(*f))) : std::nullopt;
  }, py::arg("path"), "The form a file name stands for (.pb, .txtpb, .pb.json, .fb, .json, ...), or None.");
  m.def("message_names", &ta::message_names, "Every message of configuration.proto, nested ones with a dot.");

  py::class_<ta::Settings>(m, "Settings", R"doc(
One configuration.proto message (the root of a settings document), e.g. TFLiteSettings or
ComputeSettings. Conversion between forms keeps every field and its presence
(nnbridge/config/tflite_accel.h states the rules and the one default that differs between forms).
)doc")
      .def(py::init<std::string_view>(), py::arg("message") = "TFLiteSettings",
           "An empty message. Raises UnsupportedError when configuration.proto has no such message.")
      .def_property_readonly("message_name", &ta::Settings::message_name, "str: the root message, e.g. \"TFLiteSettings\".")
      .def_property_readonly("warnings", &ta::Settings::warnings, "list[Issue]: what reading found worth saying without failing.")
      .def("check", &ta::Settings::check, "list[Issue]: values TFLite rejects (errors) or reads unexpectedly (warnings); never raises.")
      .def("serialize", [](const ta::Settings& s, const std::string& form) {
        std::string b = s.serialize(required_form(form));
        return py::bytes(b);
      }, py::arg("form"), "The settings' bytes in ``form``. Raises UnsupportedError naming a field the form cannot express.")
      .def("save", [](const ta::Settings& s, py::handle path, const std::optional<std::string>& form) {
        ta::SaveOptions o;
        o.form = form_arg(form);
        s.save(fspath(path), o);
      }, py::arg("path"), py::arg("form") = py::none(),
         "Writes ``path`` atomically in ``form``, else the extension's form. Raises UnsupportedError, IoError.")
      .def("debug_text", &ta::Settings::debug_text, "Protobuf text for people (unknown fields by number).")
      .def("__eq__", [](const ta::Settings& a, const ta::Settings& b) { return a == b; })
      .def("__repr__", [](const ta::Settings& s) { return "<nnbridge.settings.Settings " + s.message_name() + ">"; });

  m.def("load", [](py::handle path, const std::optional<std::string>& form, const std::string& message,
                   const py::kwargs& kw) {
    ta::LoadOptions o;
    o.form = form_arg(form);
    o.message = message;
    o.limits = limits_from_kwargs(kw);
    return ta::Settings::load(fspath(path), o);
  }, py::arg("path"), py::arg("form") = py::none(), py::arg("message") = "TFLiteSettings", R"doc(
Reads a settings file in ``form``, else the form of its extension; ``message`` is the root
message. Keywords ``max_size`` (bytes), ``max_depth`` (nesting) and ``max_tables`` (FlatBuffer
tables) bound untrusted input (defaults: 2**31 - 1, 64, 100000000). Raises IoError (over
max_size: nnbridge.io.106), UnsupportedError (form not told, no such message; an unknown keyword:
nnbridge.unsupported.305), MalformedError (naming the file and the line:column or field path;
nested deeper than max_depth), InvalidError (a limit below 1).
)doc");
  m.def("parse", [](py::handle data, const std::string& form, const std::string& message, const py::kwargs& kw) {
    std::string bytes = py::isinstance<py::str>(data) ? data.cast<std::string>() : std::string(py::bytes(py::reinterpret_borrow<py::object>(data)));
    return ta::Settings::parse(std::string_view(bytes), required_form(form), message, {}, limits_from_kwargs(kw));
  }, py::arg("data"), py::arg("form"), py::arg("message") = "TFLiteSettings",
     "Reads settings from bytes or str in ``form``; keywords as load(). Raises as load().");
}
#else
void bind_settings(py::module_&) {}
#endif

}  // namespace nnbridge::py_bind
