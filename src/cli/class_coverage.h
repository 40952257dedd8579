// cli/class_coverage: --classfiles on a run on a device with --coverage (explore, fuzz,
// vision). At the end JaCoCo's own analyzer (cli/jacoco_report.h) reads the run's coverage.exec
// against the app's class files; its line, branch, method and class figures go into
// summary.json (code_coverage) and report.html, and are printed. The run is done by then: what
// goes wrong here is said as a warning, not as the run's failure.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace roam::cli {

// Nothing without class files. False, after saying why on stderr, when figures were asked for
// and none were made.
bool ReportClassCoverage(const std::string& who, const std::filesystem::path& run_dir,
                         const std::vector<std::string>& classfiles);

}  // namespace roam::cli
