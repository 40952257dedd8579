// Time travel in the run loop: the trap app random cannot get out of, snapshot restores and
// replayed restores reaching the same state, a path that stops reproducing, and a crash found
// after a restore filed with a short trace that replays.
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/sim_device.h"
#include "run/bench/bench.h"
#include "run/explore/campaign.h"
#include "run/explore/explore.h"
#include "run/progress.h"
#include "run/triage/replay.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

std::filesystem::path Vault() { return testing::SourceDir() / "tests/apps/vault.json"; }

TEST(TimeTravelRun, RandomStaysInTheTrapTimeTravelGetsOut) {
  for (uint64_t seed : {1, 2, 3}) {
    report::Summary by[2];
    const char* names[2] = {"random", "timetravel:random"};
    for (int i = 0; i < 2; ++i) {
      ExploreOptions o;
      o.target.app = Vault();
      o.strategy = names[i];
      o.seed = seed;
      o.budget.events = 6000;
      o.out = testing::TempDir(fmt::format("vault_{}_{}", i, seed));
      auto s = Explore(o);
      ASSERT_TRUE(s.ok()) << s.status().message();
      by[i] = *s;
    }
    // Random never passes the four gates; time travel reaches the treasure and its crash.
    EXPECT_EQ(by[0].activities_covered.size(), 3u) << "seed " << seed;
    EXPECT_TRUE(by[0].crashes.empty()) << "seed " << seed;
    EXPECT_EQ(by[0].snapshots + by[0].restores, 0u);
    EXPECT_EQ(by[1].activities_covered.size(), 5u) << "seed " << seed;
    EXPECT_GT(*by[1].units_covered, *by[0].units_covered) << "seed " << seed;
    EXPECT_EQ(by[1].crashes.size(), 1u) << "seed " << seed;
    EXPECT_GT(by[1].snapshots, 0u);
    EXPECT_GT(by[1].restores, 0u);
  }
}

TEST(TimeTravelRun, NothingIsReportedBehindTheGatesWithTheBugSwitchedOff) {
  ExploreOptions o;
  o.target.app = Vault();
  o.strategy = "timetravel:random";
  o.seed = 1;
  o.budget.events = 6000;
  o.target.bugs_off = {"vault-chest-crash"};
  o.out = testing::TempDir("vault_off");
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->activities_covered.size(), 5u);  // it still gets through
  EXPECT_TRUE(s->crashes.empty());
  EXPECT_FALSE(std::filesystem::exists(o.out / "bugs"));
}

// Follows a script: "click TEXT", "back", "rotate", "snapshot NAME", "restore NAME"; then sends
// volume keys (no-ops). Records the state it is shown at each request point and how requests went.
class Scripted final : public explore::Strategy {
 public:
  explicit Scripted(std::vector<std::string> script) : script_(std::move(script)) {}
  std::string_view Name() const override { return "scripted"; }

  gui::Action Next(const explore::StepView& view, Rng&) override {
    if (next_ >= script_.size()) return gui::MakeGlobalAction(gui::ActionKind::kKey, "VOLUME_UP");
    std::string item = script_[next_++];
    if (item == "back") return gui::MakeGlobalAction(gui::ActionKind::kBack);
    if (item == "rotate") return gui::MakeGlobalAction(gui::ActionKind::kRotate);
    std::string text = item.substr(std::string("click ").size());
    for (const auto& a : view.actions)
      if (a.kind == gui::ActionKind::kClick && a.widget >= 0 &&
          view.screen.widgets[a.widget].text == text)
        return a;
    ADD_FAILURE() << "no \"" << text << "\" on the screen (activity " << view.screen.activity
                  << ")";
    return gui::MakeGlobalAction(gui::ActionKind::kKey, "VOLUME_UP");
  }

  std::optional<explore::Request> TakeRequest(const explore::StepView& view) override {
    seen.push_back(view.state);
    if (next_ >= script_.size()) return std::nullopt;
    const std::string& item = script_[next_];
    bool snapshot = item.starts_with("snapshot ");
    if (!snapshot && !item.starts_with("restore ")) return std::nullopt;
    ++next_;
    std::string name = item.substr(item.find(' ') + 1);
    if (snapshot) {
      saved[name] = view.state;
      return explore::Request{
          .kind = explore::Request::Kind::kSnapshot, .name = name, .state = view.state};
    }
    return explore::Request{
        .kind = explore::Request::Kind::kRestore, .name = name, .state = saved[name]};
  }

  void Done(const explore::Request& request, bool ok) override {
    done.push_back(fmt::format(
        "{} {} {}", request.kind == explore::Request::Kind::kSnapshot ? "snapshot" : "restore",
        request.name, ok ? "ok" : "failed"));
  }

  std::vector<uint64_t> seen;             // the state at each TakeRequest
  std::map<std::string, uint64_t> saved;  // snapshot name -> state
  std::vector<std::string> done;

 private:
  std::vector<std::string> script_;
  size_t next_ = 0;
};

struct Outcome {
  report::Summary summary;
  std::filesystem::path dir;
};

Outcome RunScript(std::shared_ptr<const sim::AppSpec> spec, Scripted& strategy, bool snapshots,
                  const std::string& name, int64_t events, bool clear = true,
                  const std::filesystem::path& app = Vault()) {
  device::SimDeviceOptions dev_options{.snapshots = snapshots};
  device::SimDevice device(spec, {}, dev_options);
  CampaignOptions options;
  options.clear_data_at_start = clear;
  CampaignIo io;
  io.out_dir = testing::TempDir(name);
  // As Explore writes it for the vault (`roam replay` reads it back from bug.json).
  io.replay = {.app = app.string()};
  io.fresh_device =
      [spec, dev_options](const std::set<std::string>&) -> Result<std::unique_ptr<device::Device>> {
    return std::unique_ptr<device::Device>(
        std::make_unique<device::SimDevice>(spec, sim::SimOptions{}, dev_options));
  };
  Rng rng(1);
  Campaign campaign(options, {.events = events}, device, strategy, rng, io, RunContext{});
  auto summary = campaign.Run();
  EXPECT_TRUE(summary.ok()) << summary.status().message();
  return {summary.ok() ? *summary : report::Summary{}, io.out_dir};
}

size_t CountOps(const std::filesystem::path& trace, const std::string& op) {
  auto steps = report::ReadTrace(trace);
  EXPECT_TRUE(steps.ok()) << steps.status().message();
  size_t n = 0;
  for (const auto& s : *steps) n += s.op == op;
  return n;
}

TEST(TimeTravelRun, ReplayedRestoreReachesTheStateOfASnapshotRestore) {
  auto spec = sim::LoadSpec(Vault());
  ASSERT_TRUE(spec.ok());
  const std::vector<std::string> script = {"click Enter the gates", "click Door 5", "snapshot g2",
                                           "click Door 11",         "snapshot g3",  "click Door 1",
                                           "click Door 3",          "restore g3"};
  uint64_t after[2];
  for (bool snapshots : {true, false}) {
    Scripted s(script);
    Outcome out = RunScript(*spec, s, snapshots, snapshots ? "tt_snap" : "tt_replay", 10);
    EXPECT_EQ(s.done,
              (std::vector<std::string>{"snapshot g2 ok", "snapshot g3 ok", "restore g3 ok"}));
    ASSERT_FALSE(s.seen.empty());
    // The view after the restore shows the snapshot's state.
    after[snapshots] = s.seen.back();
    EXPECT_EQ(after[snapshots], s.saved["g3"]);
    EXPECT_NE(s.saved["g3"], s.saved["g2"]);
    EXPECT_EQ(out.summary.snapshots, 2u);
    EXPECT_EQ(out.summary.restores, 1u);
    EXPECT_EQ(out.summary.failed_restores, 0u);
    // A snapshot restore costs no events; a replay sends the three clicks again.
    EXPECT_EQ(out.summary.restore_events, snapshots ? 0 : 3);
    EXPECT_EQ(out.summary.events, 10);
    EXPECT_EQ(CountOps(out.dir / "trace.jsonl", "snapshot"), snapshots ? 2u : 0u);
    EXPECT_EQ(CountOps(out.dir / "trace.jsonl", "restore"), snapshots ? 1u : 0u);
    EXPECT_EQ(CountOps(out.dir / "trace.jsonl", "clear"), snapshots ? 1u : 2u);
    auto summary = ReadJsonFile(out.dir / "summary.json");
    ASSERT_TRUE(summary.ok());
    EXPECT_EQ((*summary)["snapshots"], 2);
    EXPECT_EQ((*summary)["restores"], 1);
  }
  EXPECT_EQ(after[0], after[1]);
}

TEST(TimeTravelRun, AReplayLeavesOutTheLoopsOfTheRecordedPath) {
  auto spec = sim::LoadSpec(Vault());
  ASSERT_TRUE(spec.ok());
  // Door 3 keeps gate 1; Door 1 of gate 2 leads back to gate 1: both are loops.
  const std::vector<std::string> script = {"click Enter the gates", "click Door 3", "click Door 5",
                                           "click Door 1",          "click Door 5", "click Door 11",
                                           "snapshot g3",           "click Door 1", "restore g3"};
  Scripted s(script);
  Outcome out = RunScript(*spec, s, false, "tt_loops", 12);
  EXPECT_EQ(s.done, (std::vector<std::string>{"snapshot g3 ok", "restore g3 ok"}));
  EXPECT_EQ(s.seen.back(), s.saved["g3"]);
  // Enter, Door 5, Door 11: three events instead of the six recorded.
  EXPECT_EQ(out.summary.restore_events, 3);
}

// Open reaches the Room only while the persisted counter is 0, and bumps it.
constexpr const char* kCounterApp = R"({
  "app": "counter", "package": "org.roam.counter", "start": "Main",
  "vars": {"visits": 0}, "persist": ["visits"],
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Counter",
     "widgets": [{"id": "open", "text": "Open", "on": {"click": [
       {"navigate": "Room", "if": {"eq": ["$var.visits", 0]}}, {"inc": "visits"}]}}]},
    {"id": "Room", "activity": ".RoomActivity", "title": "Room",
     "widgets": [{"id": "stay", "text": "Stay", "on": {"click": [{"cover": ["Room.stay"]}]}}]}
  ]})";

TEST(TimeTravelRun, APathThatNoLongerReproducesIsDropped) {
  auto spec = sim::LoadSpecJson(nlohmann::json::parse(kCounterApp), "counter");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  const std::vector<std::string> script = {"click Open", "snapshot room", "back", "restore room",
                                           "restore room"};
  // Without snapshots: the path (launch, Open) ran with data kept; Open no longer opens the
  // Room, so the replay ends on Main, the restore fails and the path is dropped.
  Scripted replayed(script);
  Outcome out = RunScript(*spec, replayed, false, "tt_counter_replay", 4, /*clear=*/false);
  EXPECT_EQ(replayed.done, (std::vector<std::string>{"snapshot room ok", "restore room failed",
                                                     "restore room failed"}));
  EXPECT_EQ(out.summary.failed_restores, 2u);
  EXPECT_EQ(out.summary.restores, 0u);
  EXPECT_EQ(out.summary.restore_events, 1);  // the second attempt had nothing left to replay
  EXPECT_EQ(CountOps(out.dir / "trace.jsonl", "stop"), 1u);
  // With snapshots the device state comes back whole, counter included.
  Scripted snap(script);
  out = RunScript(*spec, snap, true, "tt_counter_snap", 4, /*clear=*/false);
  EXPECT_EQ(snap.done,
            (std::vector<std::string>{"snapshot room ok", "restore room ok", "restore room ok"}));
  EXPECT_EQ(out.summary.restores, 2u);
}

TEST(TimeTravelRun, ACrashAfterARestoreIsFiledWithAShortTraceThatReplays) {
  auto spec = sim::LoadSpec(Vault());
  ASSERT_TRUE(spec.ok());
  const std::vector<std::string> script = {
      "click Enter the gates", "click Door 5",        "click Door 11", "click Door 2",
      "click Door 14",         "snapshot treasure",   "back",          "click Door 1",
      "restore treasure",      "click Open the chest"};
  for (bool snapshots : {true, false}) {
    Scripted s(script);
    Outcome out =
        RunScript(*spec, s, snapshots, snapshots ? "tt_crash_snap" : "tt_crash_replay", 14);
    ASSERT_EQ(out.summary.crashes.size(), 1u);
    EXPECT_EQ(out.summary.restores, 1u);
    auto bug = report::ReadBug(out.dir / "bugs/B1");
    ASSERT_TRUE(bug.ok()) << bug.status().message();
    EXPECT_EQ(bug->reproduced, std::optional<bool>(true));
    // The short trace is the snapshot's path plus the crashing click: clear, launch, five
    // clicks to the treasure, Open the chest; no detour, no restore line.
    auto trace = report::ReadTrace(out.dir / "bugs/B1/trace.jsonl");
    ASSERT_TRUE(trace.ok());
    ASSERT_EQ(trace->size(), 8u);
    EXPECT_EQ((*trace)[0].op, "clear");
    EXPECT_EQ(trace->back().widget_text, "Open the chest");
    for (const auto& step : *trace) EXPECT_NE(step.op, "restore");
    // `roam replay` reproduces it on a fresh app.
    auto replay = ReplayBug(out.dir / "bugs/B1");
    ASSERT_TRUE(replay.ok()) << replay.status().message();
    EXPECT_TRUE(replay->reproduced);
    EXPECT_EQ(replay->result.steps_run, 8);
    // The whole run's trace replays too, snapshot and restore lines included.
    auto whole = report::ReadTrace(out.dir / "trace.jsonl");
    ASSERT_TRUE(whole.ok());
    device::SimDevice again(*spec, {});
    auto all = ReplayTrace(again, *whole, bug->failure.signature, 3);
    ASSERT_TRUE(all.ok()) << all.status().message();
    EXPECT_TRUE(all->reproduced);
  }
}

// The device's rotation outlives a relaunch and a clear (on a phone as in the simulator), so an
// episode may begin in landscape. Its short trace must turn a fresh device as it was: in this
// app the crashing Share button sits right of a portrait screen's width, on screen in landscape
// only.
// (The app is written here, not under tests/apps: the word vectors the shipped dqn model was
// trained with are built from the texts of those apps.)
constexpr const char* kLandscapeApp = R"json({
  "app": "landscape", "package": "org.roam.landscape", "label": "Landscape Board",
  "start": "Main",
  "bugs": [{"id": "landscape-share-crash", "kind": "crash", "summary": "Share crashes the app",
            "correct": "The share sheet opens"}],
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Board",
     "widgets": [
       {"id": "note", "text": "Today's notes"},
       {"id": "about", "text": "About", "on": {"click": [{"navigate": "About"}]}},
       {"id": "share", "text": "Share", "bounds": [1300, 400, 1800, 520],
        "on": {"click": [{"bug": "landscape-share-crash", "crash": {
          "exception": "java.lang.NullPointerException", "message": "no share target",
          "frames": ["org.roam.landscape.Board.share(Board.java:40)"]}}]}}
     ]},
    {"id": "About", "activity": ".AboutActivity", "title": "About",
     "widgets": [{"id": "version", "text": "Version 1.0"}]}
  ]
})json";

TEST(TimeTravelRun, AShortTraceBeginsInTheRotationItsEpisodeBeganIn) {
  const auto app = testing::TempDir("tt_landscape_app") / "landscape.json";
  ASSERT_TRUE(WriteFileAtomic(app, kLandscapeApp).ok());
  auto spec = sim::LoadSpec(app);
  ASSERT_TRUE(spec.ok());
  struct Case {
    std::vector<std::string> script;
    bool snapshots;
    std::string name;
    int64_t events;
    std::vector<std::string> done;  // how the snapshot and restore requests went
  };
  const Case cases[] = {
      // Back from the start screen leaves the app: the relaunch begins an episode in landscape.
      {{"rotate", "back", "click Share"}, true, "tt_landscape_snap", 5, {}},
      {{"rotate", "back", "click Share"}, false, "tt_landscape_replay", 5, {}},
      // A restore by replay turns the device back to the rotation its path began in: the
      // snapshot was taken in landscape, the device is in portrait when it is restored.
      {{"rotate", "back", "snapshot board", "rotate", "restore board", "click Share"},
       false,
       "tt_landscape_restore",
       8,
       {"snapshot board ok", "restore board ok"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Scripted s(c.script);
    Outcome out = RunScript(*spec, s, c.snapshots, c.name, c.events, true, app);
    EXPECT_EQ(s.done, c.done);
    ASSERT_EQ(out.summary.crashes.size(), 1u);
    auto bug = report::ReadBug(out.dir / "bugs/B1");
    ASSERT_TRUE(bug.ok()) << bug.status().message();
    EXPECT_EQ(bug->reproduced, std::optional<bool>(true));
    auto replay = ReplayBug(out.dir / "bugs/B1");
    ASSERT_TRUE(replay.ok()) << replay.status().message();
    EXPECT_TRUE(replay->reproduced);
    // The short trace: clear, a rotation, the launch and Share; not the whole run.
    auto trace = report::ReadTrace(out.dir / "bugs/B1/trace.jsonl");
    ASSERT_TRUE(trace.ok());
    std::vector<std::string> ops;
    for (const auto& step : *trace) ops.push_back(step.op + ":" + step.action.Describe());
    EXPECT_EQ(trace->size(), 4u) << fmt::format("{}", fmt::join(ops, " "));
  }
}

TEST(TimeTravelRun, ConfigRecordsTheRuleAndTheRestoreMode) {
  ExploreOptions o;
  o.target.app = Vault();
  o.strategy = "timetravel:random";
  o.seed = 2;
  o.budget.events = 300;
  o.target.snapshots = false;
  o.strategy_settings.timetravel.interesting = "gui";
  o.out = testing::TempDir("tt_config");
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["time_travel"]["interesting"], "gui");
  EXPECT_EQ((*config)["time_travel"]["restore"], "replay");
  EXPECT_EQ((*config)["time_travel"]["queue_length"], 10);
  EXPECT_GT(s->snapshots, 0u);
  o.strategy_settings.timetravel.interesting = "auto";
  o.target.snapshots = true;
  o.force = true;
  ASSERT_TRUE(Explore(o).ok());
  config = ReadJsonFile(o.out / "config.json");
  EXPECT_EQ((*config)["time_travel"]["interesting"], "coverage");  // the simulator has coverage
  EXPECT_EQ((*config)["time_travel"]["restore"], "snapshot");
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

TEST(TimeTravelRun, BenchRunsTheWrapperWithoutSnapshotsAndComparesItWithItsBase) {
  BenchOptions o;
  o.apps = {Vault()};
  o.strategies = {"random", "timetravel:random"};
  o.budget.events = 3000;
  o.seeds = 2;
  o.jobs = 2;
  o.snapshots = false;
  o.out = testing::TempDir("tt_bench");
  auto runs = RunBench(o, nullptr);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 4u);
  for (const auto& r : *runs) {
    auto config = ReadJsonFile(std::filesystem::path(r.dir) / "config.json");
    ASSERT_TRUE(config.ok());
    EXPECT_EQ((*config)["snapshots"], false);
    auto summary = ReadJsonFile(std::filesystem::path(r.dir) / "summary.json");
    ASSERT_TRUE(summary.ok());
    if (r.strategy == "timetravel:random") {
      EXPECT_EQ((*config)["time_travel"]["restore"], "replay");
      EXPECT_GT((*summary)["restore_events"].get<int64_t>(), 0);
    }
  }
  std::string table = FormatBenchTable(*runs, o.strategies);
  EXPECT_NE(table.find("wrappers against their base"), std::string::npos);
  EXPECT_NE(table.find("timetravel:random      random"), std::string::npos) << table;
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

TEST(TimeTravelRun, TheProgressLineShowsSnapshotsAndRestoresOnlyWhenThereAreAny) {
  auto line = [](const ProgressFigures& f) {
    std::FILE* file = std::tmpfile();
    Progress p(file, false);
    p.Finish(f);
    std::rewind(file);
    char buf[512] = {};
    size_t n = std::fread(buf, 1, sizeof buf - 1, file);
    std::fclose(file);
    return std::string(buf, n);
  };
  ProgressFigures f;
  EXPECT_EQ(line(f).find("snapshots"), std::string::npos);
  f.snapshots = 3;
  f.restores = 2;
  f.failed_restores = 1;
  EXPECT_NE(line(f).find("relaunches 0  snapshots 3  restores 2 (1 failed)"), std::string::npos)
      << line(f);
}

}  // namespace
}  // namespace roam::run
