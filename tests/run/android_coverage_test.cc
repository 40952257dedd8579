// Issue 43 end to end: a served app's JaCoCo agent read over adb. Roam's AndroidDevice forwards
// a port to the app's agent through the adb server (`roam sim serve`'s, in-process), dumps after
// every step, and reports exactly the units the simulator behind the server ran; the run folder
// keeps coverage.exec; time travel and dqn pick their coverage rules; the file mode (a broadcast,
// then a sync pull) reads the same.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "base/files.h"
#include "device/jacoco/exec_reader.h"
#include "run/explore/explore.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_jacoco.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using device::android::CoverageSettings;

constexpr char kSerial[] = "emulator-5554";

struct Served {
  std::shared_ptr<const sim::AppSpec> spec;
  std::unique_ptr<serve::SimAdbServer> server;
};

Served Serve(const std::string& app) {
  Served s;
  auto spec = sim::LoadSpec(testing::SourceDir() / app);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  s.spec = *spec;
  serve::SimAdbServerOptions so;
  so.port = 0;
  so.serial = kSerial;
  s.server = std::make_unique<serve::SimAdbServer>(s.spec, so);
  EXPECT_TRUE(s.server->Start().ok());
  return s;
}

ExploreOptions CoverageRun(const Served& s, const std::string& out, const std::string& strategy,
                           CoverageSettings coverage) {
  ExploreOptions o;
  o.seed = 3;
  o.out = testing::TempDir(out);
  o.strategy = strategy;
  o.budget.events = 400;
  auto& a = o.target.android;
  a.serial = kSerial;
  a.host = "127.0.0.1";
  a.port = s.server->port();
  a.package = s.spec->package();
  a.io_timeout_ms = 5000;
  a.launch_timeout_ms = 1000;
  a.coverage = coverage;
  return o;
}

// The simulator's own units of `covered` ("class#probe" names from the device).
std::set<std::string> SimUnits(const Served& s, const std::vector<std::string>& covered) {
  std::set<std::string> units;
  for (const std::string& name : covered) {
    const size_t hash = name.rfind('#');
    units.insert(serve::UnitOfProbe(s.spec->package(), s.spec->units(), name.substr(0, hash),
                                    std::stoul(name.substr(hash + 1))));
  }
  return units;
}

TEST(AndroidCoverage, JacocoOverAdbReportsTheUnitsTheSimulatorRan) {
  Served s = Serve("apps/diary.json");
  ExploreOptions o =
      CoverageRun(s, "android_cov_tcp", "random", {.mode = CoverageSettings::Mode::kJacocoTcp});
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  const auto truth = s.server->Device(kSerial)->Stats().covered_units;
  ASSERT_GT(truth.size(), 5u);
  ASSERT_TRUE(summary->units_covered.has_value());
  EXPECT_EQ(*summary->units_covered, truth.size());
  // coverage.exec holds them, and names the same units.
  auto bytes = ReadFile(o.out / "coverage.exec");
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto exec = device::jacoco::ParseExec(*bytes);
  ASSERT_TRUE(exec.ok()) << exec.status().message();
  EXPECT_EQ(exec->CoveredCount(), truth.size());
  std::vector<std::string> names;
  for (const auto& [id, c] : exec->classes)
    for (size_t p = 0; p < c.probes.size(); ++p)
      if (c.probes[p]) names.push_back(c.name + "#" + std::to_string(p));
  EXPECT_EQ(SimUnits(s, names), std::set<std::string>(truth.begin(), truth.end()));
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["coverage"], "jacoco-tcp:6300");
}

TEST(AndroidCoverage, AFleetsCoverageIsTheUnionOfItsDevices) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  Served s{.spec = *spec};
  s.server = std::make_unique<serve::SimAdbServer>(
      s.spec, serve::SimAdbServerOptions{.port = 0, .serial = kSerial, .devices = 2});
  ASSERT_TRUE(s.server->Start().ok());
  ExploreOptions o =
      CoverageRun(s, "android_cov_fleet", "random", {.mode = CoverageSettings::Mode::kJacocoTcp});
  o.serials = s.server->Serials();
  o.budget.events = 200;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  std::set<std::string> truth;
  for (const auto& serial : o.serials)
    for (const auto& u : s.server->Device(serial)->Stats().covered_units) truth.insert(u);
  ASSERT_TRUE(summary->units_covered.has_value());
  EXPECT_EQ(*summary->units_covered, truth.size());
  auto exec = device::jacoco::ParseExec(*ReadFile(o.out / "coverage.exec"));
  ASSERT_TRUE(exec.ok()) << exec.status().message();
  EXPECT_EQ(exec->CoveredCount(), truth.size());
}

TEST(AndroidCoverage, TheFileModeReadsTheSameThroughABroadcastAndAPull) {
  Served s = Serve("apps/diary.json");
  const std::string file = serve::SimCoverageFile(s.spec->package());
  ExploreOptions o =
      CoverageRun(s, "android_cov_file", "random",
                  {.mode = CoverageSettings::Mode::kJacocoFile,
                   .file = file,
                   .trigger = "am broadcast -n " + s.spec->package() + "/.CoverageReceiver"});
  o.budget.events = 150;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  const auto truth = s.server->Device(kSerial)->Stats().covered_units;
  ASSERT_TRUE(summary->units_covered.has_value());
  EXPECT_EQ(*summary->units_covered, truth.size());
}

TEST(AndroidCoverage, TimeTravelAndDqnPickTheirCoverageRules) {
  for (const char* strategy : {"timetravel:random", "dqn"}) {
    Served s = Serve("apps/diary.json");
    ExploreOptions o =
        CoverageRun(s, std::string("android_cov_rule_") + (strategy[0] == 't' ? "tt" : "dqn"),
                    strategy, {.mode = CoverageSettings::Mode::kJacocoTcp});
    o.budget.events = 150;
    auto summary = Explore(o);
    ASSERT_TRUE(summary.ok()) << strategy << ": " << summary.status().message();
    auto config = ReadJsonFile(o.out / "config.json");
    ASSERT_TRUE(config.ok());
    const std::string dump = config->dump();
    if (strategy[0] == 't')
      EXPECT_NE(dump.find("\"interesting\":\"coverage\""), std::string::npos) << dump;
    else
      EXPECT_NE(dump.find("\"reward_rule\":\"coverage\""), std::string::npos) << dump;
  }
}

}  // namespace
}  // namespace roam::run
