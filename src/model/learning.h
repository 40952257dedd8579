// model/learning: Fastbot2's reward and N-step SARSA update over a Model, as plain functions so
// tests can check them against hand-computed values. Not thread-safe (they touch the Model).
//
// Reward of the step that executed e_t and reached a page of activity A_t offering the
// distinct hyper-events E_c (the notes' r_{t+1}):
//   r = E(e_t) / sqrt(N(e_t) + 1) + (n_h + 0.5 n_c + sum_{e in E_c} E(e)) / sqrt(N(A_t) + 1)
// computed after the transition e_t -> A_t is recorded and A_t's visit counted, where
//   E(e_t)  counts A_t as not yet visited when this step was its first visit in the run (so
//           discovering an activity is rewarded), N(e_t) includes this execution,
//   n_h     the events of E_c never executed in any run (not in M),
//   n_c     the events of E_c not yet executed in this run,
//   N(A_t)  the visits of A_t in this run, this one included.
// N-step return G = r_{t+1} + g r_{t+2} + ... + g^{n-1} r_{t+n} + g^n Q(e_{t+n}) and the update
// Q(e_t) += lr (G - Q(e_t)).
#pragma once

#include <span>

#include "model/model.h"

namespace roam::model {

double Reward(const Model& model, EventId executed, ActivityId reached, bool first_visit,
              std::span<const EventId> page);
double NStepReturn(std::span<const double> rewards, double gamma, double q_last);
void SarsaUpdate(Model& model, EventId e, double g, double learning_rate);

}  // namespace roam::model
