// Issue 62 item 2 as a user sees it: in a 100-column terminal (a pseudo-terminal that `script`
// opens, its width from COLUMNS) a long explore and a long fuzz redraw one line in place: no
// redraw is wider than the terminal, so none wraps into a wall of half lines.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace roam {
namespace {

TEST(ProgressCli, TheLineFitsAHundredColumnTerminal) {
  if (testing::RunCommand("command -v script >/dev/null").code != 0)
    GTEST_SKIP() << "script (util-linux) is not installed";
  const auto dir = testing::TempDir("progress_cli");
  for (const std::string run : {"explore --app apps/diary.json --events 300000 --time 3",
                                "fuzz --app apps/diary.json --events 200000 --time 3"}) {
    SCOPED_TRACE(run);
    const std::string out = (dir / run.substr(0, run.find(' '))).string();
    auto r = testing::RunCommand(
        fmt::format("cd '{}' && COLUMNS=100 script -qec \"{} {} --out '{}' --force\" /dev/null "
                    "</dev/null",
                    testing::SourceDir().string(), testing::RoamBinary(), run, out));
    ASSERT_EQ(r.code, 0) << r.out;
    int redraws = 0;
    size_t start = 0;
    while (start < r.out.size()) {
      size_t end = r.out.find_first_of("\r\n", start);
      if (end == std::string::npos) end = r.out.size();
      std::string piece = r.out.substr(start, end - start);
      start = end + 1;
      // A redraw of the status line (a bug's note is a whole line of its own, and may wrap).
      if (piece.rfind("\033[K[", 0) != 0) continue;
      piece.erase(0, 3);
      ++redraws;
      EXPECT_LE(piece.size(), 99u) << piece;
    }
    EXPECT_GT(redraws, 5) << r.out;
  }
}

}  // namespace
}  // namespace roam
