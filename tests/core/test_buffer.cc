#include <doctest/doctest.h>

#include <cstring>
#include <fstream>

#include "nnbridge/buffer.h"
#include "nnbridge/error.h"
#include "support/paths.h"

using namespace nnbridge;

namespace {
std::vector<std::byte> bytes_of(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int x : v) out.push_back(std::byte(x));
  return out;
}
void write(const std::filesystem::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }
}  // namespace

TEST_CASE("Buffer: owned, copy_of, equality and slices share memory") {
  auto v = bytes_of({1, 2, 3, 4, 5});
  Buffer a = Buffer::copy_of(v);
  CHECK(a.size() == 5);
  CHECK(a.data() != v.data());
  CHECK_FALSE(a.is_view());
  Buffer b = Buffer::owned(bytes_of({1, 2, 3, 4, 5}));
  CHECK(a == b);
  CHECK_FALSE(a == Buffer::owned(bytes_of({1, 2, 3, 4, 6})));
  CHECK_FALSE(a == Buffer::owned(bytes_of({1, 2, 3, 4})));
  CHECK(Buffer() == Buffer::owned({}));

  Buffer s = a.slice(1, 3);
  CHECK(s.size() == 3);
  CHECK(s.data() == a.data() + 1);
  CHECK(s == Buffer::owned(bytes_of({2, 3, 4})));
  CHECK(a.slice(5, 0).size() == 0);
  CHECK_THROWS_AS(a.slice(4, 2), Error);
  CHECK_THROWS_AS(a.slice(6, 0), Error);
  CHECK_THROWS_AS(a.slice(1, SIZE_MAX), Error);  // offset + length would overflow
}

TEST_CASE("Buffer: a view keeps its owner alive") {
  auto owner = std::make_shared<std::vector<std::byte>>(bytes_of({9, 8, 7}));
  std::weak_ptr<std::vector<std::byte>> weak = owner;
  Buffer v = Buffer::view(owner, *owner);
  owner.reset();
  CHECK_FALSE(weak.expired());
  CHECK(v.is_view());
  CHECK(v == Buffer::owned(bytes_of({9, 8, 7})));
  v = Buffer();
  CHECK(weak.expired());
}

TEST_CASE("MappedFile: views point into the mapping, no copy") {
  auto dir = test::temp_dir();
  write(dir / "f.bin", "hello mapped world");
  Buffer slice;
  {
    auto m = MappedFile::open(dir / "f.bin");
    CHECK(m->bytes().size() == 18);
    Buffer whole = m->buffer(m);
    CHECK(whole.is_view());
    CHECK(whole.data() == m->bytes().data());
    slice = whole.slice(6, 6);
    CHECK(slice.data() == m->bytes().data() + 6);  // inside the mapping
  }
  // The mapping outlives the MappedFile handle through the slice.
  CHECK(std::string(reinterpret_cast<const char*>(slice.data()), slice.size()) == "mapped");
}

TEST_CASE("MappedFile: files at and above the threshold are mapped with the same contents") {
  auto dir = test::temp_dir();
  for (std::size_t size : {MappedFile::kMapThreshold - 1, MappedFile::kMapThreshold, MappedFile::kMapThreshold + 4097}) {
    std::string text(size, '\0');
    for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>((i * 7 + 3) & 0xff);  // a formula, not a copy
    const auto p = dir / ("f" + std::to_string(size));
    write(p, text);
    auto m = MappedFile::open(p);
    REQUIRE(m->bytes().size() == size);
    CHECK(std::memcmp(m->bytes().data(), text.data(), size) == 0);
    Buffer tail = m->buffer(m).slice(size - 10, 10);
    CHECK(tail.data() == m->bytes().data() + size - 10);
  }
}

TEST_CASE("MappedFile: empty files map to an empty span") {
  auto dir = test::temp_dir();
  write(dir / "empty.bin", "");
  auto m = MappedFile::open(dir / "empty.bin");
  CHECK(m->bytes().empty());
  CHECK(m->buffer(m).empty());
}

TEST_CASE("MappedFile: a missing file is Error(Io) naming the file") {
  auto p = test::temp_dir() / "missing.bin";
  try {
    MappedFile::open(p);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoOpen);
    CHECK(e.file() == p.string());
  }
  CHECK_THROWS_AS(MappedFile::open(test::temp_dir()), Error);  // a folder
}
