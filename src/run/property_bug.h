// run/property_bug: bugs/P<n>/ for a property a run found violated (oracle/property.h): the
// trace that reaches it, with the property as written, so that `roam replay` re-checks it; and
// the replay that re-checks it, the same on a fresh simulated app as the bug is filed, on a
// phone, and for `roam replay`. Stateless functions; single-threaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "oracle/oracle.h"
#include "oracle/property.h"
#include "report/trace.h"
#include "run/replay_spec.h"

namespace roam::run {

struct PropertyCheck {
  bool precondition_held = false;  // on the screen before the interaction
  std::string violation;           // Property::Violation on the screen after ("" = it held)
  int64_t steps_run = 0;
  // The property failed again, on its first postcondition to fail at the run.
  bool Reproduces(const std::string& signature, const std::string& name) const;
};

// Replays `trace` on `device` (crash signatures as `spec` says) and checks `property` as the run
// did: the screen before the step numbered `first_step` (the interaction's first; a step the
// trace does not hold, as an invariant's: the screen at the end) must meet the precondition, and
// the screen at the end is checked against the postconditions.
Result<PropertyCheck> ReplayPropertyTrace(device::Device& device,
                                          const std::vector<report::TraceStep>& trace,
                                          const oracle::Property& property, int64_t first_step,
                                          const ReplaySpec& spec);

struct PropertyBug {
  std::string id;  // "P1"
  oracle::Finding finding;
  const oracle::Property* property = nullptr;
  int count = 1;
  std::optional<bool> reproduced;  // checked on a fresh device where there is one
  std::string bug_id;              // the simulator's planted bug behind it ("" unknown)
};

// What bug.json of bugs/P<n> says for a replay: the signature, the property's name and the words,
// the interaction's first step, the property as written.
struct PropertyBugRecord {
  std::string signature, name, message;
  int64_t first_step = 0;
  oracle::Property property;
};
// Reads it from `bug` (bug.json's object); errors name `where` and the field.
Result<PropertyBugRecord> ReadPropertyBug(const nlohmann::json& bug, const std::string& where);

// Writes run_dir/bugs/`bug.id`/ (bug.json with the property as written, trace.jsonl).
Status WritePropertyBug(const std::filesystem::path& run_dir, const PropertyBug& bug,
                        const std::vector<report::TraceStep>& trace, const ReplaySpec& replay);

}  // namespace roam::run
