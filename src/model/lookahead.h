// model/lookahead: Fastbot2's expectation E(e) looked several steps ahead, for the model-based
// rule (fastbot:pm). In a fresh run E(e) is 0 for nearly every event (an event that led to an
// activity has visited it), so the rule alone cannot tell events apart; looking ahead, an event
// is worth what the activities it leads to still offer and what is reachable from them:
//   novel(A)  = [A not visited in this run] + [A offers an event never executed (not in M)]
//               (the second: the frontier of the expansion rule, n_h of the reward),
//   V_0(A)    = 0,  V_k(A) = max over A's events e of E_k(e),
//   E_k(e)    = sum over A of P(e, A) (novel(A) + gamma V_{k-1}(A)),
// and at the decision, on activity `here`, the last step gives no credit for a way back here
// (from here every event can be taken directly): V_{h-1}(here) counts as 0.
// The values V are recomputed only when the model's shape changes (Model::version), in
// O(horizon x (events + transitions)); between changes the counts they were computed from drift
// a little, which the softmax does not notice. Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"

namespace roam::model {

class Lookahead {
 public:
  // Brings the values up to date with the model (a no-op while its version is unchanged).
  void Update(Model& model, int horizon, double gamma);
  // E_horizon(e) on activity `here`, as of the last Update (0 for an event unknown then).
  double Expectation(const Model& model, EventId e, ActivityId here) const;

 private:
  uint64_t version_ = UINT64_MAX;
  int horizon_ = 0;
  double gamma_ = 0;
  std::vector<ActivityId> activity_of_;  // per event: the activity it belongs to
  std::vector<double> novel_, value_, best_;
};

}  // namespace roam::model
