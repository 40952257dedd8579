// The CI files docs/ci.md offers to copy (docs/ci/github-actions.yml, docs/ci/gitlab-ci.yml):
// every `roam` line in them runs green here, the simulated job's on the app the file names and
// the emulator job's against a served phone standing in for the emulator, with the files' own
// variables. The emulator job fails on a bug its known list lacks (exit 3) and passes once the
// bugs are triaged with `roam known add`, as a team would do it.
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam {
namespace {

namespace fs = std::filesystem;

// The `roam ...` commands of a CI file: lines (or YAML list items) that start with "roam ".
std::vector<std::string> RoamLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    const size_t first = line.find_first_not_of(" -");
    if (first != std::string::npos && line.compare(first, 5, "roam ") == 0)
      lines.push_back(line.substr(first));
  }
  return lines;
}

// The word after `flag` in `line` ("" when it has none).
std::string FlagValue(const std::string& line, const std::string& flag) {
  const size_t at = line.find(flag + " ");
  if (at == std::string::npos) return "";
  const size_t start = at + flag.size() + 1;
  return line.substr(start, line.find(' ', start) - start);
}

// Runs `line` with `bash -c` in `dir` with roam on the PATH and the files' variables.
testing::CommandRun RunLine(const fs::path& dir, const std::string& env, const std::string& line) {
  return testing::RunCommand(
      fmt::format("cd '{}' && env PATH='{}':\"$PATH\" {} bash -c '{}' 2>&1", dir.string(),
                  fs::path(testing::RoamBinary()).parent_path().string(), env, line));
}

TEST(CiFiles, EveryRoamLineRunsGreen) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServer server(*spec, {.port = 0});
  ASSERT_TRUE(server.Start().ok());
  const std::string env =
      fmt::format("ANDROID_ADB_SERVER_PORT={} APP_PACKAGE={} ROAM_BUDGET='--events 300'",
                  server.port(), (*spec)->package());
  for (const char* file : {"docs/ci/github-actions.yml", "docs/ci/gitlab-ci.yml"}) {
    SCOPED_TRACE(file);
    auto text = ReadFile(testing::SourceDir() / file);
    ASSERT_TRUE(text.ok()) << text.status().message();
    const std::vector<std::string> lines = RoamLines(*text);
    ASSERT_EQ(lines.size(), 2u) << *text;  // the simulated job's and the emulator job's
    // Roam's checkout is `roam/` beside the app's files, as the jobs clone it.
    const fs::path dir = testing::TempDir(fs::path(file).stem().string());
    std::error_code ec;
    fs::remove(dir / "roam", ec);
    fs::create_directory_symlink(testing::SourceDir(), dir / "roam", ec);
    ASSERT_FALSE(ec) << ec.message();
    ASSERT_TRUE(WriteFileAtomic(dir / "known-bugs.txt", "").ok());  // the jobs' `touch`
    for (const std::string& line : lines) {
      SCOPED_TRACE(line);
      testing::CommandRun first = RunLine(dir, env, line);
      if (line.find("--fail-on") != std::string::npos) {
        // New bugs fail the job; once triaged into the known list, the same run passes.
        ASSERT_EQ(first.code, 3) << first.out;
        testing::CommandRun known =
            RunLine(dir, env,
                    fmt::format("roam known add {}/bugs/* --file known-bugs.txt",
                                FlagValue(line, "--out")));
        ASSERT_EQ(known.code, 0) << known.out;
        testing::CommandRun again = RunLine(dir, env, line + " --force");
        EXPECT_EQ(again.code, 0) << again.out;
      } else {
        EXPECT_EQ(first.code, 0) << first.out;
      }
      EXPECT_TRUE(fs::exists(dir / FlagValue(line, "--junit"))) << line;
    }
  }
  server.Stop();
}

}  // namespace
}  // namespace roam
