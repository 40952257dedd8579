// sim/bug_distance: how far a simulated app's state is from raising one planted bug, read from
// its spec: the pages (screens and dialogs) whose handlers raise it, and for every page the
// fewest forward moves (navigate, open a dialog) to one of them, ignoring conditions. A state's
// distance is the cheapest of backing out to a page on its back stack (one action a page) and
// moving forward from there. `roam sim route` orders its search by it. Immutable after
// construction.
#pragma once

#include <string>
#include <vector>

#include "sim/interpreter.h"
#include "sim/spec.h"

namespace roam::sim {

class BugDistance {
 public:
  // Far: no page raises the bug, or the spec's navigation does not lead to one.
  static constexpr int kFar = 1 << 20;

  BugDistance(const AppSpec& spec, const std::string& bug_id);
  // Actions at least (under the spec's navigation) before the state shows a page that raises the
  // bug; 0 when it shows one; kFar when none is reachable as far as the spec says.
  int From(const SimState& state) const;

 private:
  int screens_ = 0;
  int start_ = 0;
  std::vector<int> to_bug_;  // by page: screens first, then dialogs
};

}  // namespace roam::sim
