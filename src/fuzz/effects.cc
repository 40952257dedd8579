#include "fuzz/effects.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace roam::fuzz {

Effect Delta(const ViewBag& li, const ViewBag& lj) { return {Minus(li, lj), Minus(lj, li)}; }

namespace {

// Whether two texts alike but for their digits differ in one run of digits, by one.
bool MovedByOne(const std::string& a, const std::string& b) {
  auto runs = [](const std::string& t) {
    std::vector<std::string> out;
    for (size_t k = 0; k < t.size();) {
      if (!std::isdigit(static_cast<unsigned char>(t[k]))) {
        ++k;
        continue;
      }
      size_t end = k;
      while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end]))) ++end;
      out.push_back(t.substr(k, end - k));
      k = end;
    }
    return out;
  };
  const std::vector<std::string> ra = runs(a), rb = runs(b);
  if (ra.size() != rb.size()) return false;
  int differing = 0;
  bool by_one = false;
  for (size_t k = 0; k < ra.size(); ++k) {
    if (ra[k] == rb[k]) continue;
    ++differing;
    if (ra[k].size() > 9 || rb[k].size() > 9) return false;
    by_one = std::abs(std::stoll(ra[k]) - std::stoll(rb[k])) == 1;
  }
  return differing == 1 && by_one;
}

}  // namespace

ViewBag Recounted(const Numbers& li, const Numbers& lj, bool counts_only) {
  ViewBag out;
  for (const auto& [v, shown] : li)
    if (auto it = lj.find(v);
        it != lj.end() && it->second != shown && (!counts_only || MovedByOne(shown, it->second)))
      out[v] = 1;
  return out;
}

Effect Missing(const Effect& seed, const Effect& mutant) {
  return {Minus(seed.removed, mutant.removed), Minus(seed.added, mutant.added)};
}

Effect MissingFromMutant(const Effect& seed, const ViewBag& seed_j, const ViewBag& mutant_i,
                         const ViewBag& mutant_j) {
  Effect missing;
  for (const auto& [w, k] : seed.removed) {
    int ci = CountOf(mutant_i, w), cj = CountOf(mutant_j, w);
    int could = std::min(k, ci), did = std::max(0, ci - cj);
    if (could > did) missing.removed[w] = could - did;
  }
  for (const auto& [w, k] : seed.added) {
    int ci = CountOf(mutant_i, w), cj = CountOf(mutant_j, w);
    int did = std::max(0, cj - ci);
    if (did < k && cj < CountOf(seed_j, w)) missing.added[w] = k - did;
  }
  return missing;
}

std::set<std::string> UnstableViews(std::span<const Layout> run1, std::span<const Layout> run2) {
  std::set<std::string> out;
  size_t n = std::min(run1.size(), run2.size());
  for (size_t t = 0; t < n; ++t) {
    // Like screens show like views: a prefix that repeated itself costs a comparison.
    if (run1[t].in_app == run2[t].in_app && run1[t].screen.widgets == run2[t].screen.widgets)
      continue;
    Numbers n1, n2;
    Effect d = Delta(ViewsOf(run1[t], {}, &n1), ViewsOf(run2[t], {}, &n2));
    for (const auto* bag : {&d.removed, &d.added})
      for (const auto& [v, count] : *bag) out.emplace(v.key());
    // Digits are masked in the views: a line that shows another number in the other run of the
    // same events changes on its own ("Updated 12 min ago", a clock).
    for (const auto& [v, count] : Recounted(n1, n2)) out.emplace(v.key());
  }
  return out;
}

std::vector<std::pair<int, int>> JudgedPairs(const std::vector<Layout>& seed, int pivot) {
  std::vector<std::pair<int, int>> out;
  const int n = static_cast<int>(seed.size());
  for (int j = pivot + 1; j < n; ++j)
    for (int i = j - 1; i >= 0; --i)
      if (Similar(seed[i], seed[j])) out.emplace_back(i, j);
  return out;
}

int LastEffect(const std::vector<Layout>& seed, const std::set<std::string>& ignored,
               double min_pair_similarity) {
  RunViews views(seed, ignored);
  return LastEffect(seed, views, min_pair_similarity);
}

int LastEffect(const std::vector<Layout>& seed, RunViews& views, double min_pair_similarity) {
  for (int j = static_cast<int>(seed.size()) - 1; j > 0; --j)
    for (int i = j - 1; i >= 0; --i)
      if (Similar(seed[i], seed[j]) && TypeSimilarity(seed[i], seed[j]) >= min_pair_similarity &&
          (!Delta(views.Bag(i), views.Bag(j)).empty() ||
           !Recounted(views.NumbersAt(i), views.NumbersAt(j), true).empty()))
        return j;
  return -1;
}

std::vector<char> EffectLands(const std::vector<Layout>& layouts,
                              const std::set<std::string>& ignored, double min_pair_similarity) {
  RunViews views(layouts, ignored);
  return EffectLands(layouts, views, min_pair_similarity);
}

std::vector<char> EffectLands(const std::vector<Layout>& layouts, RunViews& views,
                              double min_pair_similarity) {
  const int n = static_cast<int>(layouts.size());
  std::vector<char> lands(n, 0);
  for (int j = 1; j < n; ++j)
    for (int i = j - 1; i >= 0; --i) {
      if (!Similar(layouts[i], layouts[j]) ||
          TypeSimilarity(layouts[i], layouts[j]) < min_pair_similarity)
        continue;
      lands[j] = !Delta(views.Bag(i), views.Bag(j)).empty() ||
                 !Recounted(views.NumbersAt(i), views.NumbersAt(j), /*counts_only=*/true).empty();
      break;
    }
  return lands;
}

}  // namespace roam::fuzz
