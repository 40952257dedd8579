#include "explore/registry.h"

#include <algorithm>

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

// The planner's settings, with PlannerOptions' defaults.
std::vector<StrategySetting> PlannerSettings() {
  const PlannerOptions d;
  return {
      {"max_trials", "planner: actions tried per search over hidden state", d.max_trials, 0},
      {"map_trials", "planner: actions tried on the map per plan before a step", d.map_trials, 0},
      {"max_depth", "planner: the longest route searched over hidden state", d.max_depth, 1},
      {"max_texts", "planner: texts tried per edit field, the spec's literals first", d.max_texts,
       1},
      {"retry_after",
       "planner: steps to wander after a search found nothing new before searching again at the "
       "same coverage (twice as many after each more search in vain there)",
       d.retry_after, 1},
  };
}

Result<std::unique_ptr<Strategy>> MakePlanner(const StrategySettings& s, const TargetInfo& t,
                                              const SharedLearning&) {
  if (!t.spec_for_planner)
    return Status::InvalidArgument(
        "the planner strategy reads the app's spec: it needs a simulated app, not a device");
  auto v = DeclaredSettings(s, "planner");
  if (!v.ok()) return v.status();
  PlannerOptions o{.max_trials = (*v)["max_trials"],
                   .map_trials = (*v)["map_trials"],
                   .max_depth = (*v)["max_depth"],
                   .max_texts = (*v)["max_texts"],
                   .retry_after = (*v)["retry_after"]};
  return std::unique_ptr<Strategy>(
      std::make_unique<PlannerStrategy>(t.spec_for_planner, t.sim_for_planner, o));
}

std::vector<StrategyInfo>& Table() {
  static std::vector<StrategyInfo> table = {
      {"random",
       "Monkey-like: random widget actions by kind percentages (--pct-*), plus back, "
       "menu, rotate, restart and system keys",
       [](const StrategySettings& s, const TargetInfo&,
          const SharedLearning&) -> Result<std::unique_ptr<Strategy>> {
         return std::unique_ptr<Strategy>(std::make_unique<RandomStrategy>(s.random));
       }},
      {"planner",
       "reads the simulated app's spec and always takes the shortest route to the nearest "
       "handler not yet covered (simulator only; a yardstick, not a tester; was `oracle`)",
       MakePlanner,
       PlannerSettings(),
       {"oracle"}},
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
  return table;
}

}  // namespace

const std::vector<StrategyInfo>& Strategies() { return Table(); }

void RegisterStrategy(StrategyInfo info) { Table().push_back(std::move(info)); }

const StrategyInfo* FindStrategy(std::string_view name) {
  for (const auto& i : Strategies())
    if (i.name == name || std::find(i.aliases.begin(), i.aliases.end(), name) != i.aliases.end())
      return &i;
  return nullptr;
}

Result<nlohmann::json> DeclaredSettings(const StrategySettings& settings, std::string_view entry) {
  const StrategyInfo* info = FindStrategy(entry);
  if (!info) return Status::InvalidArgument(fmt::format("unknown strategy \"{}\"", entry));
  entry = info->name;
  nlohmann::json values = nlohmann::json::object();
  for (const auto& s : info->settings) values[s.name] = s.value;
  auto given = settings.declared.find(entry);
  if (given == settings.declared.end()) return values;
  for (const auto& item : given->items()) {
    const std::string& name = item.key();
    const nlohmann::json& value = item.value();
    auto declared = std::find_if(info->settings.begin(), info->settings.end(),
                                 [&](const StrategySetting& s) { return s.name == name; });
    if (declared == info->settings.end())
      return Status::InvalidArgument(fmt::format("strategy {} has no setting \"{}\"", entry, name));
    const bool number = declared->value.is_number();
    const bool fits = number ? value.is_number() && (!declared->value.is_number_integer() ||
                                                     value.is_number_integer())
                             : value.type() == declared->value.type();
    if (!fits)
      return Status::InvalidArgument(fmt::format("{}.{}: expected a {}, got {}", entry, name,
                                                 declared->value.type_name(), value.dump()));
    if (number && (value.get<double>() < declared->min || value.get<double>() > declared->max))
      return Status::InvalidArgument(fmt::format("{}.{}: {} is outside [{}, {}]", entry, name,
                                                 value.dump(), declared->min, declared->max));
    values[name] = value;
  }
  return values;
}

bool IsKnownStrategy(const std::string& name) {
  std::string_view base = name;
  if (base.starts_with(kTimeTravelPrefix)) base.remove_prefix(kTimeTravelPrefix.size());
  return FindStrategy(base) != nullptr;
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
  if (const StrategyInfo* info = FindStrategy(name)) return info->make(settings, target, shared);
  std::vector<std::string> names;
  for (const auto& info : Strategies()) names.push_back(info.name);
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
