// The campaign's oracles (oracle/oracle.h): their look at each screen, their steps, and the bug
// folder of each finding: bugs/B<n> for a device's report (campaign_report.cc), else the folder
// its oracle's row of oracle/kinds.h names (bugs/P<n> for a property's violation), checked on a
// fresh device and put down to a planted bug where the simulator allows.
#include <algorithm>

#include <fmt/format.h>

#include "oracle/kinds.h"
#include "run/explore/campaign.h"
#include "run/oracle_bug.h"

namespace roam::run {

bool Campaign::OraclesBusy() const {
  return std::ranges::any_of(oracles_, [](const auto& o) { return o->Busy(); });
}

Status Campaign::SeeOracles(bool restarted, std::optional<gui::Action>& own) {
  if (oracles_.empty()) return Status::Ok();
  oracle::StepSeen seen{.step = trace_steps_,
                        .screen = &screen_,
                        .actions = &actions_,
                        .last_action = !restarted && last_action_ ? &*last_action_ : nullptr,
                        .last_screen = &last_screen_,
                        .failed = last_failed_};
  std::vector<oracle::Finding> found;
  for (auto& o : oracles_) {
    std::optional<gui::Action> step = o->See(seen, rng_, found);
    if (!own) own = std::move(step);
  }
  for (const auto& f : found) ROAM_RETURN_IF_ERROR(File(f));
  return Status::Ok();
}

Status Campaign::File(const oracle::Finding& finding) {
  return finding.report ? FileBug(finding) : FileOracleBug(finding);
}

Status Campaign::FileOracleBug(const oracle::Finding& finding) {
  auto [it, first] = oracle_bug_index_.try_emplace(finding.signature, oracle_bugs_.size());
  if (!first) {
    ++oracle_bugs_[it->second].count;
    return Status::Ok();
  }
  const oracle::OracleKind* kind = oracle::OracleKindOfBug(finding.kind);
  if (!kind)
    return Status::Unsupported(
        fmt::format("no oracle of oracle/kinds.h files \"{}\"", finding.kind));
  OracleBug bug{.id = fmt::format("{}{}", kind->folder, ++oracle_bugs_filed_[kind->folder]),
                .finding = finding};
  report::FunctionalFinding entry{.key = finding.signature,
                                  .activity = finding.activity,
                                  .explanation = finding.words,
                                  .count = 1,
                                  .scored = static_cast<bool>(io_.fresh_device)};
  if (io_.shared_bugs) {
    // One folder per bug in the whole run: another device may have filed this one already.
    auto claim = io_.shared_bugs->ClaimFor(finding, kind->folder);
    bug.id = claim.id;
    if (!claim.first) {
      entry.id = claim.id;
      entry.bug_dir = "bugs/" + claim.id;
      oracle_bugs_.push_back(std::move(entry));
      return Status::Ok();
    }
  }
  ROAM_RETURN_IF_ERROR(session_.Wrote(Timed(budget_.clock(), executor_.timing().aside, [&] {
    // The last episode from a clean start when it shows the failure again, else the whole run so
    // far (the app's saved data may hold what the episode needs), as crash bugs are filed.
    std::vector<report::TraceStep> trace = EpisodeTrace();
    // Checked as `roam replay` will check it; on the simulator, each planted bug switched off in
    // turn tells which one it is (as functional reports are scored).
    // The check of the trace kept draws its screens, unless the run keeps no pictures.
    OracleScreens screens;
    OracleScreens* draw = options_.session.bug_screenshots > 0 ? &screens : nullptr;
    auto failed = [&](const std::set<std::string>& off,
                      OracleScreens* drawn = nullptr) -> std::optional<bool> {
      auto device = io_.fresh_device(off);
      if (!device.ok()) return std::nullopt;
      auto check = RecheckOracleTrace(**device, trace, *kind, finding, io_.replay, drawn);
      if (!check.ok()) return std::nullopt;
      return check->Reproduces(finding);
    };
    if (io_.fresh_device) {
      bug.reproduced = failed({}, draw);
      if (!bug.reproduced.value_or(false) && !episode_overflow_) {
        trace = RunTraceSoFar();
        bug.reproduced = failed({}, draw);
      }
      if (bug.reproduced.value_or(false))
        for (const auto& id : io_.functional_bugs)
          if (failed({id}) == false) {
            bug.finding.bug_id = id;
            break;
          }
    }
    return WriteOracleBug(io_.out_dir, bug, trace, io_.replay, io_.fresh_device ? draw : nullptr);
  })));
  entry.id = bug.id;
  entry.bug_dir = "bugs/" + bug.id;
  entry.bug_id = bug.finding.bug_id;
  oracle_bugs_.push_back(std::move(entry));
  session_.progress().Note(fmt::format("explore: {} {}", bug.id, finding.words));
  return session_.Wrote(report::WriteSummary(session_.RunFile("summary", "json"), MakeSummary()));
}

}  // namespace roam::run
