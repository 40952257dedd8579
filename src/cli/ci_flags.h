// The flags a CI job uses, shared by `roam explore` and `roam fuzz`: --fail-on, --known, --junit,
// --minimize and --minimize-budget (the "CI" group), and `roam known`. Thread-compatible.
#pragma once

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "report/summary.h"
#include "report/verdict.h"
#include "run/triage/after_run.h"

namespace roam::cli {

struct CiFlags {
  std::string fail_on;
  std::filesystem::path known;
  std::filesystem::path junit;
  bool minimize = false;
  int minimize_budget = run::MinimizeOptions{}.max_replays;
};

void AddCiFlags(CLI::App& app, CiFlags& flags);
// Before the run: --junit may replace neither an input (`app`, --known) nor a file of the run
// folder `out`, nor anything but a regular file. False (the fault printed) when it would.
bool CheckCiOutputs(const CiFlags& flags, const std::string& who, const std::filesystem::path& out,
                    const std::filesystem::path& app);

// Reads --known and --fail-on before the run: `known` for the run's options, the rest into
// `after`. Prints a located error and returns false on a bad list or an unreadable file.
bool LoadCiFlags(const CiFlags& flags, const std::string& who, report::KnownBugs& known,
                 run::AfterRunOptions& after);

// After a run: minimises, writes JUnit, prints the bugs that fail the job and returns the exit
// code: 130 interrupted, 3 new bugs of a --fail-on kind, 1 a failure writing, else 0.
int FinishCi(const std::string& who, const std::filesystem::path& run_dir,
             const report::Summary& summary, run::AfterRunOptions after);

// Prints what a run found, a line each: its crashes and ANRs (`  bugs/B1  crash x2  signature
// [planted: id]`), its functional reports (`  bugs/F1  x3  explanation`; the count only
// `with_counts`), then where the run folder and its report.html are.
void PrintFindings(const report::Summary& summary, const std::filesystem::path& out,
                   bool with_counts);
// "1 unique crash", "2 unique crashes": `n` and the word for one or for several.
std::string Plural(size_t n, std::string_view one, std::string_view several);
// "12.3s", or on a phone's clock "12.3s (1800.4 s of a phone)": a run's time for its last line.
std::string RunSeconds(const report::Summary& summary);

}  // namespace roam::cli
