#include "base/ddmin.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace roam {

DdminResult Ddmin(size_t n, const std::function<bool(const std::vector<size_t>&)>& test,
                  int max_tests) {
  DdminResult r;
  r.kept.resize(n);
  std::iota(r.kept.begin(), r.kept.end(), size_t{0});
  std::set<std::vector<size_t>> tried;
  // Tests a candidate once; false for a repeat or once the budget is spent.
  auto passes = [&](const std::vector<size_t>& candidate) {
    if (candidate.empty() || r.tests >= max_tests || !tried.insert(candidate).second) return false;
    ++r.tests;
    return test(candidate);
  };
  size_t granularity = 2;
  while (r.kept.size() >= 2) {
    granularity = std::min(granularity, r.kept.size());
    const size_t size = r.kept.size();
    // Chunk i: [start(i), start(i+1)).
    auto start = [&](size_t i) { return i * size / granularity; };
    bool reduced = false;
    // Reduce to a subset.
    for (size_t i = 0; i < granularity && !reduced; ++i) {
      std::vector<size_t> subset(r.kept.begin() + start(i), r.kept.begin() + start(i + 1));
      if (passes(subset)) {
        r.kept = std::move(subset);
        granularity = 2;
        reduced = true;
      }
    }
    // Reduce to a complement.
    for (size_t i = 0; i < granularity && !reduced && granularity > 2; ++i) {
      std::vector<size_t> complement(r.kept.begin(), r.kept.begin() + start(i));
      complement.insert(complement.end(), r.kept.begin() + start(i + 1), r.kept.end());
      if (passes(complement)) {
        r.kept = std::move(complement);
        granularity = std::max<size_t>(granularity - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (r.tests >= max_tests) return r;
    if (granularity >= r.kept.size()) break;  // single items: 1-minimal
    granularity = std::min(granularity * 2, r.kept.size());
  }
  r.complete = true;
  return r;
}

}  // namespace roam
