// `roam bench`: strategies x apps x seeds on the simulator, one table.
#include <chrono>
#include <cstdio>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/files.h"
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
#include "run/bench/bench.h"

namespace roam::cli {

namespace {

// `roam bench merge A.json B.json ...`: the shards of one benchmark as one table.
int BenchMergeCommand(int argc, char** argv) {
  CLI::App app(
      "Merge the --json files of `roam bench --shard I/N` runs (or of any runs of one benchmark) "
      "and print the table of the whole benchmark.",
      "bench merge");
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path json_path;
  app.add_option("FILES", inputs, "the shards' --json files")->required()->check(CLI::ExistingFile);
  app.add_option("--json", json_path, "write the merged figures to this JSON file");
  if (int rc = ParseFlags(app, "roam bench merge", argc, argv); rc >= 0) return rc;
  std::vector<run::BenchFile> files;
  std::vector<std::string> names;
  for (const auto& in : inputs) {
    auto f = run::ReadBenchFile(in);
    if (!f.ok()) return Fail("roam bench merge", f.status());
    files.push_back(std::move(*f));
    names.push_back(in.string());
  }
  std::vector<std::string> missing;
  auto all = run::MergeBenchFiles(files, names, &missing);
  if (!all.ok()) return Fail("roam bench merge", all.status());
  fmt::print("{}", run::FormatBenchTable(all->runs, all->strategies) +
                       run::FormatFunctionalTable(all->runs) + run::FormatMinimizeTable(all->runs));
  fmt::print("\n{} runs from {} files ({:.1f}s of runs in all)\n", all->runs.size(), files.size(),
             all->wall_seconds);
  if (!missing.empty())
    fmt::print(stderr,
               "roam bench merge: {} runs of the grid are in no file (first: {}); the "
               "table is of the others\n",
               missing.size(), missing.front());
  if (!json_path.empty()) {
    run::BenchOptions options = run::OptionsOf(*all);
    if (Status s =
            WriteJsonFile(json_path, run::BenchToJson(all->runs, options, all->wall_seconds));
        !s.ok())
      return Fail("roam bench merge", s);
  }
  return missing.empty() ? kExitOk : kExitNo;
}

// The flags of `roam bench` as given, before they become the options.
struct BenchFlags {
  run::BenchOptions o;
  std::vector<std::filesystem::path> dirs;  // --apps
  std::string strategies = "random,oracle";
  std::filesystem::path json_path;
  bool quiet = false;
  std::string snapshots = "on";
  std::string shard;              // "I/N"
  CLI::Option* driver = nullptr;  // --driver, given only with --clock phone
};

// The grid's flags: apps, strategies, budget, clock, seeds, jobs and outputs.
void AddBenchGridFlags(CLI::App& app, BenchFlags& f) {
  run::BenchOptions& o = f.o;
  app.add_option("--apps", f.dirs, "folders of app specs (*.json) or spec files")->required();
  app.add_option("--strategies", f.strategies,
                 "comma-separated strategy names; `fuzz` runs Genie (roam fuzz) and `vision` "
                 "VisionDroid (roam vision, with --llm-url and --llm-model); both fill func")
      ->capture_default_str();
  AddBudgetFlags(app, o.budget, "events per run (0: none, with --time)",
                 "time budget per run in seconds, of --clock");
  AddClockFlag(app, o.phone_clock);
  f.driver =
      AddDriverFlag(app,
                    "with --clock phone: whose costs the phone's clock charges, uia2 (Appium's "
                    "UiAutomator2 server) or uiautomator (a process a step)",
                    false, [&o](auto kind) { o.driver = *kind; })
          ->default_str("uia2");
  app.add_option("--seeds", o.seeds, "K seeds per (app, strategy): 1..K, or S..S+K-1")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--first-seed", o.first_seed,
                 "S: the first seed (another sample of K seeds, to see how much a figure moves)")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--jobs", o.jobs, "worker threads")->check(Positive())->capture_default_str();
  app.add_option("--out", o.out, "where the run folders go (default out/bench)");
  app.add_option("--json", f.json_path, "also write every run's figures to this JSON file");
  app.add_option("--bugs-off", o.bugs_off, "planted bug ids to switch off")->delimiter(',');
  app.add_flag("-q,--quiet", f.quiet, "no line per finished run");
}

// What each run does: the strategies' settings, the harness, oracles, minimising, the model
// behind vision, and the shard of the grid.
void AddBenchRunFlags(CLI::App& app, BenchFlags& f) {
  run::BenchOptions& o = f.o;
  AddTimeTravelFlags(app, o.strategy_settings.timetravel);
  AddDeclaredStrategyFlags(app, o.strategy_settings);
  app.add_option("--snapshots", f.snapshots,
                 "off: simulate a device without snapshots (time travel replays paths)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  AddHarnessFlags(app, o.harness);
  AddIntentsFlag(app, o.intents);
  AddOracleFlags(app, o.oracle_files,
                 "; for exploration runs: one file for every app, or a folder of APP.<flag>.json "
                 "files, each going with apps/.../APP.json (apps/bench/config ships them)",
                 "PATH");
  AddFastbotTuningFlags(app, o.strategy_settings.fastbot);  // no --model: runs are parallel
  AddDqnTuningFlags(app, o.strategy_settings.dqn);
  app.add_option("--dqn-model", o.strategy_settings.dqn.model,
                 "dqn: the model every dqn run starts from (default: the shipped one); runs "
                 "are parallel, so each learns on its own and none is saved")
      ->group("DQN strategy (DinoDroid)");
  app.add_flag("--minimize", o.minimize,
               "minimise every planted crash and ANR found and print the minimised-traces table");
  app.add_option("--minimize-budget", o.minimize_options.max_replays,
                 "replays spent on one bug at most")
      ->check(Positive())
      ->capture_default_str();
  AddLlmFlags(app, o.llm);
  app.add_option("--shard", f.shard,
                 "I/N: run only the I-th of N disjoint slices of the (app, strategy, seed) grid, "
                 "for many machines; `roam bench merge` joins their --json files");
}

// Checks the parsed flags and completes f.o from them (the shard, strategies, apps, output
// folder). Returns -1 to go on, else the exit code.
int FinishBenchOptions(BenchFlags& f) {
  run::BenchOptions& o = f.o;
  if (Status budget = run::CheckBudget(o.budget); !budget.ok()) {
    fmt::print(stderr, "roam bench: {}\n", budget.message());
    return kExitUsage;
  }
  if (f.driver->count() > 0 && !o.phone_clock) {
    fmt::print(stderr, "roam bench: --driver says whose costs --clock phone charges\n");
    return kExitUsage;
  }
  if (!f.shard.empty()) {
    int used = 0;
    if (std::sscanf(f.shard.c_str(), "%d/%d%n", &o.shard, &o.shards, &used) != 2 ||
        used != static_cast<int>(f.shard.size()) || o.shards < 1 || o.shard < 1 ||
        o.shard > o.shards) {
      fmt::print(stderr, "roam bench: --shard \"{}\": write I/N with 1 <= I <= N, e.g. 2/8\n",
                 f.shard);
      return kExitUsage;
    }
  }
  o.snapshots = f.snapshots == "on";
  o.strategies.clear();
  for (size_t pos = 0; pos <= f.strategies.size();) {
    size_t comma = std::min(f.strategies.find(',', pos), f.strategies.size());
    if (comma > pos) o.strategies.push_back(f.strategies.substr(pos, comma - pos));
    pos = comma + 1;
  }
  for (const auto& d : f.dirs) {
    std::error_code ec;
    if (std::filesystem::is_directory(d, ec)) {
      auto apps = run::AppsIn(d);
      if (!apps.ok()) return Fail("roam bench", apps.status());
      o.apps.insert(o.apps.end(), apps->begin(), apps->end());
    } else {
      o.apps.push_back(d);
    }
  }
  if (o.out.empty()) o.out = "out/bench";
  if (!f.json_path.empty()) {  // checked now, not after hours of runs
    Status s = CheckOutputPath(f.json_path);
    if (s.ok()) s = CheckOutputFolder(f.json_path);
    if (!s.ok()) return Fail("roam bench", s.Wrap("--json"));
  }
  return -1;
}

// Prints the tables of the finished runs and the line of what ran, writes report.html and the
// --json file, and returns the exit code.
int ReportBench(const BenchFlags& f, const std::vector<run::BenchRun>& all_runs, double wall,
                const std::atomic<bool>& stop) {
  const run::BenchOptions& o = f.o;
  const std::vector<run::BenchRun> runs = run::FinishedRuns(all_runs);
  const size_t interrupted = all_runs.size() - runs.size();
  const std::string tables = run::FormatBenchTable(runs, o.strategies) +
                             run::FormatFunctionalTable(runs) + run::FormatMinimizeTable(runs);
  fmt::print("{}", tables);
  std::vector<std::string> budget;
  if (o.budget.events > 0) budget.push_back(fmt::format("{} events", o.budget.events));
  if (o.budget.seconds > 0)
    budget.push_back(fmt::format(
        "{:g} s{}", o.budget.seconds,
        o.phone_clock ? fmt::format(" of a phone ({})", device::android::NameOf(o.driver)) : ""));
  fmt::print("\n{} runs ({} apps x {} strategies x {} seeds x {}{}) in {:.1f}s with {} jobs\n",
             runs.size(), o.apps.size(), o.strategies.size(), o.seeds, fmt::join(budget, ", "),
             o.shards > 1 ? fmt::format(", shard {} of {}", o.shard, o.shards) : "", wall, o.jobs);
  if (Status s = run::WriteBenchReport(o.out, runs, o.strategies, tables); s.ok()) {
    fmt::print("report: {}\n", (o.out / "report.html").string());
  } else {
    fmt::print(stderr, "roam bench: report.html not written: {}\n", s.message());
  }
  if (!f.json_path.empty()) {
    Status s = WriteJsonFile(f.json_path, run::BenchToJson(all_runs, o, wall));
    if (!s.ok()) return Fail("roam bench", s);
  }
  if (stop.load()) {
    fmt::print(stderr,
               "roam bench: interrupted: {} runs finished, {} stopped in flight (their folders "
               "say \"interrupted\"), the rest not started\n",
               runs.size(), interrupted);
    return kExitInterrupted;
  }
  return kExitOk;
}

}  // namespace

int BenchCommand(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "merge") return BenchMergeCommand(argc - 1, argv + 1);
  BenchFlags f;
  CLI::App app("Run strategies x apps x seeds on the simulator and print one table.", "bench");
  AddBenchGridFlags(app, f);
  AddBenchRunFlags(app, f);
  if (int rc = ParseFlags(app, "roam bench", argc, argv); rc >= 0) return rc;
  if (int rc = FinishBenchOptions(f); rc >= 0) return rc;
  const std::atomic<bool>& stop = InstallStopSignals();
  auto start = std::chrono::steady_clock::now();
  auto all_runs = run::RunBench(f.o, f.quiet ? nullptr : stderr, &stop);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!all_runs.ok()) return Fail("roam bench", all_runs.status());
  return ReportBench(f, *all_runs, wall, stop);
}

}  // namespace roam::cli
