// The campaign's side of time travel (explore/strategy.h, Request): snapshots and restores on
// a device with snapshots, and on one without (a phone), a relaunch plus a replay of the
// shortest recorded path to the state, checked step by step against the recorded screen keys.
//
// Traces stay replayable. On a device with snapshots, trace.jsonl gets a "snapshot" line where
// one is taken and a "restore" line where one is brought back, so the whole run replays on a
// device with snapshots; the restore also puts the snapshot's own episode (the path from a
// launch or a clean start that reached its state) in place, so a bug found afterwards gets a
// short trace that reaches it. Without snapshots the replayed steps are real steps: they go
// to trace.jsonl as ordinary clear / stop / launch / act lines and count as events.
#include <fmt/format.h>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "run/explore/campaign.h"

namespace roam::run {

namespace {
constexpr int kMaxRequestsPerStep = 8;  // a strategy cannot keep the loop from acting
// Longest path kept per snapshot (memory: at most max_snapshots of them). A longer one is not
// kept: without snapshots the state cannot be restored, with them a bug found after its
// restore gets the whole run's trace.
constexpr size_t kMaxSavedPathSteps = 2000;

// The recorded path with its loops cut out: whenever the path comes back to a state it was in
// before, the steps in between are dropped, and it ends where it first reaches `target`. The
// shortest route the recording itself shows; data a dropped loop changed may matter, which the
// replay's step-by-step check notices (then the whole path is replayed).
std::vector<report::TraceStep> WithoutLoops(const std::vector<report::TraceStep>& steps,
                                            uint64_t target) {
  std::vector<report::TraceStep> out;
  std::unordered_map<uint64_t, size_t> at;  // state -> index in `out` of the act taken there
  for (const auto& step : steps) {
    if (step.op != "act") {
      out.push_back(step);
      continue;
    }
    if (step.state == target) break;  // already there
    auto it = at.find(step.state);
    if (it != at.end()) {
      size_t cut = it->second;
      for (size_t k = cut; k < out.size(); ++k)
        if (out[k].op == "act") at.erase(out[k].state);
      out.resize(cut);
    }
    at[step.state] = out.size();
    out.push_back(step);
  }
  return out;
}
}  // namespace

Status Campaign::ServeRequests(uint64_t& key) {
  for (int i = 0; i < kMaxRequestsPerStep && budget_.Left(); ++i) {
    explore::StepView view{screen_, key, actions_, budget_.events(), session_.broadcasts()};
    std::optional<explore::Request> request = strategy_.TakeRequest(view);
    if (!request) break;
    bool ok = false;
    if (request->kind == explore::Request::Kind::kSnapshot) {
      ROAM_RETURN_IF_ERROR(TakeSnapshot(*request, key, ok));
      strategy_.Done(*request, ok);
      continue;
    }
    ROAM_RETURN_IF_ERROR(RestoreSnapshot(*request, ok));
    // Whatever happened, the device may show something else now.
    bool relaunched = false;
    ROAM_RETURN_IF_ERROR(EnsureInApp(relaunched));
    key = gui::ScreenKey(screen_);
    bool new_state = false, new_activity = false;
    SeeScreen(key, new_state, new_activity);
    gui::ActionsFor(screen_, actions_);
    ok = ok && key == request->state;
    if (ok) {
      ++restores_;
    } else {
      ++failed_restores_;
      // A path (or snapshot) that no longer reaches its state is dropped.
      auto it = saved_.find(request->name);
      if (it != saved_.end()) {
        saved_by_state_.erase(it->second.state);
        saved_.erase(it);
      }
    }
    strategy_.Done(*request, ok);
  }
  return Status::Ok();
}

Status Campaign::TakeSnapshot(const explore::Request& request, uint64_t key, bool& ok) {
  ok = false;
  if (request.state != key) return Status::Ok();  // not the state on the screen
  SavedPath path{.state = key,
                 .from_clear = episode_from_clear_,
                 .valid = !episode_overflow_ && episode_.size() <= kMaxSavedPathSteps,
                 .rotation = episode_rotation_};
  if (path.valid) path.steps = episode_;
  if (device_.CanSnapshot()) {
    if (!executor_.Snapshot(request.name).ok()) return Status::Ok();
    ROAM_RETURN_IF_ERROR(Record(
        {.op = "snapshot", .activity = screen_.activity, .state = key, .snapshot = request.name}));
  } else if (!path.valid) {
    return Status::Ok();  // nothing to replay
  }
  auto old = saved_.find(request.name);
  if (old != saved_.end()) saved_by_state_.erase(old->second.state);
  saved_[request.name] = std::move(path);
  saved_by_state_[key] = request.name;
  ++snapshots_taken_;
  ok = true;
  return Status::Ok();
}

void Campaign::KeepShorterPath(uint64_t key) {
  // Only replayed paths gain from a shorter route; a device snapshot keeps the episode that
  // led to it, which is what a bug found after its restore replays.
  if (device_.CanSnapshot() || saved_by_state_.empty() || episode_overflow_ ||
      episode_.size() > kMaxSavedPathSteps)
    return;
  auto it = saved_by_state_.find(key);
  if (it == saved_by_state_.end()) return;
  SavedPath& path = saved_[it->second];
  bool better = !path.valid || (episode_from_clear_ && !path.from_clear) ||
                (episode_from_clear_ == path.from_clear && episode_.size() < path.steps.size());
  if (!better) return;
  path.steps = episode_;
  path.from_clear = episode_from_clear_;
  path.valid = true;
  path.rotation = episode_rotation_;
}

Status Campaign::RestoreSnapshot(const explore::Request& request, bool& ok) {
  ok = false;
  auto it = saved_.find(request.name);
  if (it == saved_.end()) return Status::Ok();
  if (!device_.CanSnapshot()) {
    SavedPath path = it->second;  // a copy: replaying records steps, which may update it
    SavedPath shortest = path;
    shortest.steps = WithoutLoops(path.steps, path.state);
    if (shortest.steps.size() < path.steps.size()) {
      ROAM_RETURN_IF_ERROR(ReplayPath(shortest, ok));
      if (ok) return Status::Ok();
    }
    return ReplayPath(path, ok);
  }
  if (!executor_.Restore(request.name).ok()) return Status::Ok();
  ROAM_RETURN_IF_ERROR(Record({.op = "restore", .state = request.state, .snapshot = request.name}));
  episode_ = it->second.steps;
  episode_from_clear_ = it->second.from_clear;
  episode_overflow_ = !it->second.valid;
  episode_rotation_ = it->second.rotation;
  executor_.DiscardEvents();  // nothing the app did before the restore belongs to what follows
  ok = true;
  return Status::Ok();
}

Status Campaign::ReplayPath(const SavedPath& path, bool& ok) {
  ok = false;
  if (!path.valid || path.steps.empty()) return Status::Ok();
  // Relaunch from scratch: data cleared when the path began from a clean start.
  if (path.from_clear) {
    ROAM_RETURN_IF_ERROR(Record({.op = "clear"}));
    ROAM_RETURN_IF_ERROR(executor_.Clear());
  } else {
    ROAM_RETURN_IF_ERROR(Record({.op = "stop"}));
    ROAM_RETURN_IF_ERROR(executor_.StopApp());
  }
  pending_.reset();
  // The path began in its own rotation, which the clear and the stop leave as it is now.
  const int then = path.rotation < 0 ? start_rotation_ : path.rotation;
  if (auto turn = TurnStep(screen_.rotation, then)) {
    ActOutcome outcome;
    ROAM_RETURN_IF_ERROR(executor_.Act(turn->action, outcome));
    ++restore_events_;
    ROAM_RETURN_IF_ERROR(RecordAct(std::move(*turn), outcome));
    // The launch below begins an episode in the rotation of screen_, which must be the new one.
    ROAM_RETURN_IF_ERROR(executor_.Observe(screen_));
  }
  for (const auto& recorded : path.steps) {
    if (recorded.op == "launch") {
      ROAM_RETURN_IF_ERROR(Record({.op = "launch"}));
      ROAM_RETURN_IF_ERROR(executor_.Launch());
      continue;
    }
    if (recorded.op != "act") continue;  // the leading clear is done above
    if (session_.context().Stopped() || !budget_.Left()) return Status::Ok();
    ROAM_RETURN_IF_ERROR(executor_.Observe(screen_));
    // The path no longer reproduces once a screen differs from the one recorded.
    if (screen_.package != session_.package() || gui::ScreenKey(screen_) != recorded.state)
      return Status::Ok();
    report::TraceStep step = recorded;
    step.events.clear();
    step.activity = screen_.activity;
    ActOutcome outcome;
    ROAM_RETURN_IF_ERROR(executor_.Act(step.action, outcome));
    ++restore_events_;
    ROAM_RETURN_IF_ERROR(RecordAct(std::move(step), outcome));
    if (outcome.failed()) return Status::Ok();  // it crashed on the way: not the state recorded
  }
  ROAM_RETURN_IF_ERROR(executor_.Observe(screen_));
  ok = screen_.package == session_.package() && gui::ScreenKey(screen_) == path.state;
  return Status::Ok();
}

}  // namespace roam::run
