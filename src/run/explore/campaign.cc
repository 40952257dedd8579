#include "run/explore/campaign.h"

#include <fmt/format.h>

#include "explore/registry.h"
#include "gui/abstraction.h"
#include "gui/actions.h"

namespace roam::run {

namespace {

constexpr double kSummaryEverySeconds = 10;  // summary.json is refreshed this often mid-run

// The campaign's session options: its own, with the budget, run folder, device and report its
// arguments give.
SessionOptions SessionFor(SessionOptions options, const BudgetOptions& budget,
                          const CampaignIo& io) {
  options.budget = budget;
  options.out_dir = io.out_dir;
  options.device_tag = io.device_tag;
  options.html_report = io.html_report;
  return options;
}

}  // namespace

Campaign::Campaign(CampaignOptions options, BudgetOptions budget, device::Device& device,
                   explore::Strategy& strategy, Rng& rng, CampaignIo io, const RunContext& context)
    : options_(options),
      device_(device),
      strategy_(strategy),
      rng_(rng),
      io_(std::move(io)),
      session_(device, SessionFor(options.session, budget, io_), context),
      budget_(session_.budget()),
      executor_(session_.executor()),
      oracles_(options_.oracles, executor_),
      oracle_filer_({.run_dir = io_.out_dir,
                     .replay = io_.replay,
                     .fresh_device = io_.fresh_device,
                     .functional_bugs = io_.functional_bugs,
                     .screens = options_.session.bug_screenshots > 0,
                     .shared = io_.shared_bugs}) {}

void StepTurns::Begin(size_t device) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return turn_ == device; });
}

void StepTurns::End(size_t device) {
  std::lock_guard lock(mu_);
  if (turn_ == device) PassOn(device);
  changed_.notify_all();
}

void StepTurns::Leave(size_t device) {
  std::lock_guard lock(mu_);
  active_[device] = false;
  if (turn_ == device) PassOn(device);
  changed_.notify_all();
}

void StepTurns::PassOn(size_t from) {
  for (size_t k = 1; k <= active_.size(); ++k) {
    const size_t next = (from + k) % active_.size();
    if (active_[next]) {
      turn_ = next;
      return;
    }
  }
}

Campaign::~Campaign() = default;

Result<report::Summary> Campaign::Run() {
  ROAM_RETURN_IF_ERROR(session_.Open());
  if (strategy_.Name().starts_with(explore::kTimeTravelPrefix) && !device_.CanSnapshot())
    session_.progress().Note(
        "roam: this device takes no snapshots, so time travel restores a state by relaunching "
        "the app and replaying the way there; on a phone's clock that covered less than the "
        "base strategy alone (docs/exploring.md, \"Beside TimeMachine's notes\")");
  Status status = Start();
  double last_summary = budget_.Elapsed();
  while (status.ok() && !session_.Over()) {
    if (io_.turns) io_.turns->Begin(io_.turn_index);
    status = Step();
    if (io_.turns) io_.turns->End(io_.turn_index);
    std::string_view cause;
    if (status.ok() && options_.flush_every > 0 && budget_.events() % options_.flush_every == 0) {
      status = strategy_.Flush();
      cause = "model error: ";
    }
    ShowProgress();
    if (status.ok() && budget_.Elapsed() - last_summary >= kSummaryEverySeconds) {
      last_summary = budget_.Elapsed();
      status = session_.Wrote(WriteSummary(session_.RunFile("summary", "json"), MakeSummary()));
      if (status.ok()) status = session_.Wrote(session_.WriteCoverageFile());
      if (status.ok()) session_.RefreshReport(/*final=*/false);
    }
    session_.StopOn(status, cause);
  }
  session_.StopOn(status);  // Start() failed
  if (io_.turns) io_.turns->Leave(io_.turn_index);
  // Whatever stopped the run, everything found so far is written.
  Status flushed = strategy_.Flush();
  Status closed = session_.trace().Close();
  const ProgressFigures figures = Figures();
  if (io_.on_progress) io_.on_progress(figures, activities_, state_order_);
  report::Summary summary = MakeSummary();
  ROAM_RETURN_IF_ERROR(session_.Finish(figures, summary, io_.known));
  ROAM_RETURN_IF_ERROR(closed);
  if (!status.ok()) return status;
  ROAM_RETURN_IF_ERROR(flushed);
  return summary;
}

void Campaign::ShowProgress() {
  const ProgressFigures figures = Figures();
  session_.progress().Update(figures);
  // Another thread gathers these (run/explore/fleet.h): every so many events and at each new
  // activity, so that workers seldom meet on its lock.
  constexpr int64_t kReportEvery = 64;
  if (io_.on_progress &&
      (figures.events % kReportEvery == 0 || activities_.size() != reported_activities_)) {
    reported_activities_ = activities_.size();
    io_.on_progress(figures, activities_, state_order_);
  }
}

Status Campaign::Start() {
  if (!options_.clear_data_at_start) return Status::Ok();
  ROAM_RETURN_IF_ERROR(Record({.op = "clear"}));
  // The first Step() launches: the app is not in the foreground yet.
  return executor_.Clear();
}

Status Campaign::Record(report::TraceStep step) {
  step.step = trace_steps_++;
  // Snapshot and restore lines are for the whole run's replay; a restore puts the snapshot's
  // own episode in place (campaign_timetravel.cc).
  if (step.op == "snapshot" || step.op == "restore")
    return session_.Wrote(session_.trace().Append(step));
  // The episode is what a bug's short trace replays: the steps since the last launch, or since
  // the clear that preceded it.
  const bool cleared = step.op == "clear";
  if (cleared ||
      (step.op == "launch" && !(episode_.size() == 1 && episode_.back().op == "clear"))) {
    episode_.clear();
    episode_from_clear_ = cleared;
    episode_overflow_ = false;
    // screen_ is the device's screen now: EnsureInApp and ReplayPath observe before they launch.
    episode_rotation_ = start_rotation_ < 0 ? -1 : screen_.rotation;
  }
  if (episode_.size() < options_.max_episode_steps) {
    episode_.push_back(step);
  } else {
    episode_overflow_ = true;
  }
  return session_.Wrote(session_.trace().Append(step));
}

std::optional<report::TraceStep> Campaign::TurnStep(int now, int then) {
  if (now < 0 || then < 0 || now % 2 == then % 2) return std::nullopt;
  return report::TraceStep{.action = gui::MakeGlobalAction(gui::ActionKind::kRotate)};
}

Status Campaign::RecordAct(report::TraceStep step, const ActOutcome& outcome) {
  outcome.WriteTo(step);
  ROAM_RETURN_IF_ERROR(Record(std::move(step)));
  for (const auto& finding : outcome.heard.found) ROAM_RETURN_IF_ERROR(File(finding));
  return Status::Ok();
}

Status Campaign::EnsureInApp(bool& relaunched) {
  ROAM_RETURN_IF_ERROR(session_.EnsureInApp(screen_, relaunched, [&] {
    // The first screen's rotation is the run's: a launch begins an episode in it (Record).
    if (start_rotation_ < 0) start_rotation_ = screen_.rotation;
    return Record({.op = "launch"});
  }));
  if (start_rotation_ < 0) start_rotation_ = screen_.rotation;
  return Status::Ok();
}

void Campaign::SeeScreen(uint64_t key, bool& new_state, bool& new_activity) {
  new_state = states_.insert(key).second;
  if (new_state) session_.KeepScreen(key, screen_);
  if (new_state && io_.on_progress) state_order_.push_back(key);
  new_activity = !screen_.activity.empty() && activity_set_.insert(screen_.activity).second;
  if (new_activity) activities_.push_back(screen_.activity);
}

Status Campaign::Step() {
  bool relaunched = false;
  ROAM_RETURN_IF_ERROR(EnsureInApp(relaunched));
  const Clock& clock = budget_.clock();
  uint64_t key = gui::ScreenKey(screen_);
  bool new_state = false, new_activity = false;
  SeeScreen(key, new_state, new_activity);  // the screen it keeps is not the strategy's time
  double mark = clock.Now();
  if (pending_) {
    explore::Transition t{.from = pending_->from,
                          .to = key,
                          .action = pending_->action,
                          .new_state = new_state,
                          .new_activity = new_activity,
                          .new_units = pending_->new_units,
                          .crashed = pending_->crashed,
                          .new_crash = pending_->new_crash,
                          .left_app = relaunched};
    strategy_.Learn(t);
    pending_.reset();
  }
  gui::ActionsFor(screen_, actions_);
  KeepShorterPath(key);
  executor_.timing().decide += clock.Now() - mark;
  // A property's interaction under way is not undone by a restore.
  const size_t moved = restores_ + failed_restores_;
  if (!oracles_.Busy()) ROAM_RETURN_IF_ERROR(ServeRequests(key));
  if (!budget_.Left()) return Status::Ok();  // a replayed path may use up the budget
  std::optional<gui::Action> own;
  ROAM_RETURN_IF_ERROR(SeeOracles(relaunched || restores_ + failed_restores_ != moved, own));

  mark = clock.Now();
  explore::StepView view{
      screen_,
      key,
      actions_,
      budget_.events(),
      session_.broadcasts(),
      options_.intents ? std::span(session_.intents()) : std::span<const explore::IntentOffer>()};
  gui::Action action = own ? std::move(*own) : strategy_.Next(view, rng_);
  report::TraceStep step = StepExecutor::StepFor(screen_, action, key);
  executor_.timing().decide += clock.Now() - mark;
  ActOutcome outcome;
  ROAM_RETURN_IF_ERROR(executor_.Act(action, outcome));
  if (action.kind == gui::ActionKind::kBroadcast) session_.ReadBroadcasts();
  if (action.kind == gui::ActionKind::kIntent && !outcome.refused.empty()) session_.ReadIntents();
  oracles_.Saw(action, screen_, outcome.failed());
  ROAM_RETURN_IF_ERROR(RecordAct(std::move(step), outcome));
  pending_ = Pending{.from = key,
                     .action = std::move(action),
                     .new_units = outcome.new_units,
                     .crashed = outcome.failed(),
                     .new_crash = !outcome.heard.found.empty()};
  return Status::Ok();
}

}  // namespace roam::run
