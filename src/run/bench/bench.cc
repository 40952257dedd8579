#include "run/bench/bench.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "explore/planner.h"
#include "report/trace.h"
#include "run/explore/explore.h"
#include "run/fuzz/fuzz.h"
#include "run/vision/vision.h"
#include "sim/spec.h"

namespace roam::run {

Result<std::vector<std::filesystem::path>> AppsIn(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return Status::NotFound(dir.string() + ": not a folder of app specs");
  std::vector<std::filesystem::path> apps;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && std::filesystem::is_regular_file(e.path(), ec))
      apps.push_back(e.path());
  if (ec) return Status::Io(dir.string() + ": " + ec.message());
  if (apps.empty()) return Status::NotFound(dir.string() + ": holds no *.json app specs");
  std::sort(apps.begin(), apps.end());
  return apps;
}

namespace {

struct Job {
  std::filesystem::path app;
  std::vector<std::string> bugs_off;  // those of BenchOptions::bugs_off this app plants
  std::string strategy;
  uint64_t seed;
};

// How one (app, kind, seed) of the grid runs, from the options every campaign shares. Every
// kind returns the same summary, so one function turns any run into a row of the table.
using RunKind =
    std::function<Result<report::Summary>(const RunOptions& common, const std::string& strategy,
                                          const BenchOptions& options, const RunContext& context)>;

// The files of the oracles `given` names that go with `app`, by oracle: a file itself; in a
// folder, <app's name>.<oracle>.json when there is one (none: off).
std::map<std::string, std::filesystem::path> OracleFilesFor(
    const std::map<std::string, std::filesystem::path>& given, const std::filesystem::path& app) {
  std::map<std::string, std::filesystem::path> files;
  std::error_code ec;
  for (const auto& [name, path] : given) {
    if (path.empty() || !std::filesystem::is_directory(path, ec)) {
      files[name] = path;
      continue;
    }
    auto beside = path / fmt::format("{}.{}.json", app.stem().string(), name);
    if (std::filesystem::exists(beside, ec)) files[name] = beside;
  }
  return files;
}

Result<report::Summary> RunExplore(const RunOptions& common, const std::string& strategy,
                                   const BenchOptions& options, const RunContext& context) {
  ExploreOptions o;
  static_cast<RunOptions&>(o) = common;
  o.strategy = strategy;
  o.strategy_settings = options.strategy_settings;
  o.strategy_settings.dqn.save = false;  // parallel runs: each learns on its own copy
  o.harness = options.harness;
  o.campaign.session.bug_screenshots = 0;  // the table times runs; pictures are for people
  o.campaign.session.state_screens = 0;
  o.campaign.intents = options.intents;
  return Explore(o, context);
}

// `fuzz` is Genie (run/fuzz/fuzz.h), not an exploration strategy: its reports are scored against
// the planted bugs.
Result<report::Summary> RunFuzz(const RunOptions& common, const std::string&, const BenchOptions&,
                                const RunContext& context) {
  FuzzOptions o;
  static_cast<RunOptions&>(o) = common;
  auto f = Fuzz(o, context);
  if (!f.ok()) return f.status();
  return std::move(f->summary);
}

// `vision` is VisionDroid (run/vision/vision.h) with the bench's model; its reports are scored as
// fuzz's.
Result<report::Summary> RunVision(const RunOptions& common, const std::string&,
                                  const BenchOptions& options, const RunContext& context) {
  VisionOptions o;
  static_cast<RunOptions&>(o) = common;
  o.llm = options.llm;
  auto v = Vision(o, context);
  if (!v.ok()) return v.status();
  return std::move(v->summary);
}

const RunKind& KindOf(const std::string& strategy) {
  static const RunKind kExplore = RunExplore, kFuzz = RunFuzz, kVision = RunVision;
  if (strategy == kFuzzStrategy) return kFuzz;
  return strategy == kVisionStrategy ? kVision : kExplore;
}

// The row of the table a run gives (functional_tp: reports a planted bug explains;
// functional_fp: the others).
nlohmann::json PlantedJson(const std::vector<PlantedBug>& bugs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : bugs)
    out.push_back({{"id", b.id}, {"kind", b.kind}, {"seen_by", b.seen_by}});
  return out;
}

BenchRun RowOf(const Job& job, const report::Summary& s, const std::filesystem::path& dir) {
  BenchRun r;
  r.app = job.app.stem().string();
  r.strategy = job.strategy;
  r.seed = job.seed;
  r.events = s.events;
  r.activities_covered = s.activities_covered.size();
  r.activities_total = s.activities_total.value_or(0);
  r.units_covered = s.units_covered.value_or(0);
  r.units_total = s.units_total.value_or(0);
  r.states = s.states;
  r.crashes = s.crashes.size();
  r.anrs = s.anrs.size();
  auto found = [&r](const std::string& bug_id) {
    if (!bug_id.empty() && !std::count(r.planted_found.begin(), r.planted_found.end(), bug_id))
      r.planted_found.push_back(bug_id);
  };
  for (const auto* list : {&s.crashes, &s.anrs})
    for (const auto& f : *list) found(f.bug_id);
  if (s.functional && job.strategy == kFuzzStrategy) {
    // The functional bugs the app plants (all are on in a benchmark run), for the recall.
    if (auto spec = sim::LoadSpec(job.app); spec.ok())
      for (const auto& b : (*spec)->bugs())
        if (b.seen_by != "crash") r.functional_planted.push_back({b.id, b.kind, b.seen_by});
  }
  if (s.functional) {
    for (const auto& f : *s.functional) {
      ++(f.bug_id.empty() ? r.functional_fp : r.functional_tp);
      found(f.bug_id);
    }
  }
  r.seconds = s.wall_seconds;
  r.phone_seconds = s.phone_seconds;
  r.dir = dir.string();
  r.interrupted = s.stop_reason == "interrupted";
  return r;
}

size_t Actions(const std::filesystem::path& trace_file) {
  auto trace = report::ReadTrace(trace_file);
  if (!trace.ok()) return 0;
  return std::count_if(trace->begin(), trace->end(), [](const auto& t) { return t.op == "act"; });
}

BenchBugTrace MinimizeForBench(const std::filesystem::path& dir, const report::FailureSummary& f,
                               const BenchOptions& options) {
  BenchBugTrace t{.bug_id = f.bug_id, .kind = f.kind, .dir = dir.string()};
  t.actions_before = Actions(dir / "trace.jsonl");
  auto r = MinimizeBug(dir, options.minimize_options);
  if (!r.ok()) {
    t.error = r.status().message();
    return t;
  }
  t.minimized = true;
  t.actions_after = Actions(dir / kMinimizedTrace);
  t.replays = r->replays;
  t.verified = r->verified == options.minimize_options.repeats;
  return t;
}

Result<BenchRun> RunOne(const Job& job, const BenchOptions& options, const RunContext& context) {
  RunOptions common;
  common.target.app = job.app;
  common.target.bugs_off = job.bugs_off;
  common.target.snapshots = options.snapshots;
  common.target.phone_clock = options.phone_clock;
  common.target.android.driver = options.driver;
  common.seed = job.seed;
  common.out = options.out / "runs" / job.app.stem() / job.strategy / fmt::format("s{}", job.seed);
  common.force = true;
  common.budget = options.budget;
  common.html_report = false;  // one page for the whole benchmark (WriteBenchReport)
  common.oracle_files = OracleFilesFor(options.oracle_files, job.app);
  auto s = KindOf(job.strategy)(common, job.strategy, options, context);
  if (!s.ok())
    return s.status().Wrap(fmt::format("{} {} seed {}", job.app.string(), job.strategy, job.seed));
  BenchRun row = RowOf(job, *s, common.out);
  if (options.minimize && !row.interrupted && job.strategy != kFuzzStrategy &&
      job.strategy != kVisionStrategy)
    for (const auto* list : {&s->crashes, &s->anrs})
      for (const auto& f : *list)
        if (!f.bug_id.empty() && !f.bug_dir.empty())
          row.bug_traces.push_back(MinimizeForBench(common.out / f.bug_dir, f, options));
  return row;
}

// The planner's shortest route to each planted bug a minimised trace reaches (searched once per
// app and bug, deeper and longer than the planner strategy's per-step plans).
void AddOracleRoutes(const BenchOptions& options, std::vector<BenchRun>& runs) {
  std::map<std::pair<std::string, std::string>, std::optional<size_t>> routes;
  for (auto& run : runs) {
    if (run.bug_traces.empty()) continue;
    const std::filesystem::path app =
        *std::find_if(options.apps.begin(), options.apps.end(),
                      [&](const auto& a) { return a.stem().string() == run.app; });
    auto spec = sim::LoadSpec(app);
    if (!spec.ok()) continue;
    for (auto& t : run.bug_traces) {
      auto key = std::make_pair(run.app, t.bug_id);
      if (!routes.count(key)) {
        sim::SimOptions sim{.seed = run.seed};
        auto route = explore::PlannerStrategy::RouteToBug(
            *spec, sim, {.max_trials = 400000, .max_depth = 40}, t.bug_id);
        routes[key] = route ? std::optional<size_t>(route->size()) : std::nullopt;
      }
      t.planner_actions = routes[key];
    }
  }
}

}  // namespace

Result<std::vector<BenchRun>> RunBench(const BenchOptions& options, std::FILE* progress,
                                       const std::atomic<bool>* stop) {
  if (options.apps.empty()) return Status::InvalidArgument("no apps to run");
  if (options.seeds < 1) return Status::InvalidArgument("--seeds must be at least 1");
  if (options.first_seed < 1) return Status::InvalidArgument("--first-seed must be at least 1");
  if (options.shards < 1 || options.shard < 1 || options.shard > options.shards)
    return Status::InvalidArgument(
        fmt::format("--shard {}/{}: give I/N with 1 <= I <= N", options.shard, options.shards));
  // Check every strategy name and app spec before the workers start.
  for (const auto& name : options.strategies) {
    if (name == kVisionStrategy && (options.llm.url.empty() || options.llm.model.empty()))
      return Status::InvalidArgument(
          "the strategy vision needs a model: --llm-url URL --llm-model NAME");
    if (name != kFuzzStrategy && name != kVisionStrategy && !explore::IsKnownStrategy(name)) {
      auto r = explore::MakeStrategy(name, options.strategy_settings, {});
      return r.ok() ? Status::InvalidArgument("unknown strategy " + name) : r.status();
    }
  }
  if (options.harness.Active()) {  // a bad harness file fails here, not in every worker
    auto harness = explore::LoadHarnessConfig(options.harness);
    if (!harness.ok()) return harness.status();
  }
  std::vector<Job> jobs;
  for (const auto& app : options.apps) {
    auto spec = sim::LoadSpec(app);
    if (!spec.ok()) return spec.status();
    // Only the bugs this app plants are switched off in it.
    std::vector<std::string> bugs_off;
    for (const auto& b : (*spec)->bugs())
      if (std::count(options.bugs_off.begin(), options.bugs_off.end(), b.id))
        bugs_off.push_back(b.id);
    for (const auto& strategy : options.strategies)
      for (int seed = options.first_seed; seed < options.first_seed + options.seeds; ++seed)
        jobs.push_back({app, bugs_off, strategy, uint64_t(seed)});
  }
  if (options.shards > 1) {  // this machine's slice: every shards-th run
    std::vector<Job> mine;
    for (size_t i = options.shard - 1; i < jobs.size(); i += options.shards)
      mine.push_back(jobs[i]);
    jobs = std::move(mine);
  }

  std::vector<std::optional<BenchRun>> results(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex mu;  // guards `failure`, `done` and `progress`
  Status failure;
  size_t done = 0;
  const RunContext context{.stop = stop};
  auto worker = [&] {
    for (size_t i; !context.Stopped() && (i = next++) < jobs.size();) {
      auto r = RunOne(jobs[i], options, context);
      std::lock_guard<std::mutex> lock(mu);
      if (!r.ok()) {
        if (failure.ok()) failure = r.status();
        next = jobs.size();
        return;
      }
      if (r->interrupted) {
        results[i] = std::move(*r);
        continue;
      }
      ++done;
      if (progress)
        fmt::print(progress,
                   "[{}/{}] {} {} seed {}: activities {}/{} units {}/{} crashes {} ({:.2f}s)\n",
                   done, jobs.size(), r->app, r->strategy, r->seed, r->activities_covered,
                   r->activities_total, r->units_covered, r->units_total, r->crashes, r->seconds);
      results[i] = std::move(*r);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, options.jobs); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!failure.ok()) return failure;
  std::vector<BenchRun> runs;
  for (auto& r : results)
    if (r) runs.push_back(std::move(*r));  // none for a job the stop signal left unstarted
  if (options.minimize && !context.Stopped()) AddOracleRoutes(options, runs);
  return runs;
}

std::vector<BenchRun> FinishedRuns(const std::vector<BenchRun>& runs) {
  std::vector<BenchRun> out;
  std::copy_if(runs.begin(), runs.end(), std::back_inserter(out),
               [](const BenchRun& r) { return !r.interrupted; });
  return out;
}

std::string BenchClock(const BenchOptions& options) {
  if (!options.phone_clock) return "wall";
  return fmt::format("phone:{}", device::android::NameOf(options.driver));
}

nlohmann::json BenchToJson(const std::vector<BenchRun>& runs, const BenchOptions& options,
                           double wall_seconds) {
  nlohmann::json j;
  j["events"] = options.budget.events;
  j["time"] = options.budget.seconds;
  j["clock"] = BenchClock(options);
  j["seeds"] = options.seeds;
  j["first_seed"] = options.first_seed;
  j["strategies"] = options.strategies;
  j["snapshots"] = options.snapshots;
  j["wall_seconds"] = wall_seconds;
  j["apps"] = nlohmann::json::array();
  for (const auto& app : options.apps) j["apps"].push_back(app.stem().string());
  j["shard"] = {{"index", options.shard}, {"count", options.shards}};
  j["grid"] = options.apps.size() * options.strategies.size() * static_cast<size_t>(options.seeds);
  if (options.harness.Active()) j["harness"] = options.harness.ToJson();
  for (const auto& [name, given] : options.oracle_files)
    if (!given.empty()) j[name] = given.string();
  // A run the stop signal cut short is listed apart, not as a run of the grid: `bench merge`
  // then counts it missing, to be run again.
  j["interrupted"] = nlohmann::json::array();
  for (const auto& r : runs)
    if (r.interrupted)
      j["interrupted"].push_back({{"app", r.app},
                                  {"strategy", r.strategy},
                                  {"seed", r.seed},
                                  {"events", r.events},
                                  {"dir", r.dir}});
  j["best_known"] = nlohmann::json::object();
  for (const auto& [app, best] : BestKnownOf(FinishedRuns(runs)))
    j["best_known"][app] = {{"activities", best.activities}, {"units", best.units}};
  j["runs"] = nlohmann::json::array();
  for (const auto& r : runs) {
    if (r.interrupted) continue;
    nlohmann::json traces = nlohmann::json::array();
    for (const auto& t : r.bug_traces)
      traces.push_back(
          {{"bug_id", t.bug_id},
           {"kind", t.kind},
           {"dir", t.dir},
           {"minimized", t.minimized},
           {"error", t.error},
           {"actions_before", t.actions_before},
           {"actions_after", t.actions_after},
           {"replays", t.replays},
           {"verified", t.verified},
           {"planner_actions", t.planner_actions ? nlohmann::json(*t.planner_actions) : nullptr}});
    j["runs"].push_back({{"app", r.app},
                         {"strategy", r.strategy},
                         {"seed", r.seed},
                         {"events", r.events},
                         {"activities_covered", r.activities_covered},
                         {"activities_total", r.activities_total},
                         {"units_covered", r.units_covered},
                         {"units_total", r.units_total},
                         {"states", r.states},
                         {"crashes", r.crashes},
                         {"anrs", r.anrs},
                         {"functional_tp", r.functional_tp},
                         {"functional_fp", r.functional_fp},
                         {"planted_found", r.planted_found},
                         {"functional_planted", PlantedJson(r.functional_planted)},
                         {"seconds", r.seconds},
                         {"dir", r.dir}});
    if (r.phone_seconds) j["runs"].back()["phone_seconds"] = *r.phone_seconds;
    if (options.minimize) j["runs"].back()["bug_traces"] = std::move(traces);
  }
  return j;
}

}  // namespace roam::run
