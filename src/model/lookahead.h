// model/lookahead: Fastbot2's expectation E(e) looked several steps ahead, for the model-based
// rule (fastbot:pm). In a fresh run E(e) is 0 for nearly every event (an event that led to an
// activity has visited it), so the rule alone cannot tell events apart; looking ahead, an event
// is worth what the activities it leads to still offer and what is reachable from them:
//   novel(A)  = [A not visited in this run] + [A offers an event never executed (not in M)]
//               (the second: the frontier of the expansion rule, n_h of the reward),
//   V_0(A)    = 0,  V_k(A) = max over A's events e of E_k(e), and 0 for `here`, the activity
//               the test is on (a way back here is worth nothing: from here every event can be
//               taken directly),
//   E_k(e)    = sum over A of P(e, A) (novel(A) + gamma V_{k-1}(A)).
// The values are computed per `here` in O(horizon x (events + transitions)) and kept until the
// model's shape changes (Model::version); between changes the counts they were computed from
// drift a little, which the softmax does not notice. Not thread-safe.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/model.h"

namespace roam::model {

class Lookahead {
 public:
  // Brings the values for activity `here` up to date with the model (kept while the model's
  // version is unchanged).
  void Update(Model& model, int horizon, double gamma, ActivityId here);
  // E_horizon(e) as of the last Update, on its `here` (0 for an event unknown then).
  double Expectation(const Model& model, EventId e) const;

 private:
  void Novelty(const Model& model);
  void Values(const Model& model, ActivityId here, std::vector<double>& value);

  uint64_t version_ = UINT64_MAX;
  int horizon_ = 0;
  double gamma_ = 0;
  std::vector<ActivityId> activity_of_;  // per event: the activity it belongs to
  std::vector<double> novel_, best_;
  std::unordered_map<ActivityId, std::vector<double>> by_here_;  // V_{horizon-1} per `here`
  const std::vector<double>* value_ = nullptr;                   // by_here_'s entry in use
};

}  // namespace roam::model
