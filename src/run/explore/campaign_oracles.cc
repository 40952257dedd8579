// The campaign's oracles (oracle/oracle.h): their look at each screen, their steps, and the bug
// folder of each finding: bugs/B<n> for a device's report (campaign_report.cc), bugs/P<n> for a
// property's violation, checked on a fresh device and put down to a planted bug where the
// simulator allows.
#include <algorithm>

#include <fmt/format.h>

#include "run/explore/campaign.h"
#include "run/property_bug.h"

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
  return finding.report ? FileBug(finding) : FilePropertyBug(finding);
}

Status Campaign::FilePropertyBug(const oracle::Finding& finding) {
  auto [it, first] = property_bug_index_.try_emplace(finding.signature, property_bugs_.size());
  if (!first) {
    ++property_bugs_[it->second].count;
    return Status::Ok();
  }
  PropertyBug bug{.id = fmt::format("P{}", property_bugs_.size() + 1), .finding = finding};
  for (const auto& p : options_.properties->properties)
    if (p.name == finding.name) bug.property = &p;
  ROAM_RETURN_IF_ERROR(session_.Wrote(Timed(budget_.clock(), executor_.timing().aside, [&] {
    // The last episode from a clean start when it shows the violation again, else the whole run
    // so far (the app's saved data may hold what the episode needs), as crash bugs are filed.
    std::vector<report::TraceStep> trace = EpisodeTrace();
    // Checked as `roam replay` will check it; on the simulator, each planted bug switched off in
    // turn tells which one it is (as functional reports are scored).
    auto violated = [&](const std::set<std::string>& off) -> std::optional<bool> {
      auto device = io_.fresh_device(off);
      if (!device.ok()) return std::nullopt;
      auto check =
          ReplayPropertyTrace(**device, trace, *bug.property, finding.first_step, io_.replay);
      if (!check.ok()) return std::nullopt;
      return check->Reproduces(finding.signature, finding.name);
    };
    if (io_.fresh_device) {
      bug.reproduced = violated({});
      if (!bug.reproduced.value_or(false) && !episode_overflow_) {
        trace = RunTraceSoFar();
        bug.reproduced = violated({});
      }
      if (bug.reproduced.value_or(false))
        for (const auto& id : io_.functional_bugs)
          if (violated({id}) == false) {
            bug.bug_id = id;
            break;
          }
    }
    return WritePropertyBug(io_.out_dir, bug, trace, io_.replay);
  })));
  property_bugs_.push_back({.id = bug.id,
                            .key = finding.signature,
                            .activity = finding.activity,
                            .explanation = finding.words,
                            .count = 1,
                            .bug_dir = "bugs/" + bug.id,
                            .bug_id = bug.bug_id,
                            .scored = static_cast<bool>(io_.fresh_device)});
  session_.progress().Note(fmt::format("explore: {} {}", bug.id, finding.words));
  return session_.Wrote(report::WriteSummary(session_.RunFile("summary", "json"), MakeSummary()));
}

}  // namespace roam::run
