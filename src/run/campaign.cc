#include "run/campaign.h"

#include <thread>

#include <fmt/format.h>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "run/replay.h"

namespace roam::run {

namespace {
constexpr double kSummaryEverySeconds = 10;  // summary.json is refreshed this often mid-run

using Clock = std::chrono::steady_clock;

// Adds the seconds since `mark` to `bucket` and moves `mark` to now.
void Lap(Clock::time_point& mark, double& bucket) {
  auto now = Clock::now();
  bucket += std::chrono::duration<double>(now - mark).count();
  mark = now;
}
}  // namespace

Campaign::Campaign(CampaignOptions options, device::Device& device, explore::Strategy& strategy,
                   Rng& rng, CampaignIo io)
    : options_(options),
      device_(device),
      strategy_(strategy),
      rng_(rng),
      io_(std::move(io)),
      crashes_(device.Package(), options.crash),
      progress_(io_.progress, io_.progress_tty, options.progress),
      package_(device.Package()) {}

Campaign::~Campaign() = default;

double Campaign::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time_).count();
}

bool Campaign::BudgetLeft() const {
  if (options_.max_events > 0 && events_sent_ >= options_.max_events) return false;
  if (options_.max_seconds > 0 && Elapsed() >= options_.max_seconds) return false;
  return true;
}

Result<report::Summary> Campaign::Run() {
  start_time_ = std::chrono::steady_clock::now();
  declared_activities_ = device_.DeclaredActivities();
  ROAM_RETURN_IF_ERROR(trace_.Open(io_.out_dir / "trace.jsonl"));
  Status status = Start();
  auto last_summary = std::chrono::steady_clock::now();
  while (status.ok()) {
    if (io_.stop && io_.stop->load()) {
      stop_reason_ = "interrupted";
      break;
    }
    if (!BudgetLeft()) {
      stop_reason_ = options_.max_events > 0 && events_sent_ >= options_.max_events ? "events" : "time";
      break;
    }
    status = Step();
    if (status.ok() && options_.flush_every > 0 && events_sent_ % options_.flush_every == 0)
      status = strategy_.Flush();
    progress_.Update(Figures());
    auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_summary).count() >= kSummaryEverySeconds) {
      last_summary = now;
      status = WriteSummary(io_.out_dir / "summary.json", MakeSummary());
    }
  }
  if (!status.ok()) stop_reason_ = "device error: " + status.message();
  // Whatever stopped the run, everything found so far is written.
  Status flushed = strategy_.Flush();
  Status closed = trace_.Close();
  progress_.Finish(Figures());
  report::Summary summary = MakeSummary();
  ROAM_RETURN_IF_ERROR(WriteSummary(io_.out_dir / "summary.json", summary));
  ROAM_RETURN_IF_ERROR(closed);
  if (!status.ok()) return status;
  ROAM_RETURN_IF_ERROR(flushed);
  return summary;
}

Status Campaign::Start() {
  if (options_.clear_data_at_start) {
    ROAM_RETURN_IF_ERROR(Record({.step = trace_steps_, .op = "clear"}));
    auto mark = Clock::now();
    Status cleared = device_.ClearData();
    Lap(mark, timing_.launch);
    ROAM_RETURN_IF_ERROR(cleared);
  }
  return Status::Ok();  // the first Step() launches: the app is not in the foreground yet
}

Status Campaign::Record(report::TraceStep step) {
  step.step = trace_steps_++;
  // Snapshot and restore lines are for the whole run's replay; a restore puts the snapshot's
  // own episode in place (campaign_timetravel.cc).
  if (step.op == "snapshot" || step.op == "restore") return trace_.Append(step);
  // The episode is what a bug's short trace replays: the steps since the last launch, or since
  // the clear that preceded it.
  if (step.op == "clear") {
    episode_.clear();
    episode_from_clear_ = true;
    episode_overflow_ = false;
  } else if (step.op == "launch" && !(episode_.size() == 1 && episode_.back().op == "clear")) {
    episode_.clear();
    episode_from_clear_ = false;
    episode_overflow_ = false;
  }
  if (episode_.size() < options_.max_episode_steps) {
    episode_.push_back(step);
  } else {
    episode_overflow_ = true;
  }
  return trace_.Append(step);
}

Status Campaign::EnsureInApp(bool& relaunched) {
  for (int attempt = 0;; ++attempt) {
    auto mark = Clock::now();
    Status observed = device_.Observe(screen_);
    Lap(mark, timing_.observe);
    ROAM_RETURN_IF_ERROR(observed);
    if (screen_.package == package_) return Status::Ok();
    if (attempt >= options_.max_failed_launches)
      return Status::Unavailable(fmt::format(
          "{} did not come to the foreground after {} launches (the screen shows \"{}\")",
          package_, attempt, screen_.package));
    ROAM_RETURN_IF_ERROR(Record({.op = "launch"}));
    mark = Clock::now();
    Status launched = device_.Launch();
    Lap(mark, timing_.launch);
    ROAM_RETURN_IF_ERROR(launched);
    if (events_sent_ > 0 || attempt > 0) ++relaunches_;
    relaunched = true;
  }
}

Status Campaign::Step() {
  bool relaunched = false;
  ROAM_RETURN_IF_ERROR(EnsureInApp(relaunched));
  auto mark = Clock::now();
  const uint64_t screen_key = gui::ScreenKey(screen_);
  const bool new_state = states_.insert(screen_key).second;
  bool new_activity = false;
  if (!screen_.activity.empty() && activity_set_.insert(screen_.activity).second) {
    activities_.push_back(screen_.activity);
    new_activity = true;
  }
  if (pending_) {
    explore::Transition t{.from = pending_->from, .to = screen_key, .action = pending_->action,
                          .new_state = new_state, .new_activity = new_activity,
                          .new_units = pending_->new_units, .crashed = pending_->crashed,
                          .left_app = relaunched};
    strategy_.Learn(t);
    pending_.reset();
  }

  gui::ActionsFor(screen_, actions_);
  uint64_t key = screen_key;
  KeepShorterPath(key);
  Lap(mark, timing_.decide);
  Status served = ServeRequests(key);
  Lap(mark, timing_.launch);  // snapshots and restores count with launches
  ROAM_RETURN_IF_ERROR(served);
  if (!BudgetLeft()) return Status::Ok();  // a replayed path may use up the budget
  explore::StepView view{screen_, key, actions_, events_sent_};
  gui::Action action = strategy_.Next(view, rng_);

  report::TraceStep step{.op = "act", .action = action, .activity = screen_.activity, .state = key};
  if (action.widget >= 0 && action.widget < static_cast<int>(screen_.widgets.size())) {
    const gui::Widget& w = screen_.widgets[action.widget];
    step.widget_text = w.text.empty() ? w.content_desc : w.text;
    step.resource_id = w.resource_id;
  }
  Lap(mark, timing_.decide);
  Status performed = device_.Perform(action);
  Lap(mark, timing_.act);
  ROAM_RETURN_IF_ERROR(performed.Wrap(action.Describe()));
  ++events_sent_;
  ++timing_.steps;
  if (options_.throttle_ms > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.throttle_ms));

  size_t new_units = 0;
  if (device_.HasCoverage()) {
    size_t covered = device_.GetCoverage().covered;
    new_units = covered > units_covered_ ? covered - units_covered_ : 0;
    units_covered_ = covered;
  }
  events_.clear();
  mark = Clock::now();
  device_.DrainEvents(events_);
  std::vector<size_t> new_findings;
  for (const auto& e : events_) {
    auto seen = crashes_.Observe(e, events_sent_);
    const auto& f = crashes_.findings()[seen.index];
    step.events.push_back(fmt::format("{} {}", device::EventKindName(e.kind), f.signature));
    if (seen.is_new) new_findings.push_back(seen.index);
  }
  Lap(mark, timing_.events);
  ROAM_RETURN_IF_ERROR(Record(std::move(step)));
  for (size_t index : new_findings) ROAM_RETURN_IF_ERROR(FileBug(crashes_.findings()[index]));

  pending_ = Pending{.from = key, .action = std::move(action), .new_units = new_units,
                     .crashed = !events_.empty()};
  return Status::Ok();
}

}  // namespace roam::run
