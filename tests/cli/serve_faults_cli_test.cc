// `roam sim serve --faults`: a spec it cannot read is a usage error naming the item, and the
// faults that happened are counted in --out DIR/summary.json, so a test can check that its
// client met them (issue 59 item 7).
#include <gtest/gtest.h>

#include "base/files.h"
#include "report/summary.h"
#include "test_paths.h"

namespace roam {
namespace {

TEST(SimServeFaults, ABadSpecIsAUsageErrorNamingTheItem) {
  auto r =
      testing::RunRoam("sim serve --app " + (testing::SourceDir() / "apps/diary.json").string() +
                       " --port 0 --faults offline@1s+2s,unplug@3s");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--faults: 'unplug@3s': no fault 'unplug'"), std::string::npos) << r.out;
}

TEST(SimServeFaults, TheSummaryCountsTheFaultsThatHappened) {
  const auto out = testing::TempDir("serve_faults_cli");
  auto r = testing::RunCommand(
      "timeout -s TERM 2 " + testing::RoamBinary() + " sim serve --app " +
      (testing::SourceDir() / "apps/diary.json").string() +
      " -q --port 0 --faults adb-restart@200ms+100ms,uia2-kill@300ms,source500=1/2 --out " +
      out.string() + " 2>&1");
  EXPECT_EQ(r.code, 124) << r.out;  // served until stopped
  auto summary = report::ReadSummary(out / "summary.json");
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  const auto& faults = summary->sections["faults"];
  ASSERT_TRUE(faults.is_object()) << summary->sections.dump();
  EXPECT_EQ(faults["happened"]["adb-restart"], 1);
  EXPECT_FALSE(faults["happened"].contains("uia2-kill")) << "no server ran to be killed";
  EXPECT_FALSE(faults["happened"].contains("source500")) << "no page source was asked for";
  ASSERT_EQ(faults["log"].size(), 2u) << faults.dump();
  EXPECT_EQ(faults["log"][0]["fault"], "adb-restart");
  EXPECT_TRUE(faults["log"][0].contains("end_s")) << "the port answered again";
  EXPECT_EQ(faults["log"][1]["fault"], "uia2-kill");
  EXPECT_EQ(faults["log"][1]["happened"], false);
  EXPECT_EQ(faults["spec"],
            nlohmann::json({"adb-restart@200ms+100ms", "uia2-kill@300ms", "source500=1/2"}));
}

}  // namespace
}  // namespace roam
