// The flags of the settings strategies declare in the registry (explore/registry.h), for
// `roam explore` and `roam bench`. Plain functions; thread-compatible.
#pragma once

#include <CLI/CLI.hpp>

#include "explore/registry.h"

namespace roam::cli {

// Adds `--<entry>-<name>` for every declared setting of every strategy, each in a group named
// after its strategy; a value given lands in settings.declared[entry][name].
void AddDeclaredStrategyFlags(CLI::App& app, explore::StrategySettings& settings);

}  // namespace roam::cli
