// End to end on the simulator: the run loop finds a planted crash, writes a bug folder whose
// trace replays, and reports nothing once the bug is switched off.
#include "run/explore/explore.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "run/triage/replay.h"
#include "run_test_util.h"
#include "test_paths.h"

namespace roam::run {
namespace {

TEST(Explore, RandomFindsThePlantedCrashAndItsTraceReplays) {
  for (uint64_t seed : {1, 2, 3}) {
    ExploreOptions o = CrashyRun("crashy_on", seed);
    auto summary = Explore(o);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    ASSERT_EQ(summary->crashes.size(), 1u) << "seed " << seed;
    const auto& crash = summary->crashes[0];
    EXPECT_EQ(crash.bug_id, "crashy-npe");
    EXPECT_NE(
        crash.signature.find("java.lang.NullPointerException@org.roam.crashy.ShareHelper.share"),
        std::string::npos);
    ASSERT_EQ(crash.bug_dir, "bugs/B1");
    auto bug = report::ReadBug(o.out / crash.bug_dir);
    ASSERT_TRUE(bug.ok()) << bug.status().message();
    EXPECT_EQ(bug->reproduced, std::optional<bool>(true));
    auto replay = ReplayBug(o.out / crash.bug_dir);
    ASSERT_TRUE(replay.ok()) << replay.status().message();
    EXPECT_TRUE(replay->reproduced);
    // The short trace is used: a clear, a launch and the episode, not the whole run.
    auto trace = report::ReadTrace(o.out / crash.bug_dir / "trace.jsonl");
    EXPECT_LE(trace->size(), static_cast<size_t>(crash.first_step) + 3);
  }
}

TEST(Explore, NothingIsReportedWithTheBugSwitchedOff) {
  for (uint64_t seed : {1, 2, 3}) {
    ExploreOptions o = CrashyRun("crashy_off", seed);
    o.target.bugs_off = {"crashy-npe"};
    auto summary = Explore(o);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    EXPECT_TRUE(summary->crashes.empty());
    EXPECT_FALSE(std::filesystem::exists(o.out / "bugs"));
    EXPECT_EQ(summary->events, 2000);
  }
}

TEST(Explore, RunFolderHoldsConfigTraceAndSummary) {
  ExploreOptions o = CrashyRun("folder", 5);
  o.budget.events = 300;
  ASSERT_TRUE(Explore(o).ok());
  auto summary = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["events"], 300);
  EXPECT_EQ((*summary)["seed"], 5);
  EXPECT_EQ((*summary)["strategy"], "random");
  EXPECT_EQ((*summary)["activities_total"], 3);
  EXPECT_GE((*summary)["units_covered"].get<int>(), 1);
  auto trace = report::ReadTrace(o.out / "trace.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  size_t acts = 0;
  for (const auto& s : *trace) acts += s.op == "act";
  EXPECT_EQ(acts, 300u);
  EXPECT_EQ((*trace)[0].op, "clear");
  EXPECT_TRUE(ReadJsonFile(o.out / "config.json").ok());
}

TEST(Explore, SameSeedSameRun) {
  ExploreOptions a = CrashyRun("same_a", 11), b = CrashyRun("same_b", 11);
  a.budget.events = b.budget.events = 500;
  ASSERT_TRUE(Explore(a).ok());
  ASSERT_TRUE(Explore(b).ok());
  auto ta = report::ReadTrace(a.out / "trace.jsonl");
  auto tb = report::ReadTrace(b.out / "trace.jsonl");
  ASSERT_EQ(ta->size(), tb->size());
  for (size_t i = 0; i < ta->size(); ++i)
    EXPECT_EQ((*ta)[i].action.Describe(), (*tb)[i].action.Describe());
}

TEST(Explore, AnEarlierRunIsNotOverwrittenWithoutForce) {
  ExploreOptions o = CrashyRun("force", 1);
  o.budget.events = 50;
  ASSERT_TRUE(Explore(o).ok());
  auto again = Explore(o);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("--force"), std::string::npos);
  o.force = true;
  EXPECT_TRUE(Explore(o).ok());
}

TEST(Explore, AStopRequestEndsTheRunWithEverythingWritten) {
  ExploreOptions o = CrashyRun("stop", 1);
  o.budget.events = 0;
  o.budget.seconds = 60;
  std::atomic<bool> stop{true};
  auto summary = Explore(o, {.stop = &stop});
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->stop_reason, "interrupted");
  auto written = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(written.ok());
  EXPECT_EQ((*written)["stop_reason"], "interrupted");
}

TEST(Explore, BadInputsSayWhatIsWrong) {
  ExploreOptions o = CrashyRun("bad", 1);
  o.strategy = "randum";
  auto r = Explore(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did you mean \"random\""), std::string::npos);
  o.strategy = "random";
  o.target.bugs_off = {"crashy-nep"};
  r = Explore(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("crashy-npe"), std::string::npos);
  o.target.bugs_off = {};
  o.target.app = "/nonexistent/app.json";
  r = Explore(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/app.json"), std::string::npos);
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

// On the simulator every reported crash must reproduce, on every shipped app; with all planted
// bugs switched off nothing is reported at all.
TEST(Explore, EveryCrashOnTheShippedAppsReproducesAndNoneWithoutBugs) {
  for (const char* app : {"apps/diary.json", "apps/lockpattern.json", "apps/nectroid.json"}) {
    auto spec = ReadJsonFile(testing::SourceDir() / app);
    ASSERT_TRUE(spec.ok());
    std::vector<std::string> all_bugs;
    for (const auto& b : (*spec)["bugs"]) all_bugs.push_back(b["id"]);
    for (uint64_t seed : {1, 2}) {
      ExploreOptions o;
      o.target.app = testing::SourceDir() / app;
      o.seed = seed;
      o.out = testing::TempDir("shipped");
      o.budget.events = 5000;
      auto summary = Explore(o);
      ASSERT_TRUE(summary.ok()) << summary.status().message();
      size_t found = 0;
      for (const auto* list : {&summary->crashes, &summary->anrs}) {
        for (const auto& f : *list) {
          ++found;
          EXPECT_FALSE(f.bug_id.empty()) << app << " reported an unplanted failure " << f.signature;
          auto replay = ReplayBug(o.out / f.bug_dir);
          ASSERT_TRUE(replay.ok()) << replay.status().message();
          EXPECT_TRUE(replay->reproduced) << app << " seed " << seed << " " << f.signature;
        }
      }
      // Nectroid's crashes sit 7 steps deep on purpose: random need not reach them.
      if (std::string(app) != "apps/nectroid.json") {
        EXPECT_GT(found, 0u) << app << " seed " << seed << ": random found no planted failure";
      }

      o.target.bugs_off = all_bugs;
      o.force = true;
      auto clean = Explore(o);
      ASSERT_TRUE(clean.ok()) << clean.status().message();
      EXPECT_TRUE(clean->crashes.empty()) << app << " seed " << seed;
      EXPECT_TRUE(clean->anrs.empty()) << app << " seed " << seed;
    }
  }
}

TEST(Replay, ATraceThatNoLongerReachesTheCrashSaysSo) {
  ExploreOptions o = CrashyRun("replay_no");
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok());
  ASSERT_EQ(summary->crashes.size(), 1u);
  auto dir = o.out / summary->crashes[0].bug_dir;
  auto trace = report::ReadTrace(dir / "trace.jsonl");
  ASSERT_TRUE(trace.ok());
  trace->pop_back();  // drop the step that crashed
  ASSERT_TRUE(report::WriteTrace(dir / "trace.jsonl", *trace).ok());
  auto replay = ReplayBug(dir);
  ASSERT_TRUE(replay.ok()) << replay.status().message();
  EXPECT_FALSE(replay->reproduced);
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

// Issue 62 item 10: `roam replay` given a run folder names its bug folders instead of "bug.json:
// no such file".
TEST(Replay, ARunFolderGivenForABugFolderNamesItsBugs) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / "apps/diary.json";
  o.out = testing::TempDir("replay_run_folder");
  o.seed = 1;
  o.budget.events = 3000;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ASSERT_FALSE(summary->crashes.empty());
  auto replayed = ReplayBug(o.out, false, {});
  ASSERT_FALSE(replayed.ok());
  EXPECT_EQ(replayed.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(replayed.status().message().find("is a run folder, not a bug folder: give one of its "
                                             "bugs: " +
                                             (o.out / "bugs/B1").string()),
            std::string::npos)
      << replayed.status().message();
}

}  // namespace
}  // namespace roam::run
