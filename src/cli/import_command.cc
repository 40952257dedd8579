// `roam sim import`: a recorded exploration of a real app as a simulated app (sim/import.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/files.h"
#include "cli/ci_flags.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "sim/import.h"
#include "sim/sim_app.h"

namespace roam::cli {

int SimImportCommand(int argc, char** argv) {
  CLI::App app(
      "Turn a recorded exploration (DroidBot's or Kea's utg.js with its events/ and states/) "
      "into an app spec: a screen per recorded state, a handler per recorded action doing what "
      "the recording saw, so strategies can be benchmarked offline on your own app.",
      "import");
  std::filesystem::path recording, out;
  std::string name;
  app.add_option("RECORDING", recording, "a utg.js, or the folder that holds it")
      ->required()
      ->check(CLI::ExistingPath);
  app.add_option("--out", out, "the spec to write (JSON)")->required();
  app.add_option("--name", name, "the app's short name (default: the package's last part)");
  if (int rc = ParseFlags(app, "roam sim import", argc, argv); rc >= 0) return rc;
  {  // the spec must not replace a file of the recording it is made from
    std::error_code ec;
    const auto folder =
        std::filesystem::is_directory(recording, ec) ? recording : recording.parent_path();
    if (std::filesystem::exists(out, ec) && PathInside(out, folder))
      return Fail("roam sim import",
                  Status::InvalidArgument(fmt::format(
                      "--out {}: is a file of the recording {} it would be made from; write the "
                      "spec elsewhere",
                      out.string(), recording.string())));
  }
  auto rec = sim::ReadRecording(recording);
  if (!rec.ok()) return Fail("roam sim import", rec.status());
  if (name.empty()) {
    name = rec->package.empty() ? "imported" : rec->package;
    if (auto dot = name.rfind('.'); dot != std::string::npos) name = name.substr(dot + 1);
  }
  sim::ImportStats stats;
  auto spec = sim::ImportRecording(*rec, name, stats);
  if (!spec.ok()) return Fail("roam sim import", spec.status());
  // What is written must load, with every check of `roam sim check`.
  auto loaded = sim::LoadSpecJson(*spec, out.string());
  if (!loaded.ok())
    return Fail("roam sim import",
                Status::Corruption("the imported spec does not load (a bug of the importer): " +
                                   loaded.status().message()));
  if (Status s = WriteJsonFile(out, *spec); !s.ok()) return Fail("roam sim import", s);
  fmt::print("{}: {}, {} (code units) from {} ({} left out)\n", out.string(),
             Plural(stats.screens, "screen", "screens"),
             Plural(stats.handlers, "handler", "handlers"),
             Plural(stats.events_mapped, "user event", "user events"), stats.events_unmapped);
  for (const auto& note : stats.notes) fmt::print("  {}\n", note);
  for (const auto& skipped : rec->skipped) fmt::print("  skipped {}\n", skipped);
  return kExitOk;
}

}  // namespace roam::cli
