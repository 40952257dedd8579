#include "explore/registry.h"

#include <fmt/format.h>

#include "base/files.h"
#include "sim/spec.h"

namespace roam::explore {
namespace {

Result<std::unique_ptr<Strategy>> MakeFastbot(FastbotMode mode, const StrategySettings& s,
                                              const TargetInfo& target,
                                              const SharedLearning& shared) {
  FastbotOptions options = s.fastbot;
  options.mix = s.random;  // one event mix: random's weights are fastbot's prior
  if (shared.fastbot) options.shared = shared.fastbot;
  auto made = FastbotStrategy::Make(mode, std::move(options), target.package);
  if (!made.ok()) return made.status();
  return std::unique_ptr<Strategy>(std::move(*made));
}

}  // namespace

const std::vector<StrategyInfo>& Strategies() {
  static const std::vector<StrategyInfo> kTable = {
      {"random",
       "Monkey-like: random widget actions by kind percentages (--pct-*), plus back, "
       "menu, rotate, restart and system keys",
       [](const StrategySettings& s, const TargetInfo&,
          const SharedLearning&) -> Result<std::unique_ptr<Strategy>> {
         return std::unique_ptr<Strategy>(std::make_unique<RandomStrategy>(s.random));
       }},
      {"oracle",
       "the ceiling: reads the simulated app's spec and always takes the shortest "
       "route to the nearest handler not yet covered (simulator only)",
       [](const StrategySettings& s, const TargetInfo& t,
          const SharedLearning&) -> Result<std::unique_ptr<Strategy>> {
         if (!t.spec_for_planner)
           return Status::InvalidArgument(
               "the oracle strategy reads the app's spec: it needs a "
               "simulated app, not a device");
         return std::unique_ptr<Strategy>(
             std::make_unique<PlannerStrategy>(t.spec_for_planner, t.sim_for_planner, s.planner));
       }},
      {"fastbot",
       "Fastbot2: hyper-events, a probabilistic model while a page has events not yet "
       "tried in the run, then a Q-table learned by N-step SARSA (--model DIR reuses "
       "the model across runs)",
       [](const StrategySettings& s, const TargetInfo& t, const SharedLearning& l) {
         return MakeFastbot(FastbotMode::kCombined, s, t, l);
       }},
      {"fastbot:pm",
       "Fastbot2's probabilistic model only: expansion, then a softmax over the "
       "expected new activities of each event (looked ahead where none is expected)",
       [](const StrategySettings& s, const TargetInfo& t, const SharedLearning& l) {
         return MakeFastbot(FastbotMode::kModel, s, t, l);
       }},
      {"fastbot:rl",
       "Fastbot2's Q-table only: expansion, then a softmax over Q learned by "
       "N-step SARSA",
       [](const StrategySettings& s, const TargetInfo& t, const SharedLearning& l) {
         return MakeFastbot(FastbotMode::kLearning, s, t, l);
       }},
      {"dqn",
       "DinoDroid: a deep Q-network scores each event from how often it and the events it "
       "leads to were executed and from its words; learns as it goes (--dqn-model FILE: a "
       "model from `roam train`; default: the shipped one)",
       [](const StrategySettings& s, const TargetInfo& t,
          const SharedLearning& l) -> Result<std::unique_ptr<Strategy>> {
         DqnOptions options = s.dqn;
         if (options.app.empty()) options.app = t.package;
         if (l.dqn) options.shared = l.dqn;
         auto made = DqnStrategy::Make(std::move(options), t.has_coverage);
         if (!made.ok()) return made.status();
         return std::unique_ptr<Strategy>(std::move(*made));
       }},
  };
  return kTable;
}

bool IsKnownStrategy(const std::string& name) {
  std::string_view base = name;
  if (base.starts_with(kTimeTravelPrefix)) base.remove_prefix(kTimeTravelPrefix.size());
  for (const auto& info : Strategies())
    if (info.name == base) return true;
  return false;
}

Result<std::unique_ptr<Strategy>> MakeStrategy(const std::string& name,
                                               const StrategySettings& settings,
                                               const TargetInfo& target,
                                               const SharedLearning& shared) {
  if (name.starts_with(kTimeTravelPrefix)) {
    std::string base_name = name.substr(kTimeTravelPrefix.size());
    if (base_name.starts_with(kTimeTravelPrefix))
      return Status::InvalidArgument("strategy \"" + name + "\": time travel cannot wrap itself");
    ROAM_RETURN_IF_ERROR(CheckTimeTravelOptions(settings.timetravel));
    auto base = MakeStrategy(base_name, settings, target, shared);
    if (!base.ok()) return base.status().Wrap("strategy \"" + name + "\"");
    TimeTravelOptions options = settings.timetravel;
    options.interesting = ResolveInterestRule(options.interesting, target.has_coverage);
    options.restore = target.has_snapshots ? "snapshot" : "replay";
    return std::unique_ptr<Strategy>(
        std::make_unique<TimeTravelStrategy>(std::move(*base), std::move(options)));
  }
  std::vector<std::string> names;
  for (const auto& info : Strategies()) {
    if (info.name == name) return info.make(settings, target, shared);
    names.push_back(info.name);
  }
  return Status::InvalidArgument(fmt::format("unknown strategy \"{}\"{}; known: {}", name,
                                             DidYouMean(name, names), fmt::join(names, ", ")));
}

std::string StrategyHelp() {
  std::string s = "Strategies:\n";
  for (const auto& info : Strategies())
    s += fmt::format("  {:<12} {}\n", info.name, info.description);
  s += fmt::format("  {:<12} {}\n", "timetravel:<base>",
                   "time travel (TimeMachine) around any strategy above, e.g. timetravel:random: "
                   "snapshots interesting states, restores the fittest one when the base is stuck "
                   "(--tt-* settings)");
  return s;
}

}  // namespace roam::explore
