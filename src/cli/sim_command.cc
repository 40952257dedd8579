// `roam sim check|show|serve|generate|stats`: one function a subcommand, dispatched from a table.
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <pugixml.hpp>

#include "base/files.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "device/sim_device.h"
#include "draw/marks.h"
#include "explore/planner.h"
#include "gui/uiautomator.h"
#include "report/trace.h"
#include "run/executor.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::cli {

namespace {

const std::vector<Command>& SimCommands() {
  static const std::vector<Command> kTable = {
      {"check", "validate a spec; list every error with its JSON path", SimCheckCommand},
      {"show", "print the start screen as uiautomator dump XML", SimShowCommand},
      {"serve", "serve simulated apps as Android devices over the adb protocol", SimServeCommand},
      {"generate", "generate a random app spec with planted bugs", SimGenerateCommand},
      {"route", "the oracle's shortest route from a fresh start to each planted bug",
       SimRouteCommand},
      {"stats", "what makes apps hard to explore: specs, recordings of real apps, dumps",
       SimStatsCommand},
      {"import", "a recorded exploration of a real app (DroidBot/Kea utg.js) as an app spec",
       SimImportCommand},
  };
  return kTable;
}

}  // namespace

int SimCommand(int argc, char** argv) {
  std::vector<std::string> names;
  if (argc >= 2) {
    std::string name = argv[1];
    for (const auto& c : SimCommands()) {
      if (c.name == name) return c.run(argc - 1, argv + 1);
      names.push_back(c.name);
    }
    if (name != "--help" && name != "-h") {
      fmt::print(stderr, "roam sim: unknown subcommand \"{}\"{}\n", name, DidYouMean(name, names));
      return kExitUsage;
    }
  }
  fmt::print("Usage: roam sim <subcommand> ...\n\n");
  for (const auto& c : SimCommands()) fmt::print("  {:<10} {}\n", c.name, c.description);
  return argc >= 2 ? kExitOk : kExitUsage;
}

int SimCheckCommand(int argc, char** argv) {
  std::filesystem::path spec_path;
  CLI::App app("Validate a spec; list every error with its JSON path.", "check");
  app.add_option("SPEC", spec_path, "app spec (JSON)")->required();
  if (int rc = ParseFlags(app, "roam sim " + app.get_name(), argc, argv); rc >= 0) return rc;
  // A file that cannot be read as JSON is a usage error, as for every command; a spec with
  // errors is the check's "no".
  auto doc = ReadJsonFile(spec_path);
  if (!doc.ok()) {
    fmt::print("{}\n", doc.status().message());
    return kExitUsage;
  }
  auto spec = sim::LoadSpecJson(*doc, spec_path.string());
  if (!spec.ok()) {
    fmt::print("{}\n", spec.status().message());
    return kExitNo;
  }
  fmt::print("{}: ok ({})\n", spec_path.string(), sim::DescribeSpec(**spec));
  return kExitOk;
}

int SimShowCommand(int argc, char** argv) {
  std::filesystem::path spec_path, png_path, trace_path;
  std::vector<std::string> bugs_off;
  CLI::App app(
      "Print the start screen as uiautomator dump XML, or draw it as a phone shows it (--png); "
      "--trace shows the screen a trace leads to.",
      "show");
  app.add_option("SPEC", spec_path, "app spec (JSON)")->required();
  app.add_option("--bugs-off", bugs_off, "planted bug ids to switch off")->delimiter(',');
  app.add_option("--png", png_path, "draw the screen into this PNG file instead");
  bool marks = false;
  app.add_flag("--marks", marks,
               "with --png: box every actionable widget with a number, coloured by how it is "
               "operated (VisionDroid's aligned screenshot), and print the numbered widget list");
  app.add_option("--trace", trace_path,
                 "replay this trace.jsonl first (from cleared data, as a bug's trace does)")
      ->check(CLI::ExistingFile);
  if (int rc = ParseFlags(app, "roam sim " + app.get_name(), argc, argv); rc >= 0) return rc;
  auto spec = sim::LoadSpec(spec_path);
  if (!spec.ok()) {
    fmt::print(stderr, "{}\n", spec.status().message());
    return kExitUsage;
  }
  sim::SimOptions options;
  options.bugs_off.insert(bugs_off.begin(), bugs_off.end());
  sim::SimApp sim_app(*spec, options);
  sim_app.Launch();
  if (!trace_path.empty()) {
    auto trace = report::ReadTrace(trace_path);
    if (!trace.ok()) return Fail("roam sim show", trace.status());
    for (const auto& step : *trace) {
      if (step.op == "clear") sim_app.ClearData();
      if (step.op == "stop") sim_app.Stop();
      if (step.op == "launch") sim_app.Launch();
      if (step.op == "act") sim_app.Perform(step.action);
    }
  }
  if (png_path.empty()) {
    if (marks) {
      fmt::print(stderr, "roam sim show: --marks draws on the picture: give --png FILE too\n");
      return kExitUsage;
    }
    // As uiautomator writes it, but a node a line, indented by depth, for a person to read.
    pugi::xml_document doc;
    doc.load_string(gui::WriteDump(sim_app.screen()).c_str());
    std::ostringstream xml;
    doc.save(xml, "  ");
    fmt::print("{}", xml.str());
    return kExitOk;
  }
  auto png = device::DrawSimApp(sim_app);
  if (png.ok() && marks) {
    auto found = draw::MarksFor(sim_app.screen());
    png = draw::MarkPng(*png, found);
    fmt::print("{}\n{}", draw::Legend(), draw::MarkList(sim_app.screen(), found));
  }
  if (!png.ok()) return Fail("roam sim show", png.status());
  if (Status s = WriteFileAtomic(png_path, *png); !s.ok()) return Fail("roam sim show", s);
  fmt::print("{}: {} bytes\n", png_path.string(), png->size());
  return kExitOk;
}

int SimRouteCommand(int argc, char** argv) {
  std::filesystem::path spec_path;
  std::vector<std::string> bugs;
  explore::PlannerOptions o{.max_trials = 400000, .max_depth = 40};
  CLI::App app(
      "The oracle's shortest route from a freshly installed app to each planted bug (breadth-first "
      "over what the screens show, as the oracle strategy plans): how deep a bug sits.",
      "route");
  app.add_option("SPEC", spec_path, "app spec (JSON)")->required();
  app.add_option("--bug", bugs, "only these planted bug ids")->delimiter(',');
  app.add_option("--trials", o.max_trials, "actions tried per bug at most")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--depth", o.max_depth, "longest route searched")
      ->check(Positive())
      ->capture_default_str();
  if (int rc = ParseFlags(app, "roam sim " + app.get_name(), argc, argv); rc >= 0) return rc;
  auto spec = sim::LoadSpec(spec_path);
  if (!spec.ok()) {
    fmt::print(stderr, "{}\n", spec.status().message());
    return kExitUsage;
  }
  std::vector<std::string> ids;
  for (const auto& b : (*spec)->bugs()) ids.push_back(b.id);
  for (const auto& b : bugs)
    if (std::find(ids.begin(), ids.end(), b) == ids.end()) {
      fmt::print(stderr, "roam sim route: {} plants no bug \"{}\"{}\n", spec_path.string(), b,
                 DidYouMean(b, ids));
      return kExitUsage;
    }
  if (!bugs.empty()) ids = bugs;
  for (const auto& id : ids) {
    const sim::BugSpec& bug = (*spec)->bugs()[(*spec)->FindBug(id)];
    if (bug.kind != "crash" && bug.kind != "anr") {
      fmt::print("{}: a {} bug, not a crash or an ANR (routes lead to those)\n", id, bug.kind);
      continue;
    }
    auto route = explore::PlannerStrategy::RouteToBug(*spec, {}, o, id);
    if (!route) {
      fmt::print("{}: no route within {} trials and depth {}\n", id, o.max_trials, o.max_depth);
      continue;
    }
    // The route replayed on a fresh app, each action said as a person would do it.
    fmt::print("{}: {} actions\n", id, route->size());
    sim::SimApp app(*spec, {});
    app.ClearData();
    app.Launch();
    for (size_t i = 0; i < route->size(); ++i) {
      fmt::print("  {:>2}. {}\n", i + 1,
                 report::StepSentence(run::StepExecutor::StepOn(app.screen(), (*route)[i], 0)));
      app.Perform((*route)[i]);
      if (app.screen().package != app.package()) app.Launch();
    }
  }
  return kExitOk;
}

}  // namespace roam::cli
