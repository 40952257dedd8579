// `roam fuzz`: Genie's functional fuzzing (run/fuzz/fuzz.h) on a simulated app or an Android
// device.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/ci_flags.h"
#include "cli/class_coverage.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/signals.h"
#include "cli/target_flags.h"
#include "run/fuzz/fuzz.h"

namespace roam::cli {

namespace {

// Genie's seeds: how many, how long, and how they are drawn.
void AddSeedFlags(CLI::App& app, run::FuzzOptions& o) {
  app.add_option("--seeds", o.max_seeds, "seeds to generate (0: until the budget is spent)")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_option("--seed-length", o.seeds.length, "events per seed")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--seed-scrolls", o.seeds.pct_scroll,
                 "random seed events: weight of a scroll or a swipe beside Genie's 60 click, 35 "
                 "long click and 5 back (0: none, as the notes)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--seeds-from-reached", o.seeds.pct_from_reached,
                 "percent of seeds that start by replaying the way to a state an earlier seed "
                 "reached first (0: all from the clean start)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--max-prefix", o.seeds.max_prefix,
                 "the longest such way replayed (events, detours cut); states farther are not "
                 "started from")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_option("--explore-first", o.seeds.pct_explore,
                 "percent of the budget spent first on seeds alone, mapping the app before "
                 "mutants run")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--fill-forms", o.seeds.pct_fill_forms,
                 "while seeds map the app: percent of their events on a form that type into an "
                 "empty field (what it asks for) or, once all hold text, press its Save / Next / "
                 "Continue")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--untested-effects", o.seeds.pct_untested_effect,
                 "once mutants run, percent of a seed's events taken among those seen to have an "
                 "effect on the layout that no tested seed took there yet")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  app.add_option("--stay", o.seeds.pct_stay,
                 "once mutants run, percent of a seed's events drawn among those not seen to only "
                 "leave the activity it is on (a seed tests the screen it starts on)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
}

// Genie's mutants: what τ may insert, how many run, and which the check judges.
void AddMutantFlags(CLI::App& app, run::FuzzOptions& o) {
  app.add_option("--max-length", o.mutants.max_length, "MAX_LENGTH: events inserted by a mutant")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--tau-types", o.mutants.max_typed_fields,
                 "fields a mutant's inserted events may type into, with another value than a "
                 "seed typed or the name of what the seed acts on next (0: only as a seed typed, "
                 "as its first event)")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_option("--mutants-per-seed", o.mutants.max_per_seed, "mutants run per seed")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--mutants-per-pivot", o.mutants.max_per_pivot, "mutants run per pivot")
      ->check(Positive())
      ->capture_default_str();
  app.add_flag("!--judge-destructive-tau", o.independent_view.skip_destructive_tau,
               "judge a mutant whose τ deleted or changed list items on the views τ did not "
               "touch, instead of skipping it (more reports, and false ones where the deleted "
               "data shows on other screens)");
}

// The run's line of figures and what it found.
void PrintFuzzResult(const run::FuzzResult& result, const std::filesystem::path& out) {
  const auto& s = result.summary;
  const auto& st = result.stats;
  fmt::print("{} events in {} ({}): {}, {} executed ({:.1f}/s), {}, {}, {}, {}\n", s.events,
             RunSeconds(s), s.stop_reason, Plural(st.seeds, "seed", "seeds"),
             Plural(st.mutants_executed, "mutant", "mutants"),
             st.mutant_seconds > 0 ? st.mutants_executed / st.mutant_seconds : 0.0,
             Plural(st.violations, "violation", "violations"),
             Plural(s.functional->size(), "functional bug report", "functional bug reports"),
             Plural(s.crashes.size(), "unique crash", "unique crashes"),
             Plural(s.anrs.size(), "unique ANR", "unique ANRs"));
  PrintFindings(s, out, /*with_counts=*/true);
}

}  // namespace

int FuzzCommand(int argc, char** argv) {
  run::FuzzOptions o;
  CLI::App app(
      "Functional fuzzing (Genie): seeds, independent-view mutants and the GUI-effect "
      "check; writes bugs/F<n>/ for each non-crashing functional bug found.",
      "fuzz");
  TargetFlags target_flags = AddTargetFlags(app, o.target, "fuzz");
  auto& a = o.target.android;
  AddBudgetFlags(app, o.budget, "budget of executed events (seeds, their second runs, mutants)",
                 "time budget in seconds, of --clock (0: none)");
  AddClockFlag(app, o.target.phone_clock);
  auto* seed_opt =
      app.add_option("--seed", o.seed, "random seed (default: from the clock, printed)");
  AddSeedFlags(app, o);
  AddMutantFlags(app, o);
  AddOracleFlags(app, o.oracle_files);
  app.add_option("--out", o.out, "output folder (default: out/<app>-fuzz-s<seed>)");
  app.add_flag("--force", o.force, "replace an earlier run in the output folder");
  app.add_flag("!--no-score", o.score,
               "simulator: do not look for the planted bug behind each report");
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "no progress output");
  CiFlags ci;
  AddCiFlags(app, ci);
  if (int rc = ParseFlags(app, "roam " + app.get_name(), argc, argv); rc >= 0) return rc;
  run::AfterRunOptions after;
  if (!LoadCiFlags(ci, "roam fuzz", o.known, after)) return kExitUsage;
  if (!TargetGiven(target_flags, o.target, "roam fuzz")) return kExitUsage;
  DefaultSeedAndOut(seed_opt, "fuzz", o);
  if (!CheckCiOutputs(ci, "roam fuzz", o.out, o.target.app)) return kExitUsage;
  const std::string target = TargetName(o.target);
  if (!quiet) {
    a.log = [](const std::string& note) { fmt::print(stderr, "roam fuzz: {}\n", note); };
    fmt::print(stderr, "roam fuzz: {} {}, seed {}, {}, out {}\n",
               a.serial.empty() ? "app" : "device " + a.serial + " package", target, o.seed,
               run::DescribeBudget(o.budget, o.target.phone_clock ? "a phone" : ""),
               o.out.string());
  }
  auto result = run::Fuzz(o, CampaignContext(quiet));
  if (!result.ok()) return Fail("roam fuzz", result.status());
  PrintFuzzResult(*result, o.out);
  after.suite_name = fmt::format("roam fuzz {} (seed {})", target, o.seed);
  after.out = stdout;
  ReportClassCoverage("roam fuzz", o.out, o.target.android.coverage.classfiles);
  return FinishCi("roam fuzz", o.out, result->summary, after);
}

}  // namespace roam::cli
