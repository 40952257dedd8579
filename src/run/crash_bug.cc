#include "run/crash_bug.h"

#include <fmt/format.h>

#include "report/summary.h"
#include "run/replay_trace.h"

namespace roam::run {

TraceCheck CheckCrashTrace(const CrashBugIo& io, const oracle::CrashFinding& finding,
                           const std::vector<report::TraceStep>& trace) {
  TraceCheck c;
  if (!io.fresh_device) return c;
  auto device = io.fresh_device({});
  if (!device.ok()) return c;
  ReplayRecord record;
  if (io.screenshots > 0) {
    record.screenshots = &c.shots;
    record.screenshot_last = static_cast<size_t>(io.screenshots);
    record.screenshot_error = &c.shots_error;
  }
  auto r = ReplayTrace(**device, trace, finding.signature, io.top_frames, 0, record);
  c.checked = true;
  c.reproduced = r.ok() && r->reproduced;
  return c;
}

Status WriteCrashBug(const std::filesystem::path& run_dir, const std::string& id,
                     const oracle::CrashFinding& finding,
                     const std::vector<report::TraceStep>& trace, const TraceCheck& check,
                     const ReplaySpec& replay) {
  const std::string rel = "bugs/" + id;
  report::BugRecord bug;
  bug.id = id;
  bug.failure = {.kind = std::string(device::EventKindName(finding.kind)),
                 .signature = finding.signature,
                 .exception = finding.first.exception,
                 .message = finding.first.message,
                 .count = finding.count,
                 .bug_id = finding.bug_id,
                 .first_step = finding.first_step,
                 .bug_dir = rel};
  bug.frames = finding.first.frames;
  bug.log = finding.first.raw;
  bug.replay = ReplaySpecToJson(replay);
  if (check.checked) bug.reproduced = check.reproduced;
  if (check.reproduced) {
    auto files = WriteStepScreenshots(run_dir / rel, check.shots);
    if (!files.ok()) return files.status();
    bug.screenshots = std::move(*files);
  }
  bug.screenshots_unavailable = check.shots_error;
  return report::WriteBug(run_dir / rel, bug, trace);
}

Status CrashFiler::FileNew(const oracle::CrashOracle& crashes,
                           const std::vector<report::TraceStep>& trace, Progress& progress,
                           std::string_view command) {
  const auto& findings = crashes.findings();
  while (dirs_.size() < findings.size()) {
    const oracle::CrashFinding& f = findings[dirs_.size()];
    const std::string id = fmt::format("B{}", dirs_.size() + 1);
    ROAM_RETURN_IF_ERROR(
        WriteCrashBug(run_dir_, id, f, trace, CheckCrashTrace(io_, f, trace), io_.replay));
    dirs_.push_back("bugs/" + id);
    progress.Note(fmt::format("{}: {} {}", command, id, f.signature));
  }
  return Status::Ok();
}

SharedBugs::Claim SharedBugs::ClaimFor(const oracle::CrashFinding& finding) {
  std::lock_guard lock(mu_);
  auto [it, first] = ids_.try_emplace(finding.signature, fmt::format("B{}", ids_.size() + 1));
  if (first && finding.kind == device::Event::Kind::kAnr) ++anrs_;
  return {it->second, first};
}

size_t SharedBugs::crashes() const {
  std::lock_guard lock(mu_);
  return ids_.size() - anrs_;
}

size_t SharedBugs::anrs() const {
  std::lock_guard lock(mu_);
  return anrs_;
}

}  // namespace roam::run
