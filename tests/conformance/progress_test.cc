// The CLI's progress line (sdk/tools/src/progress.h): counts, failures, elapsed time and the ETA
// at the mean pace so far (hand-computed), drawn only when enabled.
#include <doctest/doctest.h>

#include <sstream>

#include "progress.h"

using nnbridge::cli::duration_text;
using nnbridge::cli::Progress;

TEST_CASE("progress: durations read as seconds then minutes then hours") {
  CHECK(duration_text(0) == "0s");
  CHECK(duration_text(59.9) == "59s");
  CHECK(duration_text(65) == "1m05s");
  CHECK(duration_text(3600 + 7 * 60 + 59) == "1h07m");
  CHECK(duration_text(-3) == "0s");
}

TEST_CASE("progress: done/total and failures so far and elapsed and the ETA at the mean pace") {
  std::ostringstream out;
  Progress p(10, out, true);
  p.set_elapsed_for_test(6);
  CHECK(p.text("x") == "[0/10] 6s elapsed: x");  // no ETA before a step ends
  p.step(false, "a");
  p.step(true, "b");
  p.step(false, "c");
  // 3 steps in 6 s: 2 s a step, 7 steps left: 14 s.
  CHECK(p.text("next") == "[3/10] 1 failed, 6s elapsed, ETA 14s: next");
  CHECK(out.str().find("\r\033[K[3/10] 1 failed, ") != std::string::npos);
  p.clear();
  CHECK(out.str().substr(out.str().size() - 4) == "\r\033[K");
}

TEST_CASE("progress: nothing is drawn when disabled") {
  std::ostringstream out;
  {
    Progress p(2, out, false);
    p.show("a", true);
    p.step(true, "a");
    p.clear();
  }
  CHECK(out.str().empty());
}
