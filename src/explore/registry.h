// The table of strategies by name, so `--strategy help` lists them and a typo gets a
// suggestion. An entry may declare its settings (StrategySetting): `roam explore` and `roam bench`
// then take them as flags, and its make reads them with DeclaredSettings, so a new strategy with
// settings is its own files plus one entry here. Functions over a table that RegisterStrategy may
// extend before any command runs; thread-safe after that.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "explore/dqn.h"
#include "explore/fastbot.h"
#include "explore/planner.h"
#include "explore/random.h"
#include "explore/strategy.h"
#include "explore/timetravel.h"
#include "sim/sim_app.h"

namespace roam::explore {

// A setting a registry entry declares: the flag `--<entry>-<name>` of `roam explore` and
// `roam bench` (underscores as dashes), read by the entry's make with DeclaredSettings; the
// strategy writes it to config.json under its name (Strategy::AddSettings).
struct StrategySetting {
  std::string name;  // "max_trials": --oracle-max-trials
  std::string help;
  // The default; its JSON type (integer, number, boolean, string) is the flag's (a boolean
  // flag takes on or off).
  nlohmann::json value;
  double min = std::numeric_limits<double>::lowest();  // numbers only
  double max = std::numeric_limits<double>::max();
};

// Settings of every strategy, filled from the command line; each keeps its own defaults.
struct StrategySettings {
  RandomOptions random;
  TimeTravelOptions timetravel;  // `timetravel:<base>`
  FastbotOptions fastbot;
  DqnOptions dqn;
  // The declared settings given (StrategyInfo::settings): {"<entry>": {"<name>": value}}.
  nlohmann::json declared = nlohmann::json::object();
};

// What a strategy is told about the target once, before the run starts: facts, not settings.
struct TargetInfo {
  std::string package;         // the app under test
  bool has_coverage = false;   // Device::HasCoverage
  bool has_snapshots = false;  // Device::CanSnapshot
  // The simulated app's spec and simulator options, for the planner only (`oracle`): it
  // reads the spec, every other strategy sees abstracted states only. Null on a device.
  std::shared_ptr<const sim::AppSpec> spec_for_planner;
  sim::SimOptions sim_for_planner;
};

// Learning state the strategies of one run's devices share: built once by the run and handed
// to each MakeStrategy. Empty: every strategy learns alone.
struct SharedLearning {
  std::shared_ptr<model::SharedModel> fastbot;  // one fastbot model
  std::shared_ptr<DqnShared> dqn;               // one DinoDroid network, graph and memory
  static SharedLearning Make() {
    return {std::make_shared<model::SharedModel>(), std::make_shared<DqnShared>()};
  }
};

struct StrategyInfo {
  std::string name;
  std::string description;
  std::function<Result<std::unique_ptr<Strategy>>(const StrategySettings&, const TargetInfo&,
                                                  const SharedLearning&)>
      make;
  std::vector<StrategySetting> settings;  // its own, read with DeclaredSettings
  // Former names, still taken by --strategy and as its settings' flags (--<alias>-<setting>), for
  // scripts written before a rename.
  std::vector<std::string> aliases = {};
};

const std::vector<StrategyInfo>& Strategies();
// The entry named `name` or one of its aliases; null when none is.
const StrategyInfo* FindStrategy(std::string_view name);
// Adds an entry to the table (a test's strategy, a plugin's), before any command reads it.
void RegisterStrategy(StrategyInfo info);
// The values of `entry`'s declared settings, {"<name>": value}: those in settings.declared, the
// defaults otherwise. An error names a setting the entry does not declare, or a value of the
// wrong type or out of its range.
Result<nlohmann::json> DeclaredSettings(const StrategySettings& settings, std::string_view entry);
// Wrappers name their base after a colon: `timetravel:<base>` wraps any strategy of the table
// (explore/timetravel.h).
inline constexpr std::string_view kTimeTravelPrefix = "timetravel:";
// Whether `name` is a strategy of the table or a wrapper around one.
bool IsKnownStrategy(const std::string& name);
// Makes a strategy by name; an unknown name is an error that lists the known ones and
// suggests the closest.
// Time travel's "auto" interest rule is resolved here, from `target`.
Result<std::unique_ptr<Strategy>> MakeStrategy(const std::string& name,
                                               const StrategySettings& settings,
                                               const TargetInfo& target,
                                               const SharedLearning& shared = {});
// The `--strategy help` text.
std::string StrategyHelp();

}  // namespace roam::explore
