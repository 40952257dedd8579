// The campaign's findings: bug folders with a trace that replays, and the summary.
#include <fmt/format.h>

#include "run/crash_bug.h"
#include "run/explore/campaign.h"
#include "run/replay_trace.h"

namespace roam::run {

std::vector<report::TraceStep> Campaign::BugTrace(const oracle::Finding& finding,
                                                  TraceCheck& checked,
                                                  std::vector<report::TraceStep>& shorter) {
  // The check that replays the trace also takes the screens of its last steps, so the run
  // itself spends nothing on pictures.
  const CrashCheckSetup setup{.replay = io_.replay,
                              .fresh_device = io_.fresh_device,
                              .screenshots = options_.session.bug_screenshots};
  auto check = [&](const std::vector<report::TraceStep>& steps) {
    checked = CheckCrashTrace(setup, finding, steps);
    return checked.reproduced;
  };
  // First try the short trace: a clean start, then the last episode.
  if (!episode_overflow_) {
    std::vector<report::TraceStep> shortest = EpisodeTrace();
    // An episode that began at the run's own clear is the exact prefix: it needs no check to be
    // faithful, but is checked anyway where a fresh device can be had.
    if (check(shortest) || (!io_.fresh_device && episode_from_clear_)) return shortest;
    if (!io_.fresh_device) shorter = std::move(shortest);
  }
  // Otherwise the whole run so far.
  std::vector<report::TraceStep> prefix = RunTraceSoFar();
  check(prefix);
  return prefix;
}

std::vector<report::TraceStep> Campaign::RunTraceSoFar() {
  if (!session_.trace().Flush().ok()) return {};
  auto all = report::ReadTrace(session_.RunFile("trace", "jsonl"));
  return all.ok() ? std::move(*all) : std::vector<report::TraceStep>{};
}

std::vector<report::TraceStep> Campaign::EpisodeTrace() {
  if (episode_overflow_) return RunTraceSoFar();
  std::vector<report::TraceStep> steps;
  if (!episode_from_clear_) steps.push_back({.op = "clear"});
  steps.insert(steps.end(), episode_.begin(), episode_.end());
  // A fresh device stands as the run began; the episode may have begun turned (after the clear,
  // before the launch: an app in the foreground would see the rotation).
  if (auto turn = TurnStep(start_rotation_, episode_rotation_))
    steps.insert(steps.begin() + 1, *turn);
  return steps;
}

Status Campaign::FileBug(const oracle::Finding& finding) {
  std::string id = fmt::format("B{}", bug_dirs_.size() + 1);
  bool file = true;
  if (io_.shared_bugs) {
    // One folder per crash in the whole run: another device may have filed this one already.
    auto claim = io_.shared_bugs->ClaimFor(finding);
    id = claim.id;
    file = claim.first;
  }
  bug_dirs_.push_back("bugs/" + id);  // the crash oracle numbers its findings as they come
  if (!file) return Status::Ok();
  const std::filesystem::path dir = io_.out_dir / "bugs" / id;
  ROAM_RETURN_IF_ERROR(session_.Wrote(Timed(budget_.clock(), executor_.timing().aside, [&] {
    TraceCheck checked;
    std::vector<report::TraceStep> shorter;
    std::vector<report::TraceStep> trace = BugTrace(finding, checked, shorter);
    ROAM_RETURN_IF_ERROR(WriteCrashBug(io_.out_dir, id, finding, trace, checked, io_.replay));
    return shorter.empty() ? Status::Ok() : report::WriteTrace(dir / kShorterTrace, shorter);
  })));
  if (!io_.fresh_device) session_.CheckAfterRun(dir, CheckFiledBug);
  // A new finding is worth a fresh summary at once.
  return session_.Wrote(report::WriteSummary(session_.RunFile("summary", "json"), MakeSummary()));
}

ProgressFigures Campaign::Figures() const {
  ProgressFigures f = session_.Figures();
  f.states = states_.size();
  f.activities = activities_.size();
  f.snapshots = snapshots_taken_;
  f.restores = restores_;
  f.failed_restores = failed_restores_;
  return f;
}

report::Summary Campaign::MakeSummary() const {
  report::Summary s = session_.Summary(io_.app, std::string(strategy_.Name()), io_.seed);
  s.activities_covered = activities_;
  s.states = states_.size();
  s.snapshots = snapshots_taken_;
  s.restores = restores_;
  s.failed_restores = failed_restores_;
  s.restore_events = restore_events_;
  report::AddFindings(session_.crashes().findings(), bug_dirs_, s);
  if (!oracles_.empty()) s.functional = oracle_filer_.findings();
  oracles_.AddFigures(s.sections);
  report::MarkKnown(io_.known, s);
  return s;
}

}  // namespace roam::run
