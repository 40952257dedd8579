#include "explore/intents.h"

#include <vector>

namespace roam::explore {

void IntentChooser::Saw(const StepView& view) {
  if (!view.screen.activity.empty() && seen_.insert(view.screen.activity).second)
    last_news_ = view.step;
}

bool IntentChooser::Stalled(const StepView& view) const {
  return options_.stall_steps > 0 && !view.intents.empty() &&
         view.step - last_news_ >= options_.stall_steps;
}

std::optional<gui::Action> IntentChooser::Pick(const StepView& view, Rng& rng) {
  if (view.intents.empty()) return std::nullopt;
  // The intents of the best rank: never sent to an activity not seen yet, never sent, sent
  // to an activity still not seen (the start crashed or was refused), any.
  std::vector<size_t> best;
  int best_rank = 4;
  for (size_t i = 0; i < view.intents.size(); ++i) {
    const IntentOffer& offer = view.intents[i];
    const int rank = 2 * sent_.contains(offer.action.text) + seen_.contains(offer.activity);
    if (rank < best_rank) best.clear(), best_rank = rank;
    if (rank == best_rank) best.push_back(i);
  }
  const gui::Action& action = view.intents[best[rng.Below(best.size())]].action;
  ++sent_[action.text];
  last_news_ = view.step;
  return action;
}

}  // namespace roam::explore
