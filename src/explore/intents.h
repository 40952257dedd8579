// explore/intents: when a strategy sends an intent (gui::ActionKind::kIntent) and which. The run
// loop offers the intents the app takes (StepView::intents, each with the activity it starts);
// an IntentChooser, one per strategy, picks among them: an intent never sent to an activity not
// yet seen in the run first, then one never sent, then one to an activity still not seen, then any.
// It also tells when exploring has stalled (no new activity for IntentOptions::stall_steps steps),
// when a strategy may send one unasked. Without intents it draws nothing from the Rng, so a
// strategy runs as before on an app that declares none. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "base/rng.h"
#include "explore/strategy.h"
#include "gui/action.h"

namespace roam::explore {

struct IntentOptions {
  // Steps without a new activity after which exploring has stalled and a strategy sends an
  // intent of its own accord (default 100; 0: never). Fastbot and dqn take it; random draws
  // intents by its --pct-intent only.
  int stall_steps = 100;
};

class IntentChooser {
 public:
  explicit IntentChooser(IntentOptions options = {}) : options_(options) {}

  // Sees the screen of a step (call once per Next, before Stalled or Pick).
  void Saw(const StepView& view);
  // Whether the app takes intents and no new activity came for stall_steps steps.
  bool Stalled(const StepView& view) const;
  // An intent to send now, of the best rank above; nullopt when the app takes none. Restarts
  // the stall count.
  std::optional<gui::Action> Pick(const StepView& view, Rng& rng);

 private:
  IntentOptions options_;
  std::set<std::string> seen_;                 // activities shown in this run
  std::unordered_map<std::string, int> sent_;  // intents sent, by text
  int64_t last_news_ = 0;                      // the step of the last new activity or pick
};

}  // namespace roam::explore
