#include "model/lookahead.h"

#include <algorithm>

namespace roam::model {

void Lookahead::Update(Model& model, int horizon, double gamma, ActivityId here) {
  for (EventId e = static_cast<EventId>(activity_of_.size()); e < model.event_count(); ++e)
    activity_of_.push_back(model.InternActivity(model.event(e).activity));
  if (model.version() != version_ || horizon != horizon_ || gamma != gamma_) {
    by_here_.clear();
    Novelty(model);
    version_ = model.version();  // read last: InternActivity above may have changed it
    horizon_ = horizon;
    gamma_ = gamma;
  }
  auto [it, added] = by_here_.try_emplace(here);
  if (added) Values(model, here, it->second);
  value_ = &it->second;
}

void Lookahead::Novelty(const Model& model) {
  const size_t events = model.event_count(), activities = model.activity_count();
  novel_.assign(activities, 0.0);
  for (ActivityId a = 0; a < activities; ++a) novel_[a] = model.Visited(a) ? 0.0 : 1.0;
  std::vector<bool> frontier(activities, false);
  for (EventId e = 0; e < events; ++e)
    if (!model.Known(e)) frontier[activity_of_[e]] = true;
  for (ActivityId a = 0; a < activities; ++a) novel_[a] += frontier[a] ? 1.0 : 0.0;
}

void Lookahead::Values(const Model& model, ActivityId here, std::vector<double>& value) {
  // V_{horizon-1} with V(here) = 0 at every step: the decision adds the last step.
  const size_t events = model.event_count(), activities = novel_.size();
  value.assign(activities, 0.0);
  for (int step = 1; step < horizon_; ++step) {
    best_.assign(activities, 0.0);
    for (EventId e = 0; e < events; ++e) {
      const uint32_t n = model.Count(e);
      if (n == 0) continue;
      double sum = 0;
      for (const auto& [a, count] : model.Transitions(e))
        if (a < activities) sum += count * (novel_[a] + gamma_ * value[a]);
      best_[activity_of_[e]] = std::max(best_[activity_of_[e]], sum / n);
    }
    if (here < activities) best_[here] = 0;
    value.swap(best_);
  }
}

double Lookahead::Expectation(const Model& model, EventId e) const {
  if (!value_ || e >= activity_of_.size() || model.Count(e) == 0) return 0;
  double sum = 0;
  for (const auto& [a, count] : model.Transitions(e))
    if (a < novel_.size()) sum += count * (novel_[a] + gamma_ * (*value_)[a]);
  return sum / model.Count(e);
}

}  // namespace roam::model
