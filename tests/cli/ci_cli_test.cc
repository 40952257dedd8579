// Roam in a CI job: exit codes for new and known bugs, `roam known add`, --minimize, JUnit and
// `roam replay --repeat`, as a pipeline script meets them.
#include <fstream>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam {
namespace {

using Ran = testing::CommandRun;
Ran Roam(const std::string& args) { return testing::RunRoam(args); }

std::string Crashy(const std::filesystem::path& out) {
  return "explore -q --app " + (testing::SourceDir() / "tests/apps/crashy.json").string() +
         " --seed 1 --events 2000 --force --out " + out.string();
}

TEST(CiCli, WithoutFailOnABugStillExits0) {
  auto out = testing::TempDir("ci_default");
  Ran r = Roam(Crashy(out));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("bugs/B1"), std::string::npos) << r.out;
}

TEST(CiCli, ANewCrashFailsTheJobAndAKnownOneDoesNot) {
  auto out = testing::TempDir("ci_new");
  Ran r = Roam(Crashy(out) + " --fail-on crash,anr");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("1 new bug of a --fail-on kind"), std::string::npos) << r.out;

  // Listed as known: the same run is green, and the summary says the bug is known.
  auto known = testing::TempDir("ci_new_files") / "known.txt";  // a fresh folder: no list yet
  Ran add = Roam("known add " + (out / "bugs/B1").string() + " --file " + known.string());
  EXPECT_EQ(add.code, 0) << add.out;
  EXPECT_NE(add.out.find("1 signature added"), std::string::npos) << add.out;
  Ran twice = Roam("known add " + (out / "bugs/B1").string() + " --file " + known.string());
  EXPECT_NE(twice.out.find("0 signatures added (1 already there)"), std::string::npos) << twice.out;
  Ran green = Roam(Crashy(out) + " --fail-on crash --known " + known.string());
  EXPECT_EQ(green.code, 0) << green.out;
  EXPECT_NE(green.out.find("[known]"), std::string::npos) << green.out;
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["crashes"][0]["known"], true);

  // A previous run's summary.json works as the known list too.
  auto prev = testing::TempDir("ci_new_prev") / "prev.json";
  std::filesystem::copy_file(out / "summary.json", prev,
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(Roam(Crashy(out) + " --fail-on crash --known " + prev.string()).code, 0);
  // Only the kinds named fail: an ANR-only job is green on a crash.
  EXPECT_EQ(Roam(Crashy(out) + " --fail-on anr").code, 0);
}

TEST(CiCli, BadCiFlagsAreUsageErrors) {
  auto out = testing::TempDir("ci_bad");
  Ran r = Roam(Crashy(out) + " --fail-on crahs");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("did you mean \"crash\""), std::string::npos) << r.out;
  const auto bad = testing::TempDir("ci_bad_files") / "bad.json";
  std::ofstream(bad) << "{\"not\": \"a summary\"}";
  r = Roam(Crashy(out) + " --known " + bad.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not a run's summary.json"), std::string::npos) << r.out;
  r = Roam("known add /nonexistent/bugs/B1");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("/nonexistent/bugs/B1/bug.json"), std::string::npos) << r.out;
}

TEST(CiCli, MinimizeThenReplayRepeatRecordsTheFlakiness) {
  auto out = testing::TempDir("ci_min");
  Ran r = Roam(Crashy(out) + " --minimize");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("minimised bugs/B1"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out / "bugs/B1/trace.min.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(out / "bugs/B1/steps.txt"));

  Ran again = Roam("minimize " + out.string());  // a run folder: all its bugs
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("reproduces 3 of 3"), std::string::npos) << again.out;

  Ran rep = Roam("replay --repeat 4 " + (out / "bugs/B1").string());
  EXPECT_EQ(rep.code, 0) << rep.out;
  EXPECT_NE(rep.out.find("reproduced 4 of 4 times"), std::string::npos) << rep.out;
  EXPECT_NE(rep.out.find("trace.min.jsonl"), std::string::npos) << rep.out;
  auto bug = ReadJsonFile(out / "bugs/B1/bug.json");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ((*bug)["replays"]["runs"], 4);
  EXPECT_EQ((*bug)["replays"]["reproduced"], 4);
}

TEST(CiCli, JunitOfARunValidatesAndNamesTheBugAndItsSteps) {
  auto out = testing::TempDir("ci_junit");
  auto xml = (testing::TempDir("ci_junit_files") / "junit.xml").string();
  Ran r = Roam(Crashy(out) + " --minimize --fail-on crash --junit " + xml);
  EXPECT_EQ(r.code, 3) << r.out;
  auto text = ReadFile(xml);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_NE(text->find("<failure"), std::string::npos) << *text;
  EXPECT_NE(text->find("4. tap \"Share\" (share) on DetailsActivity"), std::string::npos)
      << *text;  // steps.txt
  EXPECT_NE(text->find("roam replay " + (out / "bugs/B1").string()), std::string::npos) << *text;
  EXPECT_NE(text->find("classname=\"roam.activity\""), std::string::npos) << *text;
  if (testing::RunCommand("command -v xmllint").code != 0)
    GTEST_SKIP() << "xmllint (Debian's libxml2-utils) is not installed";
  Ran valid = testing::RunCommand("xmllint --noout --schema " +
                                  (testing::SourceDir() / "tests/report/junit.xsd").string() + " " +
                                  xml + " 2>&1");
  EXPECT_EQ(valid.code, 0) << valid.out;
}

TEST(CiCli, AnInterruptedRunExits130) {
  // SIGINT once the run has started: it stops, writes what it has, and says so in its exit
  // code. (Before its handler is installed, a background job ignores SIGINT as sh set it up: the
  // test waits for the trace to appear rather than for a fixed time.)
  auto out = testing::TempDir("ci_int");
  std::filesystem::remove_all(out);
  Ran r = testing::RunCommand(
      "sh -c '" + testing::RoamBinary() + " explore -q --app " +
      (testing::SourceDir() / "apps/diary.json").string() +
      " --seed 1 --events 100000000 --force --out " + out.string() +
      " & pid=$!; i=0; while [ ! -s " + (out / "trace.jsonl").string() +
      " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; kill -INT $pid; wait $pid; "
      "echo exit=$?'");
  EXPECT_NE(r.out.find("exit=130"), std::string::npos) << r.out;
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["stop_reason"], "interrupted");
}

}  // namespace
}  // namespace roam
