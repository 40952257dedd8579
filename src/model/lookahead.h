// model/lookahead: Fastbot2's expectation E(e) looked several steps ahead, for the model-based
// rule (fastbot:pm). In a fresh run E(e) is 0 for nearly every event (an event that led to an
// activity has visited it), so the rule alone cannot tell events apart; looking ahead, an event
// is worth what the activities it leads to still offer and what is reachable from them:
//   novel(A)  = [A not visited in this run] + [A offers an event never executed (not in M)]
//               (the second: the frontier of the expansion rule, n_h of the reward),
//   E_1(e)    = sum over A of P(e, A) novel(A)  (E(e) plus the frontier),
//   V_k(A)    = max over A's events e of E_k(e), and 0 for the activity the test is on (a way
//               back here is worth nothing: from here every event can be taken directly),
//   E_k(e)    = sum over A of P(e, A) (novel(A) + gamma V_{k-1}(A)).
// Recomputed from the model in O(horizon x (events + transitions)). Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"

namespace roam::model {

class Lookahead {
 public:
  // Recomputes the values for the model's current run state, on activity `here`.
  void Update(Model& model, int horizon, double gamma, ActivityId here);
  // E_horizon(e) as of the last Update (0 for an event interned since).
  double Expectation(EventId e) const { return e < expectation_.size() ? expectation_[e] : 0; }

 private:
  std::vector<ActivityId> activity_of_;  // per event: the activity it belongs to
  std::vector<double> novel_, value_, best_, expectation_;
};

}  // namespace roam::model
