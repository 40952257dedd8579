// run/triage/after_run: what a CI job asks of a finished run, the same for `roam explore` and `roam
// fuzz`: its bugs minimised (--minimize), a JUnit XML file for the CI page (--junit) and the
// verdict: the new bugs of the kinds --fail-on names. Single-threaded.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "report/summary.h"
#include "report/verdict.h"
#include "run/triage/minimize.h"

namespace roam::run {

struct AfterRunOptions {
  bool minimize = false;
  MinimizeOptions minimize_options;
  std::filesystem::path junit;  // "" : none
  std::string suite_name;       // the JUnit test suite ("roam explore diary")
  report::FailOn fail_on;
  std::FILE* out = nullptr;  // one line per bug minimised (nullptr: none)
};

// Minimises the bugs of `summary` in `run_dir` (a bug that does not minimise keeps its trace,
// with a note on `out`) and then writes report.html again, writes the JUnit file and returns the
// bugs that fail the job.
Result<std::vector<report::NewBug>> AfterRun(const std::filesystem::path& run_dir,
                                             const report::Summary& summary,
                                             const AfterRunOptions& options);

}  // namespace roam::run
