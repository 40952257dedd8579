// The campaign's oracles (oracle/oracle.h): their look at each screen, their steps, and the bug
// folder of each finding: bugs/B<n> for a device's report (campaign_report.cc), else the folder
// its oracle's row of oracle/kinds.h names (bugs/P<n> for a property's violation), checked on a
// fresh device and put down to a planted bug where the simulator allows.
#include "run/explore/campaign.h"
#include "run/oracle_bug.h"

namespace roam::run {

Status Campaign::SeeOracles(bool restarted, std::optional<gui::Action>& own) {
  if (oracles_.empty()) return Status::Ok();
  std::vector<oracle::Finding> found;
  own = oracles_.See(trace_steps_, screen_, actions_, restarted, rng_, found);
  for (const auto& f : found) ROAM_RETURN_IF_ERROR(File(f));
  return Status::Ok();
}

Status Campaign::File(const oracle::Finding& finding) {
  return finding.report ? FileBug(finding) : FileOracleBug(finding);
}

Status Campaign::FileOracleBug(const oracle::Finding& finding) {
  // The last episode from a clean start when it shows the failure again, else the whole run so
  // far (the app's saved data may hold what the episode needs), as crash bugs are filed.
  Result<bool> filed = oracle_filer_.File(
      finding, [&] { return EpisodeTrace(); },
      episode_overflow_ ? OracleFiler::TraceFn() : [&] { return RunTraceSoFar(); }, session_,
      "roam explore");
  ROAM_RETURN_IF_ERROR(session_.Wrote(filed.status()));
  if (!*filed) return Status::Ok();
  // A new finding is worth a fresh summary at once.
  return session_.Wrote(report::WriteSummary(session_.RunFile("summary", "json"), MakeSummary()));
}

}  // namespace roam::run
