#include "fuzz/excuses.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace roam::fuzz {

int MutantCheck::LatestLike(int t, int from, int to) const {
  for (int u = to; u > from; --u)
    if (Similar(mutant[u], mutant[t]) &&
        TypeSimilarity(mutant[u], mutant[t]) >= settings.min_pair_similarity)
      return u;
  return -1;
}

const std::vector<std::string>& MutantCheck::Data() {
  if (!tau_data) tau_data = TauData(mutant, mutant_events, pivot, tau_length);
  return *tau_data;
}

namespace {

// Erases from `bag` the views for which `drop(view, count)` holds.
template <typename Drop>
void EraseIf(ViewBag& bag, Drop drop) {
  for (auto it = bag.begin(); it != bag.end();)
    it = drop(it->first, it->second) ? bag.erase(it) : std::next(it);
}

// read_windows, for views the seed added: in a list that scrolls at the mutant's j, they may be
// below its window, behind rows τ added.
void BelowTheWindow(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.added.empty()) return;
  // ViewKeys of views in the rows of the mutant's lists that scroll, in its window or in the
  // seed's rows of the same list (a note only the seed's own row shows may be below).
  KeySet windowed;
  auto collect = [&](const std::vector<ViewBag>& rows) {
    for (const ViewBag& row : rows)
      for (const auto& [v, n] : row) windowed.emplace(v.key());
  };
  const auto seed_rows = ScrollingRows(c.seed[p.j], c.ignored, /*all=*/true);
  for (const auto& [list, rows] : ScrollingRows(c.mutant[p.mj], c.ignored)) {
    collect(rows);
    if (auto in_seed = seed_rows.find(list); in_seed != seed_rows.end()) collect(in_seed->second);
  }
  EraseIf(missing.added, [&](const View& v, int) { return windowed.count(v.key()) > 0; });
}

// read_windows, for views the seed removed: in a list that scrolls, a row went when the rows read
// in order say so (RowsRemovedInOrder), though a like row came into view.
void WentFromTheWindow(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.removed.empty()) return;
  // From after τ when the pair spans it: τ's own removals are not the seed's.
  const Layout& from = c.mutant[p.tau_to >= 0 ? p.tau_to : p.mi];
  const Layout& to = c.mutant[p.mj];
  ViewBag went = RowsRemovedInOrder(from, to, c.ignored);
  // A list that scrolled may hide the removal of its last row where the mutant's last row is like
  // it: a like row came up from below (one τ added: a second "New item"), and the list may now
  // show all it holds (then the rows after the last one it still shows went too). The last row
  // went too when that makes as many rows go as went in the seed's pair.
  // A list that shrank shows all its rows (ShowsAllRows): the seed's last row went, it did not
  // leave the window (gen308, gen309: a second "New item" τ added came up in its place).
  const auto after = ScrollingRows(to, c.ignored, /*all=*/true);
  const auto seed_i = ScrollingRows(c.seed[p.i], c.ignored, /*all=*/true);
  const auto seed_j = ScrollingRows(c.seed[p.j], c.ignored, /*all=*/true);
  for (const auto& [list, rows] : ScrollingRows(from, c.ignored)) {
    auto w = after.find(list);
    auto si = seed_i.find(list), sj = seed_j.find(list);
    if (rows.empty() || w == after.end() || w->second.empty() || w->second.back() != rows.back() ||
        si == seed_i.end() || sj == seed_j.end())
      continue;
    const size_t seed_gone =
        RowsGone(si->second, sj->second, ShowsAllRows(c.seed[p.i], c.seed[p.j], list)).size();
    const std::span<const ViewBag> a(rows), b(w->second);
    const size_t others_gone =
        RowsGone(a.first(a.size() - 1), b.first(b.size() - 1), ShowsAllRows(from, to, list)).size();
    if (others_gone + 1 == seed_gone)
      for (const auto& [v, n] : rows.back()) went[v] += n;
  }
  EraseIf(missing.removed, [&](const View& v, int) { return CountOf(went, v) > 0; });
}

// excuse_tau_effects: views τ itself changed. Single views (in no group) whose key τ changed at
// all; views in groups (rows) whose key τ showed with other content. τ may overwrite what it
// wrote.
void TauWroteThem(MutantCheck& c, const Pair& p, Effect& missing) {
  const KeySet grouped_i = GroupedKeys(c.seed[p.i]), grouped_j = GroupedKeys(c.seed[p.j]);
  auto excuse = [&](ViewBag& bag, const KeySet& grouped) {
    EraseIf(bag, [&](const View& v, int) {
      return grouped.count(v.key()) ? c.footprint.changed.count(v.key()) > 0
                                    : c.footprint.keys.count(v.key()) > 0;
    });
  };
  excuse(missing.removed, grouped_i);
  excuse(missing.added, grouped_j);
  excuse(missing.changed, grouped_j);
}

// excuse_tau_effects: a view the seed added that τ removed (τ deleted the item the seed shows
// again).
void TauDeletedIt(MutantCheck& c, const Pair&, Effect& missing) {
  EraseIf(missing.added, [&](const View& v, int) { return c.footprint.removed.count(v) > 0; });
}

// excuse_tau_effects: views of a list τ removed or changed items of (the same group, or the
// same key as such an item): its rows after τ are not the seed's rows.
void InAListTauCut(MutantCheck& c, const Pair&, Effect& missing) {
  if (c.footprint.removed_rows.empty()) return;
  KeySet groups, keys;
  for (const View& v : c.footprint.removed_rows) {
    if (!v.group().empty()) groups.emplace(v.group());
    keys.emplace(v.key());
  }
  for (ViewBag* bag : {&missing.removed, &missing.added, &missing.changed})
    EraseIf(*bag, [&](const View& v, int) {
      return keys.count(v.key()) > 0 || (!v.group().empty() && groups.count(v.group()) > 0);
    });
}

// excuse_tau_effects: a single view the seed shows at j (an empty list's placeholder, say) may
// give way to rows the mutant shows there and the seed does not: data τ added.
void GaveWayToRows(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.added.empty()) return;
  bool extra_rows = false;
  const KeySet mutant_grouped = GroupedKeys(c.mutant[p.mj]);
  const ViewBag& seed_j = c.seed_views.Bag(p.j);
  for (const auto& [v, n] : c.mutant_views.Bag(p.mj))
    extra_rows |= mutant_grouped.count(v.key()) && n > CountOf(seed_j, v);
  if (!extra_rows) return;
  const KeySet grouped_j = GroupedKeys(c.seed[p.j]);
  EraseIf(missing.added, [&](const View& v, int) { return !grouped_j.count(v.key()); });
}

// count_window_rows: when the seed both removed and added rows of one list, the rows added are
// the list's window moving on; judged by number only (the mutant added as many of the key).
void WindowMovedOn(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.added.empty() || p.seed_effect.removed.empty()) return;
  const KeySet grouped = GroupedKeys(c.seed[p.j]);
  const KeySet removed_keys = KeysOf(p.seed_effect.removed);
  EraseIf(missing.added, [&](const View& v, int) {
    return grouped.count(v.key()) && removed_keys.count(v.key()) &&
           CountOfKey(p.mutant_effect.added, v.key()) >= CountOfKey(p.seed_effect.added, v.key());
  });
}

// Whether a view's content names what τ acted on (whole words).
bool NamesTauData(MutantCheck& c, const View& v) {
  const std::string_view content = ContentOfViewString(v);
  const std::vector<std::string>& data = c.Data();
  return std::any_of(data.begin(), data.end(),
                     [&](const std::string& d) { return HasWords(content, d); });
}

// excuse_tau_data: a view the seed added whose key the mutant shows (more often than the seed)
// with τ's data instead: the seed's action read state τ set.
void ShowsTauData(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.added.empty()) return;
  KeySet with_tau_data;  // ViewKeys
  const ViewBag& seed_j = c.seed_views.Bag(p.j);
  for (const auto& [v, n] : c.mutant_views.Bag(p.mj))
    if (n > CountOf(seed_j, v) && NamesTauData(c, v)) with_tau_data.emplace(v.key());
  EraseIf(missing.added, [&](const View& v, int) { return with_tau_data.count(v.key()) > 0; });
}

// excuse_tau_data: a row the seed removed that the mutant still shows, named by τ's data, while
// the mutant shows more views of its key (or of its row) than the seed, where τ, between the pair
// or before it, never showed its screen: τ made a like row elsewhere ("Reading" tapped on the
// main screen starts a second Reading entry, and the seed's later note goes to it), and the one
// left may be τ's. (Where τ showed the screen, its rows are counted (count_tau_effect), and a row
// τ only opened is the seed's to remove; unless τ acted on another screen after it showed it, as
// [Diary, back, Cooking] does, and the pair, after τ, starts with more rows in a list than the
// seed's: τ made one it did not see.)
void TauMadeALikeRow(MutantCheck& c, const Pair& p, Effect& missing) {
  if (missing.removed.empty()) return;
  const int end = c.pivot + c.tau_length;
  const int looked = p.mi <= c.pivot ? p.tau_to : c.LatestLike(p.mi, c.pivot, end);
  bool acted_after = false;
  for (int t = looked + 1; looked >= 0 && t < end; ++t)
    acted_after |= !Similar(c.mutant[t], c.mutant[p.mi]);
  auto more_rows = [&] {
    const auto seed_rows = ScrollingRows(c.seed[p.i], c.ignored, /*all=*/true);
    for (const auto& [list, rows] : ScrollingRows(c.mutant[p.mi], c.ignored, /*all=*/true)) {
      auto it = seed_rows.find(list);
      if (rows.size() > (it == seed_rows.end() ? 0 : it->second.size())) return true;
    }
    return false;
  };
  const bool unseen_rows = p.mi > c.pivot && acted_after && more_rows();
  if (looked >= 0 && !unseen_rows) return;
  const KeySet grouped = GroupedKeys(c.seed[p.i]);
  const ViewBag &mutant_j = c.mutant_views.Bag(p.mj), &seed_j = c.seed_views.Bag(p.j);
  EraseIf(missing.removed, [&](const View& v, int count) {
    const std::string_view row = v.RowPrefix();
    const bool more = CountOfKey(mutant_j, v.key()) - CountOfKey(seed_j, v.key()) >= count ||
                      (!row.empty() && CountInRow(mutant_j, row) > CountInRow(seed_j, row));
    return grouped.count(v.key()) && NamesTauData(c, v) && more;
  });
}

// Always: on a pair that spans the insertion, effects the seed had already made before it (seen
// in a layout like l_j, or like l_i, between i and the pivot) are τ's to change, not the seed's
// rest to make.
void MadeBeforeThePivot(MutantCheck& c, const Pair& p, Effect& missing) {
  if (p.i >= c.pivot) return;
  const ViewBag &seed_i = c.seed_views.Bag(p.i), &seed_j = c.seed_views.Bag(p.j);
  const Numbers& numbers_i = c.seed_views.NumbersAt(p.i);
  for (int t = p.i + 1; t <= c.pivot; ++t) {
    const ViewBag& seed_t = c.seed_views.Bag(t);
    if (Similar(c.seed[t], c.seed[p.j]))
      EraseIf(missing.added,
              [&](const View& v, int) { return CountOf(seed_t, v) >= CountOf(seed_j, v); });
    if (!Similar(c.seed[t], c.seed[p.i])) continue;
    EraseIf(missing.removed,
            [&](const View& v, int) { return CountOf(seed_t, v) < CountOf(seed_i, v); });
    // A number the seed had already changed.
    const Numbers& numbers_t = c.seed_views.NumbersAt(t);
    EraseIf(missing.changed, [&](const View& v, int) {
      auto shown = numbers_t.find(v);
      return shown != numbers_t.end() && shown->second != numbers_i.at(v);
    });
  }
}

// attribute_to_rows: when τ changed shared state (the current item), only what lies in the row
// of a seed event after the insertion is judged.
void OutsideTheSeedsRows(MutantCheck& c, const Pair& p, Effect& missing) {
  if (!c.shared_changed) return;
  std::set<View> in_rows;
  for (int t = std::max(p.i, c.pivot); t < p.j; ++t)
    in_rows.insert(c.rows[t].begin(), c.rows[t].end());
  for (ViewBag* bag : {&missing.removed, &missing.added, &missing.changed})
    EraseIf(*bag, [&](const View& v, int) { return !in_rows.count(v); });
}

constexpr std::array kExcuses = {
    Excuse{"below_the_window", "read_windows", &IndependentViewSettings::read_windows,
           BelowTheWindow,
           "added rows of a list that scrolls, which may be below the mutant's window"},
    Excuse{"went_from_the_window", "read_windows", &IndependentViewSettings::read_windows,
           WentFromTheWindow, "removed rows that went from a list that scrolls, read in order"},
    Excuse{"tau_wrote_them", "excuse_tau_effects", &IndependentViewSettings::excuse_tau_effects,
           TauWroteThem, "views whose key τ changed itself"},
    Excuse{"tau_deleted_it", "excuse_tau_effects", &IndependentViewSettings::excuse_tau_effects,
           TauDeletedIt, "added views τ removed"},
    Excuse{"in_a_list_tau_cut", "excuse_tau_effects", &IndependentViewSettings::excuse_tau_effects,
           InAListTauCut, "views of a list τ removed or changed items of"},
    Excuse{"gave_way_to_rows", "excuse_tau_effects", &IndependentViewSettings::excuse_tau_effects,
           GaveWayToRows, "added single views, where the mutant shows rows the seed does not"},
    Excuse{"window_moved_on", "count_window_rows", &IndependentViewSettings::count_window_rows,
           WindowMovedOn, "rows that came into view as others went, as many added"},
    Excuse{"shows_tau_data", "excuse_tau_data", &IndependentViewSettings::excuse_tau_data,
           ShowsTauData, "added views the mutant shows with what τ acted on instead"},
    Excuse{"tau_made_a_like_row", "excuse_tau_data", &IndependentViewSettings::excuse_tau_data,
           TauMadeALikeRow, "removed rows named by τ's data, which may be a like row τ made"},
    Excuse{"made_before_the_pivot", "always", nullptr, MadeBeforeThePivot,
           "effects the seed had already made before the insertion"},
    Excuse{"outside_the_seeds_rows", "attribute_to_rows",
           &IndependentViewSettings::attribute_to_rows, OutsideTheSeedsRows,
           "views outside the rows the seed acted on, after τ changed shared state"},
};

// "-key 'content' x2, +key 'content', ~key 'content'".
std::string Describe(const Effect& e) {
  std::vector<std::string> parts;
  for (const auto& [sign, bag] :
       {std::pair{'-', &e.removed}, std::pair{'+', &e.added}, std::pair{'~', &e.changed}})
    for (const auto& [v, n] : *bag)
      parts.push_back(n > 1 ? fmt::format("{}{} '{}' x{}", sign, v.key(), v.content(), n)
                            : fmt::format("{}{} '{}'", sign, v.key(), v.content()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

size_t Size(const Effect& e) { return e.removed.size() + e.added.size() + e.changed.size(); }

}  // namespace

std::span<const Excuse> Excuses() { return kExcuses; }

void ApplyExcuses(MutantCheck& check, const Pair& pair, Effect& missing,
                  std::vector<std::string>& explanation) {
  for (const Excuse& e : kExcuses) {
    if (missing.empty()) return;
    if (e.setting && !(check.settings.*e.setting)) continue;
    const Effect before = missing;
    e.function(check, pair, missing);
    if (Size(missing) == Size(before)) continue;
    const Effect dropped = {Minus(before.removed, missing.removed),
                            Minus(before.added, missing.added),
                            Minus(before.changed, missing.changed)};
    explanation.push_back(
        fmt::format("{} ({}): {}: {}", e.name, e.setting_name, e.why, Describe(dropped)));
  }
}

}  // namespace roam::fuzz
