#include "explore/registry.h"

#include <fmt/format.h>

#include "base/files.h"
#include "sim/spec.h"

namespace roam::explore {
namespace {

Result<std::unique_ptr<Strategy>> MakeFastbot(FastbotMode mode, const StrategySettings& s) {
  FastbotOptions options = s.fastbot;
  if (options.package.empty() && s.spec) options.package = s.spec->package();
  auto made = FastbotStrategy::Make(mode, std::move(options));
  if (!made.ok()) return made.status();
  return std::unique_ptr<Strategy>(std::move(*made));
}

}  // namespace

const std::vector<StrategyInfo>& Strategies() {
  static const std::vector<StrategyInfo> kTable = {
      {"random", "Monkey-like: random widget actions by kind percentages (--pct-*), plus back, "
                 "menu, rotate, restart and system keys",
       [](const StrategySettings& s) -> Result<std::unique_ptr<Strategy>> {
         return std::unique_ptr<Strategy>(std::make_unique<RandomStrategy>(s.random));
       }},
      {"oracle", "the ceiling: reads the simulated app's spec and always takes the shortest "
                 "route to the nearest handler not yet covered (simulator only)",
       [](const StrategySettings& s) -> Result<std::unique_ptr<Strategy>> {
         if (!s.spec)
           return Status::InvalidArgument("the oracle strategy reads the app's spec: it needs a "
                                          "simulated app (--app), not a device");
         return std::unique_ptr<Strategy>(std::make_unique<OracleStrategy>(s.spec, s.sim, s.oracle));
       }},
      {"fastbot", "Fastbot2: hyper-events, a probabilistic model while a page has events not yet "
                  "tried in the run, then a Q-table learned by N-step SARSA (--model DIR reuses "
                  "the model across runs)",
       [](const StrategySettings& s) { return MakeFastbot(FastbotMode::kCombined, s); }},
      {"fastbot:pm", "Fastbot2's probabilistic model only: expansion, then a softmax over the "
                     "expected new activities of each event",
       [](const StrategySettings& s) { return MakeFastbot(FastbotMode::kModel, s); }},
      {"fastbot:rl", "Fastbot2's Q-table only: expansion, then a softmax over Q learned by "
                     "N-step SARSA",
       [](const StrategySettings& s) { return MakeFastbot(FastbotMode::kLearning, s); }},
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
                                               const StrategySettings& settings) {
  if (name.starts_with(kTimeTravelPrefix)) {
    std::string base_name = name.substr(kTimeTravelPrefix.size());
    if (base_name.starts_with(kTimeTravelPrefix))
      return Status::InvalidArgument("strategy \"" + name + "\": time travel cannot wrap itself");
    ROAM_RETURN_IF_ERROR(CheckTimeTravelOptions(settings.timetravel));
    auto base = MakeStrategy(base_name, settings);
    if (!base.ok()) return base.status().Wrap("strategy \"" + name + "\"");
    TimeTravelOptions options = settings.timetravel;
    // Without a device to ask, "auto" means coverage (the run layer resolves it per device).
    options.interesting = ResolveInterestRule(options.interesting, true);
    return std::unique_ptr<Strategy>(
        std::make_unique<TimeTravelStrategy>(std::move(*base), std::move(options)));
  }
  std::vector<std::string> names;
  for (const auto& info : Strategies()) {
    if (info.name == name) return info.make(settings);
    names.push_back(info.name);
  }
  std::string hint = ClosestName(name, names);
  return Status::InvalidArgument(fmt::format(
      "unknown strategy \"{}\"{}; known: {} (`--strategy help` describes them)", name,
      hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint), fmt::join(names, ", ")));
}

std::string StrategyHelp() {
  std::string s = "Strategies:\n";
  for (const auto& info : Strategies()) s += fmt::format("  {:<12} {}\n", info.name, info.description);
  s += fmt::format("  {:<12} {}\n", "timetravel:<base>",
                   "time travel (TimeMachine) around any strategy above, e.g. timetravel:random: "
                   "snapshots interesting states, restores the fittest one when the base is stuck "
                   "(--tt-* settings)");
  return s;
}

}  // namespace roam::explore
