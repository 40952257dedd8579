// run/triage/replay: ReplayBug is the one replay path behind `roam replay`: it reads a bug
// folder's bug.json, opens the device its typed replay spec names, and replays it as its kind
// says: bugs/B<n> (a crash or an ANR: the trace, run/replay_trace.h), bugs/F<n> (a functional
// report of `roam fuzz`: the seed and mutant, checked again by the independent-view check),
// bugs/V<n> (a report of `roam vision`: its steps, and the Detector asked again,
// run/vision/vision.h) or bugs/P<n> (a user's oracle's: its trace, and what it checked checked
// again, run/oracle_bug.h). Single-threaded.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/device.h"
#include "llm/chat.h"
#include "report/summary.h"
#include "report/trace.h"
#include "run/replay_spec.h"
#include "run/replay_trace.h"

namespace roam::run {
// A bug folder's bug.json, read with its kind and replay spec checked (errors name the file).
struct BugFolder {
  std::string where;  // bug.json's path, for errors
  nlohmann::json bug;
  std::string kind;  // "crash", "anr", "native_crash", "functional"
  ReplaySpec spec;
};
Result<BugFolder> ReadBugFolder(const std::filesystem::path& bug_dir);

// Re-runs the bug in `bug_dir` on a fresh device as its bug.json says: the minimised trace (or
// case) when `roam minimize` left one, unless `original`. A folder that is not a bug folder, or
// whose bug.json or trace is malformed, is an error naming the file.
// A bugs/V<n> folder asks its Detector again: the live model `llm` names (url set), else the
// run's llm.jsonl.
Result<ReplayOutcome> ReplayBug(const std::filesystem::path& bug_dir, bool original = false,
                                const llm::ClientOptions& llm = {});

// Records in bug.json how many of `runs` replays reproduced (`roam replay --repeat`).
Status RecordReplays(const std::filesystem::path& bug_dir, int runs, int reproduced,
                     const std::string& trace);

}  // namespace roam::run
