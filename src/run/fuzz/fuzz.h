// run/fuzz/fuzz: the job behind `roam fuzz` (Genie, shared/seeds/001) on the simulator or an
// Android device: generate seeds (each run twice from cleared data, the second from a device
// snapshot where the first's replayed way to a reached state ended, on a device that snapshots;
// views that differ between the two runs are ignored), mine the transition model, generate and
// execute independent-view mutants, check the GUI-effect check, and write bugs/F<n>/ for each new
// violation (seed and mutant traces, the layouts before and after, the views that differ, an
// explanation in words). On the simulator each report is also scored: it is a true positive for
// planted bug X when the violation vanishes with X switched off. `roam replay bugs/F<n>` re-runs
// seed and mutant. Crashes and ANRs met on the way are filed as bugs/B<n>/ as `roam explore` files
// them, each with the seed or mutant run that met it as its trace (run/crash_bug.h). The
// environment variable ROAM_FUZZ_DEBUG (any value) prints each seed (where it started, the activity
// of each event), its mutants and each mutant's verdict on stderr. Single-threaded; `stop` may be
// set from a signal handler.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "fuzz/independent_view.h"
#include "fuzz/model.h"
#include "fuzz/mutants.h"
#include "fuzz/seeds.h"
#include "report/summary.h"
#include "run/context.h"
#include "run/progress.h"
#include "run/replay_spec.h"
#include "run/replay_trace.h"
#include "run/run_folder.h"

namespace roam::run {

struct FuzzOptions : RunOptions {
  FuzzOptions() { budget.events = 5000; }  // executed events: seeds twice, mutants
  int max_seeds = 0;                       // seeds to generate; 0: until the budget is spent
  bool score = true;                       // simulator: find the planted bug behind each report
  fuzz::SeedSettings seeds;
  fuzz::MutantSettings mutants;
  fuzz::ModelSettings model;
  fuzz::IndependentViewSettings independent_view;  // Genie's check (fuzz/independent_view.h)
  int signature_frames = 3;  // app frames of a crash signature (oracle/crash.h)
  ProgressOptions progress;
};

struct FuzzStats {
  int64_t seeds = 0;
  int64_t unstable_seeds = 0;  // seeds whose second run could not follow the first
  // Seeds that began on the way to a state an earlier seed reached, and those whose way, replayed,
  // did not lead there (that way is not taken again).
  int64_t ways = 0;
  int64_t ways_failed = 0;
  int64_t seed_scrolls = 0;  // seed events (their own, not a way's) that scrolled or swiped
  int64_t mutants_generated = 0;
  int64_t mutants_executed = 0;
  int64_t mutants_dropped = 0;  // did not reproduce τ or did not return near the pivot
  // Mutants begun from a device snapshot, at their seed's start or at their pivot, instead of
  // replaying the events before (devices with snapshots: the simulator, emulators).
  int64_t restored_mutants = 0;
  int64_t violations = 0;     // mutants that violated the check (before de-duplication)
  double mutant_seconds = 0;  // wall time spent running mutants
};

struct FuzzResult {
  report::Summary summary;  // summary.functional: the reports, ranked (seen once first)
  FuzzStats stats;
};

Result<FuzzResult> Fuzz(const FuzzOptions& options, const RunContext& context = {});

// Re-runs an F folder's seed (twice) and mutant on the device `spec` names and checks them
// again: reproduced when the same violation string shows up. ReplayBug calls it.
Result<ReplayOutcome> ReplayFunctional(const std::filesystem::path& dir, const ReplaySpec& spec,
                                       bool original = false);

}  // namespace roam::run
