#include "fuzz/independent_view.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fuzz/excuses.h"

namespace roam::fuzz {

std::string Violation::Key() const {
  // The views by identity, not content: the same wrong deletion seen on other rows is one report.
  std::string k = activity + ":";
  for (const auto& k2 : KeysOf(missing.removed)) k += fmt::format("-{};", k2);
  for (const auto& k2 : KeysOf(missing.added)) k += fmt::format("+{};", k2);
  for (const auto& k2 : KeysOf(missing.changed)) k += fmt::format("~{};", k2);
  return k;
}

std::string ViolationInWords(std::string_view key) {
  const size_t colon = key.find(":");
  if (colon == std::string_view::npos || colon + 1 >= key.size()) return std::string(key);
  std::string_view activity = key.substr(0, colon);
  activity = activity.substr(activity.rfind('.') + 1);
  // Each view "<op><class>|<resource-id>[|...];": its class's and id's last names.
  std::vector<std::string> views[3];  // removed, added, changed
  for (std::string_view rest = key.substr(colon + 1); !rest.empty();) {
    const size_t end = std::min(rest.find(';'), rest.size());
    std::string_view view = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    const int op = view.empty()     ? -1
                   : view[0] == '-' ? 0
                   : view[0] == '+' ? 1
                   : view[0] == '~' ? 2
                                    : -1;
    if (op < 0) return std::string(key);
    view.remove_prefix(1);
    const size_t bar = view.find('|');
    std::string_view cls = view.substr(0, bar), id;
    if (bar != std::string_view::npos) id = view.substr(bar + 1, view.find('|', bar + 1) - bar - 1);
    cls = cls.substr(cls.rfind('.') + 1);
    if (const size_t slash = id.rfind('/'); slash != std::string_view::npos)
      id.remove_prefix(slash + 1);
    views[op].push_back(id.empty() ? std::string(cls) : fmt::format("{} {}", cls, id));
  }
  constexpr const char* kVerbs[] = {"remove", "add", "change"};
  std::vector<std::string> parts;
  for (int op = 0; op < 3; ++op)
    if (!views[op].empty())
      parts.push_back(fmt::format("did not {} {}", kVerbs[op], fmt::join(views[op], ", ")));
  if (parts.empty()) return std::string(key);
  return fmt::format("{}: the mutant {}, as the seed did", activity, fmt::join(parts, "; it "));
}

namespace {

// The views of the row that seed event t acts on: the subtree of the group's child holding its
// target; empty when the target is in no group.
std::set<View> RowOf(const std::vector<Layout>& seed, const std::vector<Event>& events, int t) {
  std::set<View> out;
  if (t >= static_cast<int>(events.size()) || !events[t].widget()) return out;
  const gui::Screen& s = seed[t].screen;
  int w = Resolve(s, events[t]);
  if (w < 0) return out;
  Groups groups = FindGroups(s);
  int g = groups.group_of[w];
  if (g < 0) return out;
  int row = w;
  while (s.widgets[row].parent != g) row = s.widgets[row].parent;
  for (int i = row; i < s.widgets[row].subtree_end; ++i) out.insert(ViewOf(s, groups, i));
  return out;
}

// Whether τ changed shared state (IndependentViewSettings::attribute_to_rows): it left a single
// view of the pivot showing other content, or came back to a dialog like the pivot's over another
// item (it opened another task).
bool SharedStateChanged(const MutantCheck& c) {
  const std::vector<Layout>& mutant = c.mutant;
  const int end = c.pivot + c.tau_length;
  if (!SameSingleViews(mutant[c.pivot], mutant[end], c.ignored)) return true;
  if (c.tau_length <= 0) return false;
  // The screen under a layout shown over it (a dialog): the latest layout of its activity after
  // `from` and before t, when that is not alike t; -1 otherwise.
  auto under = [&](int t, int from) {
    for (int u = t - 1; u > from; --u)
      if (Similar(mutant[u], mutant[t]))
        return TypeSimilarity(mutant[u], mutant[t]) < c.settings.overlay_similarity ? u : -1;
    return -1;
  };
  const int a = under(c.pivot, -1), b = under(end, c.pivot);
  return a >= 0 && b >= 0 &&
         TypeSimilarity(mutant[a], mutant[b]) >= c.settings.overlay_similarity &&
         !SameSingleViews(mutant[a], mutant[b], c.ignored);
}

// The mutant's views at the pair's i with τ's net effect on that screen applied
// (count_tau_effect, when the pair spans τ: what τ added, less what it removed, from tau_from to
// tau_to). A row τ added that looks like the row the seed then removes leaves the mutant's views
// the same over the pair, which is τ's effect and the seed's together, not a missing one.
ViewBag WithTauEffect(MutantCheck& c, const Pair& p) {
  ViewBag out = c.mutant_views.Bag(p.mi);
  const Effect tau = Delta(c.mutant_views.Bag(p.tau_from), c.mutant_views.Bag(p.tau_to));
  for (const auto& [v, n] : tau.added) out[v] += n;
  for (const auto& [v, n] : tau.removed)
    if (auto it = out.find(v); it != out.end() && (it->second -= n) <= 0) out.erase(it);
  return out;
}

// What of the seed's effect the mutant misses on the pair (MissingFromMutant, and numbers the
// seed moved), before the excuses.
Effect MissingOnPair(MutantCheck& c, const Pair& p) {
  ViewBag with_tau;
  const ViewBag* at_i = &c.mutant_views.Bag(p.mi);
  if (c.settings.count_tau_effect && p.tau_to >= 0) {
    with_tau = WithTauEffect(c, p);
    at_i = &with_tau;
  }
  Effect missing =
      MissingFromMutant(p.seed_effect, c.seed_views.Bag(p.j), *at_i, c.mutant_views.Bag(p.mj));
  // A number the seed moved from what it showed at i, that the mutant shows at both ends: it
  // started where the seed's did and did not move (a removal the mutant could make and did not,
  // as above). Not judged when the mutant started elsewhere: a clock that moved on while τ ran,
  // a count τ changed.
  const Numbers &seed_i = c.seed_views.NumbersAt(p.i), &mutant_i = c.mutant_views.NumbersAt(p.mi),
                &mutant_j = c.mutant_views.NumbersAt(p.mj);
  for (const auto& [v, n] : p.seed_effect.changed) {
    const std::string& from = seed_i.at(v);
    auto a = mutant_i.find(v), b = mutant_j.find(v);
    if (a != mutant_i.end() && b != mutant_j.end() && a->second == from && b->second == from)
      missing.changed[v] = 1;
  }
  return missing;
}

}  // namespace

std::optional<Violation> CheckMutant(const std::vector<Layout>& seed,
                                     const std::vector<Event>& seed_events,
                                     const std::vector<Layout>& mutant,
                                     const std::vector<Event>& mutant_events, int pivot,
                                     int tau_length, const std::set<std::string>& ignored,
                                     const IndependentViewSettings& settings,
                                     RunViews* seed_views) {
  // A seed that ends before its pivot (shrunk by minimisation) has nothing after τ to compare.
  if (pivot < 0 || tau_length < 0 || pivot >= static_cast<int>(seed.size())) return std::nullopt;
  const int last = std::max(pivot + tau_length,
                            MutantIndex(static_cast<int>(seed.size()) - 1, pivot, tau_length));
  if (last >= static_cast<int>(mutant.size())) return std::nullopt;  // the mutant did not finish
  std::optional<RunViews> own_seed_views;
  if (!seed_views || !seed_views->Of(seed, ignored))
    seed_views = &own_seed_views.emplace(seed, ignored);
  RunViews mutant_views(mutant, ignored, seed_views, pivot);
  MutantCheck check{.seed = seed,
                    .seed_events = seed_events,
                    .mutant = mutant,
                    .mutant_events = mutant_events,
                    .pivot = pivot,
                    .tau_length = tau_length,
                    .ignored = ignored,
                    .settings = settings,
                    .seed_views = *seed_views,
                    .mutant_views = mutant_views};
  if (settings.excuse_tau_effects || settings.skip_destructive_tau)
    check.footprint =
        Footprint(mutant, mutant_views, pivot, tau_length, ignored, settings.overlay_similarity);
  // τ deleted or changed list items: it did not only add effects, the premise of the check.
  if (settings.skip_destructive_tau && !check.footprint.removed_rows.empty()) return std::nullopt;
  if (settings.skip_tau_left_input && tau_length > 0 &&
      LeftInput(mutant[pivot], mutant[pivot + tau_length], ignored))
    return std::nullopt;
  check.shared_changed = settings.attribute_to_rows && SharedStateChanged(check);
  check.rows.resize(seed.size());
  if (check.shared_changed)
    for (int t = 0; t + 1 < static_cast<int>(seed.size()); ++t)
      check.rows[t] = RowOf(seed, seed_events, t);

  for (auto [i, j] : JudgedPairs(seed, pivot)) {
    if (TypeSimilarity(seed[i], seed[j]) < settings.min_pair_similarity) continue;
    // A scroll between them: what it brought into view depends on the rows τ added.
    bool scrolled = false;
    for (int t = i; t < j && t < static_cast<int>(seed_events.size()); ++t)
      scrolled |= IsScrollOrSwipe(seed_events[t].kind);
    if (scrolled) continue;
    // τ changed shared state: what came before it is not comparable any more.
    if (check.shared_changed && i < pivot) continue;
    Pair p{.i = i, .j = j};
    p.seed_effect = Delta(seed_views->Bag(i), seed_views->Bag(j));
    p.seed_effect.changed =
        Recounted(seed_views->NumbersAt(i), seed_views->NumbersAt(j), /*counts_only=*/true);
    if (p.seed_effect.empty()) continue;

    p.mi = MutantIndex(i, pivot, tau_length), p.mj = MutantIndex(j, pivot, tau_length);
    // The mutant is not where the seed was: not comparable. That includes a pair on another
    // screen than the seed's (τ left a screen of its own below the pivot's, and the seed's back
    // led there), and one the seed's own rule would not judge (a screen and a dialog in front of
    // it, which τ's leftovers raised).
    if (!Similar(mutant[p.mi], seed[i]) || !Similar(mutant[p.mj], seed[j]) ||
        TypeSimilarity(mutant[p.mi], mutant[p.mj]) < settings.min_pair_similarity)
      continue;
    p.mutant_effect = Delta(mutant_views.Bag(p.mi), mutant_views.Bag(p.mj));
    p.mutant_effect.changed = Recounted(mutant_views.NumbersAt(p.mi), mutant_views.NumbersAt(p.mj));
    // τ's net effect on the pair's screen: from the latest layout like mi's at or before the
    // pivot to the latest like it that τ showed (τ may have added a row on another screen than
    // the pivot's and come back).
    p.tau_from = p.mi <= pivot && tau_length > 0 ? check.LatestLike(p.mi, -1, pivot) : -1;
    p.tau_to = p.tau_from >= 0 ? check.LatestLike(p.mi, pivot, pivot + tau_length) : -1;

    Effect missing = MissingOnPair(check, p);
    std::vector<std::string> excused;
    ApplyExcuses(check, p, missing, excused);
    if (missing.empty()) continue;
    Violation v;
    v.seed_i = i, v.seed_j = j, v.mutant_i = p.mi, v.mutant_j = p.mj;
    v.activity = seed[j].screen.activity;
    v.seed_effect = std::move(p.seed_effect);
    v.mutant_effect = std::move(p.mutant_effect);
    v.missing = std::move(missing);
    v.excused = std::move(excused);
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
