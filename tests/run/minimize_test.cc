// Minimised bug traces on the simulator: a random run's trace shrinks to the steps that matter,
// typed text to the characters that matter; every candidate is checked by replay.
#include "run/triage/minimize.h"

#include <fstream>

#include <gtest/gtest.h>

#include "base/files.h"
#include "draw/draw.h"
#include "run/explore/explore.h"
#include "run/triage/replay.h"
#include "run_test_util.h"
#include "test_paths.h"

namespace roam::run {
namespace {

// A field whose text must be non-empty for Go to crash, and two buttons that change nothing.
constexpr const char* kTyped = R"json({
  "app": "typed", "package": "org.roam.typed", "label": "Typed", "start": "Main",
  "bugs": [{"id": "typed-crash", "kind": "crash", "summary": "Go with a name crashes",
            "correct": "Go greets"}],
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Typed",
     "widgets": [
       {"id": "name", "hint": "Name", "input": {"max": 40}},
       {"id": "noop1", "text": "Nothing", "on": {"click": []}},
       {"id": "noop2", "text": "Nothing either", "on": {"click": []}},
       {"id": "go", "text": "Go", "on": {"click": [
         {"crash": {"exception": "java.lang.IllegalStateException", "message": "named",
                    "frames": ["org.roam.typed.Main.go(Main.java:7)"]},
          "if": {"truthy": "$input.name"}, "bug": "typed-crash"}]}}
     ]}
  ]
})json";

// Explores until a crash is filed; returns its bug folder. With `noise`, the bug's trace is
// replaced by a run of that many events with the bug off, the app stopped, then the bug's own
// steps: a long trace (as from a device where no fresh copy checks the short one) in which only
// the last steps matter.
std::filesystem::path FirstBug(ExploreOptions o, int64_t noise = 0) {
  auto summary = Explore(o);
  EXPECT_TRUE(summary.ok()) << summary.status().message();
  if (!summary.ok() || summary->crashes.empty()) return {};
  auto dir = o.out / summary->crashes[0].bug_dir;
  if (noise > 0) {
    ExploreOptions quiet = o;
    quiet.out = testing::TempDir("minimize_noise");
    quiet.force = true;
    quiet.budget.events = noise;
    quiet.target.bugs_off = {summary->crashes[0].bug_id};
    EXPECT_TRUE(Explore(quiet).ok());
    auto long_trace = report::ReadTrace(quiet.out / "trace.jsonl");
    auto bug_trace = report::ReadTrace(dir / "trace.jsonl");
    EXPECT_TRUE(long_trace.ok() && bug_trace.ok());
    if (!long_trace.ok() || !bug_trace.ok()) return {};
    long_trace->push_back({.op = "stop"});
    for (const auto& step : *bug_trace)
      if (step.op != "clear") long_trace->push_back(step);
    EXPECT_TRUE(report::WriteTrace(dir / "trace.jsonl", *long_trace).ok());
  }
  return dir;
}

TEST(Minimize, ALongTraceShrinksToTheFourStepsThatReachTheCrash) {
  for (uint64_t seed : {1, 2, 3}) {
    ExploreOptions o = CrashyRun("min_crashy", seed);
    auto dir = FirstBug(o, /*noise=*/300);
    ASSERT_FALSE(dir.empty()) << "seed " << seed;
    auto r = MinimizeBug(dir, {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    // clear, launch, open the note, tap Share.
    EXPECT_EQ(r->steps_after, 4u) << "seed " << seed << " from " << r->steps_before;
    EXPECT_GT(r->steps_before, 20u) << "seed " << seed << ": not a long trace";
    EXPECT_EQ(r->verified, 3);
    EXPECT_LE(r->replays, 200);
    EXPECT_TRUE(r->complete);
    auto steps = ReadFile(dir / "steps.txt");
    ASSERT_TRUE(steps.ok());
    EXPECT_NE(steps->find("tap \"Share\" (share) on DetailsActivity"), std::string::npos) << *steps;
    EXPECT_NE(steps->find("roam replay " + dir.string()), std::string::npos) << *steps;
    auto bug = ReadJsonFile(dir / "bug.json");
    ASSERT_TRUE(bug.ok());
    EXPECT_EQ((*bug)["minimized"]["steps_after"], 4);
    EXPECT_EQ((*bug)["minimized"]["trace"], kMinimizedTrace);
    // `roam replay` prefers the minimised trace, and it reproduces.
    auto replay = ReplayBug(dir);
    ASSERT_TRUE(replay.ok()) << replay.status().message();
    EXPECT_TRUE(replay->reproduced);
    EXPECT_EQ(std::filesystem::path(replay->trace).filename(), kMinimizedTrace);
    auto original = ReplayBug(dir, /*original=*/true);
    ASSERT_TRUE(original.ok());
    EXPECT_EQ(std::filesystem::path(original->trace).filename(), "trace.jsonl");
  }
}

// Issue 64: a crash an intent causes minimises to the intent, and steps.txt names it as a person
// would send it again.
TEST(Minimize, ACrashOfAnIntentShrinksToTheIntentAndStepsNameIt) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / "tests/fixtures/apps/intents.json";
  o.out = testing::TempDir("min_intent");
  o.strategy = "fastbot";
  o.budget.events = 500;
  o.seed = 3;
  auto dir = FirstBug(o, /*noise=*/200);
  ASSERT_FALSE(dir.empty());
  auto r = MinimizeBug(dir, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->steps_after, 2u) << "from " << r->steps_before;  // clear, the intent
  auto steps = ReadFile(dir / "steps.txt");
  ASSERT_TRUE(steps.ok());
  const bool names_it = steps->find("start ShareActivity with extras text=") != std::string::npos ||
                        steps->find("start DetailActivity with no extras") != std::string::npos ||
                        steps->find("open the deep link notes://detail/show") != std::string::npos;
  EXPECT_TRUE(names_it) << *steps;
}

TEST(Minimize, TypedTextShrinksToOneCharacter) {
  auto app_dir = testing::TempDir("min_typed_app");
  std::ofstream(app_dir / "typed.json") << kTyped;
  ExploreOptions o;
  o.target.app = app_dir / "typed.json";
  o.out = testing::TempDir("min_typed");
  o.budget.events = 3000;
  std::filesystem::path dir;
  for (o.seed = 1; o.seed <= 5 && dir.empty(); ++o.seed) {
    o.force = true;
    dir = FirstBug(o);
  }
  ASSERT_FALSE(dir.empty()) << "random never typed a name and tapped Go";
  auto r = MinimizeBug(dir, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->steps_after, 4u);  // clear, launch, type, Go
  EXPECT_EQ(r->text_after, 1u) << "from " << r->text_before;
  EXPECT_EQ(r->verified, 3);
  auto trace = report::ReadTrace(dir / kMinimizedTrace);
  ASSERT_TRUE(trace.ok());
  ASSERT_EQ(trace->size(), 4u);
  EXPECT_EQ((*trace)[2].action.kind, gui::ActionKind::kInputText);
  EXPECT_EQ((*trace)[2].action.text.size(), 1u);
  EXPECT_FALSE((*trace)[3].events.empty());  // the crash, as the replay saw it

  // Text is shortened by characters, never inside one: a multi-byte text keeps a whole one.
  (*trace)[2].action.text = "\xF0\x9F\x98\x80\xC3\xA9\xF0\x9F\x98\x80";  // emoji, e-acute, emoji
  ASSERT_TRUE(report::WriteTrace(dir / "trace.jsonl", *trace).ok());
  auto again = MinimizeBug(dir, {});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->text_before, 3u);
  EXPECT_EQ(again->text_after, 1u);
  auto shortest = report::ReadTrace(dir / kMinimizedTrace);
  ASSERT_TRUE(shortest.ok());
  const std::string typed = (*shortest)[2].action.text;
  EXPECT_TRUE(typed == "\xF0\x9F\x98\x80" || typed == "\xC3\xA9") << typed;
}

TEST(Minimize, TheBudgetBoundsTheReplaysAndTheResultStillReproduces) {
  ExploreOptions o = CrashyRun("min_budget", 2);
  auto dir = FirstBug(o, /*noise=*/300);
  ASSERT_FALSE(dir.empty());
  auto r = MinimizeBug(dir, {.max_replays = 5, .repeats = 1});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_LE(r->replays, 5);  // the final check included
  EXPECT_FALSE(r->complete);
  EXPECT_EQ(r->verified, 1);
  EXPECT_LE(r->steps_after, r->steps_before);
}

TEST(Minimize, ATraceThatDoesNotReproduceIsAnErrorAndLeavesTheFolderAlone) {
  ExploreOptions o = CrashyRun("min_noreplay");
  auto dir = FirstBug(o);
  ASSERT_FALSE(dir.empty());
  auto trace = report::ReadTrace(dir / "trace.jsonl");
  ASSERT_TRUE(trace.ok());
  trace->pop_back();  // the step that crashed
  ASSERT_TRUE(report::WriteTrace(dir / "trace.jsonl", *trace).ok());
  auto r = MinimizeBug(dir, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("does not reproduce"), std::string::npos)
      << r.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir / kMinimizedTrace));
  EXPECT_FALSE(std::filesystem::exists(dir / "steps.txt"));
}

TEST(Minimize, NotABugFolderSaysSo) {
  auto dir = testing::TempDir("min_notbug");
  auto r = MinimizeBug(dir, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bug.json"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

TEST(BugScreenshots, ABugFolderHoldsItsLastStepsAsPicturesAndMinimisingRedrawsThem) {
  ExploreOptions o = CrashyRun("shots_bug");
  auto dir = FirstBug(o, /*noise=*/0);
  ASSERT_FALSE(dir.empty());
  auto bug = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(bug.ok());
  const auto& shots = (*bug)["screenshots"];
  ASSERT_FALSE(shots.empty());
  for (const auto& f : shots) {
    auto png = ReadFile(dir / f.get<std::string>());
    ASSERT_TRUE(png.ok()) << f;
    EXPECT_TRUE(draw::ReadPngSize(*png).has_value()) << f;
  }
  // Minimised: one picture per action of the shorter trace, named by its step number.
  ASSERT_TRUE(MinimizeBug(dir, {}).ok());
  bug = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ((*bug)["screenshots"], nlohmann::json({"steps/003.png", "steps/004.png"}));
  EXPECT_TRUE(std::filesystem::exists(dir / "steps/004.png"));
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir / "steps")) ++files;
  EXPECT_EQ(files, 2u);

  // Without pictures, as the benchmark runs.
  o.campaign.session.bug_screenshots = 0;
  o.out = testing::TempDir("shots_none");
  dir = FirstBug(o, 0);
  ASSERT_FALSE(dir.empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "steps"));
}

}  // namespace
}  // namespace roam::run
