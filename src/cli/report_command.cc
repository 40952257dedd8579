// `roam report RUN...`: writes each run folder's report.html again from its files.
#include <filesystem>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "report/run_report.h"

namespace roam::cli {

int ReportCommand(int argc, char** argv) {
  CLI::App app(
      "Write a run folder's report.html again (explore and fuzz write it themselves; this is for "
      "a run that was killed, or one written by an older Roam).",
      "report");
  std::vector<std::filesystem::path> runs;
  app.add_option("RUN", runs, "run folders")->required();
  if (int rc = ParseFlags(app, "roam report", argc, argv); rc >= 0) return rc;
  for (const auto& run : runs) {
    Status s = report::WriteRunReport(run);
    if (!s.ok()) return Fail("roam report", s);
    fmt::print("{}\n", (run / "report.html").string());
  }
  return kExitOk;
}

}  // namespace roam::cli
