// base/ddmin: delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
// Failure-Inducing Input", 2002). Shrinks a list of items to a 1-minimal one that still passes a
// test ("still fails the same way"): removing any single item of the result makes the test fail,
// as far as the test budget allowed. Stateless; the test may be expensive (a replay on a device),
// so no candidate is tested twice and the number of tests is bounded.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace roam {

struct DdminResult {
  std::vector<size_t> kept;  // indices into the original list, ascending
  int tests = 0;             // calls of the test
  bool complete = false;     // 1-minimal (false: the budget ran out first)
};

// `test(indices)` says whether the items at `indices` (ascending) still show the failure; it is
// assumed to hold for all of them and is never called with none. At most `max_tests` calls.
DdminResult Ddmin(size_t n, const std::function<bool(const std::vector<size_t>&)>& test,
                  int max_tests);

}  // namespace roam
