// Malformed .armnn files: truncated and byte-flipped copies of real models. Every one ends
// in exit 3 (or 0 for a flip that happens to leave a valid file), never a signal, and a
// failed convert leaves no output.
#include <doctest/doctest.h>

#include <set>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

TEST_CASE("cli malformed: truncated .armnn files exit 3 naming the file, with no output") {
  auto models = armnn_models();
  if (models.empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return;
  }
  for (const fs::path& model : models) {
    const std::string bytes = read_file(model);
    // A FlatBuffer's size is a multiple of its alignment (at least 4): bytes past the last
    // multiple of 4 are trailing junk (two of Arm NN's own fixtures carry one such byte), and
    // cutting only those leaves a valid file. Every cut below removes real content.
    const std::size_t n = bytes.size() & ~std::size_t{3};
    std::set<std::size_t> cuts{0, 1, 4, 7, 8, 12, 16, n / 4, n / 2, 3 * n / 4, n - 8, n - 4, n - 1};
    const fs::path dir = temp_dir();
    for (std::size_t cut : cuts) {
      if (cut >= n) continue;
      const fs::path in = dir / ("cut" + std::to_string(cut) + ".armnn");
      const fs::path out = dir / ("cut" + std::to_string(cut) + ".json");
      write_file(in, bytes.substr(0, cut));
      CAPTURE(model);
      CAPTURE(cut);
      RunResult r = run_cli({"convert", in.string(), out.string()});
      CHECK(r.signal == 0);
      CHECK(r.code == 3);
      // "[nnbridge.<code>.<N>] " comes between the prefix and the file: the identifier depends
      // on where the cut falls, the file name does not.
      CHECK(r.err.find("nnbridge: error: [nnbridge.") != std::string::npos);
      CHECK(r.err.find("] " + in.string()) != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("cli malformed: byte-flipped .armnn files never crash nnbridge") {
  auto models = armnn_models();
  if (models.empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return;
  }
  for (const fs::path& model : models) {
    const std::string bytes = read_file(model);
    const fs::path dir = temp_dir();
    const std::size_t flips = 16;
    for (std::size_t k = 0; k < flips; ++k) {
      // Spread over the whole file, plus the root offset and vtable bytes at the front.
      const std::size_t pos = k < 4 ? k * 4 : (bytes.size() - 1) * (k - 3) / (flips - 3);
      std::string bad = bytes;
      bad[pos] = static_cast<char>(bad[pos] ^ 0x5A);
      const fs::path in = dir / "flip.armnn";
      write_file(in, bad);
      CAPTURE(model);
      CAPTURE(pos);
      for (const char* sub : {"info", "check"}) {
        RunResult r = run_cli({sub, in.string()});
        CHECK(r.signal == 0);
        CHECK(r.code != 4);  // no internal error
        CHECK(r.code != 2);
        if (r.code == 3) CHECK(r.err.find(in.string()) != std::string::npos);
      }
    }
    fs::remove_all(dir);
  }
}
