#include "run/fuzz/fuzz.h"

#include <cstdlib>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "fuzz/views.h"
#include "gui/actions.h"
#include "report/run_report.h"
#include "run/crash_bug.h"
#include "run/executor.h"
#include "run/fuzz/fuzz_exec.h"
#include "run/fuzz/fuzz_internal.h"
#include "run/oracle_bug.h"
#include "run/oracles.h"
#include "run/session.h"
#include "run/target.h"

namespace roam::run {

using nlohmann::json;

namespace {

// Runs of a seed, past its first two, that a violation must hold against before it is reported.
constexpr int kConfirmRuns = 3;

class Fuzzer {
 public:
  Fuzzer(const FuzzOptions& options, Target& target,
         const std::vector<oracle::OracleMaker>& oracles, const RunContext& context)
      : options_(options),
        target_(target),
        session_(target.device(),
                 SessionOptions::For(options, target.clock(), options.signature_frames,
                                     options.progress),
                 context),
        budget_(session_.budget()),
        progress_(session_.progress()),
        runner_(session_.executor(), &session_.context()),
        model_(options.model),
        rng_(options.seed),
        chooser_(options.seeds, model_, rng_),
        functional_bugs_(target.FunctionalBugsOn()),
        crash_filer_(options.out, CrashCheckSetup::For(target)),
        oracles_(oracles, session_.executor()),
        oracle_filer_({.run_dir = options.out,
                       .replay = target.replay(),
                       .fresh_device = target.fresh_device(),
                       .functional_bugs = functional_bugs_}) {}

  // Fuzzes to the budget, a stop request, the seed limit or a failure, then writes the
  // summary; the run folder holds what was found whatever stopped it.
  Result<FuzzResult> Run();

 private:
  using Start = fuzz::Starts::Start;
  void ObserveRun(const Execution& run);
  // One seed and its mutants: the seed runs twice (RunSeed, RunSeedAgain), its effects are noted,
  // and once mapping is over its mutants are made and run.
  Status OneSeed(int index);
  // The seed's first run, from `start` (null: the clean start) along its way, then its own
  // events. `prefix` becomes the way's events that found their targets; `save` where the run
  // saves the device.
  Result<Execution> RunSeed(bool systematic, Start* start, int& prefix, RunFrom& save);
  // Counts the seed and its way, and gives the model its last transition.
  void CountSeed(int index, bool mapping, Start* start, int prefix, const Execution& seed);
  // Runs the seed's events again from `from`: the views that differ between the two runs, or
  // none when the run was interrupted or could not follow the first (an unstable seed).
  Result<std::optional<std::set<std::string>>> RunSeedAgain(const Execution& seed,
                                                            const RunFrom& from);
  // Tells the ledger which of the seed's events had an effect.
  void NoteEffects(const Execution& seed, fuzz::RunViews& views);
  // Cuts the seed after its last effect and generates its mutants.
  std::vector<fuzz::Mutant> MakeMutants(int index, Execution& seed, int prefix, int last_effect,
                                        const std::set<std::string>& ignored,
                                        std::set<std::string>& failed);
  // Runs the mutants in turn until Done, skipping those whose τ begins with a failed prefix.
  Status RunMutants(int index, const Execution& seed, const RunFrom& from_start,
                    std::set<std::string>& ignored, fuzz::RunViews& views,
                    const std::vector<fuzz::Mutant>& mutants, std::set<std::string>& failed);
  // Runs one mutant from `from` (RunFrom::resume: restored; `snapshotted`: whether the run
  // saved the device where `from` asked). `seed_views`: the seed's views without `ignored`,
  // made again when `ignored` grows.
  Status OneMutant(int seed_index, const Execution& seed, const RunFrom& from,
                   std::set<std::string>& ignored, fuzz::RunViews& seed_views,
                   const fuzz::Mutant& mutant, std::set<std::string>& failed, bool& snapshotted);
  Status Report(int seed_index, const Execution& seed, const Execution& mutant,
                const fuzz::Mutant& m, const fuzz::Violation& v);
  std::string Score(const FuzzCase& c, const std::string& key);
  // Files bugs/B<n>/ for the crashes and ANRs `run` met first, as `roam explore` does.
  Status FileCrashes(const Execution& run);
  // Hands the user's oracles the seed's screen `layout`, before its event `t` (`restarted`: the
  // first they see of this run). Their findings wait in found_ for the seed's trace; returns the
  // event of their own the seed takes next, or nullopt.
  std::optional<fuzz::Event> SeeOracles(int t, const fuzz::Layout& layout, bool restarted);
  // Files found_ with `seed`'s trace, each cut before the step it was found on (the screen it
  // was found on is the last).
  Status FileOracleFindings(const Execution& seed);
  ProgressFigures Figures() const;
  bool Done() {
    if (session_.Over()) return true;
    return options_.max_seeds > 0 && stats_.seeds >= options_.max_seeds;
  }
  report::Summary MakeSummary() const;

  const FuzzOptions& options_;
  Target& target_;
  Session session_;
  Budget& budget_;      // session_'s
  Progress& progress_;  // session_'s
  FuzzRunner runner_;
  fuzz::Model model_;
  Rng rng_;
  fuzz::SeedChooser chooser_;
  std::vector<std::string> functional_bugs_;
  FuzzStats stats_;
  std::vector<report::FunctionalFinding> findings_;
  std::map<std::string, size_t> by_key_;
  std::vector<std::string> activities_;
  std::map<std::string, int> tested_from_;  // activity -> seeds with mutants started there
  fuzz::Starts starts_{options_.seeds.max_prefix};
  fuzz::EffectLedger effects_;  // effects seen, and those seeds with mutants took
  fuzz::TriedTaus tried_;       // the τ run at each pivot state
  // A start for the next seed (PickStart says which first); null: from the clean start.
  Start* PickStart();
  // Seeds run without mutants in the first SeedSettings::pct_explore of the budget.
  bool Mapping() const { return budget_.Used() * 100 < options_.seeds.pct_explore; }
  CrashFiler crash_filer_;
  // The user's oracles (FuzzOptions::oracle_files), their findings not filed yet, the draws of
  // their own (apart from the seeds' stream, so that oracles that never act change no seed) and
  // their bug folders.
  CampaignOracles oracles_;
  std::vector<oracle::Finding> found_;
  Rng oracle_rng_{options_.seed};
  OracleFiler oracle_filer_;
  // ROAM_FUZZ_DEBUG is set: each seed, its mutants and their verdicts are printed on stderr.
  const bool debug_ = std::getenv("ROAM_FUZZ_DEBUG") != nullptr;
};

void Fuzzer::ObserveRun(const Execution& run) {
  for (size_t t = 0; t < run.events.size() && t + 1 < run.layouts.size(); ++t)
    model_.Observe(run.layouts[t].abs, run.events[t], run.layouts[t + 1].abs);
  for (const auto& l : run.layouts)
    if (l.in_app &&
        std::find(activities_.begin(), activities_.end(), l.screen.activity) == activities_.end())
      activities_.push_back(l.screen.activity);
}

Result<FuzzResult> Fuzzer::Run() {
  ROAM_RETURN_IF_ERROR(session_.Open(/*trace=*/false));  // the runs' traces go to bug folders
  Status s;
  for (int index = 0; s.ok() && !Done(); ++index) {
    s = OneSeed(index);
    progress_.Update(Figures());
  }
  session_.StopOn(s);
  session_.StopAtEnd("seeds");
  FuzzResult r{.summary = MakeSummary(), .stats = stats_};
  ROAM_RETURN_IF_ERROR(session_.Finish(Figures(), r.summary, options_.known));
  if (!s.ok()) return s;  // written, and a failure, as explore and vision say it
  return r;
}

report::Summary Fuzzer::MakeSummary() const {
  report::Summary sum = session_.Summary(target_.app_name(), "genie", options_.seed);
  sum.activities_covered = activities_;
  sum.states = model_.states();
  report::AddFindings(session_.crashes().findings(), crash_filer_.dirs(), sum);
  // Ranked as the notes say: those seen once first.
  std::vector<std::string> keys;
  for (const auto& f : findings_)
    for (int k = 0; k < f.count; ++k) keys.push_back(f.key);
  sum.functional.emplace();
  for (const auto& ranked : fuzz::RankReports(keys))
    for (const auto& f : findings_)
      if (f.key == ranked.key) sum.functional->push_back(f);
  const auto& own = oracle_filer_.findings();
  sum.functional->insert(sum.functional->end(), own.begin(), own.end());
  sum.sections = {{"fuzz", FuzzStatsJson(stats_)}};
  oracles_.AddFigures(sum.sections);
  return sum;
}

Fuzzer::Start* Fuzzer::PickStart() {
  std::vector<Start>& starts = starts_.all();
  if (starts.empty() || !rng_.Chance(options_.seeds.pct_from_reached / 100)) return nullptr;
  // While mapping: the least used starts, the newest of them (the deepest reached so far, as a
  // rule). Once mutants run: first the states where an effect was seen that no seed with mutants
  // took there (EffectLedger), then the activities fewest such seeds started in, so each screen
  // reached gets tested.
  const bool mapping = Mapping();
  auto tested = [&](const Start& s) {
    auto it = tested_from_.find(s.activity);
    return mapping || it == tested_from_.end() ? 0 : it->second;
  };
  auto effects_tested = [&](const Start& s) {
    return !mapping && effects_.HasUntested(s.state) ? 0 : 1;
  };
  auto rank = [&](const Start& s) { return std::tuple(effects_tested(s), tested(s), s.uses); };
  Start* best = nullptr;
  for (auto it = starts.rbegin(); it != starts.rend(); ++it)
    if (it->Usable() && (!best || rank(*it) < rank(*best))) best = &*it;
  if (best) ++best->uses;
  return best;
}

Status Fuzzer::OneSeed(int index) {
  const bool mapping = Mapping();  // as the seed begins: whether its start counts as tested
  Start* start = PickStart();
  // Systematic selection first, then the two strategies in turn.
  int prefix = 0;
  RunFrom save;
  auto first = RunSeed(index % 2 == 0, start, prefix, save);
  if (!first.ok()) return first.status();
  ROAM_RETURN_IF_ERROR(FileCrashes(*first));
  ROAM_RETURN_IF_ERROR(FileOracleFindings(*first));
  Execution& seed = *first;
  if (seed.interrupted) return Status::Ok();
  CountSeed(index, mapping, start, prefix, seed);
  if (seed.events.empty()) return Status::Ok();

  // The second run and the mutants begin where the first run saved the device (if it did).
  RunFrom from_start;
  if (seed.snapshotted)
    from_start = {.resume = &seed, .resume_events = save.save_at, .snapshot = save.save_as};
  auto ignored = RunSeedAgain(seed, from_start);
  if (!ignored.ok()) return ignored.status();
  if (!ignored->has_value()) return Status::Ok();
  // The seed's views, made once for its effects and all its mutants' judgements.
  fuzz::RunViews views(seed.layouts, **ignored);
  NoteEffects(seed, views);
  if (Mapping()) return Status::Ok();
  int last_effect =
      fuzz::LastEffect(seed.layouts, views, options_.independent_view.min_pair_similarity);
  if (last_effect <= prefix) return Status::Ok();  // no effect after the way: nothing to judge
  std::set<std::string> failed;
  const std::vector<fuzz::Mutant> mutants =
      MakeMutants(index, seed, prefix, last_effect, **ignored, failed);
  return RunMutants(index, seed, from_start, **ignored, views, mutants, failed);
}

Result<Execution> Fuzzer::RunSeed(bool systematic, Start* start, int& prefix, RunFrom& save) {
  chooser_.StartSeed();
  // The way's events; fewer when an event of the way finds no target on the screen it came to:
  // the seed's own events begin there (it did not get where it meant to, but it did get there).
  prefix = start ? static_cast<int>(start->prefix.size()) : 0;
  uint64_t prev_state = 0;
  fuzz::Event prev_event;
  auto next = [&](int t, const fuzz::Layout& layout) -> std::optional<fuzz::Event> {
    if (t > 0) model_.Observe(prev_state, prev_event, layout.abs);  // Υ stays current
    if (t < prefix && start->prefix[t].widget() &&
        fuzz::Resolve(layout.screen, start->prefix[t]) < 0)
      prefix = t;
    if (t >= prefix + options_.seeds.length) return std::nullopt;
    chooser_.See(layout);
    prev_state = layout.abs;
    std::optional<fuzz::Event> own;
    if (t >= prefix && !oracles_.empty()) own = SeeOracles(t, layout, t == prefix);
    prev_event = t < prefix ? start->prefix[t]
                 : own      ? *own
                            : chooser_.Choose(layout, systematic, Mapping() ? nullptr : &effects_);
    if (t >= prefix && !oracles_.empty()) {
      // What the oracles see next came of this event (a crash ends the run: they hear of it
      // as a restart, the next seed's first screen).
      const int widget = fuzz::Resolve(layout.screen, prev_event);
      oracles_.Saw(fuzz::ActionFor(layout.screen, prev_event, widget), layout.screen, false);
    }
    if (t >= prefix) stats_.seed_scrolls += fuzz::IsScrollOrSwipe(prev_event.kind);
    return prev_event;
  };
  // A seed that begins on a way to a reached state saves the device where the way ends (where
  // it can): its second run and its mutants restore that instead of replaying the way (a mutant
  // whose pivot lies before that point, the way having broken off earlier, replays).
  if (prefix > 0 && target_.device().CanSnapshot())
    save = {.save_at = prefix, .save_as = "roam-fuzz-seed-start"};
  return runner_.Run(next, save);
}

void Fuzzer::CountSeed(int index, bool mapping, Start* start, int prefix, const Execution& seed) {
  const bool arrived =
      static_cast<int>(seed.layouts.size()) > prefix && seed.layouts[prefix].in_app;
  if (start) ++stats_.ways;
  if (start && (!arrived || seed.layouts[prefix].abs != start->state)) {
    starts_.Failed(*start);
    ++stats_.ways_failed;
  }
  // Which screens seeds with mutants start on: the one the way led to (PickStart).
  if (start && arrived && !mapping) ++tested_from_[seed.layouts[prefix].screen.activity];
  // The last transition: the callback is not called after the last event when the run ends on
  // its own (left the app, crashed).
  if (!seed.events.empty() && seed.layouts.size() == seed.events.size() + 1 &&
      (seed.left_app || seed.crashed))
    model_.Observe(seed.layouts[seed.layouts.size() - 2].abs, seed.events.back(),
                   seed.layouts.back().abs);
  ++stats_.seeds;
  if (debug_) {
    std::string d;
    for (size_t t = prefix; t < seed.events.size(); ++t)
      d += seed.layouts[t].screen.activity + ": " + seed.events[t].Describe() + "; ";
    fmt::print(stderr, "seed {} {} from {} (prefix {}): {}\n", index, Mapping() ? "maps" : "tests",
               start ? start->activity : "the start", prefix, d);
  }
}

Result<std::optional<std::set<std::string>>> Fuzzer::RunSeedAgain(const Execution& seed,
                                                                  const RunFrom& from) {
  using Ignored = std::optional<std::set<std::string>>;
  auto second = runner_.Run(Exact(seed.events), from);
  if (!second.ok()) return second.status();
  ROAM_RETURN_IF_ERROR(FileCrashes(*second));
  if (second->interrupted) return Ignored();
  ObserveRun(*second);
  if (second->unresolved >= 0 || second->layouts.size() != seed.layouts.size()) {
    ++stats_.unstable_seeds;
    return Ignored();
  }
  starts_.Add(seed.layouts, seed.events);
  return Ignored(fuzz::UnstableViews(seed.layouts, second->layouts));
}

void Fuzzer::NoteEffects(const Execution& seed, fuzz::RunViews& views) {
  const std::vector<char> lands =
      fuzz::EffectLands(seed.layouts, views, options_.independent_view.min_pair_similarity);
  for (size_t j = 1; j < lands.size() && j <= seed.events.size(); ++j)
    if (lands[j]) effects_.Saw(seed.layouts[j - 1].abs, seed.events[j - 1]);
}

std::vector<fuzz::Mutant> Fuzzer::MakeMutants(int index, Execution& seed, int prefix,
                                              int last_effect, const std::set<std::string>& ignored,
                                              std::set<std::string>& failed) {
  // What the seed did after its last effect, no mutant needs to repeat: no pair of the check
  // ends there.
  seed.layouts.resize(last_effect + 1);
  seed.events.resize(last_effect);
  seed.trace.resize(2 + last_effect);
  std::vector<fuzz::ActiveViews> active = fuzz::TrackActiveViews(seed.layouts, seed.events);
  std::vector<fuzz::Mutant> mutants = fuzz::GenerateMutants(
      seed.layouts, seed.events, active, model_, last_effect, failed, options_.mutants, ignored,
      options_.independent_view.min_pair_similarity, &rng_, prefix, &tried_);
  stats_.mutants_generated += static_cast<int64_t>(mutants.size());
  if (!mutants.empty())
    for (size_t t = prefix; t < seed.events.size(); ++t)
      effects_.Tested(seed.layouts[t].abs, seed.events[t]);
  if (debug_) {
    std::string d;
    for (const auto& e : seed.events) d += e.Describe() + "; ";
    fmt::print(stderr, "seed {} (last_effect {}): {}\n", index, last_effect, d);
    for (const auto& m : mutants) {
      std::string t;
      for (const auto& e : m.tau) t += e.Describe() + "; ";
      fmt::print(stderr, "   mutant p{}: {}\n", m.pivot, t);
    }
  }
  return mutants;
}

Status Fuzzer::RunMutants(int index, const Execution& seed, const RunFrom& from_start,
                          std::set<std::string>& ignored, fuzz::RunViews& views,
                          const std::vector<fuzz::Mutant>& mutants, std::set<std::string>& failed) {
  // A pivot's mutants come one after another: the first saves the device at the pivot (where
  // it can), and the others restore that instead of replaying the seed up to the pivot.
  const std::string at_pivot = "roam-fuzz-pivot";
  int saved_pivot = -1;
  for (size_t k = 0; k < mutants.size(); ++k) {
    const fuzz::Mutant& m = mutants[k];
    if (Done()) break;
    // A prefix that failed since the mutants were generated prunes this one too.
    bool pruned = false;
    for (size_t n = 1; n <= m.tau.size() && !pruned; ++n) pruned = failed.count(m.PrefixKey(n)) > 0;
    if (pruned) continue;
    RunFrom from;
    if (m.pivot == saved_pivot)
      from = {.resume = &seed, .resume_events = m.pivot, .snapshot = at_pivot};
    else if (from_start.resume && m.pivot >= from_start.resume_events)  // τ lies after the way
      from = from_start;
    const bool save = m.pivot != saved_pivot && target_.device().CanSnapshot() &&
                      k + 1 < mutants.size() && mutants[k + 1].pivot == m.pivot;
    if (save) from.save_at = m.pivot, from.save_as = at_pivot;
    bool snapshotted = false;
    ROAM_RETURN_IF_ERROR(OneMutant(index, seed, from, ignored, views, m, failed, snapshotted));
    if (save && snapshotted) saved_pivot = m.pivot;
    progress_.Update(Figures());
  }
  return Status::Ok();
}

Status Fuzzer::OneMutant(int seed_index, const Execution& seed, const RunFrom& from,
                         std::set<std::string>& ignored, fuzz::RunViews& seed_views,
                         const fuzz::Mutant& m, std::set<std::string>& failed, bool& snapshotted) {
  const int p = m.pivot, len = static_cast<int>(m.tau.size());
  const double t0 = budget_.Elapsed();
  tried_.Add(seed.layouts[p].abs, m);
  auto run = runner_.Run(MutantEvents(seed.events, p, m.tau, options_.mutants), from);
  if (from.resume) ++stats_.restored_mutants;
  stats_.mutant_seconds += budget_.Elapsed() - t0;
  if (!run.ok()) return run.status();
  snapshotted = run->snapshotted;
  ROAM_RETURN_IF_ERROR(FileCrashes(*run));
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
  // The mutant judged against its seed, once the views that differ between the seed and
  // `other` (another run of its events) are ignored too.
  auto judge = [&](std::span<const fuzz::Layout> other) {
    for (const auto& k : fuzz::UnstableViews(seed.layouts, other)) ignored.insert(k);
    if (!seed_views.Of(seed.layouts, ignored)) seed_views = fuzz::RunViews(seed.layouts, ignored);
    return fuzz::CheckMutant(seed.layouts, seed.events, run->layouts, run->events, p, len, ignored,
                             options_.independent_view, &seed_views);
  };
  // The mutant's prefix repeats the seed's first p events: what differs there is unstable too.
  auto v = judge(std::span<const fuzz::Layout>(run->layouts.data(), p + 1));
  if (debug_) {
    std::string t;
    for (const auto& e : m.tau) t += e.Describe() + "; ";
    fmt::print(stderr, "  ran p{} [{}] -> {}\n", p, t, v ? v->Key() : "ok");
  }
  // Before reporting, the seed runs again, up to kConfirmRuns times, until the violation goes:
  // views that change by themselves are ignored. One run was not enough: a short seed may show a
  // line that turns at random just as it did, by chance (tests/apps/clock.json, fuzzing seed 21:
  // a banner alike over the three layouts of the seed's second and third runs); each more run
  // makes that rarer. A violation that holds costs the runs, one that goes stops at its first.
  for (int k = 0; k < kConfirmRuns && v; ++k) {
    auto again = runner_.Run(Exact(seed.events));
    if (!again.ok()) return again.status();
    ROAM_RETURN_IF_ERROR(FileCrashes(*again));
    if (again->interrupted) return Status::Ok();
    v = judge(again->layouts);
  }
  if (!v) return Status::Ok();
  ++stats_.violations;
  return Report(seed_index, seed, *run, m, *v);
}

std::optional<fuzz::Event> Fuzzer::SeeOracles(int t, const fuzz::Layout& layout, bool restarted) {
  std::vector<gui::Action> actions;
  gui::ActionsFor(layout.screen, actions);
  // A run's trace is its clear, its launch, then an act step per event.
  auto own = oracles_.See(t + 2, layout.screen, actions, restarted, oracle_rng_, found_);
  if (!own) return std::nullopt;
  return fuzz::EventOf(layout.screen, *own);
}

Status Fuzzer::FileOracleFindings(const Execution& seed) {
  std::vector<oracle::Finding> found = std::move(found_);
  found_.clear();
  for (const auto& f : found) {
    auto trace = [&] {
      std::vector<report::TraceStep> upto;
      for (const auto& step : seed.trace)
        if (step.step < f.last_step) upto.push_back(step);
      return upto;
    };
    ROAM_RETURN_IF_ERROR(
        session_.Wrote(oracle_filer_.File(f, trace, nullptr, session_, "roam fuzz").status()));
  }
  return Status::Ok();
}

Status Fuzzer::FileCrashes(const Execution& run) {
  Status s = session_.Wrote(
      crash_filer_.FileNew(session_.crashes().findings(), run.trace, session_, "roam fuzz"));
  return s;
}

std::string Fuzzer::Score(const FuzzCase& c, const std::string& key) {
  auto holds = [&](const std::set<std::string>& off) {
    auto d = target_.fresh_device()(off);
    if (!d.ok()) return false;
    auto v = CheckCase(**d, c, options_.independent_view, options_.signature_frames);
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
  report::FunctionalFinding& f = r.finding;
  f.id = fmt::format("F{}", findings_.size() + 1);
  f.key = key;
  f.activity = v.activity;
  f.count = 1;
  f.first_seed = seed_index;
  f.bug_dir = "bugs/" + f.id;
  f.explanation = Explain(r.fuzz_case, v, seed, mutant);
  if (options_.score && target_.fresh_device()) {
    f.bug_id = Score(r.fuzz_case, key);
    f.scored = true;
  }
  r.violation = v;
  r.seed = &seed;
  r.mutant = &mutant;
  r.replay = target_.replay();
  ROAM_RETURN_IF_ERROR(session_.Wrote(WriteFunctionalBug(options_.out / f.bug_dir, r)));
  by_key_[key] = findings_.size();
  findings_.push_back(f);
  progress_.Note(fmt::format(
      "roam fuzz: {} {}{}", f.id, f.explanation,
      f.scored ? fmt::format(" [planted: {}]", f.bug_id.empty() ? "none" : f.bug_id) : ""));
  return Status::Ok();
}

ProgressFigures Fuzzer::Figures() const {
  ProgressFigures f = session_.Figures();
  f.states = model_.states();
  f.activities = activities_.size();
  f.extra = {
      fmt::format("reports {}", findings_.size() + oracle_filer_.findings().size()),
      fmt::format("violations {}", stats_.violations),
      fmt::format("mutants {}/{} ({:.1f}/s, {} dropped)", stats_.mutants_executed,
                  stats_.mutants_generated,
                  stats_.mutant_seconds > 0 ? stats_.mutants_executed / stats_.mutant_seconds : 0.0,
                  stats_.mutants_dropped),
      fmt::format("seeds {}", stats_.seeds)};
  return f;
}

}  // namespace

Result<FuzzResult> Fuzz(const FuzzOptions& options, const RunContext& context) {
  ROAM_RETURN_IF_ERROR(CheckBudget(options.budget));
  TargetOptions target_options = options.target;
  target_options.android.stop = context.stop;  // Ctrl-C ends a wait for a device that went away
  auto target = Target::Open(target_options, options.seed, options.signature_frames);
  if (!target.ok()) return target.status();
  json config = FuzzConfig(options);
  // Read before the run folder: a bad file leaves nothing behind.
  auto oracles = ReadOracles(options.oracle_files, config);
  if (!oracles.ok()) return oracles.status();
  ROAM_RETURN_IF_ERROR(OpenRunFolder(options, **target, config));
  Fuzzer fuzzer(options, **target, *oracles, context);
  return fuzzer.Run();
}

}  // namespace roam::run
