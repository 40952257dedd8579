// run/bench/bench: `roam bench`, every (app, strategy, seed) on the simulator at one event budget,
// spread over worker threads, then a table per app and overall with medians, min and max, and
// each strategy's ratio to random and to the planner. Each run writes an ordinary run folder,
// so the table can be checked against every summary.json. RunBench is thread-safe to call;
// it runs its own workers.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/android/phone_pace.h"
#include "explore/harness.h"
#include "explore/registry.h"
#include "llm/chat.h"
#include "run/budget.h"
#include "run/triage/minimize.h"

namespace roam::run {

// The strategy name that runs `roam fuzz` (Genie) instead of an exploration.
inline constexpr const char* kFuzzStrategy = "fuzz";
// The strategy name that runs `roam vision` (VisionDroid, with BenchOptions::llm's model).
inline constexpr const char* kVisionStrategy = "vision";

struct BenchOptions {
  std::vector<std::filesystem::path> apps;  // app specs
  std::vector<std::string> strategies = {"random", "planner"};
  BudgetOptions budget{.events = 2000};  // per run
  // A time budget counts a phone's seconds (--clock phone) with this driver's costs, or the wall.
  bool phone_clock = false;
  device::android::DriverKind driver = device::android::DriverKind::kUia2;
  int seeds = 5;  // seeds first_seed..first_seed + seeds - 1
  int first_seed = 1;
  int jobs = 2;                       // worker threads
  std::filesystem::path out;          // runs go to out/runs/<app>/<strategy>/s<seed>
  std::vector<std::string> bugs_off;  // switched off in every app that plants them
  explore::StrategySettings strategy_settings;
  bool snapshots = true;            // false: the simulator without snapshots (a phone)
  explore::HarnessOptions harness;  // applied to every run when active
  // The user's oracles (oracle/kinds.h; "properties": docs/properties.md) checked by every run,
  // by row name: a file for every app, or a folder whose <app>.<name>.json (the app spec's name)
  // goes with that app; empty: off.
  std::map<std::string, std::filesystem::path> oracle_files;
  // Minimise every planted crash and ANR found (roam minimize) and add the "Minimised traces"
  // table, with the planner's shortest route to each bug as the yardstick.
  bool minimize = false;
  bool intents = true;  // exploration runs offer their strategies intents (--intents)
  MinimizeOptions minimize_options;
  llm::ClientOptions llm;  // the model of the `vision` strategy
  // Run only the shard-th of `shards` disjoint slices of the (app, strategy, seed) grid (every
  // shards-th run, starting at shard - 1), so many machines can share one benchmark.
  int shard = 1, shards = 1;
};

// One bug trace a run found, before and after minimisation (exploration runs with --minimize).
// Lengths count actions (act steps), not the clear and launch around them.
struct BenchBugTrace {
  std::string bug_id;  // the planted bug
  std::string kind;
  std::string dir;  // the bug folder
  size_t actions_before = 0, actions_after = 0;
  int replays = 0;
  bool verified = false;   // the minimised trace reproduced repeats out of repeats
  bool minimized = false;  // false: minimisation failed (see error)
  std::string error;
  std::optional<size_t> planner_actions;  // the planner's shortest route to the bug
};

// A functional bug planted in a run's app (fuzz runs): its id, kind and what can see it
// (sim::BugSpec::seen_by).
struct PlantedBug {
  std::string id, kind, seen_by;
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
  std::vector<std::string> planted_found;      // planted bug ids behind the failures found
  std::vector<PlantedBug> functional_planted;  // fuzz runs on the simulator
  double seconds = 0;
  std::optional<double> phone_seconds;    // on a phone's clock
  std::string dir;                        // the run folder
  std::vector<BenchBugTrace> bug_traces;  // with BenchOptions::minimize
  // Stopped by the stop signal before its budget: its figures are not a run of the grid (the
  // tables leave it out; the JSON file lists it apart, under "interrupted").
  bool interrupted = false;
};

// The apps of a folder: its *.json files (links followed), sorted by name.
Result<std::vector<std::filesystem::path>> AppsIn(const std::filesystem::path& dir);

// Runs everything; `progress` (may be null) gets a line per finished run. Once `stop` (may be
// null) is set, the runs in flight stop as `roam explore` does on Ctrl-C (each folder complete,
// its summary "interrupted") and no other starts: what comes back is every run that finished
// and those it stopped, marked `interrupted`.
Result<std::vector<BenchRun>> RunBench(const BenchOptions& options, std::FILE* progress,
                                       const std::atomic<bool>* stop = nullptr);

// The runs of `runs` that are not `interrupted`: those the tables count.
std::vector<BenchRun> FinishedRuns(const std::vector<BenchRun>& runs);

// Per app, the most activities and the most code units any one run covered, whatever its
// strategy (the planner included): the yardstick of the table's "best" ratios.
struct Best {
  size_t activities = 0, units = 0;
};
using BestKnown = std::map<std::string, Best>;  // by app
BestKnown BestKnownOf(const std::vector<BenchRun>& runs);

std::string FormatBenchTable(const std::vector<BenchRun>& runs,
                             const std::vector<std::string>& strategies);
// Per app and overall: planted crashes and ANRs minimised, median and largest length before and
// after, the share that replays every time, replays per bug, and the ratio of the minimised
// length to the planner's shortest route. Empty when no run minimised anything.
std::string FormatMinimizeTable(const std::vector<BenchRun>& runs);

// Fuzz runs: per kind of functional bug planted, what can see it, the bugs planted and
// found (summed over runs), the recall; over the GUI-effect bugs the recall, and the reports'
// precision (those a planted bug explains). Empty without fuzz runs on planted bugs.
std::string FormatFunctionalTable(const std::vector<BenchRun>& runs);

// The median of `values` (0 when empty): the table's cells and the page's curves.
double Median(std::vector<double> values);

// out/report.html: `tables` (the text the terminal shows) and per app a chart of each
// strategy's median coverage over events, from the runs' progress.jsonl (bench_report.cc).
Status WriteBenchReport(const std::filesystem::path& out, const std::vector<BenchRun>& runs,
                        const std::vector<std::string>& strategies, const std::string& tables);

// A bench JSON file read back (`roam bench --json`): its settings and its runs.
struct BenchFile {
  int64_t events = 0;
  double time = 0;             // the time budget per run, in seconds of `clock` (0: none)
  std::string clock = "wall";  // BenchClock's name
  int seeds = 0;
  int first_seed = 1;  // files written before it was kept: 1
  std::vector<std::string> strategies;
  std::vector<std::string> apps;  // in the grid's order
  bool snapshots = true;
  int shard = 1, shards = 1;
  size_t grid = 0;  // runs of the whole grid (all shards)
  double wall_seconds = 0;
  std::vector<BenchRun> runs;
};
Result<BenchFile> ReadBenchFile(const std::filesystem::path& path);

// Shards of one benchmark as one: the settings must agree (an error names the file and the
// setting), no run may appear twice; the runs come out in the grid's order (apps, strategies,
// seeds), as one unsharded run lists them. `missing` gets "app strategy seed" of each grid run no
// file holds (a shard not run yet).
Result<BenchFile> MergeBenchFiles(const std::vector<BenchFile>& files,
                                  const std::vector<std::string>& names,
                                  std::vector<std::string>* missing = nullptr);

// The options a bench file's settings stand for (for BenchToJson of a merge).
BenchOptions OptionsOf(const BenchFile& file);

// What a benchmark's time counts: "wall", "phone:uia2", "phone:uiautomator".
std::string BenchClock(const BenchOptions& options);

nlohmann::json BenchToJson(const std::vector<BenchRun>& runs, const BenchOptions& options,
                           double wall_seconds);

}  // namespace roam::run
