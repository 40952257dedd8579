// The table of strategies by name, so `--strategy help` lists them and a typo gets a
// suggestion. Stateless functions over a constant table; thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "explore/fastbot.h"
#include "explore/oracle_strategy.h"
#include "explore/random.h"
#include "explore/strategy.h"
#include "explore/timetravel.h"
#include "sim/sim_app.h"

namespace roam::explore {

// Settings of every strategy, filled from the command line; each keeps its own defaults.
struct StrategySettings {
  RandomOptions random;
  OracleOptions oracle;
  TimeTravelOptions timetravel;  // `timetravel:<base>`
  FastbotOptions fastbot;
  // The simulated app under test and its options, for strategies that read the spec (the
  // oracle); null on a real device.
  std::shared_ptr<const sim::AppSpec> spec;
  sim::SimOptions sim;
};

struct StrategyInfo {
  std::string name;
  std::string description;
  std::function<Result<std::unique_ptr<Strategy>>(const StrategySettings&)> make;
};

const std::vector<StrategyInfo>& Strategies();
// Wrappers name their base after a colon: `timetravel:<base>` wraps any strategy of the table
// (explore/timetravel.h).
inline constexpr std::string_view kTimeTravelPrefix = "timetravel:";
// Whether `name` is a strategy of the table or a wrapper around one.
bool IsKnownStrategy(const std::string& name);
// Makes a strategy by name; an unknown name is an error that lists the known ones and
// suggests the closest.
Result<std::unique_ptr<Strategy>> MakeStrategy(const std::string& name,
                                               const StrategySettings& settings);
// The `--strategy help` text.
std::string StrategyHelp();

}  // namespace roam::explore
