#include "run/explore/fleet.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "base/files.h"
#include "device/jacoco/exec_reader.h"
#include "oracle/kinds.h"
#include "report/run_report.h"
#include "report/verdict.h"
#include "run/crash_bug.h"
#include "run/explore/campaign.h"
#include "run/explore/explore.h"
#include "run/target.h"

namespace roam::run {

using nlohmann::json;

std::vector<std::string> FleetTags(const ExploreOptions& options) {
  if (!options.serials.empty()) return options.serials;
  std::vector<std::string> tags;
  for (int i = 1; i <= std::max(options.devices, 1); ++i) tags.push_back(fmt::format("sim-{}", i));
  return tags;
}

namespace {

// The progress line of the whole run, from each worker's figures (workers report every so many
// steps; the main thread draws), and the unions of the activities and abstract states reached.
class FleetProgress {
 public:
  FleetProgress(size_t devices, const SharedBugs& bugs)
      : figures_(devices), seen_(devices), bugs_(bugs) {}

  void Report(size_t device, const ProgressFigures& figures,
              const std::vector<std::string>& activities, const std::vector<uint64_t>& states) {
    std::lock_guard lock(mu_);
    figures_[device] = figures;
    Seen& seen = seen_[device];
    for (size_t i = seen.activities; i < activities.size(); ++i) activities_.insert(activities[i]);
    for (size_t i = seen.states; i < states.size(); ++i) states_.insert(states[i]);
    seen = {activities.size(), states.size()};
  }

  size_t states() const {
    std::lock_guard lock(mu_);
    return states_.size();
  }

  // The run's figures: events added over devices, activities and states united, time the
  // longest, crashes and ANRs unique over the run.
  ProgressFigures Merged() const {
    std::lock_guard lock(mu_);
    ProgressFigures m;
    for (const auto& f : figures_) {
      m.events += f.events;
      m.max_events += f.max_events;
      m.max_seconds = std::max(m.max_seconds, f.max_seconds);
      m.elapsed = std::max(m.elapsed, f.elapsed);
      if (f.phone_seconds)
        m.phone_seconds = std::max(m.phone_seconds.value_or(0), *f.phone_seconds);
      m.relaunches += f.relaunches;
      m.snapshots += f.snapshots;
      m.restores += f.restores;
      m.failed_restores += f.failed_restores;
      if (f.activities_total) m.activities_total = f.activities_total;
      // Code units by count only (summary.json unites them by name): the most any device covered.
      if (f.units_covered)
        m.units_covered = std::max(m.units_covered.value_or(0), *f.units_covered);
      if (f.units_total) m.units_total = f.units_total;
      m.aside = std::max(m.aside, f.aside);  // the devices check their bugs side by side
    }
    m.activities = activities_.size();
    m.states = states_.size();
    m.crashes = bugs_.crashes();
    m.anrs = bugs_.anrs();
    m.extra = {fmt::format("{} devices", figures_.size())};
    return m;
  }

 private:
  mutable std::mutex mu_;
  std::vector<ProgressFigures> figures_;
  struct Seen {
    size_t activities = 0, states = 0;
  };
  std::vector<Seen> seen_;  // per device: how much of its lists is united already
  std::set<std::string> activities_;
  std::unordered_set<uint64_t> states_;
  const SharedBugs& bugs_;
};

json DeviceSection(const std::string& tag, const report::Summary& s, const Status& status) {
  json crashes = json::object();
  for (const auto* list : {&s.crashes, &s.anrs})
    for (const auto& f : *list) crashes[f.signature] = f.count;
  json j = {{"device", tag},
            {"name", s.device},
            {"trace", fmt::format("trace-{}.jsonl", tag)},
            {"events", s.events},
            {"wall_seconds", s.wall_seconds},
            {"stop_reason", s.stop_reason},
            {"activities", s.activities_covered.size()},
            {"states", s.states},
            {"relaunches", s.relaunches},
            {"failures", crashes}};
  if (s.units_covered) j["units"] = *s.units_covered;
  // A device that stopped answering: when, after how many of its events.
  j["dropped"] = status.ok() ? json(nullptr)
                             : json({{"at_seconds", s.wall_seconds},
                                     {"after_events", s.events},
                                     {"error", status.message()}});
  return j;
}

// coverage.exec of the whole fleet: every device's JaCoCo data merged (each device's own is
// coverage-<tag>.exec), where the devices' coverage is JaCoCo's.
Status WriteFleetCoverage(const std::filesystem::path& out,
                          const std::vector<ExploreDevice>& workers) {
  device::jacoco::ExecData merged;
  bool any = false;
  for (const auto& w : workers) {
    auto exec = w.target->device().CoverageExec();
    if (!exec.ok()) continue;
    auto data = device::jacoco::ParseExec(*exec);
    if (!data.ok()) return data.status().Wrap("device " + w.tag + "'s coverage");
    ROAM_RETURN_IF_ERROR(device::jacoco::Merge(merged, *data).Wrap("device " + w.tag));
    any = true;
  }
  if (!any) return Status::Ok();
  return WriteFileAtomic(out / "coverage.exec", device::jacoco::WriteExec(merged));
}

// The fleet's coverage link: working where every device's is, dumps and failures summed, the
// last device's error, the largest data (the union's figures are units_covered's).
void MergeLink(const device::CoverageLink& from, std::optional<device::CoverageLink>& into) {
  if (!into) {
    into = from;
    return;
  }
  into->working = into->working && from.working;
  into->dumps += from.dumps;
  into->failed += from.failed;
  if (!from.last_error.empty()) into->last_error = from.last_error;
  into->classes = std::max(into->classes, from.classes);
  into->probes = std::max(into->probes, from.probes);
}

// The user's oracles' findings (one per folder, SharedBugs numbering them over the run) and
// sections (oracle/kinds.h's merge) of the devices' summaries into `m`.
void MergeOracleFindings(const std::vector<report::Summary>& devices, report::Summary& m) {
  if (!devices.front().functional) return;
  m.functional.emplace();
  std::map<std::string, size_t> at;  // id -> index in m.functional
  for (const auto& d : devices) {
    if (!d.functional) continue;
    for (const auto& f : *d.functional) {
      auto [it, fresh] = at.try_emplace(f.id, m.functional->size());
      if (fresh) {
        m.functional->push_back(f);
        continue;
      }
      auto& kept = (*m.functional)[it->second];
      kept.count += f.count;
      // The device that filed the folder knows the planted bug behind it.
      if (kept.bug_id.empty()) kept.bug_id = f.bug_id;
    }
  }
  for (const auto& kind : oracle::OracleKinds()) {
    const std::string name(kind.name);
    std::vector<nlohmann::json> figures;
    for (const auto& d : devices)
      if (d.sections.is_object() && d.sections.contains(name)) figures.push_back(d.sections[name]);
    if (!figures.empty()) m.sections[name] = kind.merge(figures);
  }
}

}  // namespace

report::Summary MergeDeviceSummaries(const std::vector<report::Summary>& devices,
                                     const std::vector<std::string>& tags, size_t states,
                                     std::optional<size_t> units_covered) {
  report::Summary m = devices.front();
  m.device = fmt::format("{} devices", devices.size());
  m.events = 0;
  m.wall_seconds = 0;
  m.activities_covered.clear();
  m.crashes.clear();
  m.anrs.clear();
  m.relaunches = m.snapshots = m.restores = m.failed_restores = 0;
  m.restore_events = 0;
  m.refused.clear();
  m.coverage_link.reset();
  m.timing = {};
  std::unordered_set<std::string> activities;
  std::map<std::string, size_t> failure_at;  // signature -> index in m.crashes or m.anrs
  std::set<std::string> reasons;
  for (const auto& d : devices) {
    m.events += d.events;
    m.wall_seconds = std::max(m.wall_seconds, d.wall_seconds);
    if (d.phone_seconds) m.phone_seconds = std::max(m.phone_seconds.value_or(0), *d.phone_seconds);
    for (const auto& a : d.activities_covered)
      if (activities.insert(a).second) m.activities_covered.push_back(a);
    m.relaunches += d.relaunches;
    m.snapshots += d.snapshots;
    m.restores += d.restores;
    m.failed_restores += d.failed_restores;
    m.restore_events += d.restore_events;
    for (const auto& [reason, n] : d.refused) m.refused[reason] += n;
    m.device_life.away += d.device_life.away;
    m.device_life.away_seconds += d.device_life.away_seconds;
    m.device_life.driver_restarts += d.device_life.driver_restarts;
    m.device_life.driver_retries += d.device_life.driver_retries;
    for (const auto& [name, n] : d.device_life.system_screens)
      m.device_life.system_screens[name] += n;
    if (d.coverage_link) MergeLink(*d.coverage_link, m.coverage_link);
    m.timing.steps += d.timing.steps;
    m.timing.observe += d.timing.observe;
    m.timing.decide += d.timing.decide;
    m.timing.act += d.timing.act;
    m.timing.events += d.timing.events;
    m.timing.launch += d.timing.launch;
    // The devices check their bugs side by side: the run's wall time lost is the longest.
    m.timing.aside = std::max(m.timing.aside, d.timing.aside);
    reasons.insert(d.stop_reason);
    for (auto* list : {&m.crashes, &m.anrs}) {
      const auto& from = list == &m.crashes ? d.crashes : d.anrs;
      for (const auto& f : from) {
        auto [it, fresh] = failure_at.try_emplace(f.signature, list->size());
        if (fresh) {
          list->push_back(f);
        } else {
          auto& kept = (*list)[it->second];
          kept.count += f.count;
          if (kept.bug_dir.empty()) kept.bug_dir = f.bug_dir;
        }
      }
    }
  }
  MergeOracleFindings(devices, m);
  m.states = states;
  m.units_covered = units_covered;
  // One reason when every device ended alike; otherwise each device's.
  if (reasons.size() > 1) {
    m.stop_reason.clear();
    for (size_t i = 0; i < devices.size(); ++i)
      m.stop_reason += fmt::format("{}{}: {}", i ? "; " : "", tags[i], devices[i].stop_reason);
  }
  return m;
}

CampaignIo DeviceIo(const ExploreOptions& options, const ExploreDevice& device, size_t index) {
  return {.app = device.target->app_name(),
          .seed = options.seed + index,
          .out_dir = options.out,
          .replay = device.target->replay(),
          .fresh_device = device.target->fresh_device(),
          .known = options.known,
          .html_report = options.html_report,
          .functional_bugs = device.target->FunctionalBugsOn()};
}

Result<report::Summary> RunFleet(const ExploreOptions& options, std::vector<ExploreDevice>& workers,
                                 const RunContext& context) {
  const size_t n = workers.size();
  std::vector<std::string> tags;
  for (const auto& w : workers) tags.push_back(w.tag);
  SharedBugs bugs;
  StepTurns turns(n);
  FleetProgress fleet_progress(n, bugs);
  RunContext quiet = context;
  quiet.progress = nullptr;  // the main thread draws the run's line
  std::vector<std::thread> threads;
  for (size_t i = 0; i < n; ++i) {
    ExploreDevice& w = workers[i];
    BudgetOptions budget = options.budget;
    budget.clock = w.target->clock();  // each device on its own phone's clock
    if (budget.events > 0)
      budget.events = options.budget.events / n + (i < options.budget.events % n ? 1 : 0);
    CampaignIo io = DeviceIo(options, w, i);
    io.html_report = false;  // the run's page, once all are done
    io.device_tag = w.tag;
    io.shared_bugs = &bugs;
    io.turns = options.lockstep ? &turns : nullptr;
    io.turn_index = i;
    io.on_progress = [&fleet_progress, i](const ProgressFigures& f,
                                          const std::vector<std::string>& a,
                                          const std::vector<uint64_t>& states) {
      fleet_progress.Report(i, f, a, states);
    };
    w.rng = std::make_unique<Rng>(options.seed + i);
    w.campaign = std::make_unique<Campaign>(options.campaign, budget, w.target->device(),
                                            *w.strategy, *w.rng, std::move(io), quiet);
  }
  Progress progress(context.progress, context.progress_tty, options.campaign.session.progress);
  Status log = progress.OpenLog(options.out / "progress.jsonl");
  if (!log.ok()) return log;
  std::atomic<size_t> running = n;
  for (size_t i = 0; i < n; ++i)
    threads.emplace_back([&w = workers[i], &running, &turns, i] {
      auto summary = w.campaign->Run();
      turns.Leave(i);  // also when Run failed before its first step
      w.status = summary.ok() ? Status::Ok() : summary.status();
      w.summary = w.campaign->Summarize();
      --running;
    });
  while (running.load() > 0) {
    progress.Update(fleet_progress.Merged());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (auto& t : threads) t.join();
  progress.Finish(fleet_progress.Merged());

  // Code units by name, united, where the devices report coverage.
  std::set<std::string> units;
  bool coverage = true;
  std::vector<report::Summary> summaries;
  json sections = json::array();
  for (auto& w : workers) {
    ROAM_RETURN_IF_ERROR(
        WriteStrategyFigures(options.out, *w.strategy, w.tag, &w == &workers.front()));
    coverage = coverage && w.target->device().HasCoverage();
    if (coverage)
      for (auto& u : w.target->device().CoveredUnits()) units.insert(std::move(u));
    summaries.push_back(w.summary);
    sections.push_back(DeviceSection(w.tag, w.summary, w.status));
  }
  ROAM_RETURN_IF_ERROR(WriteFleetCoverage(options.out, workers));
  report::Summary summary =
      MergeDeviceSummaries(summaries, tags, fleet_progress.states(),
                           coverage ? std::optional(units.size()) : std::nullopt);
  summary.seed = options.seed;
  summary.sections["devices"] = sections;  // beside the oracles' merged sections
  report::MarkKnown(options.known, summary);
  ROAM_RETURN_IF_ERROR(report::WriteSummary(options.out / "summary.json", summary));
  if (options.html_report) {
    Status s = report::WriteRunReport(options.out);
    if (!s.ok() && context.progress)
      fmt::print(context.progress, "roam: report.html not written: {}\n", s.message());
  }
  // A write error anywhere, or every device gone, fails the run; a device that dropped out
  // while others went on is in the summary.
  bool any_ok = false;
  for (const auto& w : workers) {
    if (w.status.ok()) any_ok = true;
    if (!w.status.ok() && w.summary.stop_reason.starts_with("write error"))
      return w.status.Wrap("device " + w.tag);
  }
  if (!any_ok) return workers.front().status.Wrap("every device failed; device " + tags.front());
  return summary;
}

}  // namespace roam::run
