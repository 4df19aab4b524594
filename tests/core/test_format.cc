#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "support/paths.h"

using namespace nnbridge;

namespace {
std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::span<const std::byte> as_bytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }
}  // namespace

TEST_CASE("Source::view shares the owner") {
  auto owner = std::make_shared<std::vector<std::byte>>(10, std::byte{7});
  Source src{*owner, owner, "x.bin", {}};
  Buffer b = src.view(2, 4);
  CHECK(b.data() == owner->data() + 2);
  CHECK(b.size() == 4);
  CHECK(b.is_view());
  CHECK_THROWS_AS(src.view(8, 4), Error);
}

TEST_CASE("write_file_atomic writes, replaces, and leaves no temporary file") {
  auto dir = test::temp_dir();
  auto p = dir / "out.bin";
  write_file_atomic(p, as_bytes("first"));
  CHECK(read(p) == "first");
  write_file_atomic(p, as_bytes("second, longer"));
  CHECK(read(p) == "second, longer");
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);
}

TEST_CASE("write_file_atomic into a missing folder is Error(Io) naming the file") {
  auto p = test::temp_dir() / "no" / "such" / "out.bin";
  try {
    write_file_atomic(p, as_bytes("x"));
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoNoFolder);
    CHECK(e.file() == p.string());
    CHECK(std::string(e.what()).find(p.parent_path().string()) != std::string::npos);  // names the folder
  }
}

TEST_CASE("write_file_atomic failing on rename keeps the target and removes the temporary") {
  auto dir = test::temp_dir();
  auto target = dir / "is_a_dir";
  std::filesystem::create_directories(target / "child");  // rename over a non-empty folder fails
  CHECK_THROWS_AS(write_file_atomic(target, as_bytes("x")), Error);
  CHECK(std::filesystem::is_directory(target / "child"));
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) (void)e, ++entries;
  CHECK(entries == 1);
}

TEST_CASE("write_files_atomic: a failed write of the second file leaves the first untouched") {
  auto dir = test::temp_dir();
  const auto side = dir / "model.bin", doc = dir / "no_such_folder" / "model.json";
  write_file_atomic(side, as_bytes("old sidecar"));
  const std::string new_side = "new sidecar", new_doc = "{}";
  const FileContents files[] = {{side, as_bytes(new_side)}, {doc, as_bytes(new_doc)}};
  try {
    write_files_atomic(files);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoNoFolder);
    CHECK(e.file() == doc.string());
  }
  CHECK(read(side) == "old sidecar");  // not replaced: the second write failed before any rename
  int files_left = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files_left += e.is_regular_file();
  CHECK(files_left == 1);  // no temporary left behind

  const FileContents ok[] = {{side, as_bytes(new_side)}, {dir / "model.json", as_bytes(new_doc)}};
  write_files_atomic(ok);
  CHECK(read(side) == "new sidecar");
  CHECK(read(dir / "model.json") == "{}");
}

TEST_CASE("write_file_atomic removes the temporaries that killed writers left, and only theirs") {
  // Oracle: the documented naming rule ".<target>.tmp-<pid>-XXXXXX" and POSIX kill(pid, 0):
  // a pid that no longer runs is a dead writer. A child that has exited and been reaped gives
  // such a pid; our own pid is alive.
  auto dir = test::temp_dir();
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  const auto dead = dir / (".out.bin.tmp-" + std::to_string(child) + "-AbC123");
  const auto live = dir / (".out.bin.tmp-" + std::to_string(::getpid()) + "-XyZ789");
  const auto other_target = dir / (".other.bin.tmp-" + std::to_string(child) + "-AbC123");
  const auto not_a_temp = dir / (".out.bin.tmp-notapid-AbC123");
  for (const auto& p : {dead, live, other_target, not_a_temp}) std::ofstream(p) << "partial";
  write_file_atomic(dir / "out.bin", as_bytes("done"));
  CHECK(read(dir / "out.bin") == "done");
  CHECK_FALSE(std::filesystem::exists(dead));
  CHECK(std::filesystem::exists(live));
  CHECK(std::filesystem::exists(other_target));
  CHECK(std::filesystem::exists(not_a_temp));
}
