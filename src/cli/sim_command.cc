// `roam sim check SPEC` and `roam sim show SPEC`.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/files.h"
#include "cli/commands.h"
#include "gui/uiautomator.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::cli {

int SimCommand(int argc, char** argv) {
  CLI::App app("Simulated apps.", "sim");
  app.require_subcommand(1);
  std::filesystem::path spec_path;
  std::vector<std::string> bugs_off;
  auto* check = app.add_subcommand("check", "validate a spec; list every error with its JSON path");
  check->add_option("SPEC", spec_path, "app spec (JSON)")->required();
  auto* show = app.add_subcommand("show", "print the start screen as uiautomator dump XML");
  show->add_option("SPEC", spec_path, "app spec (JSON)")->required();
  show->add_option("--bugs-off", bugs_off, "planted bug ids to switch off")->delimiter(',');
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "roam sim: {}\n", e.what());
    return kExitUsage;
  }
  auto spec = sim::LoadSpec(spec_path);
  if (check->parsed()) {
    if (!spec.ok()) {
      fmt::print("{}\n", spec.status().message());
      return kExitNo;
    }
    const auto& s = **spec;
    fmt::print("{}: ok ({} screens, {} dialogs, {} code units, {} planted bugs)\n",
               spec_path.string(), s.screens().size(), s.dialogs().size(), s.units().size(),
               s.bugs().size());
    return kExitOk;
  }
  if (!spec.ok()) {
    fmt::print(stderr, "{}\n", spec.status().message());
    return kExitUsage;
  }
  sim::SimOptions options;
  options.bugs_off.insert(bugs_off.begin(), bugs_off.end());
  sim::SimApp sim_app(*spec, options);
  sim_app.Launch();
  fmt::print("{}\n", gui::WriteDump(sim_app.screen()));
  return kExitOk;
}

}  // namespace roam::cli
