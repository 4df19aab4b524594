// nnbridge::Error -> the Python exception class of its code (nnbridge/exceptions.py), so the
// same text reaches C++, Python and the CLI (docs/architecture.md "Errors").
#include "common.h"

namespace nnbridge::py_bind {

namespace {

const char* class_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "IoError";
    case ErrorCode::Malformed: return "MalformedError";
    case ErrorCode::Unsupported: return "UnsupportedError";
    case ErrorCode::Invalid: return "InvalidError";
    case ErrorCode::Backend: return "BackendError";
  }
  return "Error";
}

void raise(const Error& e) {
  // Imported when first needed: the package imports this module from its __init__.
  py::object module = py::module_::import("nnbridge.exceptions");
  py::object cls = module.attr(class_name(e.code()));
  py::object none = py::none();
  py::object exc = cls(py::str(e.what()), py::arg("code") = to_string(e.code()), py::arg("id") = to_string(e.id()),
                       py::arg("path") = e.file().empty() ? none : py::str(e.file()),
                       py::arg("where") = e.where().empty() ? none : py::str(e.where()),
                       py::arg("detail") = py::str(e.message()));
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      try {
        raise(e);
      } catch (py::error_already_set& inner) {
        inner.restore();  // the exceptions module itself failed: report that instead
      }
    }
  });
  m.def("_error_codes", [] {
    py::list codes;
    for (ErrorCode c : {ErrorCode::Io, ErrorCode::Malformed, ErrorCode::Unsupported, ErrorCode::Invalid, ErrorCode::Backend})
      codes.append(py::make_tuple(to_string(c), class_name(c)));
    return codes;
  }, "The C++ error codes as (code name, Python class name) pairs, in nnbridge::ErrorCode order.");
  m.def("_raise_error", [](const std::string& code, const std::string& message, const std::string& file, const std::string& where,
                           int id) {
    for (ErrorCode c : {ErrorCode::Io, ErrorCode::Malformed, ErrorCode::Unsupported, ErrorCode::Invalid, ErrorCode::Backend}) {
      if (code != to_string(c)) continue;
      if (id == 0) throw Error(c, message, file, where);
      if (id < 100 || id > 599 || code_of(static_cast<ErrorId>(id)) != c)
        throw py::value_error("identifier " + std::to_string(id) + " is not one of code '" + code + "'");
      throw Error(static_cast<ErrorId>(id), message, file, where);
    }
    throw py::value_error("no error code named '" + code + "'");
  }, py::arg("code"), py::arg("message"), py::arg("file") = "", py::arg("where") = "", py::arg("id") = 0,
     "Throws nnbridge::Error(code or id, message, file, where) in C++ (tests the translation of every code).");
}

}  // namespace nnbridge::py_bind
