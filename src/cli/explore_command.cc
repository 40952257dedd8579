// `roam explore` and `roam replay`.

#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/ci_flags.h"
#include "cli/class_coverage.h"
#include "cli/commands.h"
#include "cli/dqn_flags.h"
#include "cli/fastbot_flags.h"
#include "cli/flags.h"
#include "cli/harness_flags.h"
#include "cli/llm_flags.h"
#include "cli/signals.h"
#include "cli/strategy_flags.h"
#include "cli/target_flags.h"
#include "cli/timetravel_flags.h"
#include "device/android/adb_protocol.h"
#include "report/run_report.h"
#include "run/explore/explore.h"
#include "run/triage/minimize.h"
#include "run/triage/replay.h"

namespace roam::cli {

namespace {

// --serial A,B,C or --serial all (every online device of the adb server) into o.serials; false
// (with a message) when that leaves none or names one twice. (--devices beside --serial is
// refused by run/explore/fleet.)
bool ResolveSerials(run::ExploreOptions& o) {
  auto& a = o.target.android;
  if (a.serial != "all" && a.serial.find(',') == std::string::npos) return true;
  if (a.serial == "all") {
    auto list = device::android::HostQuery(a.host, a.port, device::android::kHostDevices);
    if (!list.ok()) {
      Fail("roam explore", list.status().Wrap(fmt::format("adb server {}:{}", a.host, a.port)));
      return false;
    }
    o.serials = device::android::OnlineSerials(*list);
  } else {
    for (size_t start = 0; start <= a.serial.size();) {
      size_t comma = std::min(a.serial.find(',', start), a.serial.size());
      if (comma > start) o.serials.push_back(a.serial.substr(start, comma - start));
      start = comma + 1;
    }
  }
  if (o.serials.empty()) {
    fmt::print(stderr, "roam explore: --serial {}: no online device on the adb server {}:{}\n",
               a.serial, a.host, a.port);
    return false;
  }
  std::set<std::string> unique(o.serials.begin(), o.serials.end());
  if (unique.size() != o.serials.size()) {
    fmt::print(stderr, "roam explore: --serial {} names a device twice\n", a.serial);
    return false;
  }
  a.serial = o.serials.front();
  if (o.serials.size() == 1) o.serials.clear();  // one device: the usual run
  return true;
}

// The flags of `roam explore` as given, before they become the options.
struct ExploreFlags {
  run::ExploreOptions o;
  TargetFlags target;
  CLI::Option* seed = nullptr;  // --seed, to tell whether it was given
  bool quiet = false;
  CiFlags ci;
};

// How the run goes: the device's absences, the strategy, devices, budget, clock, seed and output.
void AddExploreRunFlags(CLI::App& app, ExploreFlags& f) {
  run::ExploreOptions& o = f.o;
  auto& a = o.target.android;
  app.add_option_function<double>(
         "--offline-timeout",
         [&a](double seconds) { a.offline_timeout_ms = static_cast<int>(seconds * 1000); },
         "seconds to wait for a device that stops answering mid-run (a reboot, a cable, an adb "
         "server restarted) before the run ends (default 300)")
      ->check(Within(0, 86400))
      ->group("Android device");
  app.add_option("--offline-wait", a.offline_wait_ms, "ms between tries while it is away")
      ->check(NonNegative())
      ->capture_default_str()
      ->group("Android device");
  app.add_option("--strategy", o.strategy, "strategy by name; `--strategy help` lists them")
      ->capture_default_str();
  app.add_option("--devices", o.devices,
                 "explore on N copies of the simulated app at once, one model learned by all "
                 "(several Android devices: --serial A,B,C or --serial all)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_flag("!--no-shared-model", o.share_model,
               "with several devices: each learns its own model (a baseline)");
  app.add_flag("--lockstep", o.lockstep,
               "with several devices: they take turns, a step each, so a run on the simulator "
               "is reproducible from its seed (no two steps at once)");
  AddBudgetFlags(app, o.budget, "event budget (0: none)",
                 "time budget in seconds, of --clock (0: none)");
  AddClockFlag(app, o.target.phone_clock);
  app.add_option("--throttle", o.campaign.session.executor.throttle_ms,
                 "pause in ms after each event")
      ->check(NonNegative());
  f.seed = app.add_option("--seed", o.seed, "random seed (default: from the clock, printed)");
  app.add_option("--out", o.out, "output folder (default: out/<app>-<strategy>-s<seed>)");
  app.add_flag("--force", o.force, "replace an earlier run in the output folder");
  app.add_flag("!--no-snapshots", o.target.snapshots, "run the simulator without snapshot support");
  app.add_flag("!--no-clear", o.campaign.clear_data_at_start, "keep the app's data at start");
  app.add_option("--state-screens", o.campaign.session.state_screens,
                 "states whose first screen report.html shows in its screen view (0: none)")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_option("--bug-screenshots", o.campaign.session.bug_screenshots,
                 "screens of each bug trace's last steps kept in its folder (0: none)")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_flag("-q,--quiet", f.quiet, "no progress output");
}

// The random strategy's weights of each kind of event (fastbot's prior too).
void AddRandomFlags(CLI::App& app, explore::RandomOptions& r) {
  for (auto [flag, field, what] : {std::tuple{"--pct-click", &r.pct_click, "clicks"},
                                   {"--pct-long-click", &r.pct_long_click, "long clicks"},
                                   {"--pct-input", &r.pct_input, "text input"},
                                   {"--pct-scroll", &r.pct_scroll, "scrolls"},
                                   {"--pct-swipe", &r.pct_swipe, "screen swipes"},
                                   {"--pct-back", &r.pct_back, "back key"},
                                   {"--pct-menu", &r.pct_menu, "menu key"},
                                   {"--pct-rotate", &r.pct_rotate, "rotations"},
                                   {"--pct-restart", &r.pct_restart, "app restarts"},
                                   {"--pct-syskeys", &r.pct_syskeys, "volume keys"},
                                   {"--pct-intent", &r.pct_intent, "intents (--intents)"}}) {
    app.add_option(flag, *field, fmt::format("random (and fastbot's prior): weight of {}", what))
        ->check(NonNegative())
        ->capture_default_str()
        ->group("Random strategy");
  }
}

// The strategies' settings, the harness, intents, properties and what CI asks.
void AddExploreStrategyFlags(CLI::App& app, ExploreFlags& f) {
  run::ExploreOptions& o = f.o;
  AddRandomFlags(app, o.strategy_settings.random);
  AddTimeTravelFlags(app, o.strategy_settings.timetravel);
  AddDeclaredStrategyFlags(app, o.strategy_settings);
  AddHarnessFlags(app, o.harness);
  AddIntentsFlag(app, o.campaign.intents);
  AddOracleFlags(app, o.oracle_files);
  AddFastbotTuningFlags(app, o.strategy_settings.fastbot);
  AddFastbotModelFlags(app, o.strategy_settings.fastbot, o.campaign.flush_every);
  AddDqnTuningFlags(app, o.strategy_settings.dqn);
  AddDqnModelFlags(app, o.strategy_settings.dqn);
  AddCiFlags(app, f.ci);
}

// Checks the parsed flags and completes f.o from them (the devices, notes, seed and output
// folder), then says what will run unless quiet. Returns -1 to go on, else the exit code.
int FinishExploreOptions(ExploreFlags& f, run::AfterRunOptions& after) {
  run::ExploreOptions& o = f.o;
  auto& a = o.target.android;
  if (!TargetGiven(f.target, o.target, "roam explore")) return kExitUsage;
  if (!ResolveSerials(o)) return kExitUsage;
  if (!o.strategy_settings.fastbot.model_dir.empty() && !explore::RunsFastbot(o.strategy)) {
    fmt::print(stderr,
               "roam explore: --model keeps a Fastbot2 model: use it with --strategy "
               "fastbot, fastbot:pm or fastbot:rl, not {}\n",
               o.strategy);
    return kExitUsage;
  }
  if (!o.strategy_settings.dqn.model.empty() && !explore::RunsDqn(o.strategy)) {
    fmt::print(stderr, "roam explore: --dqn-model is for --strategy dqn, not {}\n", o.strategy);
    return kExitUsage;
  }
  if (!LoadCiFlags(f.ci, "roam explore", o.known, after)) return kExitUsage;
  if (!f.quiet)
    a.log = [](const std::string& note) { fmt::print(stderr, "roam explore: {}\n", note); };
  o.strategy_settings.fastbot.note = [](const std::string& note) {
    fmt::print(stderr, "roam explore: {}\n", InFlagTerms(note));
  };
  o.strategy_settings.dqn.note = o.strategy_settings.fastbot.note;
  DefaultSeedAndOut(f.seed, o.strategy, o);
  if (!CheckCiOutputs(f.ci, "roam explore", o.out, o.target.app)) return kExitUsage;
  if (!f.quiet)
    fmt::print(stderr, "roam explore: {} {}, strategy {}, seed {}, {}, out {}\n",
               o.serials.size() > 1 ? fmt::format("devices {} package", fmt::join(o.serials, ","))
               : a.serial.empty()   ? "app"
                                    : "device " + a.serial + " package",
               a.serial.empty() ? o.target.app.string() : a.package, o.strategy, o.seed,
               run::DescribeBudget(o.budget, o.target.phone_clock ? "a phone" : ""),
               o.out.string());
  return -1;
}

// The run's line of figures, one line a device of a fleet, and what it found.
void PrintExploreResult(const report::Summary& s, const std::filesystem::path& out) {
  fmt::print("{} events in {} ({}): {}, {}{}, {}, {}\n", s.events, RunSeconds(s), s.stop_reason,
             Plural(s.states, "state", "states"),
             Plural(s.activities_covered.size(), "activity", "activities"),
             s.activities_total ? fmt::format(" of {}", *s.activities_total) : "",
             Plural(s.crashes.size(), "unique crash", "unique crashes"),
             Plural(s.anrs.size(), "unique ANR", "unique ANRs"));
  if (s.sections.is_object() && s.sections.contains("devices"))
    for (const auto& d : s.sections["devices"])
      fmt::print("  {}: {} events, {} activities, {} states ({})\n", d["device"].get<std::string>(),
                 d["events"].get<int64_t>(), d["activities"].get<size_t>(),
                 d["states"].get<size_t>(), d["stop_reason"].get<std::string>());
  PrintFindings(s, out, /*with_counts=*/true);
}

}  // namespace

int ExploreCommand(int argc, char** argv) {
  ExploreFlags f;
  run::ExploreOptions& o = f.o;
  CLI::App app("Explore a simulated app, or an app on an Android device, and write a run folder.",
               "explore");
  f.target = AddTargetFlags(app, o.target, "test");
  AddExploreRunFlags(app, f);
  AddExploreStrategyFlags(app, f);
  // `--strategy help` needs no other flag.
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--strategy" && std::string(argv[i + 1]) == "help") {
      fmt::print("{}", explore::StrategyHelp());
      return kExitOk;
    }
  if (int rc = ParseFlags(app, "roam " + app.get_name(), argc, argv); rc >= 0) return rc;
  run::AfterRunOptions after;
  if (int rc = FinishExploreOptions(f, after); rc >= 0) return rc;
  auto summary = run::Explore(o, CampaignContext(f.quiet));
  if (!summary.ok()) return Fail("roam explore", summary.status());
  PrintExploreResult(*summary, o.out);
  after.suite_name =
      fmt::format("roam explore {} ({}, seed {})", TargetName(o.target), o.strategy, o.seed);
  after.out = stdout;
  ReportClassCoverage("roam explore", o.out, o.target.android.coverage.classfiles);
  return FinishCi("roam explore", o.out, *summary, after);
}

int ReplayCommand(int argc, char** argv) {
  std::filesystem::path dir;
  int repeat = 1;
  bool original = false;
  CLI::App app(
      "Re-run a bug's trace on a fresh app and check that it reproduces (the minimised trace "
      "when `roam minimize` left one).",
      "replay");
  app.add_option("BUG_DIR", dir, "a bug folder, e.g. out/run/bugs/B1")->required();
  app.add_option("--repeat", repeat,
                 "replay this many times and report how many reproduce (flakiness); recorded in "
                 "bug.json")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--original", original, "replay the trace as recorded, not the minimised one");
  llm::ClientOptions llm;  // bugs/V<n>: the Detector asked again by a live model
  AddLlmFlags(app, llm);
  if (int rc = ParseFlags(app, "roam " + app.get_name(), argc, argv); rc >= 0) return rc;
  int reproduced = 0;
  run::ReplayOutcome last;
  for (int i = 0; i < repeat; ++i) {
    auto outcome = run::ReplayBug(dir, original, llm);
    if (!outcome.ok()) return Fail("roam replay", outcome.status());
    if (i == 0 && !outcome->note.empty())
      fmt::print(stderr, "roam replay: note: {}\n", outcome->note);
    reproduced += outcome->reproduced;
    if (repeat > 1)
      fmt::print("replay {}/{}: {}\n", i + 1, repeat,
                 outcome->reproduced ? "reproduced" : "did not reproduce");
    last = std::move(*outcome);
  }
  if (repeat > 1) {
    if (Status s = run::RecordReplays(dir, repeat, reproduced, last.trace); !s.ok())
      return Fail("roam replay", s);
    fmt::print("reproduced {} of {} times ({}): {}\n", reproduced, repeat, last.trace,
               last.expected);
    return reproduced == repeat ? kExitOk : kExitNo;
  }
  if (last.reproduced) {
    fmt::print("reproduced after {} steps ({}): {}\n", last.result.steps_run, last.trace,
               last.words.empty() ? last.expected : last.words);
    if (!last.words.empty()) fmt::print("  violation: {}\n", last.expected);
    return kExitOk;
  }
  fmt::print("did not reproduce ({}): expected {}; seen: {}\n", last.trace,
             last.words.empty() ? last.expected : last.words,
             last.result.signatures.empty()
                 ? std::string("nothing")
                 : fmt::format("{}", fmt::join(last.result.signatures, ", ")));
  if (const auto& d = last.result.divergence) fmt::print("  {}\n", run::DivergenceWords(*d));
  return kExitNo;
}

int MinimizeCommand(int argc, char** argv) {
  std::vector<std::filesystem::path> dirs;
  run::MinimizeOptions o;
  CLI::App app(
      "Shrink bugs' traces by delta debugging: each candidate is replayed on a fresh app and "
      "counts when it shows the same failure every time. Writes trace.min.jsonl and steps.txt "
      "into each bug folder (functional reports: a smaller seed prefix and insertion).",
      "minimize");
  app.add_option("BUG_DIR", dirs,
                 "bug folders, e.g. out/run/bugs/B1 (or a run folder: all its bugs)")
      ->required();
  app.add_option("--budget", o.max_replays, "replays spent on one bug at most")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--repeats", o.repeats,
                 "a candidate must reproduce this many times out of as many")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  if (int rc = ParseFlags(app, "roam " + app.get_name(), argc, argv); rc >= 0) return rc;
  std::vector<std::filesystem::path> bugs;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (std::filesystem::exists(d / "bug.json", ec)) {
      bugs.push_back(d);
      continue;
    }
    auto found = run::BugFolders(d);
    if (!found.ok()) return Fail("roam minimize", found.status());
    bugs.insert(bugs.end(), found->begin(), found->end());
  }
  o.stop = &InstallStopSignals();  // Ctrl-C ends the search; the bug keeps its trace
  int failed = 0;
  for (const auto& b : bugs) {
    auto r = run::MinimizeBug(b, o);
    if (!r.ok() && r.status().code() == Status::Code::kAborted) {
      fmt::print(stderr, "roam minimize: {}\n", r.status().message());
      return kExitInterrupted;
    }
    if (!r.ok()) {
      fmt::print(stderr, "roam minimize: {}\n", r.status().message());
      ++failed;
      continue;
    }
    fmt::print("{}: {} -> {} steps{}, {} replays, reproduces {} of {}{}\n", b.string(),
               r->steps_before, r->steps_after,
               r->text_before != r->text_after
                   ? fmt::format(" (typed {} -> {} characters)", r->text_before, r->text_after)
                   : "",
               r->replays, r->verified, o.repeats,
               r->complete ? "" : " (budget spent: not 1-minimal)");
  }
  // The run folders' pages show the minimised steps: write them again.
  std::set<std::filesystem::path> runs;
  for (const auto& b : bugs) {
    std::error_code ec;
    auto bug = b.lexically_normal();
    if (bug.filename().empty()) bug = bug.parent_path();  // "bugs/B1/"
    auto run = bug.parent_path().parent_path();
    if (std::filesystem::exists(run / "report.html", ec)) runs.insert(run);
  }
  for (const auto& run : runs)
    if (Status s = report::WriteRunReport(run); !s.ok())
      fmt::print(stderr, "roam minimize: report.html not written: {}\n", s.message());
  return failed == 0 ? kExitOk : kExitNo;
}

}  // namespace roam::cli
