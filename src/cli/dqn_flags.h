// The --dqn-* flags of `roam explore`, `roam bench` and `roam train`: DinoDroid's settings with
// the paper's defaults (explore/dqn.h).
#pragma once

#include <CLI/CLI.hpp>

#include "explore/dqn.h"

namespace roam::cli {

// The learning and feature settings.
void AddDqnTuningFlags(CLI::App& app, explore::DqnOptions& o);
// --dqn-model and --dqn-frozen (explore: a model to test with and keep teaching).
void AddDqnModelFlags(CLI::App& app, explore::DqnOptions& o);

}  // namespace roam::cli
