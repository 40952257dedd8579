// summary.json and bug.json read back as they were written, with errors that say where.
#include <gtest/gtest.h>

#include "base/files.h"
#include "report/summary.h"
#include "test_paths.h"

namespace roam::report {
namespace {

using nlohmann::json;

Summary Full() {
  Summary s{.app = "apps/diary.json",
            .package = "org.diary",
            .device = "sim:diary",
            .strategy = "timetravel:fastbot",
            .seed = 18446744073709551615u,
            .events = 2000,
            .wall_seconds = 1.5,
            .stop_reason = "events",
            .activities_total = 6,
            .activities_covered = {"A", "B"},
            .activities_declared = {"A", "B", "C", "D", "E", "F"},
            .units_total = 90,
            .units_covered = 40,
            .states = 17,
            .relaunches = 3,
            .snapshots = 4,
            .restores = 2,
            .failed_restores = 1,
            .restore_events = 12};
  s.crashes.push_back({.kind = "crash",
                       .signature = "java.lang.NullPointerException@A.onClick",
                       .exception = "java.lang.NullPointerException",
                       .message = "x",
                       .count = 3,
                       .bug_id = "diary-npe",
                       .first_step = 41,
                       .bug_dir = "bugs/B1",
                       .known = true});
  s.anrs.push_back({.kind = "anr", .signature = "anr@B", .count = 1, .first_step = 7});
  s.timing = {.steps = 2000,
              .observe = 0.5,
              .decide = 0.25,
              .act = 0.125,
              .events = 0.0625,
              .launch = 0.03125};
  s.functional = std::vector<FunctionalFinding>{{.id = "F1",
                                                 .key = "view gone",
                                                 .activity = "A",
                                                 .explanation = "why",
                                                 .count = 2,
                                                 .first_seed = 5,
                                                 .bug_dir = "bugs/F1",
                                                 .bug_id = "planted",
                                                 .scored = true}};
  s.sections = {{"fuzz", {{"seeds", 9}}}, {"devices", json::array({{{"device", "sim-1"}}})}};
  s.refused = {{"invalid element state (POST /orientation)", 4}};
  s.device_life = {.away = 2,
                   .away_seconds = 60.5,
                   .driver_restarts = 3,
                   .driver_retries = 18,
                   .system_screens = {{"permission request: allow", 1}}};
  return s;
}

TEST(ReadSummary, ReadsBackWhatWasWritten) {
  const json written = SummaryToJson(Full());
  auto read = SummaryFromJson(written, "summary.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(SummaryToJson(*read), written);
  EXPECT_EQ(read->crashes.at(0).bug_id, "diary-npe");
  EXPECT_EQ(read->sections["fuzz"]["seeds"], 9);
  EXPECT_TRUE(read->functional && read->functional->at(0).scored);
  EXPECT_EQ(read->device_life.away_seconds, 60.5);
  EXPECT_EQ(read->device_life.system_screens.at("permission request: allow"), 1);
}

TEST(ReadSummary, AnOlderOrUnfinishedSummaryKeepsTheDefaults) {
  auto read = SummaryFromJson({{"app", "x"}, {"stop_reason", "running"}, {"units_total", nullptr}},
                              "summary.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->events, 0);
  EXPECT_FALSE(read->units_total);
  EXPECT_FALSE(read->functional);
  EXPECT_TRUE(read->crashes.empty());
}

TEST(ReadSummary, AFieldOfTheWrongTypeIsNamedWithItsPlace) {
  json j = SummaryToJson(Full());
  j["crashes"][0]["count"] = "three";
  auto read = SummaryFromJson(j, "out/summary.json");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            "out/summary.json.crashes[0].count: expected an integer, got \"three\"")
      << read.status().message();
  j = SummaryToJson(Full());
  j["timing"]["act"]["seconds"] = "slow";
  read = SummaryFromJson(j, "s.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("s.json.timing.act.seconds"), std::string::npos)
      << read.status().message();
  EXPECT_FALSE(SummaryFromJson(json::array(), "s.json").ok());
  EXPECT_FALSE(SummaryFromJson({{"anrs", 3}}, "s.json").ok());
  j = SummaryToJson(Full());
  j["device_life"]["away"] = "twice";
  read = SummaryFromJson(j, "s.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("device_life"), std::string::npos)
      << read.status().message();
}

TEST(ReadBug, ReadsBackAndNamesAWrongField) {
  const auto dir = testing::TempDir("read_bug");
  BugRecord bug{.id = "B1",
                .failure = Full().crashes[0],
                .frames = {"at A.onClick"},
                .log = "log",
                .replay = {{"app", "x"}},
                .reproduced = true,
                .screenshots = {"steps/001.png"}};
  ASSERT_TRUE(WriteBug(dir, bug, {}).ok());
  auto read = ReadBug(dir);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->failure.signature, bug.failure.signature);
  EXPECT_EQ(read->reproduced, true);
  EXPECT_EQ(read->screenshots, bug.screenshots);
  auto j = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(j.ok());
  (*j)["frames"] = "not a list";
  ASSERT_TRUE(WriteJsonFile(dir / "bug.json", *j).ok());
  read = ReadBug(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("bug.json.frames"), std::string::npos)
      << read.status().message();
}

}  // namespace
}  // namespace roam::report
