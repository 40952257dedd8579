#include "base/files.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/rng.h"
#include "test_paths.h"

namespace roam {
namespace {

TEST(ParseJson, ReportsLineAndColumnOfTheFault) {
  auto r = ParseJson("{\n  \"a\": 1,\n  \"b\": ]\n}", "spec.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("spec.json:3:8"), std::string::npos) << r.status().message();
  // The place once (issue 62 item 10): not again in nlohmann's own words.
  EXPECT_EQ(r.status().message().find("line 3"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("malformed JSON: syntax error while parsing value"),
            std::string::npos)
      << r.status().message();
}

TEST(ReadFile, MissingFileIsNotFoundAndNamesThePath) {
  auto r = ReadFile("/nonexistent/roam/x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotFound());
  EXPECT_NE(r.status().message().find("/nonexistent/roam/x.json"), std::string::npos);
}

TEST(WriteFileAtomic, WritesWholeContentAndLeavesNoTempFile) {
  auto dir = testing::TempDir("atomic");
  ASSERT_TRUE(WriteFileAtomic(dir / "a.txt", "hello").ok());
  EXPECT_EQ(*ReadFile(dir / "a.txt"), "hello");
  int files = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}

// `roam sim import rec --out missing/app.json` said "cannot create app.json.tmp25685: No such
// file or directory", naming a temp file the user never asked for.
TEST(WriteFileAtomic, IntoAFolderThatDoesNotExistSaysWhichFolder) {
  const auto dir = testing::TempDir("atomic_missing") / "missing";
  Status s = WriteFileAtomic(dir / "a.json", "{}");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), fmt::format("{}: cannot create it: the folder {} does not exist",
                                     (dir / "a.json").string(), dir.string()));
}

// Issue 44, rows 11 and 12: only regular files are read as inputs and written over as outputs.
TEST(ReadFile, AFifoOrADeviceIsRefusedWithoutReadingIt) {
  const auto dir = testing::TempDir("files_fifo");
  const auto fifo = dir / "utg.js";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = ReadFile(fifo);  // would block forever if it were opened
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("a FIFO"), std::string::npos) << r.status().message();
  auto zero = ReadFile("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("character device"), std::string::npos);
  const auto big = dir / "big";
  WriteFileAtomic(big, std::string(100, 'x')).ok();
  auto capped = ReadFile(big, 10);
  ASSERT_FALSE(capped.ok());
  EXPECT_NE(capped.status().message().find("100 bytes"), std::string::npos);
}

TEST(WriteFileAtomic, OnlyARegularFileIsWrittenOver) {
  const auto dir = testing::TempDir("files_outputs");
  const auto fifo = dir / "fifo", link = dir / "link", target = dir / "target";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_TRUE(WriteFileAtomic(target, "kept").ok());
  std::filesystem::create_symlink(target, link);
  for (const auto& path : {fifo, link, dir}) {
    Status s = WriteFileAtomic(path, "new");
    ASSERT_FALSE(s.ok()) << path;
    EXPECT_NE(s.message().find(path.string()), std::string::npos) << s.message();
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(*ReadFile(target), "kept");
  // A character device is refused too (checked without writing: as root a fault would replace
  // /dev/null for the whole machine).
  EXPECT_FALSE(CheckOutputPath("/dev/null").ok());
}

TEST(CheckNotAnInput, TheSameFileByAnyPathIsRefused) {
  const auto dir = testing::TempDir("files_inputs");
  ASSERT_TRUE(WriteFileAtomic(dir / "app.json", "{}").ok());
  EXPECT_FALSE(CheckNotAnInput(dir / "." / "app.json", {dir / "app.json"}).ok());
  EXPECT_TRUE(CheckNotAnInput(dir / "other.json", {dir / "app.json"}).ok());
}

TEST(ClosestName, SuggestsNearNamesOnly) {
  EXPECT_EQ(ClosestName("randm", {"random", "fastbot"}), "random");
  EXPECT_EQ(ClosestName("zzzzzz", {"random", "fastbot"}), "");
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(Rng, SameSeedSameSequenceAndWeightsRespected) {
  Rng a(7), b(7);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.Below(1000), b.Below(1000));
  Rng c(1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(c.Weighted({0, 0, 3, 0}), 2u);
}

}  // namespace
}  // namespace roam

namespace roam {
namespace {

// 100,000 nested arrays in --filters crashed the run (every JSON reader, writer and destructor
// recurses once a level). Deep nesting is refused before parsing, with where it got too deep.
TEST(ParseJson, NestingDeeperThanTheLimitIsRefusedWithItsPlace) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto r = ParseJson(deep, "f.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "f.json:1:" + std::to_string(kMaxJsonDepth + 1) +
                                      ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                      " levels");
  // Brackets inside strings do not count, and the limit itself is fine.
  std::string ok = fmt::format("{}\"[[[{{{{{{\\\"[\"{}", std::string(kMaxJsonDepth, '['),
                               std::string(kMaxJsonDepth, ']'));
  EXPECT_TRUE(ParseJson(ok, "f.json").ok());
}

}  // namespace
}  // namespace roam

#include <signal.h>
#include <sys/resource.h>

namespace roam {
namespace {

// A full disk (here a file-size limit, which fails writes the same way) said only "write
// failed" and left the temp file behind. The error names the file and the cause, and no
// temp file is left.
// Runs in a child process (the limit must not reach the test runner).
void WriteBeyondAFileSizeLimit(const std::filesystem::path& dir) {
  signal(SIGXFSZ, SIG_IGN);
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = 4096;
  setrlimit(RLIMIT_FSIZE, &limit);
  Status s = WriteFileAtomic(dir / "big.json", std::string(100000, 'x'));
  bool named = s.message().find((dir / "big.json").string()) != std::string::npos;
  bool cause = s.message().find("File too large") != std::string::npos;
  bool clean = std::filesystem::is_empty(dir);
  std::fprintf(stderr, "%s\n", s.message().c_str());
  std::exit(!s.ok() && named && cause && clean ? 0 : 1);
}

TEST(WriteFileAtomic, AFailedWriteNamesTheFileAndTheCauseAndLeavesNothing) {
  auto dir = testing::TempDir("atomic_full");
  std::filesystem::create_directories(dir);
  EXPECT_EXIT(WriteBeyondAFileSizeLimit(dir), ::testing::ExitedWithCode(0),
              "big.json: write failed: File too large");
}

}  // namespace
}  // namespace roam

namespace roam {
namespace {

// Found by the harness fuzzer: a number too large for a double (1e400) made the JSON library
// throw out_of_range, which is not a parse_error, and every JSON reader aborted (rc 134).
TEST(ParseJson, ANumberTooLargeIsAMalformedFileNotAnAbort) {
  auto r = ParseJson("{\n  \"package\": 1e400\n}", "spec.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("spec.json:2:"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("1e400"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace roam
