// The table of strategies by name, so `--strategy help` lists them and a typo gets a
// suggestion. Stateless functions over a constant table; thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "explore/random.h"
#include "explore/strategy.h"

namespace roam::explore {

// Settings of every strategy, filled from the command line; each keeps its own defaults.
struct StrategySettings {
  RandomOptions random;
};

struct StrategyInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Strategy>(const StrategySettings&)> make;
};

const std::vector<StrategyInfo>& Strategies();
// Makes a strategy by name; an unknown name is an error that lists the known ones and
// suggests the closest.
Result<std::unique_ptr<Strategy>> MakeStrategy(const std::string& name,
                                               const StrategySettings& settings);
// The `--strategy help` text.
std::string StrategyHelp();

}  // namespace roam::explore
