// The replay record of bug.json: written by every campaign, read back with checked types, and a
// bug folder whose record is malformed gives an error naming the file and the field.
#include "run/replay_spec.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "run/explore/explore.h"
#include "run/triage/replay.h"
#include "run_test_util.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using nlohmann::json;

TEST(ReplaySpec, RoundTripsBothTargets) {
  ReplaySpec sim{.app = "/a/app.json", .seed = 7, .bugs_off = {"x"}, .signature_frames = 4};
  auto back = ReplaySpecFromJson(ReplaySpecToJson(sim), "r");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->target, ReplaySpec::Target::kSim);
  EXPECT_EQ(back->app, "/a/app.json");
  EXPECT_EQ(back->seed, 7u);
  EXPECT_EQ(back->bugs_off, std::vector<std::string>{"x"});
  EXPECT_EQ(back->signature_frames, 4);
  ReplaySpec phone{.target = ReplaySpec::Target::kAndroid,
                   .serial = "emulator-5554",
                   .port = 5038,
                   .package = "org.app"};
  back = ReplaySpecFromJson(ReplaySpecToJson(phone), "r");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->target, ReplaySpec::Target::kAndroid);
  EXPECT_EQ(back->serial, "emulator-5554");
  EXPECT_EQ(back->port, 5038);
  EXPECT_EQ(back->package, "org.app");
  // Driven as the run drove it (issue 62 item 3: a uia2 run's bugs replayed through uiautomator).
  EXPECT_EQ(back->driver, device::android::DriverKind::kUiautomator);
  phone.driver = device::android::DriverKind::kUia2;
  phone.uia2.settle = device::android::Uia2Settings::Settle::kCompare;
  phone.uia2.settle_ms = 900;
  phone.input.swipe_ms = 120;
  phone.permissions = device::android::AndroidDeviceOptions::PermissionChoice::kDeny;
  back = ReplaySpecFromJson(ReplaySpecToJson(phone), "r");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->driver, device::android::DriverKind::kUia2);
  EXPECT_EQ(back->uia2.settle, device::android::Uia2Settings::Settle::kCompare);
  EXPECT_EQ(back->uia2.settle_ms, 900);
  EXPECT_EQ(back->input.swipe_ms, 120);
  EXPECT_EQ(back->permissions, device::android::AndroidDeviceOptions::PermissionChoice::kDeny);
}

TEST(ReplaySpec, WrongTypesAreLocatedErrors) {
  auto error = [](const json& j) {
    auto r = ReplaySpecFromJson(j, "bug.json: replay");
    return r.ok() ? std::string("accepted") : r.status().message();
  };
  EXPECT_EQ(error({{"device", "sim"}, {"app", "a.json"}, {"seed", "seven"}}),
            "bug.json: replay.seed: expected an unsigned integer, got \"seven\"");
  EXPECT_EQ(error({{"device", "sim"}, {"app", "a.json"}, {"seed", -1}}),
            "bug.json: replay.seed: expected an unsigned integer, got -1");
  EXPECT_EQ(error({{"device", "sim"}, {"app", 3}}),
            "bug.json: replay.app: expected a string, got 3");
  EXPECT_EQ(error({{"device", "sim"}, {"app", "a"}, {"bugs_off", {"a", 1}}}),
            "bug.json: replay.bugs_off: expected an array of strings, got [\"a\",1]");
  EXPECT_EQ(error({{"device", "android"}, {"port", "x"}, {"package", "p"}}),
            "bug.json: replay.port: expected an integer, got \"x\"");
  EXPECT_EQ(error({{"device", "android"}}), "bug.json: replay: names no package");
  EXPECT_EQ(error({{"device", "android"}, {"package", "p"}, {"driver", "adb"}}),
            "bug.json: replay.driver: unknown driver \"adb\" (uia2 or uiautomator)");
  EXPECT_EQ(error({{"device", "phone"}}),
            "bug.json: replay: replay on device \"phone\" is not supported (sim or android)");
  EXPECT_EQ(error(json::array()), "bug.json: replay: expected an object, got []");
}

// A bug folder whose bug.json says "seed": "seven" is refused with its path, not a crash.
TEST(ReplayBug, AMalformedBugJsonIsAnErrorNamingTheFile) {
  ExploreOptions o = CrashyRun("replay_malformed");
  o.force = true;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ASSERT_FALSE(summary->crashes.empty());
  const auto dir = o.out / summary->crashes[0].bug_dir;
  ASSERT_TRUE(ReplayBug(dir).ok());
  auto bug = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(bug.ok());
  (*bug)["replay"]["seed"] = "seven";
  ASSERT_TRUE(WriteFileAtomic(dir / "bug.json", bug->dump(2)).ok());
  auto replay = ReplayBug(dir);
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.status().message().find((dir / "bug.json").string() + ": replay.seed"),
            std::string::npos)
      << replay.status().message();
  // An empty trace is an input error too, not a replay that "did not reproduce".
  (*bug)["replay"]["seed"] = 1;
  ASSERT_TRUE(WriteFileAtomic(dir / "bug.json", bug->dump(2)).ok());
  ASSERT_TRUE(WriteFileAtomic(dir / "trace.jsonl", "").ok());
  replay = ReplayBug(dir);
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.status().message().find("trace.jsonl: holds no steps"), std::string::npos);
}

// A run killed with SIGKILL leaves summary.json saying "running": its bugs replay, and the
// replay says the run's figures are not final.
TEST(ReplayBug, ABugOfAnUnfinishedRunReplaysWithANote) {
  ExploreOptions o = CrashyRun("replay_unfinished");
  o.force = true;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ASSERT_FALSE(summary->crashes.empty());
  const auto bug = o.out / summary->crashes[0].bug_dir;
  EXPECT_EQ(ReadRunState(o.out), RunState::kFinished);
  auto finished = ReplayBug(bug);
  ASSERT_TRUE(finished.ok());
  EXPECT_EQ(finished->note, "");
  auto j = ReadJsonFile(o.out / "summary.json");
  (*j)["stop_reason"] = "running";
  ASSERT_TRUE(WriteJsonFile(o.out / "summary.json", *j).ok());
  EXPECT_EQ(ReadRunState(o.out), RunState::kUnfinished);
  auto unfinished = ReplayBug(bug.string() + "/");
  ASSERT_TRUE(unfinished.ok()) << unfinished.status().message();
  EXPECT_TRUE(unfinished->reproduced);
  EXPECT_NE(unfinished->note.find("did not finish"), std::string::npos);
  std::filesystem::remove(o.out / "summary.json");
  EXPECT_EQ(ReadRunState(o.out), RunState::kUnfinished);
  EXPECT_EQ(ReadRunState(o.out / "bugs"), RunState::kNone);
}

}  // namespace
}  // namespace roam::run
