#include "fuzz/oracle.h"

#include <algorithm>

#include <fmt/format.h>

#include "fuzz/views.h"
#include "gui/abstraction.h"

namespace roam::fuzz {

std::string ViewKey(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  if (!w.resource_id.empty()) return w.cls + "|" + w.resource_id;
  return fmt::format("{}||d{}", w.cls, w.depth);
}

std::string ViewString(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  return fmt::format("{}\t{}|{}|{}{}{}", ViewKey(screen, index), gui::MaskDigits(w.text),
                     gui::MaskDigits(w.content_desc),
                     w.checked ? "C" : "c", w.enabled ? "E" : "e", w.selected ? "S" : "s");
}

std::string KeyOfViewString(const std::string& view) {
  return view.substr(0, view.find('\t'));
}

ViewBag ViewsOf(const Layout& layout, const std::set<std::string>& ignored) {
  ViewBag bag;
  if (!layout.in_app) return bag;
  const gui::Screen& s = layout.screen;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    const gui::Widget& w = s.widgets[i];
    if (w.package == "com.android.systemui") continue;
    if (w.text.empty() && w.content_desc.empty() && !w.clickable && !w.long_clickable &&
        !w.checkable && !w.editable)
      continue;
    if (ignored.count(ViewKey(s, i))) continue;
    ++bag[ViewString(s, i)];
  }
  return bag;
}

namespace {

ViewBag Minus(const ViewBag& a, const ViewBag& b) {
  ViewBag out;
  for (const auto& [v, n] : a) {
    auto it = b.find(v);
    int left = n - (it == b.end() ? 0 : it->second);
    if (left > 0) out[v] = left;
  }
  return out;
}

std::string Join(const ViewBag& bag, char sign) {
  std::string out;
  for (const auto& [v, n] : bag) out += fmt::format("{}{}x{};", sign, v, n);
  return out;
}


}  // namespace

Effect Delta(const ViewBag& li, const ViewBag& lj) { return {Minus(li, lj), Minus(lj, li)}; }

Effect Missing(const Effect& seed, const Effect& mutant) {
  return {Minus(seed.removed, mutant.removed), Minus(seed.added, mutant.added)};
}

std::set<std::string> UnstableViews(const std::vector<Layout>& run1,
                                    const std::vector<Layout>& run2) {
  std::set<std::string> out;
  size_t n = std::min(run1.size(), run2.size());
  for (size_t t = 0; t < n; ++t) {
    Effect d = Delta(ViewsOf(run1[t], {}), ViewsOf(run2[t], {}));
    for (const auto* bag : {&d.removed, &d.added})
      for (const auto& [v, count] : *bag) out.insert(KeyOfViewString(v));
  }
  return out;
}

std::vector<std::pair<int, int>> OraclePairs(const std::vector<Layout>& seed, int pivot) {
  std::vector<std::pair<int, int>> out;
  const int n = static_cast<int>(seed.size());
  for (int j = pivot + 1; j < n; ++j)
    for (int i = j - 1; i >= 0; --i)
      if (Similar(seed[i], seed[j])) out.emplace_back(i, j);
  return out;
}

int LastEffect(const std::vector<Layout>& seed, const std::set<std::string>& ignored) {
  std::vector<ViewBag> bags;
  for (const auto& l : seed) bags.push_back(ViewsOf(l, ignored));
  for (int j = static_cast<int>(seed.size()) - 1; j > 0; --j)
    for (int i = j - 1; i >= 0; --i)
      if (Similar(seed[i], seed[j]) && !Delta(bags[i], bags[j]).empty()) return j;
  return -1;
}

std::string Violation::Key() const {
  return activity + ":" + Join(missing.removed, '-') + Join(missing.added, '+');
}

namespace {

int Count(const ViewBag& bag, const std::string& view) {
  auto it = bag.find(view);
  return it == bag.end() ? 0 : it->second;
}

// The ViewKeys of `layout`'s views that sit in a group.
std::set<std::string> GroupedKeys(const Layout& layout) {
  std::set<std::string> out;
  Groups groups = FindGroups(layout.screen);
  for (int i = 0; i < static_cast<int>(layout.screen.widgets.size()); ++i)
    if (groups.group_of[i] >= 0) out.insert(ViewKey(layout.screen, i));
  return out;
}

std::set<std::string> KeysOf(const ViewBag& bag) {
  std::set<std::string> out;
  for (const auto& [v, n] : bag) out.insert(KeyOfViewString(v));
  return out;
}

}  // namespace

TauFootprint Footprint(const std::vector<Layout>& mutant, int pivot, int tau_length,
                       const std::set<std::string>& ignored, double overlay_similarity) {
  TauFootprint f;
  auto add = [&](const Layout& a, const Layout& b, bool all) {
    if (!Similar(a, b)) return;
    Effect d = Delta(ViewsOf(a, ignored), ViewsOf(b, ignored));
    std::set<std::string> removed = KeysOf(d.removed), added = KeysOf(d.added);
    bool whole = all || TypeSimilarity(a, b) >= overlay_similarity;
    for (const auto& k : removed)
      if (whole || added.count(k)) f.keys.insert(k);
    if (whole) f.keys.insert(added.begin(), added.end());
  };
  for (int t = pivot; t < pivot + tau_length; ++t) add(mutant[t], mutant[t + 1], false);
  add(mutant[pivot], mutant[pivot + tau_length], true);
  f.changed_pivot =
      !Delta(ViewsOf(mutant[pivot], ignored), ViewsOf(mutant[pivot + tau_length], ignored)).empty();
  return f;
}

Effect MissingFromMutant(const Effect& seed, const ViewBag& seed_j, const ViewBag& mutant_i,
                         const ViewBag& mutant_j) {
  Effect missing;
  for (const auto& [w, k] : seed.removed) {
    int ci = Count(mutant_i, w), cj = Count(mutant_j, w);
    int could = std::min(k, ci), did = std::max(0, ci - cj);
    if (could > did) missing.removed[w] = could - did;
  }
  for (const auto& [w, k] : seed.added) {
    int ci = Count(mutant_i, w), cj = Count(mutant_j, w);
    int did = std::max(0, cj - ci);
    if (did < k && cj < Count(seed_j, w)) missing.added[w] = k - did;
  }
  return missing;
}

std::optional<Violation> CheckMutant(const std::vector<Layout>& seed,
                                     const std::vector<Layout>& mutant, int pivot, int tau_length,
                                     const std::set<std::string>& ignored,
                                     const OracleSettings& settings) {
  const int last = MutantIndex(static_cast<int>(seed.size()) - 1, pivot, tau_length);
  if (last >= static_cast<int>(mutant.size())) return std::nullopt;  // the mutant did not finish
  std::vector<ViewBag> seed_bags, mutant_bags(mutant.size());
  std::vector<char> have(mutant.size(), 0);
  for (const auto& l : seed) seed_bags.push_back(ViewsOf(l, ignored));
  auto mutant_bag = [&](int t) -> const ViewBag& {
    if (!have[t]) mutant_bags[t] = ViewsOf(mutant[t], ignored), have[t] = 1;
    return mutant_bags[t];
  };
  TauFootprint footprint;
  if (settings.excuse_tau_effects)
    footprint = Footprint(mutant, pivot, tau_length, ignored, settings.overlay_similarity);
  for (auto [i, j] : OraclePairs(seed, pivot)) {
    Effect seed_effect = Delta(seed_bags[i], seed_bags[j]);
    if (seed_effect.empty()) continue;
    int mi = MutantIndex(i, pivot, tau_length), mj = MutantIndex(j, pivot, tau_length);
    // The mutant is not where the seed was: not comparable.
    if (!Similar(mutant[mi], mutant[mj])) continue;
    Effect mutant_effect = Delta(mutant_bag(mi), mutant_bag(mj));
    Effect missing = MissingFromMutant(seed_effect, seed_bags[j], mutant_bag(mi), mutant_bag(mj));
    if (settings.excuse_tau_effects && !missing.empty()) {
      // Single views (in no group) that τ itself wrote may show τ's content afterwards.
      std::set<std::string> grouped_i = GroupedKeys(seed[i]), grouped_j = GroupedKeys(seed[j]);
      std::set<std::string> mutant_removed = KeysOf(mutant_effect.removed);
      std::set<std::string> mutant_added = KeysOf(mutant_effect.added);
      auto excuse = [&](ViewBag& bag, const std::set<std::string>& grouped,
                        const std::set<std::string>& mutant_side) {
        for (auto it = bag.begin(); it != bag.end();) {
          std::string k = KeyOfViewString(it->first);
          bool single = !grouped.count(k);
          bool excused = single && (footprint.keys.count(k) ||
                                    (footprint.changed_pivot && mutant_side.count(k)));
          it = excused ? bag.erase(it) : std::next(it);
        }
      };
      excuse(missing.removed, grouped_i, mutant_removed);
      excuse(missing.added, grouped_j, mutant_added);
    }
    if (missing.empty()) continue;
    Violation v;
    v.seed_i = i, v.seed_j = j, v.mutant_i = mi, v.mutant_j = mj;
    v.activity = seed[j].screen.activity;
    v.seed_effect = std::move(seed_effect);
    v.mutant_effect = std::move(mutant_effect);
    v.missing = std::move(missing);
    return v;
  }
  return std::nullopt;
}

std::vector<Ranked> RankReports(const std::vector<std::string>& keys_in_order) {
  std::vector<Ranked> out;
  for (const auto& k : keys_in_order) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Ranked& r) { return r.key == k; });
    if (it == out.end())
      out.push_back({k, 1, static_cast<int>(out.size())});
    else
      ++it->count;
  }
  std::stable_sort(out.begin(), out.end(), [](const Ranked& a, const Ranked& b) {
    bool a1 = a.count == 1, b1 = b.count == 1;
    if (a1 != b1) return a1;
    if (a.count != b.count) return a.count < b.count;
    return a.first < b.first;
  });
  return out;
}

}  // namespace roam::fuzz
