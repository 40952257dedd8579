#include "cli/class_coverage.h"

#include <fmt/format.h>

#include "base/process.h"
#include "cli/jacoco_report.h"
#include "report/run_report.h"
#include "report/summary.h"

namespace roam::cli {

namespace fs = std::filesystem;

bool ReportClassCoverage(const std::string& who, const fs::path& run_dir,
                         const std::vector<std::string>& classfiles) {
  if (classfiles.empty()) return true;
  auto warn = [&](const std::string& why) {
    fmt::print(stderr, "{}: warning: --classfiles: no line, branch or method figures: {}\n", who,
               why);
    return false;
  };
  const fs::path exec = run_dir / "coverage.exec";
  std::error_code ec;
  if (!fs::exists(exec, ec))
    return warn(
        "the run wrote no coverage.exec (its coverage link did not work: summary.json's "
        "coverage_link says why)");
  auto tools = JacocoToolsFromEnvironment();
  if (!tools.ok()) return warn(tools.status().message());
  JacocoReportRequest request{.exec = exec, .title = run_dir.filename().string()};
  request.classfiles.assign(classfiles.begin(), classfiles.end());
  auto report =
      RunJacocoReport(*tools, request,
                      [](const std::vector<std::string>& argv,
                         const std::vector<std::string>& env) { return RunProcess(argv, env); });
  if (!report.ok()) return warn(report.status().message());
  if (report->matched == 0 && report->exec_classes > 0)
    return warn(
        fmt::format("none of the {} classes that ran has its class file among those given "
                    "(they must be of the build that ran)",
                    report->exec_classes));
  const fs::path summary_path = run_dir / "summary.json";
  auto summary = report::ReadSummary(summary_path);
  if (!summary.ok()) return warn(summary.status().message());
  summary->code_coverage = report->total;
  if (Status s = report::WriteSummary(summary_path, *summary); !s.ok()) return warn(s.message());
  if (fs::exists(run_dir / "report.html", ec))
    if (Status s = report::WriteRunReport(run_dir); !s.ok()) return warn(s.message());
  const auto share = [](const CoverageCounter& c) {
    return fmt::format("{} of {} ({:.1f}%)", c.covered, c.total(),
                       c.total() > 0 ? 100.0 * c.covered / c.total() : 0.0);
  };
  const CoverageCounters& t = report->total;
  fmt::print("JaCoCo, from the class files: lines {}, branches {}, methods {}, classes {}\n",
             share(t.line), share(t.branch), share(t.method), share(t.klass));
  if (!report->mismatched.empty())
    fmt::print(stderr,
               "{}: warning: --classfiles: {} classes that ran have class files of another "
               "build: JaCoCo counts them as not covered\n",
               who, report->mismatched.size());
  return true;
}

}  // namespace roam::cli
