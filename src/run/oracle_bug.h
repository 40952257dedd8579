// run/oracle_bug: the bug folder of a finding of a user's oracle (oracle/kinds.h: a property's
// violation is bugs/P<n>): the trace that reaches it, with what was checked as written, so that
// `roam replay` checks it again; and that check, the same on a fresh simulated app as the bug is
// filed, on a phone, and for `roam replay` and `roam minimize`. Stateless functions;
// single-threaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/device.h"
#include "oracle/kinds.h"
#include "oracle/oracle.h"
#include "report/summary.h"
#include "report/trace.h"
#include "run/crash_bug.h"
#include "run/replay_spec.h"
#include "run/target.h"

namespace roam::run {

struct OracleCheck {
  oracle::Rechecked seen;
  int64_t steps_run = 0;
  // The same failure showed again.
  bool Reproduces(const oracle::Finding& finding) const {
    return !seen.signature.empty() && seen.signature == finding.signature;
  }
};

// A finding's screens as PNGs, for its bug folder: where its check began, each step from there,
// and where it ended.
struct OracleScreens {
  // The screen before the finding's first step (a property's precondition held there), the
  // widgets its check selects outlined; "" when the trace holds no such step (an invariant).
  std::string before;
  // The screen before each action step from the first on, by index in the trace, its target
  // outlined (a property's interaction).
  std::vector<std::pair<size_t, std::string>> steps;
  std::string after;  // the screen the replay ended on, the widgets the check selects outlined
  std::string error;  // why the device drew none
};

// Replays `trace` on `device` (crash signatures as `spec` says) and checks `finding` again as its
// oracle kind says, on the screen before the step numbered finding.first_step (a step the trace
// does not hold, as an invariant's: none) and the screen at the end; with `screens`, draws them.
Result<OracleCheck> RecheckOracleTrace(device::Device& device,
                                       const std::vector<report::TraceStep>& trace,
                                       const oracle::OracleKind& kind,
                                       const oracle::Finding& finding, const ReplaySpec& spec,
                                       OracleScreens* screens = nullptr);

struct OracleBug {
  std::string id;  // "P1"
  oracle::Finding finding;
  std::optional<bool> reproduced;  // checked on a fresh device where there is one
};

// What bug.json of such a folder says for a check: the finding (kind, name, signature, words,
// first step, the source under the kind's name) and its kind's row. Errors name `where` and the
// field.
struct OracleBugRecord {
  const oracle::OracleKind* kind = nullptr;
  oracle::Finding finding;
};
Result<OracleBugRecord> ReadOracleBug(const nlohmann::json& bug, const std::string& where);

// Writes run_dir/bugs/`bug.id`/ (bug.json, trace.jsonl and, with `screens`, steps/before.png,
// steps/NNN.png and steps/after.png, listed in bug.json's "screenshots").
Status WriteOracleBug(const std::filesystem::path& run_dir, const OracleBug& bug,
                      const std::vector<report::TraceStep>& trace, const ReplaySpec& replay,
                      const OracleScreens* screens = nullptr);

// Checks a bug folder filed without a check, the device having no second copy of the app (a
// phone), on that device once the run is over, as CheckFiledBug checks a crash's (run/crash_bug.h):
// its trace.shorter.jsonl first, when there is one, then its trace.jsonl; the one that showed the
// finding again becomes trace.jsonl (the whole run's, replaced, is kept as kRunTrace). bug.json
// records whether it did, and the check's screens (OracleScreens) are written and listed there;
// `screenshots` is not read (they are the steps from where the check began).
Result<TraceCheck> CheckFiledOracleBug(device::Device& device, const std::filesystem::path& bug_dir,
                                       int screenshots);

// The user's oracles `files` names (by oracle/kinds.h row: "properties"; an empty path: off),
// each file read once into what makes each campaign's oracle, and named in `config` (config.json).
Result<std::vector<oracle::OracleMaker>> ReadOracles(
    const std::map<std::string, std::filesystem::path>& files, nlohmann::json& config);

// How a campaign's user oracles' findings are filed.
struct OracleFilerSetup {
  std::filesystem::path run_dir;
  ReplaySpec replay;           // how they replay (copied into bug.json)
  DeviceFactory fresh_device;  // checks them; empty: no check (a phone)
  // The simulator's planted bugs other than crashes, each switched off in turn to tell which one
  // a reproduced finding is.
  std::vector<std::string> functional_bugs;
  bool screens = true;           // the check draws the finding's screens (OracleScreens)
  SharedBugs* shared = nullptr;  // a fleet's: folders numbered over the run
};

// Files a campaign's user oracles' findings (oracle/kinds.h) as bugs/<folder><n>, one folder per
// signature (a repeat is counted), each checked on a fresh device and put down to a planted bug
// where the target makes fresh devices, with the screens that check drew; on a phone, left to the
// session to check once the run is over (CheckFiledOracleBug). Keeps their summary entries.
// Single-threaded.
class OracleFiler {
 public:
  explicit OracleFiler(OracleFilerSetup setup) : setup_(std::move(setup)) {}

  // Files `finding`: its trace is `first()` when that shows it again, else `then()` (null: no
  // other; crash bugs are filed alike, run/crash_bug.h). On a phone, both are kept for the check
  // after the run: `then()` as trace.jsonl, `first()` as trace.shorter.jsonl. Whether a folder was
  // written now, noted on `session`'s progress line as "<command>: P<n> <words>"; the time goes to
  // its timing.aside, as CrashFiler's.
  using TraceFn = std::function<std::vector<report::TraceStep>()>;
  Result<bool> File(const oracle::Finding& finding, const TraceFn& first, const TraceFn& then,
                    Session& session, std::string_view command);

  // summary.json's entries of the findings so far (id P<n>, ...).
  const std::vector<report::FunctionalFinding>& findings() const { return findings_; }

 private:
  Result<bool> Write(const oracle::Finding& finding, const TraceFn& first, const TraceFn& then);

  OracleFilerSetup setup_;
  std::vector<report::FunctionalFinding> findings_;
  std::map<std::string, size_t> index_;    // by signature
  std::map<std::string_view, int> filed_;  // by folder letter
};

}  // namespace roam::run
