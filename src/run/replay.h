// run/replay: re-running what a run found. ReplayTrace re-executes a trace on a device through
// the step executor and says whether a crash or ANR signature shows up again (the campaign uses
// it to check a bug's trace before writing it). ReplayBug is the one replay path behind `roam
// replay`: it reads a bug folder's bug.json, opens the device its typed replay spec names, and
// replays it as its kind says: bugs/B<n> (a crash or an ANR: the trace), bugs/F<n> (a
// functional report of `roam fuzz`: the seed and mutant, re-checked by the oracle) or bugs/V<n>
// (a report of `roam vision`: its steps, and the Detector asked again, run/vision.h).
// Single-threaded.
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

namespace roam::run {

struct ReplayResult {
  bool reproduced = false;
  int64_t steps_run = 0;                // trace steps executed before stopping
  std::vector<std::string> signatures;  // every failure signature seen on the way
};

// What a replay records besides its result (each optional).
struct ReplayRecord {
  // Each step run, its activity, state and target widget as this replay saw them (the trace a
  // person reads).
  std::vector<report::TraceStep>* annotated = nullptr;
  // For each step run, a hash of everything its screen showed (gui::ContentHash; 0 for steps
  // that are not actions): finer than the state, for telling exact returns apart.
  std::vector<uint64_t>* content = nullptr;
  // The screen before each of the last `screenshot_last` action steps, its target outlined, as
  // PNG, with its index in `steps`. A device that cannot draw leaves it empty and says why in
  // `screenshot_error`.
  std::vector<std::pair<size_t, std::string>>* screenshots = nullptr;
  size_t screenshot_last = 20;
  std::string* screenshot_error = nullptr;
};

// Runs `steps` in order (clear / launch / stop / snapshot / restore / act) and stops at the
// first report whose signature is `want_signature` (empty: run to the end and just collect
// signatures). A phone may log the last action's crash only after the action returned: when it
// has not shown up, the device's reports are read again for up to `late_ms` (0 on the
// simulator, whose reports are immediate).
Result<ReplayResult> ReplayTrace(device::Device& device,
                                 const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames, int late_ms = 0,
                                 const ReplayRecord& record = {});

// Writes a replay's screenshots into `bug_dir`/steps/ as NNN.png (NNN: the step's number in
// the trace, from 1, as steps.txt counts), replacing what was there; returns the files'
// paths relative to `bug_dir`.
Result<std::vector<std::string>> WriteStepScreenshots(
    const std::filesystem::path& bug_dir,
    const std::vector<std::pair<size_t, std::string>>& screenshots);

// How long a replay on a phone waits for a late crash report after its last step.
inline constexpr int kLateReportMs = 3000;

struct ReplayOutcome {
  bool reproduced = false;
  std::string trace;     // the trace file replayed (a crash's minimised one when there is one)
  std::string expected;  // the bug's signature or violation
  ReplayResult result;
  std::string note;  // for the user ("" when there is nothing to say)
};

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
