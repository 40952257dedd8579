// oracle/oracle: what tells that a step showed a bug, as a campaign hands it its steps. An Oracle
// hears what the device reported after each action (the step executor hands it the reports:
// crashes, ANRs) and sees every screen a campaign is about to act on, with the step that led
// there; on a screen it may ask the campaign to take steps of its own first (a property's
// interaction). What it finds is a Finding, which the campaign files as a bug folder of the
// finding's kind. The crash oracle (oracle/crash.h) hears; properties (oracle/property.h) see.
// The campaign is given its oracles in its options, as it is given its strategy; each belongs to
// one campaign. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "device/device.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::oracle {

// One screen a campaign is about to act on, and how it got there.
struct StepSeen {
  int64_t step = 0;  // the trace step number the next action will have
  const gui::Screen* screen = nullptr;
  const std::vector<gui::Action>* actions = nullptr;  // what may be done on it
  // The action that led here and the screen it was taken on; null after a launch or a restore
  // (the campaign's own moves, not an action's effect).
  const gui::Action* last_action = nullptr;
  const gui::Screen* last_screen = nullptr;
  bool failed = false;  // the last action crashed the app or raised an ANR
};

// A bug an oracle found, as its bug folder and summary.json tell it.
struct Finding {
  std::string kind;       // the bug folder's "kind" ("crash", "anr", "native_crash", "property")
  std::string name;       // what was checked (a property's name); "" for a device's report
  std::string signature;  // one per bug: the same failure again has the same one
  std::string words;      // for people: what held before, what was expected, what was seen
  std::string activity;   // where it showed
  // Where it was first seen: a property's check began at trace step first_step and failed after
  // last_step; a device's report came after the run's first_step-th event.
  int64_t first_step = 0;
  int64_t last_step = 0;
  int count = 1;       // times seen so far
  std::string bug_id;  // the simulator's planted bug behind it, when known
  // The device's report it was read from (a crash, an ANR): its exception, stack and log.
  std::optional<device::Event> report;
  // What was checked, as written (a property): bug.json keeps it under the kind's name, so that
  // a replay checks it again (oracle/kinds.h).
  nlohmann::json source;
};

// What the device reported after one action (or a drain of its reports).
struct StepHeard {
  int64_t events = 0;  // events the run has sent so far
  const std::vector<device::Event>* reports = nullptr;
};

// What the oracles made of a step's reports.
struct Verdict {
  // One per report an oracle recognised, as trace.jsonl's "events" names it ("crash <signature>"),
  // and its signature, in the order reported.
  std::vector<std::string> failures;
  std::vector<std::string> signatures;
  std::vector<Finding> found;  // bugs first seen now
};

class Oracle;
// Makes the oracle of one campaign from what a run read once (oracle/kinds.h).
using OracleMaker = std::function<std::unique_ptr<Oracle>()>;

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual std::string_view Name() const = 0;
  // Hears what the device reported after an action; adds what it makes of it to `verdict`.
  virtual void Hear(const StepHeard& /*heard*/, Verdict& /*verdict*/) {}
  // Sees `seen`; appends what it finds to `found`. Returns a step of its own the campaign takes
  // next instead of asking its strategy, or nullopt.
  virtual std::optional<gui::Action> See(const StepSeen& /*seen*/, Rng& /*rng*/,
                                         std::vector<Finding>& /*found*/) {
    return std::nullopt;
  }
  // Whether steps of its own are under way (the campaign then serves no strategy's requests,
  // such as time travel's restores, which would undo them).
  virtual bool Busy() const { return false; }
  // Its section of summary.json (named by Name()), or null for none.
  virtual nlohmann::json Figures() const { return nullptr; }
};

}  // namespace roam::oracle
