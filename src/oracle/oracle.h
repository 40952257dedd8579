// oracle/oracle: what tells that a step showed a bug, as a campaign hands it its steps. An Oracle
// sees every screen the campaign is about to act on, with the step that led there, and may ask
// the campaign to take steps of its own first (a property's interaction); what it finds is a
// Finding, which the campaign files as a bug folder of the finding's kind. The campaign is given
// its oracles in its options, as the strategy is given to it; each belongs to one campaign.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.h"
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
  std::string kind;        // the bug folder's "kind" ("property")
  std::string name;        // what was checked (a property's name)
  std::string signature;   // one per bug: the same failure again has the same one
  std::string words;       // for people: what held before, what was expected, what was seen
  std::string activity;    // where it showed
  int64_t first_step = 0;  // the trace step the failing check began at
  int64_t last_step = 0;   // the trace step after which it was seen
};

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual std::string_view Name() const = 0;
  // Sees `seen`; appends what it finds to `found`. Returns a step of its own the campaign takes
  // next instead of asking its strategy, or nullopt.
  virtual std::optional<gui::Action> See(const StepSeen& seen, Rng& rng,
                                         std::vector<Finding>& found) = 0;
  // Whether steps of its own are under way (the campaign then serves no strategy's requests,
  // such as time travel's restores, which would undo them).
  virtual bool Busy() const { return false; }
};

}  // namespace roam::oracle
