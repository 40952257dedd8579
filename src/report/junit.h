// report/junit: a run as JUnit XML, the test report CI pages read (GitLab, Jenkins, GitHub
// Actions). Each bug is a test case (a failure, or skipped when known), each activity reached a
// passing one, and a run that ended on a device, write or model error one error case. The layout
// follows the schema Jenkins reads; tests/report/junit.xsd checks it. Stateless; thread-safe.
#pragma once

#include <filesystem>
#include <string>

#include "base/status.h"
#include "report/summary.h"

namespace roam::report {

// Writes `summary` as JUnit XML to `file`, atomically. `run_dir` is the run's output folder: a
// bug's steps.txt (the minimised steps) and bug.json (its stack frames) are read from
// run_dir/<bug_dir> when present, and its replay command names that folder. Text that is not
// valid UTF-8, or holds characters XML 1.0 forbids, is written with U+FFFD in their place.
Status WriteJunit(const std::filesystem::path& file, const Summary& summary,
                  const std::filesystem::path& run_dir, const std::string& suite_name);

}  // namespace roam::report
