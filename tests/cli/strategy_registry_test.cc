// Adding a strategy with settings is its own class and one registry entry: the flags of
// `roam explore`, config.json and its figures file follow from the entry, with nothing in run/
// or cli/ changed. The strategy here lives in this file and registers itself.
#include <gtest/gtest.h>

#include "base/files.h"
#include "cli/commands.h"
#include "explore/random.h"
#include "explore/registry.h"
#include "gui/actions.h"
#include "report/trace.h"
#include "test_paths.h"

namespace roam::cli {
namespace {

// Presses back every `back_every` events; otherwise the first action the screen offers, or a
// random one unless `first_only`.
class EveryNthBack final : public explore::Strategy {
 public:
  EveryNthBack(int64_t back_every, bool first_only)
      : back_every_(back_every), first_only_(first_only) {}
  std::string_view Name() const override { return "every-nth-back"; }
  gui::Action Next(const explore::StepView& view, Rng& rng) override {
    if (back_every_ > 0 && (view.step + 1) % back_every_ == 0) {
      ++backs_;
      return gui::MakeGlobalAction(gui::ActionKind::kBack);
    }
    if (first_only_ && !view.actions.empty()) return view.actions.front();
    return random_.Next(view, rng);
  }
  void AddSettings(nlohmann::json& config) const override {
    config["every-nth-back"] = {{"back_every", back_every_}, {"first_only", first_only_}};
  }
  void AddFigures(std::vector<explore::FiguresFile>& files) const override {
    files.push_back({"every-nth-back", {{"backs", backs_}}});
  }

 private:
  int64_t back_every_;
  bool first_only_;
  int64_t backs_ = 0;
  explore::RandomStrategy random_{{}};
};

void RegisterOnce() {
  static const bool registered = [] {
    explore::RegisterStrategy(
        {"every-nth-back",
         "a test's strategy: back every N events",
         [](const explore::StrategySettings& s, const explore::TargetInfo&,
            const explore::SharedLearning&) -> Result<std::unique_ptr<explore::Strategy>> {
           auto v = explore::DeclaredSettings(s, "every-nth-back");
           if (!v.ok()) return v.status();
           return std::unique_ptr<explore::Strategy>(std::make_unique<EveryNthBack>(
               (*v)["back_every"].get<int64_t>(), (*v)["first_only"].get<bool>()));
         },
         {{"back_every", "events between backs (0: never)", 0, 0},
          {"first_only", "take the first action the screen offers", false}}});
    return true;
  }();
  (void)registered;
}

int Explore(std::vector<std::string> args) {
  args.insert(args.begin(), "explore");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return ExploreCommand(static_cast<int>(argv.size()), argv.data());
}

TEST(StrategyRegistry, AStrategyWithTwoSettingsGetsFlagsConfigAndFigures) {
  RegisterOnce();
  const auto out = testing::TempDir("every_nth_back");
  ASSERT_EQ(
      Explore({"--app", (testing::SourceDir() / "apps/diary.json").string(), "--strategy",
               "every-nth-back", "--every-nth-back-back-every", "5", "--every-nth-back-first-only",
               "on", "--events", "50", "--seed", "1", "-q", "--out", out.string(), "--force"}),
      0);
  auto config = ReadJsonFile(out / "config.json");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ((*config)["every-nth-back"], nlohmann::json({{"back_every", 5}, {"first_only", true}}));
  auto figures = ReadJsonFile(out / "every-nth-back.json");
  ASSERT_TRUE(figures.ok()) << figures.status().message();
  EXPECT_EQ((*figures)["backs"], 10);
  // Every fifth event of the trace is the strategy's back.
  auto trace = report::ReadTrace(out / "trace.jsonl");
  ASSERT_TRUE(trace.ok());
  int64_t events = 0;
  for (const auto& step : *trace) {
    if (step.op != "act") continue;
    if (++events % 5 == 0) {
      EXPECT_EQ(step.action.kind, gui::ActionKind::kBack) << events;
    }
  }
  EXPECT_EQ(events, 50);
}

TEST(StrategyRegistry, ADeclaredSettingIsCheckedAndDefaultsWhenNotGiven) {
  RegisterOnce();
  const auto out = testing::TempDir("every_nth_back_bad");
  EXPECT_EQ(Explore({"--app", (testing::SourceDir() / "apps/diary.json").string(), "--strategy",
                     "every-nth-back", "--every-nth-back-back-every", "-1", "--events", "5", "-q",
                     "--out", out.string(), "--force"}),
            kExitUsage);
  explore::StrategySettings settings;
  auto defaults = explore::DeclaredSettings(settings, "every-nth-back");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(*defaults, nlohmann::json({{"back_every", 0}, {"first_only", false}}));
  settings.declared["every-nth-back"]["first_only"] = 3;
  EXPECT_FALSE(explore::DeclaredSettings(settings, "every-nth-back").ok());
  settings.declared["every-nth-back"] = {{"back_evry", 2}};
  auto typo = explore::DeclaredSettings(settings, "every-nth-back");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("back_evry"), std::string::npos);
  EXPECT_NE(explore::StrategyHelp().find("every-nth-back"), std::string::npos);
}

// Issue 63 item 2: the planning strategy is `planner`; scripts written for `--strategy oracle` and
// `--oracle-max-trials` still run, with the same settings, named planner in what the run writes.
TEST(StrategyRegistry, TheFormerNameOfAStrategyAndItsSettingsFlagsStillWork) {
  const auto app = (testing::SourceDir() / "apps/diary.json").string();
  const auto out = testing::TempDir("planner_alias"), now = testing::TempDir("planner_name");
  ASSERT_EQ(Explore({"--app", app, "--strategy", "oracle", "--oracle-max-trials", "7", "--events",
                     "40", "--seed", "1", "-q", "--out", out.string(), "--force"}),
            0);
  ASSERT_EQ(Explore({"--app", app, "--strategy", "planner", "--planner-max-trials", "7", "--events",
                     "40", "--seed", "1", "-q", "--out", now.string(), "--force"}),
            0);
  auto config = ReadJsonFile(out / "config.json");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ((*config)["planner"]["max_trials"], 7);
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["strategy"], "planner");
  auto a = ReadFile(out / "trace.jsonl"), b = ReadFile(now / "trace.jsonl");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b) << "the alias ran another strategy";
}

}  // namespace
}  // namespace roam::cli
