#include "model/lookahead.h"

#include <algorithm>

namespace roam::model {

void Lookahead::Update(Model& model, int horizon, double gamma, ActivityId here) {
  const size_t events = model.event_count();
  for (EventId e = static_cast<EventId>(activity_of_.size()); e < events; ++e)
    activity_of_.push_back(model.InternActivity(model.event(e).activity));
  const size_t activities = model.activity_count();
  novel_.assign(activities, 0.0);
  for (ActivityId a = 0; a < activities; ++a) novel_[a] = model.Visited(a) ? 0.0 : 1.0;
  std::vector<bool> frontier(activities, false);
  for (EventId e = 0; e < events; ++e)
    if (!model.Known(e)) frontier[activity_of_[e]] = true;
  for (ActivityId a = 0; a < activities; ++a) novel_[a] += frontier[a] ? 1.0 : 0.0;

  value_.assign(activities, 0.0);
  expectation_.assign(events, 0.0);
  for (int step = 0; step < horizon; ++step) {
    best_.assign(activities, 0.0);
    for (EventId e = 0; e < events; ++e) {
      const uint32_t n = model.Count(e);
      if (n == 0) continue;
      double sum = 0;
      for (const auto& [a, count] : model.Transitions(e))
        sum += count * (novel_[a] + gamma * value_[a]);
      expectation_[e] = sum / n;
      best_[activity_of_[e]] = std::max(best_[activity_of_[e]], expectation_[e]);
    }
    if (here < activities) best_[here] = 0;
    value_.swap(best_);
  }
}

}  // namespace roam::model
