#include "model/learning.h"

#include <cmath>

namespace roam::model {

double Reward(const Model& model, EventId executed, ActivityId reached, bool first_visit,
              std::span<const EventId> page) {
  double own =
      model.Expectation(executed, first_visit ? std::optional<ActivityId>(reached) : std::nullopt) /
      std::sqrt(model.Count(executed) + 1.0);
  double n_h = 0, n_c = 0, sum_e = 0;
  for (EventId e : page) {
    if (!model.Known(e)) ++n_h;
    if (model.RunCount(e) == 0) ++n_c;
    sum_e += model.Expectation(e);
  }
  return own + (n_h + 0.5 * n_c + sum_e) / std::sqrt(model.Visits(reached) + 1.0);
}

double NStepReturn(std::span<const double> rewards, double gamma, double q_last) {
  double g = 0, discount = 1;
  for (double r : rewards) {
    g += discount * r;
    discount *= gamma;
  }
  return g + discount * q_last;
}

void SarsaUpdate(Model& model, EventId e, double g, double learning_rate) {
  model.SetQ(e, model.Q(e) + learning_rate * (g - model.Q(e)));
}

}  // namespace roam::model
