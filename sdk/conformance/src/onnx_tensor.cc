// ONNX TensorProto files (test_data_set_<k>/input_<i>.pb) as host tensors.
//
// Storage rules from onnx/onnx.proto: raw_data holds fixed-width little-endian elements (bool one
// byte each); otherwise float_data (FLOAT), int32_data (INT32, INT16, INT8, UINT8, BOOL, and the
// bits of FLOAT16 / BFLOAT16), int64_data (INT64), double_data (DOUBLE).
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/onnx.h"
#include "onnx/onnx_pb.h"

namespace nnbridge::conformance {

namespace {

using onnx::TensorProto;

[[noreturn]] void fail(ErrorId id, const std::string& msg, const std::string& file, const std::string& where = {}) {
  throw Error(id, msg, file, where);
}

DataType dtype_of(int32_t t, const std::string& file) {
  if (auto d = formats::onnx::dtype_from_onnx(t); d && *d != DataType::Undefined) return *d;
  const std::string name = TensorProto::DataType_IsValid(t) ? TensorProto::DataType_Name(TensorProto::DataType(t))
                                                             : std::to_string(t);
  fail(ErrorId::DataType, "data_type " + name + " has no nnbridge dtype", file, "data_type");
}

template <class Dst, class Src>
std::vector<std::byte> narrow(const Src& field) {
  std::vector<std::byte> out(static_cast<std::size_t>(field.size()) * sizeof(Dst));
  for (int i = 0; i < field.size(); ++i) {
    Dst v = static_cast<Dst>(field.Get(i));
    std::memcpy(out.data() + static_cast<std::size_t>(i) * sizeof(Dst), &v, sizeof(Dst));
  }
  return out;
}

}  // namespace

HostTensor read_tensor_proto(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorId::IoOpen, "cannot open", file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  TensorProto t;
  if (!t.ParseFromString(bytes)) fail(ErrorId::VerifyFailed, "not an ONNX TensorProto (protobuf cannot parse it)", file);
  if (t.data_location() == TensorProto::EXTERNAL || t.external_data_size() > 0)
    fail(ErrorId::Feature, "external data is not supported", file, "external_data");
  if (t.has_segment()) fail(ErrorId::Feature, "segmented tensors are not supported", file, "segment");
  TensorType type;
  type.dtype = dtype_of(t.data_type(), file);
  uint64_t count = 1;
  for (int i = 0; i < t.dims_size(); ++i) {
    const int64_t d = t.dims(i);
    if (d < 0 || (d > 0 && count > std::numeric_limits<uint64_t>::max() / uint64_t(d)))
      fail(ErrorId::BadEncoding, "dimension " + std::to_string(d) + " is negative or overflows", file,
           "dims[" + std::to_string(i) + "]");
    count *= uint64_t(d);
    type.shape.push_back(d);
  }
  const std::size_t esize = element_size(type.dtype);
  std::vector<std::byte> data;
  if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    const auto* first = reinterpret_cast<const std::byte*>(raw.data());
    data.assign(first, first + raw.size());  // no memcpy into an empty vector's null data()
  } else {
    switch (type.dtype) {
      case DataType::Float32: data = narrow<float>(t.float_data()); break;
      case DataType::Float64: data = narrow<double>(t.double_data()); break;
      case DataType::Int64: data = narrow<int64_t>(t.int64_data()); break;
      case DataType::Int32: data = narrow<int32_t>(t.int32_data()); break;
      case DataType::Int16: data = narrow<int16_t>(t.int32_data()); break;
      case DataType::Int8: data = narrow<int8_t>(t.int32_data()); break;
      case DataType::UInt8:
      case DataType::Bool: data = narrow<uint8_t>(t.int32_data()); break;
      case DataType::Float16:
      case DataType::BFloat16:
      case DataType::UInt16: data = narrow<uint16_t>(t.int32_data()); break;
      case DataType::UInt32: data = narrow<uint32_t>(t.uint64_data()); break;
      case DataType::UInt64: data = narrow<uint64_t>(t.uint64_data()); break;
      default: break;
    }
  }
  if (count > data.size() / (esize ? esize : 1) || data.size() != count * esize)
    fail(ErrorId::Truncated,
         "holds " + std::to_string(data.size()) + " bytes of data, the dims need " + std::to_string(count) + " elements of " +
             std::to_string(esize) + " bytes",
         file, t.has_raw_data() ? "raw_data" : "data");
  return HostTensor::owned(std::move(type), std::move(data));
}

}  // namespace nnbridge::conformance
