// run/run_folder: what every campaign's options share (the target, the seed, the budget, the
// output folder) and the start of its run folder: the folder prepared (an earlier run is kept
// unless forced), the app's copy, and config.json with the shared keys. Stateless functions;
// thread-safe for different folders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "report/verdict.h"
#include "run/budget.h"
#include "run/target.h"

namespace roam::run {

struct RunOptions {
  TargetOptions target;
  uint64_t seed = 1;
  std::filesystem::path out;  // the run folder
  bool force = false;         // replace an earlier run in `out`
  BudgetOptions budget;
  report::KnownBugs known;  // marked known in summary.json (--known)
  // report.html at the end (and mid-run with summary.json). The benchmark turns it off: it
  // writes one page for all its runs, and a page per run cost a fifth of its time.
  bool html_report = true;
  // The user's oracles by their row of oracle/kinds.h ("properties": docs/properties.md), each
  // the file it reads; an empty path: off. Exploration and vision hand them every screen; fuzz
  // hands them its seeds' own (a property's interaction takes a seed's next events).
  std::map<std::string, std::filesystem::path> oracle_files;
};

// Creates `dir` or checks it may be used: a folder that holds an earlier run (config.json,
// summary.json or trace.jsonl) is refused unless `force`, which then clears it.
Status PrepareOutDir(const std::filesystem::path& dir, bool force);

// Checks an output a command writes beside its run folder (--junit): a regular file or nothing
// there (base/files.h CheckOutputPath), none of the command's `inputs` (the app spec, --known),
// and no file of the run folder itself (summary.json, trace.jsonl, anything under bugs/ ...).
Status CheckSideOutput(const std::filesystem::path& run_dir, const std::filesystem::path& output,
                       const std::vector<std::filesystem::path>& inputs, const char* flag);

// What a folder holds: no run; a run that did not finish (its summary.json is missing or says
// "running": the process was killed, or still runs); or a finished run. Readers of run folders
// (replay, reports, bench merges) must not take an unfinished run's figures as final.
enum class RunState { kNone, kUnfinished, kFinished };
RunState ReadRunState(const std::filesystem::path& dir);

// The bug folders of a run folder (bugs/B<n>, bugs/F<n>, then bugs/V<n>, in number order); an error
// when `run_dir` has no bugs/ folder.
Result<std::vector<std::filesystem::path>> BugFolders(const std::filesystem::path& run_dir);

// The run folder a bug folder (bugs/B1, bugs/F2/, ...) belongs to.
std::filesystem::path RunDirOfBug(const std::filesystem::path& bug_dir);

// Prepares options.out, keeps the app's copy there (app.json) and writes config.json: the
// campaign's own keys in `config`, then the seed, the budget, the target's keys and its replay
// spec.
Status OpenRunFolder(const RunOptions& options, const Target& target, nlohmann::json config);

}  // namespace roam::run
