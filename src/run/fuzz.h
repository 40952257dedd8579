// run/fuzz: the job behind `roam fuzz` (Genie, shared/seeds/001) on the simulator or an Android
// device: generate seeds (each run twice from cleared data; views that differ between the two
// runs are ignored), mine the transition model, generate and execute independent-view mutants,
// check the GUI-effect oracle, and write bugs/F<n>/ for each new violation (seed and mutant
// traces, the layouts before and after, the views that differ, an explanation in words). On the
// simulator each report is also scored: it is a true positive for planted bug X when the
// violation vanishes with X switched off. `roam replay bugs/F<n>` re-runs seed and mutant.
// The environment variable ROAM_FUZZ_DEBUG (any value) prints each seed, its mutants and each
// mutant's verdict on stderr. Single-threaded; `stop` may be set from a signal handler.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/android/android_device.h"
#include "fuzz/model.h"
#include "fuzz/mutants.h"
#include "fuzz/oracle.h"
#include "fuzz/seeds.h"
#include "report/summary.h"
#include "run/explore.h"

namespace roam::run {

struct FuzzOptions {
  std::filesystem::path app;               // a simulated app spec (JSON)
  std::vector<std::string> bugs_off;       // planted bugs switched off
  uint64_t seed = 1;
  int64_t events = 5000;                   // budget of executed events (seeds twice, mutants)
  int max_seeds = 0;                       // seeds to generate; 0: until the budget is spent
  std::filesystem::path out;
  bool force = false;
  bool score = true;                       // simulator: find the planted bug behind each report
  fuzz::SeedSettings seeds;
  fuzz::MutantSettings mutants;
  fuzz::ModelSettings model;
  fuzz::OracleSettings oracle;
  double progress_seconds = 2;             // a progress line this often (when progress is set)

  // The Android target: when android.serial is set, the run drives that device (as `roam explore
  // --serial`) and tests android.package; bugs_off and score then do not apply.
  device::android::AndroidDeviceOptions android;
  std::filesystem::path apk;
};

// One reported functional bug (a unique violation string).
struct FunctionalFinding {
  std::string id;            // "F1"
  std::string key;           // the violation string
  std::string activity;
  std::string explanation;
  int count = 0;             // mutants that showed it
  int first_seed = 0;        // the seed (0-based) it was found on
  std::string bug_dir;       // "bugs/F1"
  std::string bug_id;        // simulator: the planted bug it is a true positive for ("": none)
  bool scored = false;       // whether bug_id was computed
};

struct FuzzStats {
  int64_t seeds = 0;
  int64_t unstable_seeds = 0;       // seeds whose second run could not follow the first
  int64_t mutants_generated = 0;
  int64_t mutants_executed = 0;
  int64_t mutants_dropped = 0;      // did not reproduce τ or did not return near the pivot
  int64_t violations = 0;           // mutants that violated the oracle (before de-duplication)
  double mutant_seconds = 0;        // wall time spent running mutants
};

struct FuzzResult {
  report::Summary summary;
  std::vector<FunctionalFinding> findings;  // ranked: seen once first
  FuzzStats stats;
};

Result<FuzzResult> Fuzz(const FuzzOptions& options, const std::atomic<bool>* stop,
                        std::FILE* progress);

// Whether `dir` is a functional bug folder (bugs/F<n>: bug.json with "kind": "functional").
bool IsFunctionalBugDir(const std::filesystem::path& dir);
// Re-runs an F folder's seed (twice) and mutant on a fresh app (or its Android device) and
// re-checks the oracle: reproduced when the same violation string shows up.
Result<ReplayOutcome> ReplayFunctional(const std::filesystem::path& dir);

}  // namespace roam::run
