#include "run/fuzz.h"

#include <chrono>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "base/files.h"
#include "device/sim_device.h"
#include "fuzz/views.h"
#include "run/fuzz_exec.h"
#include "run/fuzz_internal.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::run {

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Makes a simulated device of the run's app with `extra_off` switched off too.
using SimFactory =
    std::function<std::unique_ptr<device::Device>(const std::set<std::string>& extra_off)>;

class Fuzzer {
 public:
  Fuzzer(const FuzzOptions& options, device::Device& device, const std::atomic<bool>* stop,
         std::FILE* progress, json replay, std::vector<std::string> functional_bugs,
         SimFactory sim_factory)
      : options_(options),
        device_(device),
        stop_(stop),
        progress_(progress),
        replay_(std::move(replay)),
        functional_bugs_(std::move(functional_bugs)),
        sim_factory_(std::move(sim_factory)),
        budget_(options.events),
        executor_(device, &budget_, stop),
        model_(options.model),
        rng_(options.seed),
        chooser_(options.seeds, model_, rng_) {}

  Status Run();
  const std::vector<FunctionalFinding>& findings() const { return findings_; }
  const FuzzStats& stats() const { return stats_; }
  int64_t events_sent() const { return executor_.events_sent(); }
  size_t states() const { return model_.states(); }
  const std::vector<std::string>& activities() const { return activities_; }
  std::string stop_reason() const;

 private:
  void ObserveRun(const Execution& run);
  Status OneSeed(int index);
  Status OneMutant(int seed_index, const Execution& seed, std::set<std::string>& ignored,
                   const fuzz::Mutant& mutant, std::set<std::string>& failed);
  Status Report(int seed_index, const Execution& seed, const Execution& mutant,
                const fuzz::Mutant& m, const fuzz::Violation& v);
  std::string Score(const FuzzCase& c, const std::string& key);
  void Progress(bool force);
  bool Done() const {
    return budget_ <= 0 || (stop_ && stop_->load()) ||
           (options_.max_seeds > 0 && stats_.seeds >= options_.max_seeds);
  }

  const FuzzOptions& options_;
  device::Device& device_;
  const std::atomic<bool>* stop_;
  std::FILE* progress_;
  json replay_;
  std::vector<std::string> functional_bugs_;
  SimFactory sim_factory_;
  int64_t budget_;
  Executor executor_;
  fuzz::Model model_;
  Rng rng_;
  fuzz::SeedChooser chooser_;
  FuzzStats stats_;
  std::vector<FunctionalFinding> findings_;
  std::map<std::string, size_t> by_key_;
  std::vector<std::string> activities_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_progress_ = Clock::now();
};

std::string Fuzzer::stop_reason() const {
  if (stop_ && stop_->load()) return "interrupted";
  if (budget_ <= 0) return "events";
  return "seeds";
}

void Fuzzer::ObserveRun(const Execution& run) {
  for (size_t t = 0; t < run.events.size() && t + 1 < run.layouts.size(); ++t)
    model_.Observe(run.layouts[t].abs, run.events[t], run.layouts[t + 1].abs);
  for (const auto& l : run.layouts)
    if (l.in_app && std::find(activities_.begin(), activities_.end(), l.screen.activity) ==
                        activities_.end())
      activities_.push_back(l.screen.activity);
}

Status Fuzzer::Run() {
  for (int index = 0; !Done(); ++index) {
    ROAM_RETURN_IF_ERROR(OneSeed(index));
    Progress(false);
  }
  Progress(true);
  return Status::Ok();
}

Status Fuzzer::OneSeed(int index) {
  // Systematic selection first, then the two strategies in turn.
  const bool systematic = index % 2 == 0;
  uint64_t prev_state = 0;
  fuzz::Event prev_event;
  auto next = [&](int t, const fuzz::Layout& layout) -> std::optional<fuzz::Event> {
    if (t > 0) model_.Observe(prev_state, prev_event, layout.abs);  // Υ stays current
    if (t >= options_.seeds.length) return std::nullopt;
    chooser_.See(layout);
    prev_state = layout.abs;
    prev_event = chooser_.Choose(layout, systematic);
    return prev_event;
  };
  auto first = executor_.Run(next);
  if (!first.ok()) return first.status();
  Execution& seed = *first;
  if (seed.interrupted) return Status::Ok();
  // The last transition: the callback is not called after the last event when the run ends on
  // its own (left the app, crashed).
  if (!seed.events.empty() && seed.layouts.size() == seed.events.size() + 1 &&
      (seed.left_app || seed.crashed))
    model_.Observe(seed.layouts[seed.layouts.size() - 2].abs, seed.events.back(),
                   seed.layouts.back().abs);
  ++stats_.seeds;
  if (seed.events.empty()) return Status::Ok();

  auto second = executor_.Run(Exact(seed.events));
  if (!second.ok()) return second.status();
  if (second->interrupted) return Status::Ok();
  ObserveRun(*second);
  if (second->unresolved >= 0 || second->layouts.size() != seed.layouts.size()) {
    ++stats_.unstable_seeds;
    return Status::Ok();
  }
  std::set<std::string> ignored = fuzz::UnstableViews(seed.layouts, second->layouts);
  int last_effect = fuzz::LastEffect(seed.layouts, ignored, options_.oracle.min_pair_similarity);
  if (last_effect < 0) return Status::Ok();
  std::vector<fuzz::ActiveViews> active = fuzz::TrackActiveViews(seed.layouts, seed.events);
  std::set<std::string> failed;
  std::vector<fuzz::Mutant> mutants =
      fuzz::GenerateMutants(seed.layouts, seed.events, active, model_, last_effect, failed,
                            options_.mutants, ignored, options_.oracle.min_pair_similarity, &rng_);
  stats_.mutants_generated += static_cast<int64_t>(mutants.size());
  if (std::getenv("ROAM_FUZZ_DEBUG")) {
    std::string d;
    for (const auto& e : seed.events) d += e.Describe() + "; ";
    fmt::print(stderr, "seed {} (last_effect {}): {}\n", index, last_effect, d);
    for (const auto& m : mutants) {
      std::string t;
      for (const auto& e : m.tau) t += e.Describe() + "; ";
      fmt::print(stderr, "   mutant p{}: {}\n", m.pivot, t);
    }
  }
  for (const auto& m : mutants) {
    if (Done()) break;
    // A prefix that failed since the mutants were generated prunes this one too.
    bool pruned = false;
    for (size_t n = 1; n <= m.tau.size() && !pruned; ++n) pruned = failed.count(m.PrefixKey(n)) > 0;
    if (pruned) continue;
    ROAM_RETURN_IF_ERROR(OneMutant(index, seed, ignored, m, failed));
    Progress(false);
  }
  return Status::Ok();
}

Status Fuzzer::OneMutant(int seed_index, const Execution& seed,
                         std::set<std::string>& ignored, const fuzz::Mutant& m,
                         std::set<std::string>& failed) {
  const int p = m.pivot, len = static_cast<int>(m.tau.size());
  Clock::time_point t0 = Clock::now();
  auto run = executor_.Run(MutantPlan(seed.events, p, m.tau));
  stats_.mutant_seconds += Since(t0);
  if (!run.ok()) return run.status();
  if (run->interrupted) return Status::Ok();
  ++stats_.mutants_executed;
  ObserveRun(*run);
  if (run->unresolved >= 0) {
    ++stats_.mutants_dropped;
    if (run->unresolved >= p) failed.insert(m.PrefixKey(std::min(run->unresolved - p + 1, len)));
    return Status::Ok();
  }
  if (static_cast<int>(run->layouts.size()) <= p + len ||
      !fuzz::ReturnedToPivot(run->layouts[p], run->layouts[p + len], options_.mutants)) {
    ++stats_.mutants_dropped;
    failed.insert(m.PrefixKey(len));
    return Status::Ok();
  }
  // The mutant's prefix repeats the seed's first p events: what differs there is unstable too.
  std::vector<fuzz::Layout> prefix(run->layouts.begin(), run->layouts.begin() + p + 1);
  for (const auto& k : fuzz::UnstableViews(seed.layouts, prefix)) ignored.insert(k);
  auto v = fuzz::CheckMutant(seed.layouts, seed.events, run->layouts, p, len, ignored,
                             options_.oracle);
  if (std::getenv("ROAM_FUZZ_DEBUG")) {
    std::string t;
    for (const auto& e : m.tau) t += e.Describe() + "; ";
    fmt::print(stderr, "  ran p{} [{}] -> {}\n", p, t, v ? v->Key() : "ok");
  }
  if (!v) return Status::Ok();
  // Before reporting, one more run of the seed: views that change by themselves are ignored.
  auto third = executor_.Run(Exact(seed.events));
  if (!third.ok()) return third.status();
  if (third->interrupted) return Status::Ok();
  for (const auto& k : fuzz::UnstableViews(seed.layouts, third->layouts)) ignored.insert(k);
  v = fuzz::CheckMutant(seed.layouts, seed.events, run->layouts, p, len, ignored, options_.oracle);
  if (!v) return Status::Ok();
  ++stats_.violations;
  return Report(seed_index, seed, *run, m, *v);
}

std::string Fuzzer::Score(const FuzzCase& c, const std::string& key) {
  auto holds = [&](const std::set<std::string>& off) {
    std::unique_ptr<device::Device> d = sim_factory_(off);
    auto v = CheckCase(*d, c, options_.oracle);
    return v.ok() && v->has_value() && (*v)->Key() == key;
  };
  if (!holds({})) return "";  // does not reproduce on a fresh app: no planted bug behind it
  for (const auto& id : functional_bugs_)
    if (!holds({id})) return id;
  return "";
}

Status Fuzzer::Report(int seed_index, const Execution& seed, const Execution& mutant,
                      const fuzz::Mutant& m, const fuzz::Violation& v) {
  const std::string key = v.Key();
  auto it = by_key_.find(key);
  if (it != by_key_.end()) {
    ++findings_[it->second].count;
    return Status::Ok();
  }
  FunctionalReport r;
  r.fuzz_case = FuzzCase{seed.events, mutant.events, m.pivot, static_cast<int>(m.tau.size())};
  FunctionalFinding& f = r.finding;
  f.id = fmt::format("F{}", findings_.size() + 1);
  f.key = key;
  f.activity = v.activity;
  f.count = 1;
  f.first_seed = seed_index;
  f.bug_dir = "bugs/" + f.id;
  f.explanation = Explain(r.fuzz_case, v, seed, mutant);
  if (options_.score && sim_factory_) {
    f.bug_id = Score(r.fuzz_case, key);
    f.scored = true;
  }
  r.violation = v;
  r.seed = &seed;
  r.mutant = &mutant;
  r.replay = replay_;
  ROAM_RETURN_IF_ERROR(WriteFunctionalBug(options_.out / f.bug_dir, r));
  by_key_[key] = findings_.size();
  findings_.push_back(f);
  if (progress_)
    fmt::print(progress_, "roam fuzz: {} {}{}\n", f.id, f.explanation,
               f.scored ? fmt::format(" [planted: {}]", f.bug_id.empty() ? "none" : f.bug_id)
                        : "");
  return Status::Ok();
}

void Fuzzer::Progress(bool force) {
  if (!progress_) return;
  if (!force && Since(last_progress_) < options_.progress_seconds) return;
  last_progress_ = Clock::now();
  double elapsed = Since(start_);
  fmt::print(progress_,
             "[{:7.1f}s] events {}/{}  seeds {}  mutants {}/{} ({:.1f}/s, {} dropped)  states {}  "
             "violations {}  reports {}\n",
             elapsed, executor_.events_sent(), options_.events, stats_.seeds,
             stats_.mutants_executed, stats_.mutants_generated,
             stats_.mutant_seconds > 0 ? stats_.mutants_executed / stats_.mutant_seconds : 0.0,
             stats_.mutants_dropped, model_.states(), stats_.violations, findings_.size());
  std::fflush(progress_);
}

json FindingToJson(const FunctionalFinding& f) {
  json j = {{"id", f.id},           {"activity", f.activity}, {"violation", f.key},
            {"count", f.count},     {"first_seed", f.first_seed}, {"bug_dir", f.bug_dir},
            {"explanation", f.explanation}};
  j["bug_id"] = f.scored ? json(f.bug_id.empty() ? json(nullptr) : json(f.bug_id)) : json(nullptr);
  return j;
}

Status WriteFuzzSummary(const FuzzOptions& options, const FuzzResult& r) {
  json j = report::SummaryToJson(r.summary);
  j["functional"] = json::array();
  for (const auto& f : r.findings) j["functional"].push_back(FindingToJson(f));
  const FuzzStats& s = r.stats;
  j["fuzz"] = {{"seeds", s.seeds},
               {"unstable_seeds", s.unstable_seeds},
               {"mutants_generated", s.mutants_generated},
               {"mutants_executed", s.mutants_executed},
               {"mutants_dropped", s.mutants_dropped},
               {"violations", s.violations},
               {"mutant_seconds", s.mutant_seconds},
               {"mutants_per_second",
                s.mutant_seconds > 0 ? s.mutants_executed / s.mutant_seconds : 0.0}};
  return WriteFileAtomic(options.out / "summary.json", j.dump(2) + "\n");
}

json FuzzConfig(const FuzzOptions& o) {
  return {{"strategy", "genie"},
          {"seed", o.seed},
          {"events", o.events},
          {"max_seeds", o.max_seeds},
          {"seeds", {{"length", o.seeds.length}, {"pct_click", o.seeds.pct_click},
                     {"pct_long_click", o.seeds.pct_long_click},
                     {"pct_navigation", o.seeds.pct_navigation},
                     {"pct_dialog_positive", o.seeds.pct_dialog_positive},
                     {"pct_app_text", o.seeds.pct_app_text}}},
          {"mutants", {{"max_length", o.mutants.max_length},
                       {"max_views_per_group", o.mutants.max_views_per_group},
                       {"max_loop_uses", o.mutants.max_loop_uses},
                       {"max_per_pivot", o.mutants.max_per_pivot},
                       {"max_per_seed", o.mutants.max_per_seed},
                       {"candidate_factor", o.mutants.candidate_factor},
                       {"min_pivot_similarity", o.mutants.min_pivot_similarity}}},
          {"model", {{"initial_weight", o.model.initial_weight}}},
          {"oracle", {{"excuse_tau_effects", o.oracle.excuse_tau_effects},
                      {"overlay_similarity", o.oracle.overlay_similarity},
                      {"min_pair_similarity", o.oracle.min_pair_similarity},
                      {"attribute_to_rows", o.oracle.attribute_to_rows},
                      {"skip_destructive_tau", o.oracle.skip_destructive_tau}}}};
}

Result<FuzzResult> RunFuzzer(const FuzzOptions& options, device::Device& device,
                             const std::atomic<bool>* stop, std::FILE* progress, json replay,
                             json target_config, std::string app,
                             std::vector<std::string> functional_bugs, SimFactory factory) {
  json config = FuzzConfig(options);
  config.update(target_config);
  config["replay"] = replay;
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(options.out / "config.json", config.dump(2) + "\n"));
  Fuzzer fuzzer(options, device, stop, progress, replay, std::move(functional_bugs),
                std::move(factory));
  Clock::time_point t0 = Clock::now();
  Status s = fuzzer.Run();
  FuzzResult r;
  report::Summary& sum = r.summary;
  sum.app = std::move(app);
  sum.package = device.Package();
  sum.device = device.Name();
  sum.strategy = "genie";
  sum.seed = options.seed;
  sum.events = fuzzer.events_sent();
  sum.wall_seconds = Since(t0);
  sum.stop_reason = s.ok() ? fuzzer.stop_reason() : "device error: " + s.message();
  std::vector<std::string> declared = device.DeclaredActivities();
  if (!declared.empty()) sum.activities_total = declared.size();
  sum.activities_covered = fuzzer.activities();
  if (device.HasCoverage()) {
    auto c = device.GetCoverage();
    sum.units_total = c.total;
    sum.units_covered = c.covered;
  }
  sum.states = fuzzer.states();
  r.stats = fuzzer.stats();
  // Ranked as the notes say: those seen once first.
  std::vector<std::string> keys;
  for (const auto& f : fuzzer.findings())
    for (int k = 0; k < f.count; ++k) keys.push_back(f.key);
  for (const auto& ranked : fuzz::RankReports(keys))
    for (const auto& f : fuzzer.findings())
      if (f.key == ranked.key) r.findings.push_back(f);
  ROAM_RETURN_IF_ERROR(WriteFuzzSummary(options, r));
  return r;
}

std::set<std::string> ToSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

Result<FuzzResult> FuzzAndroid(const FuzzOptions& options, const std::atomic<bool>* stop,
                               std::FILE* progress) {
  const auto& a = options.android;
  if (a.package.empty()) return Status::InvalidArgument("--serial needs --package PKG");
  ExploreOptions eo;
  eo.android = a;
  eo.apk = options.apk;
  auto device = OpenAndroidDevice(eo);
  if (!device.ok()) return device.status();
  ROAM_RETURN_IF_ERROR(PrepareOutDir(options.out, options.force));
  json replay = {{"device", "android"}, {"serial", a.serial}, {"host", a.host},
                 {"port", a.port},      {"package", a.package}, {"start", "clear"}};
  json config = {{"app", a.package}, {"package", a.package}, {"device", (*device)->Name()},
                 {"serial", a.serial}, {"adb_host", a.host}, {"adb_port", a.port},
                 {"apk", options.apk.string()}};
  return RunFuzzer(options, **device, stop, progress, replay, config, a.package, {}, nullptr);
}

}  // namespace

Result<FuzzResult> Fuzz(const FuzzOptions& options, const std::atomic<bool>* stop,
                        std::FILE* progress) {
  if (options.events <= 0) return Status::InvalidArgument("no budget: give --events N (> 0)");
  if (!options.android.serial.empty()) return FuzzAndroid(options, stop, progress);
  auto spec = sim::LoadSpec(options.app);
  if (!spec.ok()) return spec.status();
  std::vector<std::string> known, functional;
  for (const auto& b : (*spec)->bugs()) {
    known.push_back(b.id);
    if (b.kind != "crash" && b.kind != "anr" &&
        !std::count(options.bugs_off.begin(), options.bugs_off.end(), b.id))
      functional.push_back(b.id);
  }
  for (const auto& id : options.bugs_off)
    if (!std::count(known.begin(), known.end(), id)) {
      std::string hint = ClosestName(id, known);
      return Status::InvalidArgument(fmt::format(
          "--bugs-off: {} plants no bug \"{}\"{}", options.app.string(), id,
          hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint)));
    }
  ROAM_RETURN_IF_ERROR(PrepareOutDir(options.out, options.force));
  auto spec_text = ReadFile(options.app);
  if (!spec_text.ok()) return spec_text.status();
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(options.out / "app.json", *spec_text));

  sim::SimOptions sim_options{.seed = options.seed, .bugs_off = ToSet(options.bugs_off)};
  device::SimDevice device(*spec, sim_options);
  std::shared_ptr<const sim::AppSpec> shared = *spec;
  SimFactory factory = [shared, sim_options](const std::set<std::string>& extra_off) {
    sim::SimOptions o = sim_options;
    o.bugs_off.insert(extra_off.begin(), extra_off.end());
    return std::unique_ptr<device::Device>(std::make_unique<device::SimDevice>(shared, o));
  };
  json replay = {{"device", "sim"},
                 {"app", std::filesystem::absolute(options.app).string()},
                 {"app_copy", "../../app.json"},
                 {"bugs_off", options.bugs_off},
                 {"seed", options.seed},
                 {"start", "clear"}};
  json config = {{"app", options.app.string()}, {"package", device.Package()},
                 {"device", device.Name()}, {"bugs_off", options.bugs_off}};
  return RunFuzzer(options, device, stop, progress, replay, config, options.app.string(),
                   functional, factory);
}

}  // namespace roam::run
