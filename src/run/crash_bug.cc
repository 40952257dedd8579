#include "run/crash_bug.h"

#include <fmt/format.h>

#include "base/files.h"
#include "report/summary.h"
#include "run/replay_trace.h"

namespace roam::run {

namespace {

// Replays `trace` on `device` as `roam replay` does, looking for `signature`, taking the screens
// of its last `screenshots` steps. A replay that failed (the device) is checked and not
// reproduced; its error is kept in `error` when given.
TraceCheck Check(device::Device& device, const ReplaySpec& spec, const std::string& signature,
                 const std::vector<report::TraceStep>& trace, int screenshots,
                 Status* error = nullptr) {
  TraceCheck c;
  ReplayRecord record;
  if (screenshots > 0) {
    record.screenshots = &c.shots;
    record.screenshot_last = static_cast<size_t>(screenshots);
    record.screenshot_error = &c.shots_error;
    record.after_screenshot = &c.after;
  }
  auto r = ReplayBugTrace(device, spec, signature, trace, record);
  c.checked = true;
  c.reproduced = r.ok() && r->reproduced;
  if (r.ok()) c.divergence = r->divergence;
  c.steps = trace.size();
  if (error) *error = r.status();
  return c;
}

// Records `check` in `bug`: whether it reproduced, and its screens, written into `bug_dir`.
Status RecordCheck(const TraceCheck& check, const std::filesystem::path& bug_dir,
                   report::BugRecord& bug) {
  if (check.checked) bug.reproduced = check.reproduced;
  if (check.reproduced) {
    auto files = WriteStepScreenshots(bug_dir, check.shots, check.after);
    if (!files.ok()) return files.status();
    bug.screenshots = std::move(*files);
  }
  bug.screenshots_unavailable = check.shots_error;
  return Status::Ok();
}

}  // namespace

TraceCheck CheckCrashTrace(const CrashCheckSetup& setup, const oracle::Finding& finding,
                           const std::vector<report::TraceStep>& trace) {
  if (!setup.fresh_device) return {};
  auto device = setup.fresh_device({});
  if (!device.ok()) return {};
  return Check(**device, setup.replay, finding.signature, trace, setup.screenshots);
}

Result<FiledTraceCheck> CheckFiledTraces(
    const std::filesystem::path& bug_dir,
    const std::function<Result<bool>(const std::vector<report::TraceStep>&)>& shows) {
  auto whole = report::ReadTrace(bug_dir / "trace.jsonl");
  if (!whole.ok()) return whole.status();
  // The shorter trace first: a phone replays it in less time, and a person reads it faster. The
  // folder keeps the trace that reproduced as trace.jsonl, as `roam replay` replays it.
  const std::filesystem::path shorter_file = bug_dir / kShorterTrace;
  std::error_code ec;
  if (std::filesystem::exists(shorter_file, ec)) {
    auto shorter = report::ReadTrace(shorter_file);
    std::filesystem::remove(shorter_file, ec);
    if (shorter.ok() && !shorter->empty()) {
      auto shown = shows(*shorter);
      if (shown.ok() && *shown) {
        ROAM_RETURN_IF_ERROR(report::WriteTrace(bug_dir / kRunTrace, *whole));
        ROAM_RETURN_IF_ERROR(report::WriteTrace(bug_dir / "trace.jsonl", *shorter));
        return FiledTraceCheck{.reproduced = true, .trace = std::move(*shorter)};
      }
    }
  }
  auto shown = shows(*whole);
  if (!shown.ok())
    return shown.status().Wrap(bug_dir.string() + ": checking its trace on the device");
  return FiledTraceCheck{.reproduced = *shown, .trace = std::move(*whole)};
}

Result<TraceCheck> CheckFiledBug(device::Device& device, const std::filesystem::path& bug_dir,
                                 int screenshots) {
  auto bug = report::ReadBug(bug_dir);
  if (!bug.ok()) return bug.status();
  auto spec = ReplaySpecFromJson(bug->replay, (bug_dir / "bug.json").string() + ": replay");
  if (!spec.ok()) return spec.status();
  TraceCheck check;
  auto kept =
      CheckFiledTraces(bug_dir, [&](const std::vector<report::TraceStep>& trace) -> Result<bool> {
        Status replayed;
        check = Check(device, *spec, bug->failure.signature, trace, screenshots, &replayed);
        if (!replayed.ok()) return replayed;
        return check.reproduced;
      });
  if (!kept.ok()) return kept.status();
  ROAM_RETURN_IF_ERROR(RecordCheck(check, bug_dir, *bug));
  ROAM_RETURN_IF_ERROR(report::WriteBug(bug_dir, *bug, kept->trace));
  return check;
}

Status WriteCrashBug(const std::filesystem::path& run_dir, const std::string& id,
                     const oracle::Finding& finding, const std::vector<report::TraceStep>& trace,
                     const TraceCheck& check, const ReplaySpec& replay) {
  const std::string rel = "bugs/" + id;
  report::BugRecord bug;
  bug.id = id;
  const device::Event& first = *finding.report;
  bug.failure = {.kind = finding.kind,
                 .signature = finding.signature,
                 .exception = first.exception,
                 .message = first.message,
                 .count = finding.count,
                 .bug_id = finding.bug_id,
                 .first_step = finding.first_step,
                 .bug_dir = rel};
  bug.frames = first.frames;
  bug.log = first.raw;
  bug.replay = ReplaySpecToJson(replay);
  ROAM_RETURN_IF_ERROR(RecordCheck(check, run_dir / rel, bug));
  return report::WriteBug(run_dir / rel, bug, trace);
}

Status CrashFiler::FileNew(const std::vector<oracle::Finding>& crashes,
                           const std::vector<report::TraceStep>& trace, Session& session,
                           std::string_view command) {
  while (dirs_.size() < crashes.size()) {
    const oracle::Finding& f = crashes[dirs_.size()];
    const std::string id = fmt::format("B{}", dirs_.size() + 1);
    ROAM_RETURN_IF_ERROR(Timed(session.budget().clock(), session.executor().timing().aside, [&] {
      return WriteCrashBug(run_dir_, id, f, trace, CheckCrashTrace(setup_, f, trace),
                           setup_.replay);
    }));
    dirs_.push_back("bugs/" + id);
    if (!setup_.fresh_device) session.CheckAfterRun(run_dir_ / dirs_.back(), CheckFiledBug);
    session.progress().Note(fmt::format("{}: {} {}", command, id, f.signature));
  }
  return Status::Ok();
}

SharedBugs::Claim SharedBugs::ClaimFor(const oracle::Finding& finding, std::string_view folder) {
  std::lock_guard lock(mu_);
  auto [it, first] = ids_.try_emplace({std::string(folder), finding.signature});
  if (!first) return {it->second, false};
  auto count = claimed_.try_emplace(std::string(folder), 0).first;
  it->second = fmt::format("{}{}", folder, ++count->second);
  if (finding.kind == device::EventKindName(device::Event::Kind::kAnr)) ++anrs_;
  return {it->second, true};
}

size_t SharedBugs::crashes() const {
  std::lock_guard lock(mu_);
  auto b = claimed_.find("B");
  return (b == claimed_.end() ? 0 : b->second) - anrs_;
}

size_t SharedBugs::anrs() const {
  std::lock_guard lock(mu_);
  return anrs_;
}

}  // namespace roam::run
