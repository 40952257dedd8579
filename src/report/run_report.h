// report/run_report: report.html of a run folder, for a person with a browser: the run's
// configuration and stop reason, its figures as cards, coverage over events (progress.jsonl) as
// charts, the activity transition graph (from trace.jsonl, laid out by Graphviz), the bugs with
// their steps, screens and replay commands, and the fuzzer's reports with the seed's and the
// mutant's screens side by side. Everything is read from the folder's files, so the page can be
// written again at any time (`roam report RUN`), also for a run that was killed: what a file lacks
// the page says. Stateless; thread-safe for different folders.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace roam::report {

// One line of a run's progress.jsonl (run/progress.h writes it).
struct ProgressPoint {
  double events = 0;
  std::optional<double> activities, units, states, crashes, anrs;
};
// The samples of a progress.jsonl; `bad` counts lines that do not parse (a run killed mid-write
// leaves half a line). No file: no samples.
std::vector<ProgressPoint> ReadProgressFile(const std::filesystem::path& path, size_t& bad);

// The page of `run_dir`. An error when the folder holds no run (neither config.json nor
// summary.json); damaged files are named on the page, not errors.
Result<std::string> RunReportHtml(const std::filesystem::path& run_dir);

// Writes run_dir/report.html atomically.
Status WriteRunReport(const std::filesystem::path& run_dir);

}  // namespace roam::report
