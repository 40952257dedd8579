// Several devices in one run (run/explore/fleet.h): simulated copies sharing one fastbot model,
// bugs de-duplicated across devices, one summary; and Android devices through `roam sim serve`'s
// server, one of which goes offline for good while the other finishes.
#include "run/explore/fleet.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "run/crash_bug.h"
#include "run/explore/explore.h"
#include "run_test_util.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

ExploreOptions Sim(const std::string& app, const std::string& strategy, int devices, int64_t events,
                   uint64_t seed, const std::string& out) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / app;
  o.strategy = strategy;
  o.devices = devices;
  o.seed = seed;
  o.out = testing::TempDir(out);
  o.force = true;
  o.budget.events = events;
  o.html_report = false;
  return o;
}

TEST(Fleet, TwoDevicesWriteATraceEachAndOneSummaryOfTheRun) {
  ExploreOptions o = Sim("tests/apps/deep.json", "fastbot", 2, 601, 1, "fleet_files");
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const auto& out = o.out;
  EXPECT_EQ(s->events, 601);  // the budget is the run's: 301 + 300
  EXPECT_EQ(s->device, "2 devices");
  EXPECT_EQ(s->stop_reason, "events");
  for (const char* tag : {"sim-1", "sim-2"}) {
    EXPECT_TRUE(std::filesystem::exists(out / fmt::format("trace-{}.jsonl", tag))) << tag;
    EXPECT_TRUE(std::filesystem::exists(out / fmt::format("summary-{}.json", tag))) << tag;
  }
  EXPECT_FALSE(std::filesystem::exists(out / "trace.jsonl"));
  auto j = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(j.ok()) << j.status().message();
  const auto& devices = (*j)["devices"];
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0]["events"].get<int64_t>() + devices[1]["events"].get<int64_t>(), 601);
  // The run's activities and states are the unions of the devices'.
  size_t most = 0;
  for (const auto& d : devices) {
    most = std::max(most, d["activities"].get<size_t>());
    EXPECT_TRUE(d["dropped"].is_null());
    EXPECT_LE(d["states"].get<size_t>(), s->states);
  }
  EXPECT_GE(s->activities_covered.size(), most);
  auto config = ReadJsonFile(out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["devices"].size(), 2u);
  EXPECT_TRUE((*config)["shared_model"].get<bool>());
}

// Fastbot's model and run state are shared: what one device visited, the other need not.
// tests/apps/deep.json: GoalActivity is 6 clicks deep, two of six buttons on each screen lead
// back. Over 6 seeds, two devices with half the events each reach at least the activities one
// device reaches with all of them. The devices take turns, so the test sees the same runs
// every time (free-running, the sum of the two-device runs varied from 33 to 37 against one
// device's 33).
TEST(Fleet, TwoDevicesSharingAModelCoverWhatOneDeviceCoversWithTheSameEvents) {
  size_t one = 0, two = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto a = Explore(Sim("tests/apps/deep.json", "fastbot", 1, 300, seed, "fleet_one"));
    ExploreOptions o = Sim("tests/apps/deep.json", "fastbot", 2, 300, seed, "fleet_two");
    o.lockstep = true;
    auto b = Explore(o);
    ASSERT_TRUE(a.ok() && b.ok());
    one += a->activities_covered.size();
    two += b->activities_covered.size();
  }
  EXPECT_GE(two, one);
}

TEST(Fleet, ACrashMetOnBothDevicesIsOneBugWithBothCounts) {
  ExploreOptions o = Sim("tests/apps/crashy.json", "random", 2, 4000, 1, "fleet_crash");
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->crashes.size(), 1u);
  const auto& crash = s->crashes[0];
  EXPECT_EQ(crash.bug_dir, "bugs/B1");
  EXPECT_TRUE(std::filesystem::exists(o.out / "bugs/B1/bug.json"));
  EXPECT_FALSE(std::filesystem::exists(o.out / "bugs/B2"));
  auto j = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(j.ok());
  int per_device = 0, devices_with_it = 0;
  for (const auto& d : (*j)["devices"]) {
    if (!d["failures"].contains(crash.signature)) continue;
    ++devices_with_it;
    per_device += d["failures"][crash.signature].get<int>();
  }
  EXPECT_EQ(devices_with_it, 2) << "seed 1 meets the crash on both devices";
  EXPECT_EQ(crash.count, per_device);
  // Each device's own summary points at the one folder.
  for (const char* tag : {"sim-1", "sim-2"}) {
    auto d = ReadJsonFile(o.out / fmt::format("summary-{}.json", tag));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ((*d)["crashes"][0]["bug_dir"], "bugs/B1") << tag;
  }
}

// Properties on two devices: a violation both meet is one folder, bugs/P1, put down to its planted
// bug; each property's figures are the two devices' summed.
TEST(Fleet, APropertyViolatedOnBothDevicesIsOneBugAndItsFiguresAreSummed) {
  ExploreOptions o = Sim("apps/bench/tasks.json", "random", 2, 20000, 2, "fleet_properties");
  o.oracle_files["properties"] = testing::SourceDir() / "apps/bench/config/tasks.properties.json";
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE(s->functional.has_value());
  ASSERT_EQ(s->functional->size(), 1u);
  const auto& p1 = s->functional->front();
  EXPECT_EQ(p1.bug_dir, "bugs/P1");
  EXPECT_EQ(p1.bug_id, "tasks-tag-shown-twice");
  EXPECT_TRUE(std::filesystem::exists(o.out / "bugs/P1/bug.json"));
  EXPECT_FALSE(std::filesystem::exists(o.out / "bugs/P2"));
  int64_t held = 0, violated = 0;
  for (const char* tag : {"sim-1", "sim-2"}) {
    auto d = ReadJsonFile(o.out / fmt::format("summary-{}.json", tag));
    ASSERT_TRUE(d.ok());
    const auto& first = (*d)["properties"]["properties"][0];
    held += first["precondition_held"].get<int64_t>();
    violated += first["violated"].get<int64_t>();
    ASSERT_EQ((*d)["functional"].size(), 1u) << tag;
    EXPECT_EQ((*d)["functional"][0]["bug_dir"], "bugs/P1") << tag;
  }
  const auto& merged = s->sections["properties"]["properties"][0];
  EXPECT_EQ(merged["precondition_held"], held);
  EXPECT_EQ(merged["violated"], violated);
  EXPECT_EQ(p1.count, violated) << "each violation counted once, on the device that met it";
}

// DinoDroid's network, graph and replay memory are one: both devices' steps train it.
TEST(Fleet, TwoDevicesTrainOneDqnNetwork) {
  ExploreOptions o = Sim("tests/apps/deep.json", "dqn", 2, 400, 1, "fleet_dqn");
  o.strategy_settings.dqn.vectors = "hashed";
  o.strategy_settings.dqn.model = testing::TempDir("fleet_dqn_model") / "model.bin";
  o.strategy_settings.dqn.create = true;
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto dqn = ReadJsonFile(o.out / "dqn.json");
  ASSERT_TRUE(dqn.ok()) << dqn.status().message();
  // Each device learns from all but its first step and those after its system events (one in
  // ten): more than one device's 200 events' worth.
  EXPECT_GT((*dqn)["updates"].get<int64_t>(), 300);
  EXPECT_LE((*dqn)["updates"].get<int64_t>(), 400);
  EXPECT_TRUE(std::filesystem::exists(o.strategy_settings.dqn.model));
}

// Networks apart: each device's strategy has figures of its own, so each writes its file; the
// settings in config.json are the strategy's own sections, nothing of a strategy not run.
TEST(Fleet, SeparateDqnNetworksWriteTheirFiguresEach) {
  ExploreOptions o = Sim("tests/apps/deep.json", "dqn", 2, 200, 1, "fleet_dqn_apart");
  o.strategy_settings.dqn.vectors = "hashed";
  o.share_model = false;
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_FALSE(std::filesystem::exists(o.out / "dqn.json"));
  for (const char* tag : {"sim-1", "sim-2"}) {
    auto dqn = ReadJsonFile(o.out / fmt::format("dqn-{}.json", tag));
    ASSERT_TRUE(dqn.ok()) << dqn.status().message();
    EXPECT_GT((*dqn)["decisions"].get<int64_t>(), 0) << tag;
  }
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->contains("dqn"));
  EXPECT_FALSE(config->contains("random"));
  EXPECT_FALSE(config->contains("fastbot"));
}

// In lockstep the devices' steps meet the shared model in one order: the same seed, the same run.
TEST(Fleet, InLockstepARunIsReproducibleFromItsSeed) {
  std::string first;
  for (int run = 0; run < 3; ++run) {
    ExploreOptions o = Sim("apps/bench/settings.json", "fastbot", 3, 1500, 7, "fleet_lockstep");
    o.lockstep = true;
    auto s = Explore(o);
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::string traces;
    for (const char* tag : {"sim-1", "sim-2", "sim-3"}) {
      auto text = ReadFile(o.out / fmt::format("trace-{}.jsonl", tag));
      ASSERT_TRUE(text.ok());
      traces += *text;
    }
    if (run == 0) {
      first = traces;
    } else {
      EXPECT_TRUE(traces == first) << "run " << run << " differs";
    }
  }
}

TEST(Fleet, RefusesWhatItCannotDo) {
  auto tiny = Explore(Sim("tests/apps/deep.json", "random", 3, 2, 1, "fleet_refused"));
  ASSERT_FALSE(tiny.ok());
  EXPECT_NE(tiny.status().message().find("cannot be divided"), std::string::npos);
  ExploreOptions phone = Sim("tests/apps/deep.json", "random", 2, 100, 1, "fleet_refused");
  phone.target.android.serial = "emulator-5554";  // one device named, two asked for
  auto copies = Explore(phone);
  ASSERT_FALSE(copies.ok());
  EXPECT_NE(copies.status().message().find("--serial A,B,C"), std::string::npos);
  phone.serials = {"emulator-5554", "emulator-5556"};  // devices named, and copies asked for
  auto both = Explore(phone);
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.status().message().find("--serial A,B,C"), std::string::npos);
  ExploreOptions kept = Sim("tests/apps/deep.json", "fastbot", 2, 100, 1, "fleet_refused");
  kept.share_model = false;
  kept.strategy_settings.fastbot.model_dir = testing::TempDir("fleet_refused_model");
  auto separate = Explore(kept);
  ASSERT_FALSE(separate.ok());
  EXPECT_NE(separate.status().message().find("--model"), std::string::npos);
}

TEST(SharedBugs, EachSignatureIsClaimedOnceUnderContention) {
  SharedBugs bugs;
  std::atomic<int> firsts = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        oracle::Finding f;
        f.signature = fmt::format("sig{}", i % 50);
        f.kind = i % 50 < 10 ? "anr" : "crash";
        if (bugs.ClaimFor(f).first) ++firsts;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(firsts.load(), 50);
  EXPECT_EQ(bugs.crashes(), 40u);
  EXPECT_EQ(bugs.anrs(), 10u);
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    oracle::Finding f;
    f.signature = fmt::format("sig{}", i);
    auto claim = bugs.ClaimFor(f);
    EXPECT_FALSE(claim.first);
    ids.insert(claim.id);
  }
  EXPECT_EQ(ids.size(), 50u);
  EXPECT_TRUE(ids.count("B1") && ids.count("B50"));
}

TEST(Fleet, MergedSummaryAddsCountsOfOneCrashAndUnitesActivities) {
  report::Summary a, b;
  a.device = "sim-a";
  a.events = 10;
  a.wall_seconds = 2;
  a.stop_reason = "events";
  a.activities_covered = {"A", "B"};
  a.crashes = {{.kind = "crash", .signature = "s1", .count = 2, .bug_dir = "bugs/B1"}};
  b = a;
  b.events = 7;
  b.wall_seconds = 3;
  b.stop_reason = "device error: gone";
  b.activities_covered = {"B", "C"};
  b.crashes = {{.kind = "crash", .signature = "s1", .count = 3, .bug_dir = "bugs/B1"},
               {.kind = "crash", .signature = "s2", .count = 1, .bug_dir = "bugs/B2"}};
  auto m = MergeDeviceSummaries({a, b}, {"x", "y"}, 5, 12);
  EXPECT_EQ(m.events, 17);
  EXPECT_EQ(m.wall_seconds, 3);
  EXPECT_EQ(m.activities_covered, (std::vector<std::string>{"A", "B", "C"}));
  ASSERT_EQ(m.crashes.size(), 2u);
  EXPECT_EQ(m.crashes[0].count, 5);
  EXPECT_EQ(m.crashes[1].bug_dir, "bugs/B2");
  EXPECT_EQ(m.states, 5u);
  EXPECT_EQ(m.units_covered, 12u);
  EXPECT_EQ(m.stop_reason, "x: events; y: device error: gone");
}

// --- Android devices through the adb protocol ---------------------------------------------

constexpr char kPackage[] = "org.roam.crashy";

std::unique_ptr<serve::SimAdbServer> ServeTwo() {
  auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  serve::SimAdbServerOptions so;
  so.port = 0;
  so.devices = 2;
  auto server = std::make_unique<serve::SimAdbServer>(*spec, so);
  Status st = server->Start();
  EXPECT_TRUE(st.ok()) << st.message();
  return server;
}

ExploreOptions OnServer(const serve::SimAdbServer& server, const std::string& out) {
  ExploreOptions o;
  o.seed = 1;
  o.out = testing::TempDir(out);
  o.force = true;
  o.budget.events = 3000;
  o.serials = server.Serials();
  o.target.android.serial = o.serials.front();
  o.target.android.host = "127.0.0.1";
  o.target.android.port = server.port();
  o.target.android.package = kPackage;
  o.target.android.io_timeout_ms = 5000;
  o.target.android.offline_timeout_ms = 100;
  o.target.android.offline_wait_ms = 20;
  o.target.android.launch_timeout_ms = 1000;
  o.html_report = false;
  return o;
}

TEST(FleetAndroid, TwoServedDevicesFindTheCrashOnceAndADroppedDeviceLeavesTheOtherRunning) {
  auto server = ServeTwo();
  ASSERT_EQ(server->Serials().size(), 2u);
  ExploreOptions o = OnServer(*server, "fleet_android");
  const std::string gone = o.serials[1];
  // The second device goes offline for good once it has had 300 events.
  std::thread drop([&] {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      auto* dev = server->Device(gone);
      if (dev && dev->Stats().input_events >= 300) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server->SetOffline(gone, true);
  });
  auto s = Explore(o);
  drop.join();
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto j = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(j.ok());
  const auto& devices = (*j)["devices"];
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0]["device"], o.serials[0]);
  EXPECT_EQ(devices[0]["events"], 1500);
  EXPECT_TRUE(devices[0]["dropped"].is_null());
  const auto& dropped = devices[1]["dropped"];
  ASSERT_FALSE(dropped.is_null()) << devices[1].dump();
  EXPECT_GE(dropped["after_events"].get<int64_t>(), 300);
  EXPECT_LT(dropped["after_events"].get<int64_t>(), 1500);
  EXPECT_NE(dropped["error"].get<std::string>().find("offline"), std::string::npos);
  EXPECT_NE(s->stop_reason.find(gone + ": device error"), std::string::npos) << s->stop_reason;
  for (const auto& serial : o.serials)
    EXPECT_TRUE(std::filesystem::exists(o.out / fmt::format("trace-{}.jsonl", serial)));
  // The planted crash, found through adb, is one bug.
  ASSERT_EQ(s->crashes.size(), 1u);
  EXPECT_EQ(s->crashes[0].bug_dir, "bugs/B1");
}

}  // namespace
}  // namespace roam::run
