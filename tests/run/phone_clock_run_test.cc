// Runs on a phone's clock (--clock phone): a time budget counts the phone's seconds, which
// summary.json and the bench JSON keep beside the wall's; the clock changes nothing else (the
// same trace as on the wall clock for an event budget); the uiautomator driver's steps cost more
// of a phone's time than uia2's; a device refuses the phone clock; shards on different clocks are
// not merged.
#include <gtest/gtest.h>

#include "base/files.h"
#include "run/bench/bench.h"
#include "run/explore/explore.h"
#include "run/fuzz/fuzz.h"
#include "test_paths.h"

namespace roam::run {
namespace {

ExploreOptions PhoneRun(const std::string& name, device::android::DriverKind d) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / "apps/diary.json";
  o.target.phone_clock = true;
  o.target.android.driver = d;
  o.strategy = "random";
  o.seed = 3;
  o.budget = {.events = 0, .seconds = 600};
  o.out = testing::TempDir(name);
  o.force = true;
  return o;
}

using Driver = device::android::DriverKind;

TEST(PhoneClockRun, ATimeBudgetIsSpentInAPhonesSecondsAndSummaryJsonSaysBoth) {
  const ExploreOptions o = PhoneRun("phone_uia2", Driver::kUia2);
  auto uia2 = Explore(o);
  ASSERT_TRUE(uia2.ok()) << uia2.status().message();
  EXPECT_EQ(uia2->stop_reason, "time");
  ASSERT_TRUE(uia2->phone_seconds.has_value());
  // Stopped at the first step past ten minutes of a phone, after a fraction of that on the wall.
  EXPECT_GE(*uia2->phone_seconds, 600);
  EXPECT_LT(*uia2->phone_seconds, 600 * 1.02);
  EXPECT_LT(uia2->wall_seconds, 60);
  // A uia2 step is a page source and a tap (0.7 s): hundreds of events, not thousands.
  EXPECT_GT(uia2->events, 300);
  EXPECT_LT(uia2->events, 900);
  auto json = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(json.ok());
  EXPECT_DOUBLE_EQ((*json)["phone_seconds"].get<double>(), *uia2->phone_seconds);
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["clock"], "phone");
  EXPECT_EQ((*config)["clock_driver"], "uia2");
  // progress.jsonl's samples and the page say the phone's time too.
  auto progress = ReadFile(o.out / "progress.jsonl");
  ASSERT_TRUE(progress.ok());
  EXPECT_NE(progress->find("\"phone_seconds\":"), std::string::npos);
  auto page = ReadFile(o.out / "report.html");
  ASSERT_TRUE(page.ok());
  EXPECT_NE(page->find("A phone&#39;s time"), std::string::npos);

  // uiautomator's dump and `input` cost about three uia2 steps each.
  auto dump = Explore(PhoneRun("phone_uiautomator", Driver::kUiautomator));
  ASSERT_TRUE(dump.ok()) << dump.status().message();
  EXPECT_EQ(dump->stop_reason, "time");
  EXPECT_LT(dump->events * 2, uia2->events);
}

TEST(PhoneClockRun, AnEventBudgetGivesTheTraceTheWallClockGives) {
  ExploreOptions phone = PhoneRun("phone_events", Driver::kUia2);
  phone.budget = {.events = 400, .seconds = 0};
  ExploreOptions wall = phone;
  wall.target.phone_clock = false;
  wall.out = testing::TempDir("wall_events");
  auto a = Explore(phone);
  auto b = Explore(wall);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->phone_seconds.has_value());
  EXPECT_FALSE(b->phone_seconds.has_value());
  auto ta = ReadFile(phone.out / "trace.jsonl");
  auto tb = ReadFile(wall.out / "trace.jsonl");
  ASSERT_TRUE(ta.ok() && tb.ok());
  EXPECT_EQ(*ta, *tb);
}

TEST(PhoneClockRun, FuzzingKeepsThePhonesSecondsToo) {
  FuzzOptions o;
  o.target.app = testing::SourceDir() / "apps/diary.json";
  o.target.phone_clock = true;
  o.seed = 2;
  o.budget = {.events = 0, .seconds = 300};
  o.out = testing::TempDir("phone_fuzz");
  o.force = true;
  auto r = Fuzz(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->summary.stop_reason, "time");
  ASSERT_TRUE(r->summary.phone_seconds.has_value());
  EXPECT_GE(*r->summary.phone_seconds, 300);
  EXPECT_LT(*r->summary.phone_seconds, 300 * 1.05);
  EXPECT_GT(r->summary.events, 40);  // each seed and mutant starts from a cleared app: seconds
  EXPECT_GT(r->stats.mutants_executed, 0u);
}

TEST(PhoneClockRun, ADeviceHasNoPhoneClockButItsOwn) {
  ExploreOptions o = PhoneRun("phone_device", Driver::kUia2);
  o.target.app.clear();
  o.target.android.serial = "emulator-5554";
  o.target.android.package = "org.example";
  auto s = Explore(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("--clock phone"), std::string::npos) << s.status().message();
}

TEST(PhoneClockRun, BenchRunsOnAPhonesTimeAndShardsOnOtherClocksDoNotMerge) {
  BenchOptions o;
  o.apps = {testing::SourceDir() / "apps/diary.json"};
  o.strategies = {"random"};
  o.budget = {.events = 0, .seconds = 120};
  o.phone_clock = true;
  o.driver = device::android::DriverKind::kUiautomator;
  o.seeds = 2;
  o.out = testing::TempDir("bench_phone");
  auto runs = RunBench(o, nullptr);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  for (const auto& r : *runs) {
    ASSERT_TRUE(r.phone_seconds.has_value());
    EXPECT_GE(*r.phone_seconds, 120);
    EXPECT_GT(r.events, 20);
    EXPECT_LT(r.events, 60);  // uiautomator: about 2.7 s of a phone a step
  }
  // Runs on a time budget make different numbers of events: the table shows them.
  const std::string table = FormatBenchTable(*runs, o.strategies);
  EXPECT_NE(table.find("strategy  events"), std::string::npos) << table;
  const auto file = o.out / "bench.json";
  ASSERT_TRUE(WriteJsonFile(file, BenchToJson(*runs, o, 1.0)).ok());
  auto read = ReadBenchFile(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->clock, "phone:uiautomator");
  EXPECT_EQ(read->time, 120);
  ASSERT_EQ(read->runs.size(), 2u);
  EXPECT_EQ(read->runs[0].phone_seconds, (*runs)[0].phone_seconds);
  BenchOptions again = OptionsOf(*read);
  EXPECT_TRUE(again.phone_clock);
  EXPECT_EQ(again.driver, device::android::DriverKind::kUiautomator);
  BenchFile wall = *read;
  wall.clock = "wall";
  wall.runs.clear();
  auto merged = MergeBenchFiles({*read, wall}, {file.string(), "wall.json"});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.status().message().find("wall.json: its clocks differ"), std::string::npos)
      << merged.status().message();
}

}  // namespace
}  // namespace roam::run
