// The command line speaks in flags: library messages that name settings as config.json does are
// reworded, and exit codes tell what the user gave wrong from a run that failed.
#include "cli/flags.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/commands.h"

namespace roam::cli {
namespace {

TEST(InFlagTerms, SettingNamesBecomeTheirFlags) {
  EXPECT_EQ(InFlagTerms("time_travel.alpha must be in (0, 1]"), "--tt-alpha must be in (0, 1]");
  EXPECT_EQ(InFlagTerms("cannot load the model: x (fastbot.model_reset sets it aside)"),
            "cannot load the model: x (--model-reset sets it aside)");
  EXPECT_EQ(InFlagTerms("harness.strings: a: no such file; harness.strings again"),
            "--strings: a: no such file; --strings again");
  // Only whole names: time_travel.k is not the start of time_travel.kx.
  EXPECT_EQ(InFlagTerms("time_travel.kx and time_travel.k"), "time_travel.kx and --tt-k");
  EXPECT_EQ(InFlagTerms("nothing to change"), "nothing to change");
}

TEST(Fail, InputFaultsAreUsageAndRunFaultsAreErrors) {
  EXPECT_EQ(Fail("t", Status::InvalidArgument("bad flag")), kExitUsage);
  EXPECT_EQ(Fail("t", Status::NotFound("no file")), kExitUsage);
  EXPECT_EQ(Fail("t", Status::Corruption("bad bug.json")), kExitUsage);
  EXPECT_EQ(Fail("t", Status::Unavailable("device offline")), kExitNo);
  EXPECT_EQ(Fail("t", Status::Io("disk full")), kExitNo);
}

// Issue 62 item 10: a flag of named choices shows them in --help as `auto|uia2|uiautomator`,
// not CLI11's map of names to names, and a wrong one says what it takes, with the closest.
TEST(ParseFlags, ChoicesAreShownAndAWrongOneSaysWhatItTakes) {
  std::optional<device::android::DriverKind> driver;
  auto make = [&](CLI::App& app) {
    AddDriverFlag(app, "how a step reaches the device", /*auto_choice=*/true,
                  [&](std::optional<device::android::DriverKind> d) { driver = d; });
  };
  CLI::App app("test", "test");
  make(app);
  EXPECT_NE(app.help().find("--driver auto|uia2|uiautomator"), std::string::npos) << app.help();
  EXPECT_EQ(app.help().find("->"), std::string::npos) << app.help();
  std::vector<std::string> args = {"test", "--driver", "UIA2"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  EXPECT_EQ(ParseFlags(app, "test", static_cast<int>(argv.size()), argv.data()), -1);
  EXPECT_EQ(driver, device::android::DriverKind::kUia2);
  CLI::App again("test", "test");
  make(again);
  args = {"test", "--driver", "uia3"};
  argv.clear();
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  EXPECT_EQ(ParseFlags(again, "test", static_cast<int>(argv.size()), argv.data()), kExitUsage);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "test: --driver: expected one of auto, uia2, uiautomator (did you mean \"uia2\"?), "
            "got \"uia3\"\n");
}

}  // namespace
}  // namespace roam::cli
