// The GUI effects the check compares (fuzz/independent_view.h): Δ(li, lj) of two layouts' views,
// numbers that moved, what of a seed's effect a mutant misses; views unstable between runs; the
// pairs of layouts judged and where along a run effects land. Plain functions and value types:
// thread-compatible.
#pragma once

#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/layout.h"
#include "fuzz/view_bag.h"

namespace roam::fuzz {

struct Effect {
  ViewBag removed;  // li \ lj
  ViewBag added;    // lj \ li
  // Views of both layouts that show other numbers (in a seed's effect: counts that moved by one):
  // views mask digits, so "Like count: 0" -> "Like count: 1" is in neither bag above.
  ViewBag changed;
  bool empty() const { return removed.empty() && added.empty() && changed.empty(); }
};
Effect Delta(const ViewBag& li, const ViewBag& lj);
// The views both show once, with other numbers; with `counts_only`, only those where one number
// moved by one (a count: 'Like count: 0' -> 1, '27 Alarms' -> 26), not a time or a line that
// changes on its own ('Updated 12 min ago' -> 'Updated 2 min ago').
ViewBag Recounted(const Numbers& li, const Numbers& lj, bool counts_only = false);
// What of `seed` is not in `mutant` (multiset difference, per side): the plain containment of
// the notes, Δ_seed ⊆ Δ_mutant when empty.
Effect Missing(const Effect& seed, const Effect& mutant);
// The refined form CheckMutant uses, from the layouts' views: a view the seed removed is missing
// when the mutant had it at i and did not remove it (a view the mutant never had cannot be
// removed); a view the seed added is missing when the mutant neither added it as often nor ends
// with as many of it as the seed (seed_j). (Numbers the seed changed are judged apart, by the
// removed side only: one is missing when the mutant shows the seed's number of i at its i and
// at its j; CheckMutant.)
Effect MissingFromMutant(const Effect& seed, const ViewBag& seed_j, const ViewBag& mutant_i,
                         const ViewBag& mutant_j);

// The ViewKeys of views that differ between two runs of one seed, layout by layout, digits
// included (layouts past the shorter run are not compared).
std::set<std::string> UnstableViews(std::span<const Layout> run1, std::span<const Layout> run2);

// The pairs (i, j) of seed layouts (0-based; layout t+1 follows event t, the pivot is layout p,
// τ is inserted before event p) the check compares: i < j, both similar, and either
// i <= p < j or p < i. A pair whose seed effect is empty is skipped.
std::vector<std::pair<int, int>> JudgedPairs(const std::vector<Layout>& seed, int pivot);
// The largest j of a pair (i < j, similar, at least min_pair_similarity alike) of seed layouts
// with a non-empty effect (numbers included); -1 when none. Pivots at or after it cannot show a
// violation.
int LastEffect(const std::vector<Layout>& seed, const std::set<std::string>& ignored,
               double min_pair_similarity);
int LastEffect(const std::vector<Layout>& seed, RunViews& views, double min_pair_similarity);
// Seed layout index -> mutant layout index, for τ of length m: i <= p stays, i > p moves by m.
inline int MutantIndex(int seed_index, int pivot, int tau_length) {
  return seed_index <= pivot ? seed_index : seed_index + tau_length;
}

// Where effects land along a run: lands[j] when layout j differs (views, or counts) from the
// latest earlier layout similar and at least min_pair_similarity like it, i.e. event j - 1 (or
// the dialog it closed) had an effect the check can judge.
std::vector<char> EffectLands(const std::vector<Layout>& layouts,
                              const std::set<std::string>& ignored, double min_pair_similarity);
std::vector<char> EffectLands(const std::vector<Layout>& layouts, RunViews& views,
                              double min_pair_similarity);

}  // namespace roam::fuzz
