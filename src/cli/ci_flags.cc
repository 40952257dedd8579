#include "cli/ci_flags.h"

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/signals.h"
#include "run/run_folder.h"

namespace roam::cli {

void AddCiFlags(CLI::App& app, CiFlags& flags) {
  const char* group = "CI";
  app.add_option("--fail-on", flags.fail_on,
                 "exit 3 when a new bug of these kinds is found: crash,anr,functional, or model "
                 "(vision: most of the model's answers replaced) (default: none)")
      ->group(group);
  app.add_option("--known", flags.known,
                 "known bugs, which fail no job: a file of signatures (`roam known add`) or a "
                 "previous run's summary.json")
      ->check(CLI::ExistingFile)
      ->group(group);
  app.add_option("--junit", flags.junit, "write a JUnit XML report here (for the CI page)")
      ->group(group);
  app.add_flag("--minimize", flags.minimize,
               "minimise every bug's trace at the end (roam minimize), before --junit")
      ->group(group);
  app.add_option("--minimize-budget", flags.minimize_budget, "replays spent on one bug at most")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str()
      ->group(group);
}

bool CheckCiOutputs(const CiFlags& flags, const std::string& who, const std::filesystem::path& out,
                    const std::filesystem::path& app) {
  Status s = run::CheckSideOutput(out, flags.junit, {app, flags.known}, "--junit");
  if (!s.ok()) fmt::print(stderr, "{}: {}\n", who, s.message());
  return s.ok();
}

bool LoadCiFlags(const CiFlags& flags, const std::string& who, report::KnownBugs& known,
                 run::AfterRunOptions& after) {
  auto fail_on = report::FailOn::Parse(flags.fail_on);
  if (!fail_on.ok()) {
    fmt::print(stderr, "{}: --fail-on: {}\n", who, fail_on.status().message());
    return false;
  }
  after.fail_on = *fail_on;
  if (!flags.known.empty()) {
    auto k = report::KnownBugs::Read(flags.known);
    if (!k.ok()) {
      fmt::print(stderr, "{}: --known: {}\n", who, k.status().message());
      return false;
    }
    known = std::move(*k);
  }
  after.junit = flags.junit;
  after.minimize = flags.minimize;
  after.minimize_options.max_replays = flags.minimize_budget;
  after.minimize_options.stop = &InstallStopSignals();  // Ctrl-C while minimising stops it
  return true;
}

std::string Plural(size_t n, std::string_view one, std::string_view several) {
  return fmt::format("{} {}", n, n == 1 ? one : several);
}

std::string RunSeconds(const report::Summary& s) {
  if (!s.phone_seconds) return fmt::format("{:.1f}s", s.wall_seconds);
  return fmt::format("{:.1f}s ({:.1f} s of a phone)", s.wall_seconds, *s.phone_seconds);
}

void PrintFindings(const report::Summary& summary, const std::filesystem::path& out,
                   bool with_counts) {
  for (const auto* list : {&summary.crashes, &summary.anrs})
    for (const auto& f : *list)
      fmt::print("  {}  {} x{}  {}{}{}\n", f.bug_dir, f.kind, f.count, f.signature,
                 f.bug_id.empty() ? "" : fmt::format("  [planted: {}]", f.bug_id),
                 f.known ? "  [known]" : "");
  if (summary.functional)
    for (const auto& f : *summary.functional)
      fmt::print(
          "  {}  {}{}{}{}\n", f.bug_dir, with_counts ? fmt::format("x{}  ", f.count) : "",
          f.explanation,
          f.scored ? fmt::format("  [planted: {}]", f.bug_id.empty() ? "none" : f.bug_id) : "",
          f.known ? "  [known]" : "");
  fmt::print("run folder: {}  (open {} in a browser)\n", out.string(),
             (out / "report.html").string());
}

int FinishCi(const std::string& who, const std::filesystem::path& run_dir,
             const report::Summary& summary, run::AfterRunOptions after) {
  const bool interrupted = summary.stop_reason == "interrupted";
  after.minimize = after.minimize && !interrupted;  // Ctrl-C means stop now
  auto failing = run::AfterRun(run_dir, summary, after);
  if (!failing.ok()) {
    fmt::print(stderr, "{}: {}\n", who, failing.status().message());
    return kExitNo;
  }
  if (interrupted) return kExitInterrupted;
  if (failing->empty()) return kExitOk;
  fmt::print("{} new bug{} of a --fail-on kind:\n", failing->size(),
             failing->size() == 1 ? "" : "s");
  for (const auto& b : *failing)
    fmt::print("  {}  {}  {}\n", b.bug_dir.empty() ? "-" : b.bug_dir, b.kind, b.signature);
  return kExitBugs;
}

int KnownCommand(int argc, char** argv) {
  CLI::App app("Known bugs, for --known: a CI job fails only on bugs not listed.", "known");
  app.require_subcommand(1);
  auto* add = app.add_subcommand("add", "add the signatures of bug folders to a known-bugs file");
  std::vector<std::filesystem::path> dirs;
  std::filesystem::path file = "known-bugs.txt";
  add->add_option("BUG_DIR", dirs, "bug folders, e.g. out/run/bugs/B1")->required();
  add->add_option("--file", file, "the known-bugs file (created when missing)")
      ->capture_default_str();
  if (int rc = ParseFlags(app, "roam known", argc, argv); rc >= 0) return rc;
  std::vector<std::string> signatures;
  for (const auto& d : dirs) {
    auto s = report::BugSignature(d);
    if (!s.ok()) return Fail("roam known add", s.status());
    signatures.push_back(*s);
  }
  auto added = report::KnownBugs::Append(file, signatures);
  if (!added.ok()) return Fail("roam known add", added.status());
  fmt::print("{}: {} signature{} added ({} already there)\n", file.string(), *added,
             *added == 1 ? "" : "s", static_cast<int>(signatures.size()) - *added);
  return kExitOk;
}

}  // namespace roam::cli
