// The time-travel settings as flags (group "Time travel"), shared by `roam explore` and
// `roam bench`. Stateless; thread-compatible.
#pragma once

#include <CLI/CLI.hpp>

#include "explore/timetravel.h"

namespace roam::cli {

// Adds --tt-queue, --tt-alpha, --tt-beta, --tt-max-no-progress, --tt-reward, --tt-penalty,
// --tt-f0-ratio, --tt-k, --tt-max-snapshots and --tt-interesting, bound to `tt`.
void AddTimeTravelFlags(CLI::App& app, explore::TimeTravelOptions& tt);

}  // namespace roam::cli
