// run/fuzz/fuzz: Genie end to end on simulated apps: the ActivityDiary case of the document is
// found (and not with its bug off), a self-changing clock gives no report, an F folder replays.
#include "run/fuzz/fuzz.h"

#include <cstdlib>
#include <optional>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "device/sim_device.h"
#include "fuzz/views.h"
#include "run/fuzz/fuzz_exec.h"
#include "run/fuzz/fuzz_internal.h"
#include "run/triage/minimize.h"
#include "run/triage/replay.h"
#include "sim/generator.h"
#include "sim/sim_app.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using fuzz::Event;
using gui::ActionKind;

std::shared_ptr<const sim::AppSpec> Diary() {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return *spec;
}

// The event that clicks the widget showing `text` (or content-desc) on `screen`.
Event On(const gui::Screen& screen, ActionKind kind, const std::string& text) {
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    const auto& w = screen.widgets[i];
    if ((w.text == text || w.content_desc == text) && fuzz::Takes(screen, i, kind)) {
      Event e;
      e.kind = kind;
      e.type = fuzz::WidgetType(screen, i);
      e.signature = fuzz::WidgetSignature(screen, i);
      return e;
    }
  }
  ADD_FAILURE() << "no widget " << text;
  return Event{};
}

// Runs `texts` (clicks by text) one at a time on `device`, building the event list.
std::vector<Event> Script(device::Device& device, const std::vector<std::string>& texts) {
  std::vector<Event> events;
  UnboundedRunner ex(device);
  for (const auto& t : texts) {
    auto run = ex.Run(events);
    EXPECT_TRUE(run.ok());
    events.push_back(On(run->layouts.back().screen, ActionKind::kClick, t));
  }
  return events;
}

// A FuzzRunner on `device` with an unbounded budget (`budget` counts what it sends).
struct TestRunner {
  explicit TestRunner(device::Device& device)
      : crashes(device.Package(), {}), steps(device, budget, crashes), runner(steps, nullptr) {}
  Budget budget = Budget::Unbounded();
  oracle::CrashOracle crashes;
  StepExecutor steps;
  FuzzRunner runner;
};

TEST(FuzzRunner, AMutantRunEndsWhereItsTauDidNotComeBackNearThePivot) {
  // The mutant is dropped then; the rest of the seed was run for nothing (7% of mutants).
  device::SimDevice device(Diary(), sim::SimOptions{});
  const std::vector<Event> seed = Script(device, {"Cinema", "Attach picture", "Diary"});
  TestRunner test(device);
  FuzzRunner& runner = test.runner;
  auto seed_run = runner.Run(seed);
  ASSERT_TRUE(seed_run.ok()) << seed_run.status().message();
  ASSERT_EQ(seed_run->layouts.size(), 4u);
  fuzz::MutantSettings settings;
  // On the main screen with Cinema picked (pivot 1), τ = [click Diary] leads to the diary
  // list, under half like it.
  const std::vector<Event> away = {seed[2]};
  auto left = runner.Run(MutantEvents(seed, 1, away, settings));
  ASSERT_TRUE(left.ok()) << left.status().message();
  ASSERT_EQ(left->layouts.size(), 3u);  // the launch, the pivot, the list: no more
  EXPECT_FALSE(fuzz::ReturnedToPivot(left->layouts[1], left->layouts[2], settings));
  // τ = [click Diary, back] comes back: the rest of the seed runs.
  const std::vector<Event> back = {seed[2], Event{.kind = ActionKind::kBack}};
  auto returned = runner.Run(MutantEvents(seed, 1, back, settings));
  ASSERT_TRUE(returned.ok()) << returned.status().message();
  EXPECT_EQ(returned->layouts.size(), 6u);
  EXPECT_EQ(returned->events.size(), 5u);
}

FuzzCase DiaryCase(device::Device& device) {
  FuzzCase c;
  c.seed_events = Script(device, {"Cinema", "Attach picture", "Diary", "Photo of Cinema", "OK"});
  // τ = [click Cleaning, click Attach picture] before the seed's `click Diary` (pivot 2).
  std::vector<Event> tau;
  UnboundedRunner ex(device);
  auto prefix = ex.Run(std::vector<Event>(c.seed_events.begin(), c.seed_events.begin() + 2));
  EXPECT_TRUE(prefix.ok());
  tau.push_back(On(prefix->layouts.back().screen, ActionKind::kClick, "Cleaning"));
  tau.push_back(c.seed_events[1]);
  c.pivot = 2;
  c.tau_length = 2;
  c.mutant_events = MutantPlan(c.seed_events, 2, tau);
  return c;
}

TEST(FuzzRunner, ARunResumedFromASnapshotReadsAsTheFullRunWithoutSendingTheWayThere) {
  device::SimDevice device(Diary(), sim::SimOptions{});
  const std::vector<Event> plan = Script(device, {"Cinema", "Attach picture", "Diary"});
  TestRunner test(device);
  FuzzRunner& runner = test.runner;
  auto saved = runner.Run(plan, {.save_at = 2, .save_as = "start"});
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  EXPECT_TRUE(saved->snapshotted);
  auto full = runner.Run(plan);
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(full->snapshotted);

  const int64_t before = test.budget.events();
  auto resumed = runner.Run(plan, {.resume = &*saved, .resume_events = 2, .snapshot = "start"});
  ASSERT_TRUE(resumed.ok()) << resumed.status().message();
  EXPECT_EQ(test.budget.events() - before, 1);  // only "Diary" was sent
  ASSERT_EQ(resumed->layouts.size(), full->layouts.size());
  for (size_t t = 0; t < full->layouts.size(); ++t)
    EXPECT_EQ(resumed->layouts[t].abs, full->layouts[t].abs) << "layout " << t;
  EXPECT_EQ(resumed->events, full->events);
  ASSERT_EQ(resumed->trace.size(), full->trace.size());
  for (size_t t = 0; t < full->trace.size(); ++t) {
    EXPECT_EQ(resumed->trace[t].step, full->trace[t].step);
    EXPECT_EQ(resumed->trace[t].op, full->trace[t].op);  // clear, launch, act: replays from clear
  }

  // Resuming past the run it names is refused, as is a device without snapshots.
  auto past = runner.Run(plan, {.resume = &*saved, .resume_events = 9, .snapshot = "start"});
  EXPECT_FALSE(past.ok());
  device::SimDevice phone(Diary(), sim::SimOptions{}, {.snapshots = false});
  auto refused = TestRunner(phone).runner.Run(
      plan, {.resume = &*saved, .resume_events = 2, .snapshot = "start"});
  EXPECT_FALSE(refused.ok());
}

TEST(FuzzCase, DiaryWrongPhotoDeletedViolatesTheCheck) {
  device::SimDevice device(Diary(), sim::SimOptions{});
  FuzzCase c = DiaryCase(device);
  auto v = CheckCase(device, c, fuzz::IndependentViewSettings{}, 3);
  ASSERT_TRUE(v.ok()) << v.status().message();
  ASSERT_TRUE(v->has_value());
  ASSERT_EQ((*v)->missing.removed.size(), 2u) << (*v)->Key();  // the photo and its file name
  EXPECT_NE((*v)->missing.removed.begin()->first.content().find("Photo of Cinema"),
            std::string::npos);
  EXPECT_NE((*v)->Key().find("entry_photo"), std::string::npos) << (*v)->Key();
}

// tube-play-dead-after-browser: [open a video, Pause, Play]; τ = [More options, Open in browser,
// Chrome, Close tab] before Play. With the bug, Play does nothing: the seed's effect is missing.
TEST(FuzzCase, TubePlayDeadAfterBrowserViolatesTheCheck) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/bench/tube.json");
  ASSERT_TRUE(spec.ok());
  for (bool bug : {true, false}) {
    sim::SimOptions o;
    if (!bug) o.bugs_off = {"tube-play-dead-after-browser"};
    device::SimDevice device(*spec, o);
    UnboundedRunner ex(device);
    auto start = ex.Run(std::vector<Event>{});
    ASSERT_TRUE(start.ok());
    const gui::Screen& main = start->layouts.back().screen;
    int cell = -1;
    for (int i = 0; i < static_cast<int>(main.widgets.size()) && cell < 0; ++i)
      if (main.widgets[i].resource_id.find("video_cell") != std::string::npos &&
          fuzz::Takes(main, i, ActionKind::kClick))
        cell = i;
    ASSERT_GE(cell, 0);
    FuzzCase c;
    c.seed_events = {fuzz::EventOn(main, ActionKind::kClick, cell)};
    for (const char* t : {"Pause", "Play"}) {
      auto run = ex.Run(c.seed_events);
      ASSERT_TRUE(run.ok());
      c.seed_events.push_back(On(run->layouts.back().screen, ActionKind::kClick, t));
    }
    std::vector<Event> tau;
    for (const char* t : {"More options", "Open in browser", "Chrome", "Close tab"}) {
      auto run = ex.Run(
          MutantPlan(std::vector<Event>(c.seed_events.begin(), c.seed_events.begin() + 2), 2, tau));
      ASSERT_TRUE(run.ok());
      tau.push_back(On(run->layouts.back().screen, ActionKind::kClick, t));
    }
    c.pivot = 2;
    c.tau_length = 4;
    c.mutant_events = MutantPlan(c.seed_events, 2, tau);
    auto v = CheckCase(device, c, fuzz::IndependentViewSettings{}, 3);
    ASSERT_TRUE(v.ok()) << v.status().message();
    EXPECT_EQ(v->has_value(), bug) << (v->has_value() ? (*v)->Key() : "no violation");
    if (!v->has_value()) continue;
    // The report reads as English: one step (Play) "has" its effect.
    auto seed = ex.Run(c.seed_events);
    auto mutant = ex.Run(c.mutant_events);
    ASSERT_TRUE(seed.ok() && mutant.ok());
    const std::string text = Explain(c, **v, *seed, *mutant);
    EXPECT_NE(text.find("the seed's step 3 [click \"Play\"] no longer has the same effect"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("in the seed it removed"), std::string::npos) << text;
  }
}

TEST(FuzzCase, DiaryWithTheBugOffHoldsTheCheck) {
  device::SimDevice device(Diary(),
                           sim::SimOptions{.seed = 1, .bugs_off = {"diary-wrong-photo-deleted"}});
  FuzzCase c = DiaryCase(device);
  auto v = CheckCase(device, c, fuzz::IndependentViewSettings{}, 3);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_FALSE(v->has_value()) << (*v)->Key();
}

// `roam fuzz` on a simulated app: seeds `seeds`, a fixed budget each.
struct FuzzRuns {
  std::vector<FuzzResult> results;
  std::vector<std::filesystem::path> outs;
};
FuzzRuns FuzzSeeds(const std::string& app, std::vector<uint64_t> seeds, int64_t events,
                   std::vector<std::string> bugs_off, bool stop_at_first_report) {
  FuzzRuns runs;
  for (uint64_t seed : seeds) {
    FuzzOptions o;
    o.target.app = testing::SourceDir() / app;
    o.seed = seed;
    o.budget.events = events;
    o.target.bugs_off = bugs_off;
    o.out = testing::TempDir("fuzz_" + std::filesystem::path(app).stem().string() + "_" +
                             std::to_string(seed));
    o.force = true;
    auto r = Fuzz(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) break;
    runs.results.push_back(std::move(*r));
    runs.outs.push_back(o.out);
    if (stop_at_first_report && !runs.results.back().summary.functional->empty()) break;
  }
  return runs;
}

constexpr int64_t kBudget = 20000;  // executed events per seed: about 2 s on the simulator

// Views an excuse took out of the missing effect are said in explanation.txt and diff.json: here
// rows a list scrolled into view as others went (tasks, fuzzing seed 7).
TEST(Fuzz, TheViewsAnExcuseTookOutAreSaidInTheExplanation) {
  FuzzRuns runs = FuzzSeeds("apps/bench/tasks.json", {7}, kBudget, {}, true);
  ASSERT_EQ(runs.results.size(), 1u);
  // Its seeds scroll the task list (Genie's notes name no scroll; rows below the fold need one).
  EXPECT_GT(runs.results[0].stats.seed_scrolls, 0);
  auto summary = ReadJsonFile(runs.outs[0] / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["fuzz"]["seed_scrolls"], runs.results[0].stats.seed_scrolls);
  const auto& findings = *runs.results[0].summary.functional;
  ASSERT_FALSE(findings.empty());
  const std::filesystem::path dir = runs.outs[0] / findings[0].bug_dir;
  auto diff = ReadJsonFile(dir / "diff.json");
  ASSERT_TRUE(diff.ok());
  ASSERT_FALSE((*diff)["excused"].empty()) << diff->dump();
  const std::string line = (*diff)["excused"][0];
  EXPECT_TRUE(line.starts_with("window_moved_on (count_window_rows): ")) << line;
  auto text = ReadFile(dir / "explanation.txt");
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("Excused before judging"), std::string::npos) << *text;
  EXPECT_NE(text->find("- " + line), std::string::npos) << *text;
}

TEST(Fuzz, FindsTheDiaryWrongPhotoDeletedAndItReplays) {
  FuzzRuns runs = FuzzSeeds("apps/diary.json", {1, 2, 3, 4, 5, 6, 7, 8}, kBudget, {}, true);
  ASSERT_FALSE(runs.results.empty());
  const FuzzResult& r = runs.results.back();
  const auto& findings = *r.summary.functional;
  ASSERT_FALSE(findings.empty()) << "not found with seeds 1-8 at " << kBudget << " events";
  const report::FunctionalFinding& f = findings[0];
  EXPECT_EQ(f.bug_id, "diary-wrong-photo-deleted") << f.explanation;
  EXPECT_NE(f.explanation.find("After inserting"), std::string::npos);
  EXPECT_NE(f.key.find("entry_photo"), std::string::npos) << f.key;
  // The folder holds what the README promises, and the summary lists the finding.
  std::filesystem::path dir = runs.outs.back() / f.bug_dir;
  for (const char* file :
       {"bug.json", "seed.jsonl", "mutant.jsonl", "seed_before.xml", "seed_after.xml",
        "mutant_before.xml", "mutant_after.xml", "seed_before.png", "seed_after.png",
        "mutant_before.png", "mutant_after.png", "diff.json", "explanation.txt"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  auto summary = ReadJsonFile(runs.outs.back() / "summary.json");
  ASSERT_TRUE(summary.ok());
  ASSERT_EQ((*summary)["functional"].size(), findings.size());
  EXPECT_EQ((*summary)["functional"][0]["bug_id"], "diary-wrong-photo-deleted");
  EXPECT_GT((*summary)["fuzz"]["mutants_executed"].get<int>(), 0);
  // `roam replay` on the F folder re-runs seed and mutant and sees the same violation.
  auto replay = ReplayBug(dir);
  ASSERT_TRUE(replay.ok()) << replay.status().message();
  EXPECT_TRUE(replay->reproduced) << replay->expected;
  // In words, the raw violation after (issue 46, item 7: it printed only the raw string).
  auto said = testing::RunRoam("replay " + dir.string());
  EXPECT_EQ(said.code, 0) << said.out;
  EXPECT_NE(said.out.find(": the mutant did not "), std::string::npos) << said.out;
  EXPECT_NE(said.out.find("  violation: " + replay->expected), std::string::npos) << said.out;
  // Minimised: a shorter seed prefix and τ that still show the same violation, which replay uses.
  auto min = MinimizeBug(dir, {});
  ASSERT_TRUE(min.ok()) << min.status().message();
  EXPECT_EQ(min->verified, 3);
  EXPECT_LT(min->steps_after, min->steps_before);
  EXPECT_LE(min->replays, 200);
  auto bug = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ((*bug)["minimized"]["mutant_events"].size(), min->steps_after);
  EXPECT_TRUE(std::filesystem::exists(dir / "steps.txt"));
  // report.html shows the minimised steps in the bug's card.
  auto rewritten = testing::RunRoam("report " + dir.parent_path().parent_path().string());
  EXPECT_EQ(rewritten.code, 0) << rewritten.out;
  auto page = ReadFile(dir.parent_path().parent_path() / "report.html");
  ASSERT_TRUE(page.ok());
  EXPECT_NE(page->find("<h3>Steps (minimised)</h3>\n<pre>To reproduce by hand"), std::string::npos);
  auto again = ReplayBug(dir);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(again->reproduced);
  EXPECT_NE(again->trace.find("minimized"), std::string::npos) << again->trace;
}

TEST(Fuzz, NoReportWithTheDiaryBugOff) {
  FuzzRuns runs =
      FuzzSeeds("apps/diary.json", {1, 2, 3, 4}, kBudget, {"diary-wrong-photo-deleted"}, false);
  for (const auto& r : runs.results) {
    // The search ran: mutants were generated and executed and reached the oracle.
    EXPECT_GT(r.stats.mutants_executed, 100);
    EXPECT_GT(r.stats.mutants_executed, r.stats.mutants_dropped);
    for (const auto& f : *r.summary.functional) ADD_FAILURE() << f.id << ": " << f.explanation;
  }
}

TEST(Fuzz, NoReportOnAnAppWhoseClockAndBannerChangeByThemselves) {
  // Fuzzing seeds 7 and 21: the banner turned within a seed pair, and the seed's second and third
  // runs showed it just so by chance (it turns on half the steps, at random), so it was not
  // ignored, and a mutant where it did not turn was reported.
  FuzzRuns runs = FuzzSeeds("tests/apps/clock.json", {1, 2, 3, 7, 21}, kBudget, {}, false);
  for (const auto& r : runs.results) {
    EXPECT_GT(r.stats.mutants_executed, 100);
    for (const auto& f : *r.summary.functional) ADD_FAILURE() << f.id << ": " << f.explanation;
  }
}

// Issue 19, item 4: crashes met while fuzzing were dropped. Now they are filed as roam explore
// files them, once per signature, with a trace that replays.
TEST(Fuzz, CrashesMetWhileFuzzingAreFiledAsBugFoldersThatReplay) {
  auto runs = FuzzSeeds("tests/apps/crashy.json", {1}, 400, {}, false);
  ASSERT_EQ(runs.results.size(), 1u);
  const auto& crashes = runs.results[0].summary.crashes;
  ASSERT_FALSE(crashes.empty());
  EXPECT_EQ(crashes[0].bug_dir, "bugs/B1");
  EXPECT_FALSE(crashes[0].bug_id.empty());  // the planted crash behind it
  auto replay = ReplayBug(runs.outs[0] / "bugs/B1");
  ASSERT_TRUE(replay.ok()) << replay.status().message();
  EXPECT_TRUE(replay->reproduced);
  auto summary = ReadJsonFile(runs.outs[0] / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["crashes"].size(), crashes.size());
}

// Issue 19, item 2: seeds of 12 events from a clean start stayed near the start of a 40-activity
// app. Some of them now start where an earlier seed first got to (half when this was written): on a
// generated app (seed 305, whose activities lie up to 9 steps deep), the seeds' runs reach more
// than twice as many activities over three fuzzing seeds of 10,000 events (12 against 35 when this
// was written).
TEST(Fuzz, SeedsStartingWhereEarlierSeedsGotToReachDeeper) {
  const auto app = testing::TempDir("fuzz_reach") / "gen305.json";
  ASSERT_TRUE(
      WriteFileAtomic(app, sim::GenerateApp({.seed = 305, .activities = 40, .bugs = 6}).dump())
          .ok());
  size_t from_start = 0, from_reached = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed)
    for (double pct : {0.0, 50.0}) {
      FuzzOptions o;
      o.target.app = app;
      o.seed = seed;
      o.budget.events = 10000;
      o.score = false;
      o.seeds.pct_from_reached = pct;
      o.out = testing::TempDir("fuzz_reach_run");
      o.force = true;
      auto r = Fuzz(o);
      ASSERT_TRUE(r.ok()) << r.status().message();
      (pct > 0 ? from_reached : from_start) += r->summary.activities_covered.size();
    }
  EXPECT_GE(from_reached, 2 * from_start) << from_reached << " against " << from_start;
}

// A campaign of seeds alone (no mutants) on the app `spec`, written to TempDir(name).
FuzzOptions SeedsAlone(const nlohmann::json& spec, int64_t events, const std::string& name) {
  const auto app = testing::TempDir(name) / "app.json";
  EXPECT_TRUE(WriteFileAtomic(app, spec.dump()).ok());
  FuzzOptions o;
  o.target.app = app;
  o.budget.events = events;
  o.score = false;
  o.seeds.pct_explore = 100;
  o.out = testing::TempDir(name + "_run");
  o.force = true;
  return o;
}

TEST(Fuzz, ASeedsSecondRunRestoresWhereItsWayEndedInsteadOfReplayingIt) {
  // Seeds that start where earlier ones got to first replay the way there. Each seed runs twice
  // (views that differ between the runs are ignored); the first run saves the device where the
  // way ends, and the second restores it, so in one budget of seeds alone (no mutants) a device
  // that can snapshot runs more seeds than one that cannot, which replays every way twice.
  int64_t seeds[2] = {0, 0};
  for (bool snapshots : {false, true}) {
    FuzzOptions o =
        SeedsAlone(sim::GenerateApp({.seed = 305, .activities = 40, .bugs = 6}), 6000, "fuzz_way");
    o.target.snapshots = snapshots;
    auto r = Fuzz(o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->stats.mutants_executed, 0);
    seeds[snapshots] = r->stats.seeds;
  }
  EXPECT_GT(seeds[1], seeds[0] * 5 / 4) << seeds[1] << " against " << seeds[0];
}

// Arm changes nothing on screen but lets Open open the room: a way to the room cuts Arm as a
// detour, and replayed from cleared data, [Open] stays on Main.
constexpr const char* kArmedRoomApp = R"({
  "app": "armed", "package": "org.roam.armed", "start": "Main",
  "vars": {"armed": 0},
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Main",
     "widgets": [
       {"id": "arm", "text": "Arm", "on": {"click": [{"set": "armed", "to": 1}]}},
       {"id": "open", "text": "Open", "on": {"click": [
         {"navigate": "Room", "if": {"eq": ["$var.armed", 1]}}]}}]},
    {"id": "Room", "activity": ".RoomActivity", "title": "Room",
     "widgets": [{"id": "stay", "text": "Stay", "on": {"click": [{"cover": ["Room.stay"]}]}}]}
  ]})";

TEST(Fuzz, AWayThatNoLongerLeadsWhereItDidIsNotTakenAgain) {
  // A way cuts detours: events after which a screen looked as before. Some are none (here Arm;
  // in generated apps a Reset that cleared a form's hidden state, a toggle a later screen
  // reads), and the way, replayed, ends elsewhere. Such a start was drawn again and again; now a
  // way that failed is not taken again, and the room, which no other way reaches, is no start.
  auto r = Fuzz(SeedsAlone(nlohmann::json::parse(kArmedRoomApp), 3000, "fuzz_failed_way"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GT(r->stats.seeds, 100);
  EXPECT_EQ(r->stats.ways_failed, 1) << "of " << r->stats.ways << " seeds on a way";
}

// Issue 19, item 5: a bug written apart from the fuzzer, deep in a generated app: app seed 304
// plants a wrong delete on "Settings history", 8 screens from the start ("removing any entry but
// the first removes the first entry instead"; its Add puts a new row first). Fuzzing finds it
// (30,000 events; fuzz seeds 1 and 2 of 1-6 found it when this was written), the report is scored
// to that bug (so the same case holds with the bug off), it replays, and with the app's
// functional bugs off fuzzing reports nothing.
TEST(Fuzz, FindsAWrongDeleteDeepInAGeneratedAppAndNothingWithItOff) {
  const auto app = testing::TempDir("fuzz_gen_delete") / "gen304.json";
  ASSERT_TRUE(
      WriteFileAtomic(app, sim::GenerateApp({.seed = 304, .activities = 40, .bugs = 6}).dump())
          .ok());
  const std::string bug = "gen-wrong-delete-4";
  auto run = [&](uint64_t seed, std::vector<std::string> bugs_off) {
    FuzzOptions o;
    o.target.app = app;
    o.target.bugs_off = std::move(bugs_off);
    o.seed = seed;
    o.budget.events = 30000;
    o.out = testing::TempDir(fmt::format("fuzz_gen_delete_{}_{}", seed, o.target.bugs_off.size()));
    o.force = true;
    auto r = Fuzz(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return std::pair(r.ok() ? std::move(*r) : FuzzResult{}, o.out);
  };
  std::optional<report::FunctionalFinding> found;
  std::filesystem::path out;
  for (uint64_t seed = 1; seed <= 4 && !found; ++seed) {
    auto [r, dir] = run(seed, {});
    ASSERT_TRUE(r.summary.functional.has_value());
    for (const auto& f : *r.summary.functional)
      if (f.bug_id == bug) found = f, out = dir;
  }
  ASSERT_TRUE(found) << "not found with fuzz seeds 1-4";
  EXPECT_NE(found->activity.find("SettingsHistoryActivity"), std::string::npos) << found->activity;
  auto replay = ReplayBug(out / found->bug_dir);
  ASSERT_TRUE(replay.ok()) << replay.status().message();
  EXPECT_TRUE(replay->reproduced) << replay->expected;
  // With the app's functional bugs off (this one and a dropped Save, gen-data-loss-6, which
  // fuzzing meets too), nothing is reported.
  for (uint64_t seed : {1, 2}) {
    auto [off, off_out] = run(seed, {bug, "gen-data-loss-6"});
    EXPECT_GT(off.stats.mutants_executed, 500);
    for (const auto& g : *off.summary.functional) ADD_FAILURE() << g.id << ": " << g.explanation;
  }
}

TEST(Fuzz, BadInputIsAClearError) {
  FuzzOptions o;
  o.target.app = testing::SourceDir() / "apps/diary.json";
  o.out = testing::TempDir("fuzz_bad");
  o.force = true;
  o.target.bugs_off = {"diary-wrong-photo-delete"};
  auto r = Fuzz(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did you mean \"diary-wrong-photo-deleted\""),
            std::string::npos)
      << r.status().message();
  o.target.bugs_off.clear();
  o.budget.events = 0;
  EXPECT_FALSE(Fuzz(o).ok());
}

}  // namespace
}  // namespace roam::run
