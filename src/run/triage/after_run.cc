#include "run/triage/after_run.h"

#include <fmt/format.h>

#include "report/junit.h"
#include "report/run_report.h"

namespace roam::run {

Result<std::vector<report::NewBug>> AfterRun(const std::filesystem::path& run_dir,
                                             const report::Summary& summary,
                                             const AfterRunOptions& options) {
  if (options.minimize) {
    std::vector<std::string> dirs;
    for (const auto* list : {&summary.crashes, &summary.anrs})
      for (const auto& f : *list) dirs.push_back(f.bug_dir);
    if (summary.functional)
      for (const auto& f : *summary.functional) dirs.push_back(f.bug_dir);
    for (const auto& d : dirs) {
      if (d.empty()) continue;
      auto r = MinimizeBug(run_dir / d, options.minimize_options);
      if (!r.ok() && r.status().code() == Status::Code::kAborted) break;  // Ctrl-C: stop here
      if (!options.out) continue;
      if (r.ok()) {
        fmt::print(options.out, "minimised {}: {} -> {} steps in {} replays, {} of {}\n", d,
                   r->steps_before, r->steps_after, r->replays, r->verified,
                   options.minimize_options.repeats);
      } else {
        fmt::print(options.out, "not minimised {}: {}\n", d, r.status().message());
      }
    }
    // The page shows the minimised steps and their screens.
    Status page = report::WriteRunReport(run_dir);
    if (!page.ok() && options.out)
      fmt::print(options.out, "roam: report.html not written: {}\n", page.message());
  }
  if (!options.junit.empty())
    ROAM_RETURN_IF_ERROR(report::WriteJunit(options.junit, summary, run_dir, options.suite_name));
  return report::FailingBugs(summary, options.fail_on);
}

}  // namespace roam::run
