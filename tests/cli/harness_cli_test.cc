// The harness's flags as a user meets them: bad files stop `roam explore` and `roam bench`
// with the file and the fault; good ones run, and the login script gets past the shop's wall.

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam {
namespace {

using Ran = testing::CommandRun;
Ran Roam(const std::string& args) { return testing::RunRoam(args); }

std::string Shop() { return (testing::SourceDir() / "apps/bench/shop.json").string(); }

std::string Write(const std::string& name, const std::string& content) {
  auto path = testing::TempDir("harness_cli_files") / name;
  std::ofstream(path) << content;
  return path.string();
}

TEST(HarnessCli, BadHarnessFilesAreRefusedWithTheFileAndTheFault) {
  auto out = testing::TempDir("harness_cli_bad").string();
  const std::string explore = "explore -q --app " + Shop() + " --events 10 --force --out " + out;
  Ran r = Roam(explore + " --strings /nonexistent/words.txt");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--strings: /nonexistent/words.txt: no such file"), std::string::npos)
      << r.out;

  std::string filters =
      Write("filters.json", "{\"widgets\": {\"black\": [{\"rect\": [0, 0.5, 1]}]}}");
  r = Roam(explore + " --filters " + filters);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(filters + ": widgets.black[0].rect"), std::string::npos) << r.out;

  std::string malformed = Write("actions.json", "{\"actions\": [\n  {\"steps\": [}\n]}");
  r = Roam(explore + " --actions " + malformed);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(malformed + ":2:"), std::string::npos) << r.out;

  std::string typo = Write("typo.json", "{\"widget\": {}}");
  r = Roam("bench -q --apps " + Shop() + " --strategies random --seeds 1 --events 10 --out " + out +
           " --filters " + typo);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown key \"widget\" (did you mean \"widgets\"?)"), std::string::npos)
      << r.out;
}

TEST(HarnessCli, TheLoginScriptAndTheInputFlagsRunAndAreRecorded) {
  auto out = testing::TempDir("harness_cli_run");
  std::string actions = (testing::SourceDir() / "apps/bench/config/shop.actions.json").string();
  Ran r =
      Roam("explore -q --app " + Shop() + " --events 400 --seed 2 --force --out " + out.string() +
           " --actions " + actions + " --input-pct-awkward 100 --input-pct-plain 0");
  ASSERT_EQ(r.code, 0) << r.out;
  auto config = ReadJsonFile(out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["harness"]["actions"], actions);
  EXPECT_EQ((*config)["harness"]["text_input"], true);
  EXPECT_EQ((*config)["harness"]["input_mix"]["pct_awkward"], 100.0);
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_GT((*summary)["activities_covered"].size(), 2u) << r.out;  // past the login wall
  // Without any harness flag there is no harness.
  auto plain = testing::TempDir("harness_cli_plain");
  r = Roam("explore -q --app " + Shop() + " --events 50 --seed 2 --force --out " + plain.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(std::filesystem::exists(plain / "harness.json"));
  EXPECT_FALSE(ReadJsonFile(plain / "config.json")->contains("harness"));
}

}  // namespace
}  // namespace roam
