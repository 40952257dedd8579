// The harness's flags (explore/harness.h), shared by `roam explore` and `roam bench`: the
// "Input and filters" group. Stateless; thread-compatible.
#pragma once

#include <CLI/CLI.hpp>

#include "explore/harness_config.h"

namespace roam::cli {

// Adds --strings, --filters, --actions, --input-pct-{user,seen,awkward,plain}, --max-seen and
// --max-backs, bound to `o`. Any --input-pct-* or --max-seen flag turns text input on.
void AddHarnessFlags(CLI::App& app, explore::HarnessOptions& o);

}  // namespace roam::cli
