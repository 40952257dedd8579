// The check a bug filed on a phone gets once the run is over (run/crash_bug.h, CheckFiledBug):
// the shorter trace first, kept where it reproduces; the whole run's trace otherwise. On the
// simulator, with tests/apps/crashy.json's crash found by a run and its folder rearranged.
#include "run/crash_bug.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "report/summary.h"
#include "report/trace.h"
#include "run/replay_trace.h"
#include "run/target.h"
#include "run_test_util.h"

namespace roam::run {
namespace {

namespace fs = std::filesystem;

struct Found {
  fs::path dir;                          // bugs/B1 of a crashy run
  std::vector<report::TraceStep> trace;  // its trace, which reproduces
};

Found FindCrash(const std::string& name) {
  ExploreOptions o = CrashyRun(name);
  auto s = Explore(o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  Found f{o.out / "bugs/B1", {}};
  auto trace = report::ReadTrace(f.dir / "trace.jsonl");
  EXPECT_TRUE(trace.ok());
  if (trace.ok()) f.trace = *trace;
  return f;
}

std::unique_ptr<device::Device> FreshCrashy() {
  TargetOptions t;
  t.app = testing::SourceDir() / "tests/apps/crashy.json";
  auto target = Target::Open(t, 1, 3);
  EXPECT_TRUE(target.ok()) << target.status().message();
  auto device = (*target)->fresh_device()({});
  EXPECT_TRUE(device.ok());
  return std::move(*device);
}

// Checks `dir` on a fresh crashy: it reproduced, with screens, its trace.jsonl now has `steps`
// steps, trace.shorter.jsonl is gone, and the whole run's trace is kept beside it when it has
// `run_steps` steps (0: it is trace.jsonl itself).
void ExpectCheckedAndKept(const fs::path& dir, size_t steps, size_t run_steps = 0) {
  auto device = FreshCrashy();
  auto check = CheckFiledBug(*device, dir, 20);
  ASSERT_TRUE(check.ok()) << check.status().message();
  EXPECT_TRUE(check->reproduced);
  EXPECT_EQ(check->steps, steps);
  auto kept = report::ReadTrace(dir / "trace.jsonl");
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->size(), steps);
  EXPECT_FALSE(fs::exists(dir / kShorterTrace));
  if (run_steps == 0) {
    EXPECT_FALSE(fs::exists(dir / kRunTrace));
  } else {
    auto run = report::ReadTrace(dir / kRunTrace);
    ASSERT_TRUE(run.ok()) << "the whole run's trace was not kept";
    EXPECT_EQ(run->size(), run_steps);
  }
  auto bug = report::ReadBug(dir);
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ(bug->reproduced, true);
  EXPECT_FALSE(bug->screenshots.empty());
}

TEST(CheckFiledBug, AShorterTraceThatReproducesReplacesTheWholeRunsTrace) {
  Found f = FindCrash("filed_shorter");
  ASSERT_GE(f.trace.size(), 3u);
  // The whole run so far: the trace twice, a stop between (it reproduces at its first half).
  std::vector<report::TraceStep> whole = f.trace;
  whole.push_back({.op = "stop"});
  whole.insert(whole.end(), f.trace.begin(), f.trace.end());
  ASSERT_TRUE(report::WriteTrace(f.dir / "trace.jsonl", whole).ok());
  ASSERT_TRUE(report::WriteTrace(f.dir / kShorterTrace, f.trace).ok());
  ExpectCheckedAndKept(f.dir, f.trace.size(), whole.size());
}

TEST(CheckFiledBug, AShorterTraceThatDoesNotReproduceLeavesTheWholeRunsTrace) {
  Found f = FindCrash("filed_whole");
  ASSERT_GE(f.trace.size(), 3u);
  std::vector<report::TraceStep> cut(f.trace.begin(), f.trace.end() - 1);  // not the crash's tap
  ASSERT_TRUE(report::WriteTrace(f.dir / kShorterTrace, cut).ok());
  ExpectCheckedAndKept(f.dir, f.trace.size());
}

// Issue 60, row 1: a replay that drew the screen the failure left but no step's (a crash on the
// way in, before any action) ended the run at its first crash: steps/after.png was written into
// a steps/ folder nobody made.
TEST(WriteCrashBug, TheScreenAfterAloneIsWritten) {
  const fs::path run = testing::TempDir("after_alone");
  oracle::Finding finding;
  finding.kind = "crash";
  finding.report = device::Event{.exception = "java.lang.NullPointerException"};
  finding.signature = "java.lang.NullPointerException@Main.onCreate";
  TraceCheck check{.checked = true, .reproduced = true, .after = "not really a PNG"};
  Status s = WriteCrashBug(run, "B1", finding, {{.op = "launch"}}, check, {});
  ASSERT_TRUE(s.ok()) << s.message();
  auto after = ReadFile(run / "bugs/B1" / kAfterScreenshot);
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_EQ(*after, "not really a PNG");
  auto bug = report::ReadBug(run / "bugs/B1");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ(bug->screenshots, std::vector<std::string>{kAfterScreenshot});
}

}  // namespace
}  // namespace roam::run
