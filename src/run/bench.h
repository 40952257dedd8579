// run/bench: `roam bench`, every (app, strategy, seed) on the simulator at one event budget,
// spread over worker threads, then a table per app and overall with medians, min and max, and
// each strategy's ratio to random and to the oracle. Each run writes an ordinary run folder,
// so the table can be checked against every summary.json. RunBench is thread-safe to call;
// it runs its own workers.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "explore/harness.h"
#include "explore/registry.h"
#include "run/budget.h"

namespace roam::run {

// The strategy name that runs `roam fuzz` (Genie) instead of an exploration.
inline constexpr const char* kFuzzStrategy = "fuzz";

struct BenchOptions {
  std::vector<std::filesystem::path> apps;  // app specs
  std::vector<std::string> strategies = {"random", "oracle"};
  BudgetOptions budget{.events = 2000};  // per run
  int seeds = 5;                         // seeds 1..seeds
  int jobs = 2;                          // worker threads
  std::filesystem::path out;             // runs go to out/runs/<app>/<strategy>/s<seed>
  std::vector<std::string> bugs_off;     // switched off in every app that plants them
  explore::StrategySettings strategy_settings;
  bool snapshots = true;            // false: the simulator without snapshots (a phone)
  explore::HarnessOptions harness;  // applied to every run when active
};

// One run's figures; field names are those of the JSON file.
struct BenchRun {
  std::string app;
  std::string strategy;
  uint64_t seed = 0;
  int64_t events = 0;
  size_t activities_covered = 0, activities_total = 0;
  size_t units_covered = 0, units_total = 0;
  size_t states = 0;
  size_t crashes = 0, anrs = 0;
  size_t functional_tp = 0, functional_fp = 0;
  std::vector<std::string> planted_found;  // planted bug ids behind the failures found
  double seconds = 0;
  std::string dir;  // the run folder
};

// The apps of a folder: its *.json files (links followed), sorted by name.
Result<std::vector<std::filesystem::path>> AppsIn(const std::filesystem::path& dir);

// Runs everything; `progress` (may be null) gets a line per finished run.
Result<std::vector<BenchRun>> RunBench(const BenchOptions& options, std::FILE* progress);

std::string FormatBenchTable(const std::vector<BenchRun>& runs,
                             const std::vector<std::string>& strategies);
nlohmann::json BenchToJson(const std::vector<BenchRun>& runs, const BenchOptions& options,
                           double wall_seconds);

}  // namespace roam::run
