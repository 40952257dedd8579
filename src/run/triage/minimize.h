// run/triage/minimize: short bug traces a developer replays by hand. Delta debugging (base/ddmin.h)
// over a bug's steps, then over the text it types; every candidate is replayed on a fresh device
// (the simulated app, or the same Android device) through the one replay path (run/replay.h) and
// counts only when it shows the same failure signature `repeats` times out of `repeats`.
// bugs/B<n> (a crash or an ANR) gets trace.min.jsonl and steps.txt; bugs/F<n> (a functional
// report) gets its seed prefix and τ shrunk while the oracle's violation holds, kept in bug.json
// under "minimized", and steps.txt. bug.json records what was done. Single-threaded.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>

#include "base/status.h"

namespace roam::run {

struct MinimizeOptions {
  // Replays (checks, for a functional report) spent on one bug at most, the final check of the
  // result included (at least 2 * repeats: the recorded trace's and the result's).
  int max_replays = 200;
  int repeats = 3;  // a candidate reproduces this many times out of this many
  // Set (Ctrl-C, SIGTERM): the search ends after the replay under way, nothing is written and
  // the bug keeps its trace (an Aborted error). Borrowed; null: never.
  const std::atomic<bool>* stop = nullptr;
};

struct MinimizeReport {
  std::string kind;
  size_t steps_before = 0, steps_after = 0;  // a crash's trace steps; a functional case's events
  size_t text_before = 0, text_after = 0;    // characters typed
  int replays = 0;                           // device replays spent (functional: case checks)
  bool complete = false;                     // 1-minimal: no single step (or character) can go
  int verified = 0;                          // of `repeats` final replays, how many reproduced
};

// Minimises the bug in `bug_dir` and writes the result beside it. An error when the bug folder is
// malformed, the device cannot be opened, or the recorded trace does not reproduce at all.
Result<MinimizeReport> MinimizeBug(const std::filesystem::path& bug_dir,
                                   const MinimizeOptions& options);

// The minimised trace's file name in a bug folder (`roam replay` prefers it).
inline constexpr const char* kMinimizedTrace = "trace.min.jsonl";

}  // namespace roam::run
