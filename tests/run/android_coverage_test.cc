// Issues 43 and 61 end to end: a served app's JaCoCo agent read over adb. Roam's AndroidDevice
// forwards a port to the app's agent through the adb server (`roam sim serve`'s, in-process), dumps
// after every step, and reports exactly the units the simulator behind the server ran; the run
// folder keeps coverage.exec; time travel and dqn pick their coverage rules; the file mode (a
// broadcast, then `run-as PKG cat`) reads the same; a link that fails is said and steers nothing.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "base/files.h"
#include "device/jacoco/exec_reader.h"
#include "report/trace.h"
#include "run/explore/explore.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_faults.h"
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

Served Serve(const std::filesystem::path& app, serve::SimAdbServerOptions so = {}) {
  Served s;
  auto spec = sim::LoadSpec(app.is_absolute() ? app : testing::SourceDir() / app);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  s.spec = *spec;
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

CoverageSettings FileMode(const Served& s, const std::string& receiver = ".CoverageReceiver") {
  return {.mode = CoverageSettings::Mode::kJacocoFile,
          .file = serve::SimCoverageFile(s.spec->package()),
          .trigger = "am broadcast -n " + s.spec->package() + "/" + receiver,
          .every = 1};
}

// Issue 61: the file where the receiver writes it, the app's private folder, read through
// `run-as` (the served phone refuses adb's sync there); a file a run before left there (every
// unit covered, a day old) counts for nothing.
TEST(AndroidCoverage, TheFileModeReadsThePrivateFileThroughRunAsAndNotAStaleOne) {
  Served s = Serve("apps/diary.json", {.stale_coverage = true});
  ExploreOptions o = CoverageRun(s, "android_cov_file", "random", FileMode(s));
  o.budget.events = 150;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  const auto truth = s.server->Device(kSerial)->Stats().covered_units;
  ASSERT_TRUE(summary->units_covered.has_value());
  EXPECT_EQ(*summary->units_covered, truth.size());
  EXPECT_LT(truth.size(), s.spec->units().size()) << "the run covered all: the test shows nothing";
  ASSERT_TRUE(summary->coverage_link.has_value());
  EXPECT_TRUE(summary->coverage_link->working);
  EXPECT_EQ(summary->coverage_link->failed, 0) << summary->coverage_link->last_error;
  EXPECT_GE(summary->coverage_link->dumps, 150);
  int run_as = 0;
  for (const auto& argv : s.server->Device(kSerial)->History()) run_as += argv[0] == "run-as";
  EXPECT_GT(run_as, 150);
}

// Issue 61: a coverage link that never works (a broadcast no receiver takes; an agent whose
// properties say output=none) is said on the terminal, in config.json and in summary.json, and
// steers nothing: time travel falls back to its GUI rule. --coverage-required stops the run
// before it explores, as a usage error.
TEST(AndroidCoverage, ALinkThatNeverWorksIsSaidAndSteersNothing) {
  struct Case {
    std::string name;
    bool tcpserver;
    std::string why;
  };
  for (const Case& c :
       {Case{"file", true, "reached no receiver"}, Case{"tcp", false, "output=none"}}) {
    Served s = Serve("apps/diary.json", {.jacoco_tcpserver = c.tcpserver});
    CoverageSettings coverage = c.name == "file"
                                    ? FileMode(s, ".Elsewhere")
                                    : CoverageSettings{.mode = CoverageSettings::Mode::kJacocoTcp};
    ExploreOptions o = CoverageRun(s, "android_cov_dead_" + c.name, "timetravel:random", coverage);
    o.budget.events = 30;
    std::vector<std::string> said;
    o.target.android.log = [&said](const std::string& line) { said.push_back(line); };
    auto summary = Explore(o);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    ASSERT_TRUE(summary->coverage_link.has_value()) << c.name;
    EXPECT_FALSE(summary->coverage_link->working) << c.name;
    EXPECT_NE(summary->coverage_link->last_error.find(c.why), std::string::npos)
        << summary->coverage_link->last_error;
    EXPECT_FALSE(summary->units_covered.has_value()) << c.name;
    bool warned = false;
    for (const auto& line : said)
      warned = warned || line.find("does not work") != std::string::npos;
    EXPECT_TRUE(warned) << c.name;
    auto config = ReadJsonFile(o.out / "config.json");
    ASSERT_TRUE(config.ok());
    EXPECT_EQ(config->value("coverage_working", true), false) << config->dump();
    EXPECT_EQ(config->dump().find("\"interesting\":\"coverage\""), std::string::npos);
    EXPECT_NE(config->dump().find("\"interesting\":\"gui\""), std::string::npos);

    o.target.android.coverage.required = true;
    o.out = testing::TempDir("android_cov_required_" + c.name);
    auto stopped = Explore(o);
    ASSERT_FALSE(stopped.ok()) << c.name;
    EXPECT_EQ(stopped.status().code(), Status::Code::kInvalidArgument)
        << stopped.status().message();
    EXPECT_NE(stopped.status().message().find("--coverage-required"), std::string::npos);
  }
}

// Issue 61: the step that ran the code gets its units. On the served phone an input's handlers
// show in a JaCoCo dump only once its screen has settled (every screen of diary slides in for
// 300 ms here), as a phone runs them after the input: a dump taken right after the action would
// credit the step after. Each step that first brought a screen to the front ran that screen's
// code: its trace line has the new units.
TEST(AndroidCoverage, TheStepThatRanTheCodeGetsItsUnits) {
  Served s = Serve(testing::DiaryWithEveryScreen("settle_ms", 300, "android_cov_settle"));
  ExploreOptions o =
      CoverageRun(s, "android_cov_credit", "random", {.mode = CoverageSettings::Mode::kJacocoTcp});
  o.budget.events = 40;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  auto trace = report::ReadTrace(o.out / "trace.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  std::set<std::string> seen;
  int arrivals = 0;
  int64_t credited = 0;
  for (size_t k = 0; k < trace->size(); ++k) {
    const report::TraceStep& step = (*trace)[k];
    credited += step.new_units;
    if (!step.activity.empty()) seen.insert(step.activity);
    if (step.op != "act" || k + 1 == trace->size() || (*trace)[k + 1].op != "act") continue;
    if (seen.count((*trace)[k + 1].activity)) continue;
    ++arrivals;
    EXPECT_GT(step.new_units, 0) << "step " << step.step << " opened " << (*trace)[k + 1].activity;
  }
  EXPECT_GT(arrivals, 0);
  ASSERT_TRUE(summary->units_covered.has_value());
  // The first dump, before any step, holds what the launch ran.
  EXPECT_LE(credited, static_cast<int64_t>(*summary->units_covered));
}

// Issue 61: an adb server that restarts mid-run forgets its forwards; the next dump makes the
// forward to the agent again, and the run's coverage is still all the simulator ran.
TEST(AndroidCoverage, AForwardTheAdbServerForgotIsMadeAgain) {
  auto faults = serve::ParseFaults("adb-restart@400r+500ms");
  ASSERT_TRUE(faults.ok()) << faults.status().message();
  Served s = Serve("apps/diary.json", {.faults = *faults});
  ExploreOptions o =
      CoverageRun(s, "android_cov_restart", "random", {.mode = CoverageSettings::Mode::kJacocoTcp});
  o.budget.events = 200;
  auto summary = Explore(o);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_GT(summary->device_life.away, 0)
      << "the adb server never went away: the test shows nothing";
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
