// The command line speaks in flags: library messages that name settings as config.json does are
// reworded, and exit codes tell what the user gave wrong from a run that failed.
#include "cli/flags.h"

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

}  // namespace
}  // namespace roam::cli
