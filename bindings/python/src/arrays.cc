// NumPy <-> nnbridge tensors without copies where the memory layout allows: constants and
// outputs are read-only arrays whose base is an nnbridge.Buffer (sharing the C++ Buffer's
// owner: the mapped file, the caller's bytes, the backend's result); inputs are viewed in place
// when they are C-contiguous, aligned and of the storage dtype, else copied once; an array of
// another dtype is refused unless the caller asks for a cast (then numpy.asarray with the dtype:
// NumPy's unsafe "forcecast" casting).
#include <sstream>

#include "common.h"

namespace nnbridge::py_bind {

namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  o << "]";
  return o.str();
}

}  // namespace

py::dtype numpy_dtype(DataType t) {
  switch (storage_type(t)) {
    case DataType::Float32: return py::dtype("float32");
    case DataType::Float16: return py::dtype("float16");
    case DataType::BFloat16: return py::dtype("uint16");
    case DataType::Float64: return py::dtype("float64");
    case DataType::Int8: return py::dtype("int8");
    case DataType::Int16: return py::dtype("int16");
    case DataType::Int32: return py::dtype("int32");
    case DataType::Int64: return py::dtype("int64");
    case DataType::UInt8: return py::dtype("uint8");
    case DataType::UInt16: return py::dtype("uint16");
    case DataType::UInt32: return py::dtype("uint32");
    case DataType::UInt64: return py::dtype("uint64");
    case DataType::Bool: return py::dtype("bool");
    default: break;
  }
  throw Error(ErrorId::DataType, "dtype " + std::string(to_string(t)) + " has no NumPy equivalent");
}

std::shared_ptr<const void> keep_alive(py::object obj) {
  return std::shared_ptr<const void>(new py::object(std::move(obj)), [](const void* p) {
    py::gil_scoped_acquire gil;
    delete static_cast<const py::object*>(p);
  });
}

py::array array_view(const Buffer& data, DataType dtype, const std::vector<int64_t>& shape, const std::string& what) {
  py::dtype dt = numpy_dtype(dtype);
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) throw Error(ErrorId::Shape, what + ": shape " + shape_str(shape) + " is not fully known");
    count *= d;
  }
  if (static_cast<std::size_t>(count) * static_cast<std::size_t>(dt.itemsize()) != data.size())
    throw Error(ErrorId::Shape, what + ": " + std::to_string(data.size()) + " bytes do not hold " + std::string(to_string(dtype)) +
                                        " " + shape_str(shape));
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  py::object base = py::cast(data);  // an nnbridge.Buffer sharing the bytes' owner
  // An empty buffer may have no address; NumPy wants one for a view.
  static const std::byte empty_byte{};
  const void* ptr = data.empty() ? &empty_byte : data.data();
  py::array a(dt, dims, {}, ptr, base);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array as_storage_array(py::handle obj_in, DataType dtype, const std::string& what, bool cast) {
  py::module_ np = py::module_::import("numpy");
  py::object obj = py::reinterpret_borrow<py::object>(obj_in);  // owns what it is reassigned to below
  py::dtype dt = numpy_dtype(dtype);
  if (!cast) {
    // No conversion asked for: the array's own dtype (a list's as NumPy infers it) must be the
    // storage dtype, as a .npy file's must on the command line.
    py::object own;
    try {
      own = np.attr("asarray")(obj);
    } catch (py::error_already_set& e) {
      throw Error(ErrorId::OptionValue, what + ": not an array: " + e.what());
    }
    py::dtype have = own.attr("dtype").cast<py::dtype>();
    if (!have.equal(dt))
      throw Error(ErrorId::TypeMismatch, what + " is " + std::string(to_string(dtype)) + " (numpy " + py::str(dt).cast<std::string>() +
                                          "), the array is " + py::str(have).cast<std::string>() +
                                          ": pass an array of that dtype, or cast=True to convert it (numpy astype, unsafe casting)");
    obj = own;
  }
  py::object arr;
  // A cast converts the array NumPy makes of `obj` (numpy.asarray, then as astype), so that a
  // list converts as the documented astype rule says (300 -> 44 in uint8), not by Python-int rules.
  if (cast) {
    try {
      obj = np.attr("asarray")(obj);
    } catch (py::error_already_set&) {
      // left to the conversion below, which names `what`
    }
  }
  try {
    arr = np.attr("asarray")(obj, py::arg("dtype") = dt, py::arg("order") = "C");
  } catch (py::error_already_set& e) {
    throw Error(ErrorId::TypeMismatch, what + ": cannot be converted to " + std::string(to_string(storage_type(dtype))) + ": " +
                                        e.what());
  }
  py::array a = arr.cast<py::array>();
  if (!(a.flags() & py::array::c_style) || !(py::detail::array_proxy(a.ptr())->flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_))
    a = np.attr("array")(a, py::arg("dtype") = dt, py::arg("order") = "C", py::arg("copy") = true).cast<py::array>();
  return a;
}

HostTensor tensor_view(const py::array& arr, const TensorType& type, const std::string& what) {
  TensorType t = type;
  std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim());
  bool fits = type.unknown_rank || type.shape.size() == shape.size();
  for (std::size_t i = 0; fits && !type.unknown_rank && i < shape.size(); ++i)
    fits = type.shape[i] < 0 || type.shape[i] == shape[i];
  if (!fits)
    throw Error(ErrorId::Shape, what + " needs shape " + shape_str(type.shape) + " (-1: any size), got " + shape_str(shape));
  t.shape = shape;
  t.unknown_rank = false;
  auto bytes = std::span<const std::byte>(static_cast<const std::byte*>(arr.data()), static_cast<std::size_t>(arr.nbytes()));
  return HostTensor::view(std::move(t), bytes, keep_alive(arr));
}

TensorMap tensors_from_dict(const py::dict& d, const std::vector<std::pair<std::string, TensorType>>& types, const char* what,
                            bool cast) {
  std::string names;
  for (const auto& [n, t] : types) names += (names.empty() ? "" : ", ") + n;
  for (auto item : d) {
    if (!py::isinstance<py::str>(item.first)) throw py::type_error(std::string(what) + " are keyed by name (str)");
    std::string key = item.first.cast<std::string>();
    bool known = false;
    for (const auto& [n, t] : types) known = known || n == key;
    if (!known) throw Error(ErrorId::MissingInput, "\"" + key + "\" is not a graph " + std::string(what) + " (" + what + ": " + names + ")");
  }
  TensorMap out;
  for (const auto& [name, type] : types) {
    const std::string label = "graph " + std::string(what) + " \"" + name + "\"";
    if (!d.contains(name)) throw Error(ErrorId::MissingInput, "missing " + label + " (" + std::string(to_string(type.dtype)) + " " +
                                                           shape_str(type.shape) + ")");
    py::array a = as_storage_array(d[py::str(name)], type.dtype, label, cast);
    out.emplace(name, tensor_view(a, type, label));
  }
  return out;
}

py::dict tensors_to_dict(const TensorMap& tensors) {
  py::dict d;
  for (const auto& [name, t] : tensors) d[py::str(name)] = array_view(t.buffer(), t.dtype(), t.shape(), "output \"" + name + "\"");
  return d;
}

void bind_arrays(py::module_& m) {
  py::class_<Buffer>(m, "Buffer", py::buffer_protocol(), R"doc(
Immutable bytes shared with the C++ SDK (nnbridge::Buffer): a constant's data, a backend's output.

Supports the buffer protocol (read-only, format 'B', one dimension), so ``memoryview(buf)`` and
``numpy.frombuffer(buf, dtype)`` view the bytes without copying. The bytes stay alive (a
memory-mapped model file stays mapped) while this object or any array based on it lives.
)doc")
      .def_buffer([](const Buffer& b) {
        static const std::byte empty_byte{};
        return py::buffer_info(const_cast<std::byte*>(b.empty() ? &empty_byte : b.data()), 1, "B", 1,
                               {static_cast<py::ssize_t>(b.size())}, {1}, /*readonly=*/true);
      })
      .def("__len__", &Buffer::size)
      .def_property_readonly("is_view", &Buffer::is_view,
                             "True when the bytes belong to another owner (e.g. a memory-mapped model file).")
      .def("tobytes", [](const Buffer& b) { return py::bytes(reinterpret_cast<const char*>(b.data()), b.size()); },
           "A copy of the bytes.")
      .def("__repr__", [](const Buffer& b) {
        return "<nnbridge.Buffer " + std::to_string(b.size()) + " bytes" + (b.is_view() ? ", view" : "") + ">";
      });
}

}  // namespace nnbridge::py_bind
