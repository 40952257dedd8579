// The "Fastbot strategy" flag group, shared by `roam explore` and `roam bench`.
// Plain functions; thread-compatible.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

#include "explore/fastbot.h"

namespace roam::cli {

// The tuning flags (--fastbot-alpha, ...): fill `options`.
void AddFastbotTuningFlags(CLI::App& app, explore::FastbotOptions& options);
// The model flags of `roam explore` (--model, --model-save-every, --model-reset).
void AddFastbotModelFlags(CLI::App& app, explore::FastbotOptions& options, int64_t& save_every);

}  // namespace roam::cli
