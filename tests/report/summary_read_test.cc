// summary.json and bug.json read back as they were written, with errors that say where.
#include <gtest/gtest.h>

#include "base/files.h"
#include "report/summary.h"
#include "report/summary_sections.h"
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

json Written(const Summary& s) {
  auto j = SummaryToJson(s);
  EXPECT_TRUE(j.ok()) << j.status().message();
  return j.ok() ? *j : json();
}

TEST(ReadSummary, ReadsBackWhatWasWritten) {
  const json written = Written(Full());
  auto read = SummaryFromJson(written, "summary.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(Written(*read), written);
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
  json j = Written(Full());
  j["crashes"][0]["count"] = "three";
  auto read = SummaryFromJson(j, "out/summary.json");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            "out/summary.json.crashes[0].count: expected an integer, got \"three\"")
      << read.status().message();
  j = Written(Full());
  j["timing"]["act"]["seconds"] = "slow";
  read = SummaryFromJson(j, "s.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("s.json.timing.act.seconds"), std::string::npos)
      << read.status().message();
  EXPECT_FALSE(SummaryFromJson(json::array(), "s.json").ok());
  EXPECT_FALSE(SummaryFromJson({{"anrs", 3}}, "s.json").ok());
  j = Written(Full());
  j["device_life"]["away"] = "twice";
  read = SummaryFromJson(j, "s.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("device_life"), std::string::npos)
      << read.status().message();
}

// Every section of the table (each one some Roam has written) reads back as written, and none is
// taken for one of Summary's own fields.
TEST(ReadSummary, EverySectionOfTheTableReadsBack) {
  Summary s = Full();
  for (const SummarySection& section : kSummarySections)
    s.sections[std::string(section.name)] = {{"written_as", section.name}};
  const json written = Written(s);
  auto read = SummaryFromJson(written, "summary.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->sections, s.sections);
  EXPECT_EQ(Written(*read), written);
}

// Regression: a top-level key of no field and no section (a typo of "fuzz", or a section a newer
// Roam writes) was copied into `sections` unchecked, and written back by `roam coverage`.
TEST(ReadSummary, AKeyOfNoFieldAndNoSectionIsAnErrorNamingItAndTheFile) {
  json j = Written(Full());
  j["fuzzz"] = {{"seeds", 9}};
  auto read = SummaryFromJson(j, "out/summary.json");
  ASSERT_FALSE(read.ok()) << "copied: " << read->sections.dump();
  EXPECT_EQ(read.status().message(),
            "out/summary.json: unknown key \"fuzzz\" (did you mean \"fuzz\"?): neither a field "
            "of summary.json nor a section of report/summary_sections.h")
      << read.status().message();
}

// Regression: a campaign's section of a name the reader does not know was written unchecked.
TEST(WriteSummary, RefusesASectionNotInTheTable) {
  const auto dir = testing::TempDir("write_summary_section");
  Summary s = Full();
  s.sections["visoin"] = {{"questions", 1}};
  const Status st = WriteSummary(dir / "summary.json", s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), (dir / "summary.json").string() +
                              ": section \"visoin\" (did you mean \"vision\"?) is not in "
                              "report/summary_sections.h's table")
      << st.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "summary.json"));
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
