// `roam sim stats FILE...`: the figures of sim/stats.h for each input, one column each, and a
// pooled column when there are several.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "sim/stats.h"

namespace roam::cli {

int SimStatsCommand(int argc, char** argv) {
  std::vector<std::string> paths;
  bool json = false, no_pool = false;
  sim::WalkOptions walk;
  CLI::App app(
      "Statistics that make exploration hard, of app specs (walked breadth-first in the "
      "simulator), DroidBot/Kea recordings (utg.js or its folder) and uiautomator dumps (*.xml "
      "or a folder of them). docs/realism.md explains every figure.",
      "stats");
  app.add_option("FILE", paths, "spec, recording or dumps")->required();
  app.add_flag("--json", json, "one JSON object per input (and the pooled one), one a line");
  app.add_flag("--no-pool", no_pool, "leave out the pooled column");
  app.add_option("--max-states", walk.max_states, "states a walk of a spec expands at most")
      ->capture_default_str();
  if (int rc = ParseFlags(app, "roam sim stats", argc, argv); rc >= 0) return rc;
  std::vector<sim::AppStats> all;
  for (const std::string& p : paths) {
    auto stats = sim::MeasurePath(p, walk);
    if (!stats.ok()) return Fail("roam sim stats", stats.status());
    all.push_back(std::move(*stats));
  }
  if (all.size() > 1 && !no_pool) all.push_back(sim::Pool(all, "all"));
  if (json) {
    for (const auto& s : all) fmt::print("{}\n", sim::StatsToJson(s).dump());
  } else {
    fmt::print("{}", sim::FormatStatsTable(all));
  }
  return kExitOk;
}

}  // namespace roam::cli
