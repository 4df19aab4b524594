// .npy reading and writing. Expected bytes come from NumPy itself (files under
// ../shared/samples written by numpy.save) and from the format description in
// numpy/lib/format.py (hand-built headers below).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "nnbridge/error.h"
#include "nnbridge/npy.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

// A .npy file by hand: magic, version, header length (2 or 4 bytes), header, data.
std::vector<std::byte> make_npy(int major, const std::string& header, const std::vector<uint8_t>& data) {
  std::string s = "\x93NUMPY";
  s += static_cast<char>(major);
  s += '\0';
  const std::size_t n = header.size();
  s += static_cast<char>(n & 0xff);
  s += static_cast<char>((n >> 8) & 0xff);
  if (major >= 2) {
    s += static_cast<char>((n >> 16) & 0xff);
    s += static_cast<char>((n >> 24) & 0xff);
  }
  s += header;
  s.append(reinterpret_cast<const char*>(data.data()), data.size());
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

std::vector<uint8_t> f32_bytes(std::initializer_list<float> v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}

// The identifier of the error parse_npy throws, which must name the file.
ErrorId id_of(const std::vector<std::byte>& bytes) {
  try {
    parse_npy(bytes, "t.npy");
  } catch (const Error& e) {
    CHECK(e.file() == "t.npy");
    return e.id();
  }
  FAIL("no error");
  return ErrorId::IoOther;
}

}  // namespace

TEST_CASE("npy: versions 1, 2 and 3 read the same array") {
  const std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }\n";
  for (int v : {1, 2, 3}) {
    CAPTURE(v);
    HostTensor t = parse_npy(make_npy(v, h, f32_bytes({1.5f, -2.0f})));
    CHECK(t.dtype() == DataType::Float32);
    CHECK(t.shape() == std::vector<int64_t>{2, 1});
    auto vals = t.values<float>();
    REQUIRE(vals.size() == 2);
    CHECK(vals[0] == 1.5f);
    CHECK(vals[1] == -2.0f);
  }
}

TEST_CASE("npy: dtypes map to nnbridge dtypes, 0-d and 1-d shapes") {
  struct C {
    const char* descr;
    DataType dtype;
  };
  for (C c : {C{"<f2", DataType::Float16}, C{"<f8", DataType::Float64}, C{"|i1", DataType::Int8},
              C{"<i2", DataType::Int16}, C{"<i4", DataType::Int32}, C{"<i8", DataType::Int64},
              C{"|u1", DataType::UInt8}, C{"<u2", DataType::UInt16}, C{"<u4", DataType::UInt32},
              C{"<u8", DataType::UInt64}, C{"|b1", DataType::Bool}}) {
    CAPTURE(c.descr);
    std::string h = std::string("{'descr': '") + c.descr + "', 'fortran_order': False, 'shape': (3,), }\n";
    std::vector<uint8_t> data(3 * element_size(c.dtype), 0);
    HostTensor t = parse_npy(make_npy(1, h, data));
    CHECK(t.dtype() == c.dtype);
    CHECK(t.shape() == std::vector<int64_t>{3});
  }
  HostTensor scalar = parse_npy(make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", f32_bytes({7.0f})));
  CHECK(scalar.shape().empty());
  CHECK(scalar.values<float>()[0] == 7.0f);
}

TEST_CASE("npy: write then read gives the same tensor, with numpy's header layout") {
  TensorType type{DataType::Float32, {2, 3, 4}, false, std::nullopt};
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = static_cast<float>(i) * 0.25f - 1.0f;
  HostTensor t = HostTensor::from_values<float>(type, v);
  std::vector<std::byte> bytes = encode_npy(t);
  // numpy.save: version 1.0, data offset a multiple of 64, header ends with '\n'.
  CHECK(static_cast<int>(bytes[6]) == 1);
  const std::size_t hl = static_cast<std::size_t>(bytes[8]) | (static_cast<std::size_t>(bytes[9]) << 8);
  CHECK((10 + hl) % 64 == 0);
  CHECK(static_cast<char>(bytes[10 + hl - 1]) == '\n');
  const std::string header(reinterpret_cast<const char*>(bytes.data()) + 10, hl);
  CHECK(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 0) == 0);

  const fs::path p = test::temp_dir() / "t.npy";
  write_npy(p, t);
  HostTensor back = read_npy(p);
  CHECK(back.type() == type);
  CHECK(back.buffer() == t.buffer());
  CHECK(back.buffer().is_view());  // read without copying the data

  // Any int64 dim reads back, INT64_MAX too (an empty tensor: one dim is 0); one past it is refused.
  const int64_t big = std::numeric_limits<int64_t>::max();
  HostTensor wide = HostTensor::owned(TensorType{DataType::Float32, {0, big}, false, std::nullopt}, {});
  HostTensor wide_back = parse_npy(encode_npy(wide));
  CHECK(wide_back.type() == wide.type());
  std::vector<std::byte> over = encode_npy(wide);
  std::string text(reinterpret_cast<const char*>(over.data()), over.size());
  const std::size_t at = text.find("9223372036854775807");
  REQUIRE(at != std::string::npos);
  text[at + 18] = '8';  // 9223372036854775808 = INT64_MAX + 1
  CHECK_THROWS_AS(parse_npy(std::as_bytes(std::span<const char>(text.data(), text.size()))), Error);

  // A 1-d shape is written as "(n,)", as Python prints a 1-tuple.
  HostTensor one = HostTensor::from_values<float>(TensorType{DataType::Float32, {2}, false, std::nullopt}, std::vector<float>{1, 2});
  auto b1 = encode_npy(one);
  CHECK(std::string(reinterpret_cast<const char*>(b1.data()) + 10, 60).find("'shape': (2,), }") != std::string::npos);
}

TEST_CASE("npy: encoding a numpy-written file gives numpy's bytes back") {
  auto root = test::shared_sample("armnn/add_softmax/inputs/a.npy");
  NNBRIDGE_REQUIRE_SHARED(root);
  std::ifstream f(*root, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  HostTensor t = read_npy(*root);
  std::vector<std::byte> mine = encode_npy(t);
  REQUIRE(mine.size() == raw.size());
  CHECK(std::memcmp(mine.data(), raw.data(), raw.size()) == 0);
}

TEST_CASE("npy: quantized tensors are written as their storage type") {
  TensorType q{DataType::QAsymmU8, {2}, false, Quantization{{0.5}, {3}, std::nullopt}};
  HostTensor t = HostTensor::from_values<uint8_t>(q, std::vector<uint8_t>{4, 250});
  HostTensor back = parse_npy(encode_npy(t));
  CHECK(back.dtype() == DataType::UInt8);
  CHECK(back.values<uint8_t>()[1] == 250);
}

TEST_CASE("npy: malformed and unsupported files are errors naming the file") {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  auto good = make_npy(1, ok, f32_bytes({1, 2}));
  CHECK_NOTHROW(parse_npy(good, "t.npy"));

  auto bad_magic = good;
  bad_magic[1] = std::byte{'X'};
  CHECK(id_of(bad_magic) == ErrorId::BadIdentifier);
  CHECK(id_of(std::vector<std::byte>(good.begin(), good.begin() + 8)) == ErrorId::BadIdentifier);  // under the 10-byte preamble
  // Header length past the end of the file.
  auto long_header = good;
  long_header[9] = std::byte{0x7f};
  CHECK(id_of(long_header) == ErrorId::Truncated);
  // Truncated data and trailing bytes.
  CHECK(id_of(std::vector<std::byte>(good.begin(), good.end() - 1)) == ErrorId::Truncated);
  CHECK(id_of(make_npy(1, ok, f32_bytes({1, 2, 3}))) == ErrorId::MalformedOther);
  CHECK(id_of(make_npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\n", f32_bytes({1, 2}))) ==
        ErrorId::Feature);
  CHECK(id_of(make_npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", f32_bytes({1, 2}))) ==
        ErrorId::DataType);
  CHECK(id_of(make_npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n", f32_bytes({1, 2}))) ==
        ErrorId::DataType);
  CHECK(id_of(make_npy(1, "{'descr': '<f4', 'shape': (2,), }\n", f32_bytes({1, 2}))) == ErrorId::Syntax);
  CHECK(id_of(make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }\n", f32_bytes({1, 2}))) ==
        ErrorId::Syntax);
  // 2^62 * 4 elements overflow the element count.
  CHECK(id_of(make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }\n",
                       f32_bytes({1, 2}))) == ErrorId::BadEncoding);
  CHECK(id_of(make_npy(9, ok, f32_bytes({1, 2}))) == ErrorId::Version);
  try {
    read_npy(test::temp_dir() / "missing.npy");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoOpen);
    CHECK(e.file().find("missing.npy") != std::string::npos);
  }
}
