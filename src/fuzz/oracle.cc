#include "fuzz/oracle.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "fuzz/views.h"
#include "gui/abstraction.h"

namespace roam::fuzz {

std::string ViewKey(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  if (!w.resource_id.empty()) return w.cls + "|" + w.resource_id;
  return fmt::format("{}||d{}", w.cls, w.depth);
}

std::string ViewString(const gui::Screen& screen, const Groups& groups, int index) {
  const gui::Widget& w = screen.widgets[index];
  std::string row = RowLabel(screen, groups, index);
  const int group = groups.group_of[index];
  return fmt::format("{}\t{}{}|{}|{}{}{}{}", ViewKey(screen, index),
                     row.empty() ? "" : fmt::format("[{}]", row), gui::MaskDigits(w.text),
                     gui::MaskDigits(w.content_desc), w.checked ? "C" : "c", w.enabled ? "E" : "e",
                     w.selected ? "S" : "s",
                     group < 0 ? std::string() : fmt::format("\t{}", ViewKey(screen, group)));
}

std::string KeyOfViewString(const std::string& view) { return view.substr(0, view.find('\t')); }

std::string_view ContentOfViewString(std::string_view view) {
  const size_t tab = view.find('\t');
  if (tab == std::string_view::npos) return {};
  view.remove_prefix(tab + 1);
  return view.substr(0, view.find('\t'));
}

namespace {

// Whether the oracle looks at widget i (ViewsOf).
bool Compared(const gui::Screen& s, int i, const std::set<std::string>& ignored) {
  const gui::Widget& w = s.widgets[i];
  if (w.package == "com.android.systemui") return false;
  if (w.text.empty() && w.content_desc.empty() && !w.clickable && !w.long_clickable &&
      !w.checkable && !w.editable)
    return false;
  return !ignored.count(ViewKey(s, i));
}

}  // namespace

ViewBag ViewsOf(const Layout& layout, const std::set<std::string>& ignored, Numbers* numbers) {
  ViewBag bag;
  if (numbers) numbers->clear();
  if (!layout.in_app) return bag;
  auto has_digit = [](const std::string& t) {
    return std::any_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const gui::Screen& s = layout.screen;
  Groups groups = FindGroups(s);
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    if (!Compared(s, i, ignored)) continue;
    const gui::Widget& w = s.widgets[i];
    std::string view = ViewString(s, groups, i);
    if (numbers && (has_digit(w.text) || has_digit(w.content_desc)))
      (*numbers)[view] = w.text + "|" + w.content_desc;
    ++bag[view];
  }
  if (numbers)
    for (auto it = numbers->begin(); it != numbers->end();)
      it = bag[it->first] > 1 ? numbers->erase(it) : std::next(it);
  return bag;
}

RunViews::RunViews(const std::vector<Layout>& layouts, std::set<std::string> ignored,
                   RunViews* prefix_of, int prefix_end)
    : layouts_(&layouts),
      ignored_(std::move(ignored)),
      // Views made without other views are not these.
      prefix_of_(prefix_of && prefix_of->ignored_ == ignored_ ? prefix_of : nullptr),
      prefix_end_(prefix_end),
      views_(layouts.size()) {}

const RunViews::Views& RunViews::At(int t) {
  std::optional<Views>& v = views_.at(t);
  if (v) return *v;
  const Layout& l = (*layouts_)[t];
  if (prefix_of_ && t <= prefix_end_ && t < static_cast<int>(prefix_of_->layouts_->size())) {
    const Layout& p = (*prefix_of_->layouts_)[t];
    if (p.in_app == l.in_app && p.screen.widgets == l.screen.widgets) return prefix_of_->At(t);
  }
  v.emplace();
  v->bag = ViewsOf(l, ignored_, &v->numbers);
  return *v;
}

namespace {

std::set<std::string> KeysOf(const ViewBag& bag);

ViewBag Minus(const ViewBag& a, const ViewBag& b) {
  ViewBag out;
  for (const auto& [v, n] : a) {
    auto it = b.find(v);
    int left = n - (it == b.end() ? 0 : it->second);
    if (left > 0) out[v] = left;
  }
  return out;
}

}  // namespace

std::map<std::string, std::vector<ViewBag>> ScrollingRows(const Layout& layout,
                                                          const std::set<std::string>& ignored,
                                                          bool all) {
  std::map<std::string, std::vector<ViewBag>> out;
  if (!layout.in_app) return out;
  const gui::Screen& s = layout.screen;
  Groups groups = FindGroups(s);
  for (int g : groups.groups) {
    if (!all && !s.widgets[g].scrollable) continue;
    std::vector<ViewBag>& rows = out[ViewKey(s, g)];
    for (int r = g + 1; r < s.widgets[g].subtree_end; r = s.widgets[r].subtree_end) {
      ViewBag row;
      for (int i = r; i < s.widgets[r].subtree_end; ++i)
        if (Compared(s, i, ignored)) ++row[ViewString(s, groups, i)];
      rows.push_back(std::move(row));
    }
  }
  return out;
}

namespace {

// The rows of `a` that went, reading `b` in order: b's rows from the top, each matched to the
// first like row of a after the last match; the rows of a skipped before the last match went,
// and with `shows_all` (b's list holds no more than it shows) those after it too. Rows of b
// after the first that matches none came into view.
std::vector<size_t> RowsGone(std::span<const ViewBag> a, std::span<const ViewBag> b,
                             bool shows_all) {
  size_t at = 0, last_match = 0;
  std::vector<char> matched(a.size(), 0);
  for (const ViewBag& row : b) {
    size_t k = at;
    while (k < a.size() && a[k] != row) ++k;
    if (k == a.size()) break;
    matched[k] = 1;
    at = k + 1;
    last_match = at;
  }
  std::vector<size_t> gone;
  for (size_t k = 0; k < (shows_all ? a.size() : last_match); ++k)
    if (!matched[k]) gone.push_back(k);
  return gone;
}

}  // namespace

ViewBag RowsRemovedInOrder(const Layout& a, const Layout& b, const std::set<std::string>& ignored) {
  ViewBag out;
  const auto before = ScrollingRows(a, ignored);
  auto after = ScrollingRows(b, ignored);
  for (const auto& [list, rows_a] : before)
    for (size_t k : RowsGone(rows_a, after[list], /*shows_all=*/false))
      for (const auto& [v, n] : rows_a[k]) out[v] += n;
  return out;
}

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
      for (const auto& [v, count] : *bag) out.insert(KeyOfViewString(v));
    // Digits are masked in the views: a line that shows another number in the other run of the
    // same events changes on its own ("Updated 12 min ago", a clock).
    for (const auto& [v, count] : Recounted(n1, n2)) out.insert(KeyOfViewString(v));
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

std::string Violation::Key() const {
  // The views by identity, not content: the same wrong deletion seen on other rows is one report.
  std::string k = activity + ":";
  for (const auto& k2 : KeysOf(missing.removed)) k += fmt::format("-{};", k2);
  for (const auto& k2 : KeysOf(missing.added)) k += fmt::format("+{};", k2);
  for (const auto& k2 : KeysOf(missing.changed)) k += fmt::format("~{};", k2);
  return k;
}

namespace {

int Count(const ViewBag& bag, const std::string& view) {
  auto it = bag.find(view);
  return it == bag.end() ? 0 : it->second;
}

// "[label]" of a ViewString's row ("" for a view in no row).
std::string RowPrefix(const std::string& view) {
  const size_t at = view.find('\t') + 1;
  if (at >= view.size() || view[at] != '[') return "";
  const size_t end = view.find(']', at);
  return end == std::string::npos ? "" : view.substr(at, end - at + 1);
}

// How many views of `bag` sit in rows of the label `row` ("[label]").
int CountInRow(const ViewBag& bag, const std::string& row) {
  int n = 0;
  for (const auto& [v, count] : bag)
    if (v.compare(v.find('\t') + 1, row.size(), row) == 0) n += count;
  return n;
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

// How many views of `bag` have the ViewKey `key`.
int CountOfKey(const ViewBag& bag, const std::string& key) {
  int n = 0;
  for (const auto& [v, c] : bag)
    if (KeyOfViewString(v) == key) n += c;
  return n;
}

}  // namespace

namespace {

TauFootprint FootprintOf(const std::vector<Layout>& mutant, RunViews& views, int pivot,
                         int tau_length, const std::set<std::string>& ignored,
                         double overlay_similarity) {
  TauFootprint f;
  auto add = [&](int ia, int ib) {
    const Layout &a = mutant[ia], &b = mutant[ib];
    const Numbers &na = views.NumbersAt(ia), &nb = views.NumbersAt(ib);
    Effect d = Delta(views.Bag(ia), views.Bag(ib));
    std::set<std::string> removed = KeysOf(d.removed), added = KeysOf(d.added);
    for (const auto& k : removed)
      if (added.count(k)) f.changed.insert(k);
    std::set<std::string> recounted = KeysOf(Recounted(na, nb));  // numbers τ changed
    f.changed.insert(recounted.begin(), recounted.end());
    for (const auto& [v, n] : d.removed) f.removed.insert(v);
    if (TypeSimilarity(a, b) >= overlay_similarity) {
      std::set<std::string> grouped = GroupedKeys(a);
      for (const auto& [v, n] : d.removed)
        if (grouped.count(KeyOfViewString(v))) f.removed_rows.insert(v);
      // A row that went while a like one came into view (the bags are equal).
      for (const auto& [v, n] : RowsRemovedInOrder(a, b, ignored)) f.removed_rows.insert(v);
      for (const auto* keys : {&removed, &added, &recounted})
        f.keys.insert(keys->begin(), keys->end());
    } else {
      f.keys.insert(f.changed.begin(), f.changed.end());
    }
  };
  // Each layout τ led to, against the latest similar layout before it; when that is an overlay
  // of it (a dialog in front of the screen), also against the latest that is not, so what
  // changed behind the dialog (rows cleared by its OK) is seen.
  for (int t = pivot + 1; t <= pivot + tau_length; ++t) {
    bool latest = true;
    for (int u = t - 1; u >= 0; --u) {
      if (!Similar(mutant[u], mutant[t])) continue;
      const bool alike = TypeSimilarity(mutant[u], mutant[t]) >= overlay_similarity;
      if (latest || alike) add(u, t);
      if (alike) break;
      latest = false;
    }
  }
  add(pivot, pivot + tau_length);
  return f;
}

}  // namespace

TauFootprint Footprint(const std::vector<Layout>& mutant, int pivot, int tau_length,
                       const std::set<std::string>& ignored, double overlay_similarity) {
  RunViews views(mutant, ignored);
  return FootprintOf(mutant, views, pivot, tau_length, ignored, overlay_similarity);
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

bool SameSingleViews(const Layout& a, const Layout& b, const std::set<std::string>& ignored) {
  auto singles = [&](const Layout& l) {
    ViewBag bag;
    Groups g = FindGroups(l.screen);
    for (int i = 0; i < static_cast<int>(l.screen.widgets.size()); ++i) {
      if (g.group_of[i] >= 0 || std::count(g.groups.begin(), g.groups.end(), i)) continue;
      if (ignored.count(ViewKey(l.screen, i))) continue;
      ++bag[ViewString(l.screen, g, i)];
    }
    return bag;
  };
  return singles(a) == singles(b);
}

bool LeftInput(const Layout& pivot, const Layout& end, const std::set<std::string>& ignored) {
  auto fields = [&](const Layout& l) {
    std::map<std::string, std::multiset<std::string>> texts;  // ViewKey -> texts shown
    for (int i = 0; i < static_cast<int>(l.screen.widgets.size()); ++i)
      if (l.screen.widgets[i].editable && !ignored.count(ViewKey(l.screen, i)))
        texts[ViewKey(l.screen, i)].insert(l.screen.widgets[i].text);
    return texts;
  };
  const auto before = fields(pivot);
  for (const auto& [key, texts] : fields(end)) {
    auto it = before.find(key);
    if (it != before.end() && it->second != texts) return true;
  }
  return false;
}

namespace {

// The views (ViewStrings) of the row that seed event t acts on: the subtree of the group's child
// holding its target; empty when the target is in no group.
std::set<std::string> RowOf(const std::vector<Layout>& seed, const std::vector<Event>& events,
                            int t) {
  std::set<std::string> out;
  if (t >= static_cast<int>(events.size()) || !events[t].widget()) return out;
  const gui::Screen& s = seed[t].screen;
  int w = Resolve(s, events[t]);
  if (w < 0) return out;
  Groups groups = FindGroups(s);
  int g = groups.group_of[w];
  if (g < 0) return out;
  int row = w;
  while (s.widgets[row].parent != g) row = s.widgets[row].parent;
  for (int i = row; i < s.widgets[row].subtree_end; ++i) out.insert(ViewString(s, groups, i));
  return out;
}

}  // namespace

// What τ acted on, as texts: the text or content-desc of each widget it tapped (digits
// masked, as views are compared), the row it picked, the text it typed. Texts shorter than
// three characters name nothing in particular and are left out.
std::vector<std::string> TauData(const std::vector<Layout>& mutant,
                                 const std::vector<Event>& mutant_events, int pivot,
                                 int tau_length) {
  std::vector<std::string> out;
  auto add = [&](const std::string& text) {
    if (text.size() >= 3 && std::find(out.begin(), out.end(), text) == out.end())
      out.push_back(text);
  };
  for (int k = pivot; k < pivot + tau_length && k < static_cast<int>(mutant_events.size()) &&
                      k < static_cast<int>(mutant.size());
       ++k) {
    const Event& e = mutant_events[k];
    add(gui::MaskDigits(e.text));
    add(e.row);
    if (!e.widget()) continue;
    int w = Resolve(mutant[k].screen, e);
    if (w < 0) continue;
    add(gui::MaskDigits(mutant[k].screen.widgets[w].text));
    add(gui::MaskDigits(mutant[k].screen.widgets[w].content_desc));
  }
  return out;
}

// Whether `text` holds `words` with no letter or digit right before or after it.
bool HasWords(std::string_view text, std::string_view words) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = text.find(words); at != std::string_view::npos; at = text.find(words, at + 1)) {
    const size_t end = at + words.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end])))
      return true;
  }
  return false;
}

std::optional<Violation> CheckMutant(const std::vector<Layout>& seed,
                                     const std::vector<Event>& seed_events,
                                     const std::vector<Layout>& mutant,
                                     const std::vector<Event>& mutant_events, int pivot,
                                     int tau_length, const std::set<std::string>& ignored,
                                     const OracleSettings& settings, RunViews* seed_views) {
  // A seed that ends before its pivot (shrunk by minimisation) has nothing after τ to compare.
  if (pivot < 0 || tau_length < 0 || pivot >= static_cast<int>(seed.size())) return std::nullopt;
  const int last = std::max(pivot + tau_length,
                            MutantIndex(static_cast<int>(seed.size()) - 1, pivot, tau_length));
  if (last >= static_cast<int>(mutant.size())) return std::nullopt;  // the mutant did not finish
  std::optional<RunViews> own_seed_views;
  if (!seed_views || !seed_views->Of(seed, ignored))
    seed_views = &own_seed_views.emplace(seed, ignored);
  auto seed_bag = [&](int t) -> const ViewBag& { return seed_views->Bag(t); };
  auto seed_numbers = [&](int t) -> const Numbers& { return seed_views->NumbersAt(t); };
  RunViews mutant_views(mutant, ignored, seed_views, pivot);
  auto mutant_bag = [&](int t) -> const ViewBag& { return mutant_views.Bag(t); };
  auto mutant_numbers = [&](int t) -> const Numbers& { return mutant_views.NumbersAt(t); };
  TauFootprint footprint;
  if (settings.excuse_tau_effects || settings.skip_destructive_tau)
    footprint =
        FootprintOf(mutant, mutant_views, pivot, tau_length, ignored, settings.overlay_similarity);
  // τ deleted or changed list items: it did not only add effects, the premise of the oracle.
  if (settings.skip_destructive_tau && !footprint.removed_rows.empty()) return std::nullopt;
  if (settings.skip_tau_left_input && tau_length > 0 &&
      LeftInput(mutant[pivot], mutant[pivot + tau_length], ignored))
    return std::nullopt;
  // The screen under a layout shown over it (a dialog): the latest layout of its activity after
  // `from` and before t, when that is not alike t; -1 otherwise.
  auto under = [&](int t, int from) {
    for (int u = t - 1; u > from; --u)
      if (Similar(mutant[u], mutant[t]))
        return TypeSimilarity(mutant[u], mutant[t]) < settings.overlay_similarity ? u : -1;
    return -1;
  };
  const int end = pivot + tau_length;
  bool shared_changed =
      settings.attribute_to_rows && !SameSingleViews(mutant[pivot], mutant[end], ignored);
  if (settings.attribute_to_rows && !shared_changed && tau_length > 0) {
    // τ came back to a dialog like the pivot's, over another item (it opened another task).
    const int a = under(pivot, -1), b = under(end, pivot);
    shared_changed = a >= 0 && b >= 0 &&
                     TypeSimilarity(mutant[a], mutant[b]) >= settings.overlay_similarity &&
                     !SameSingleViews(mutant[a], mutant[b], ignored);
  }
  std::vector<std::set<std::string>> rows(seed.size());
  if (shared_changed)
    for (int t = 0; t + 1 < static_cast<int>(seed.size()); ++t)
      rows[t] = RowOf(seed, seed_events, t);
  std::optional<std::vector<std::string>> tau_data;  // TauData, made when first needed
  for (auto [i, j] : OraclePairs(seed, pivot)) {
    if (TypeSimilarity(seed[i], seed[j]) < settings.min_pair_similarity) continue;
    // τ changed shared state: what came before it is not comparable any more.
    if (shared_changed && i < pivot) continue;
    Effect seed_effect = Delta(seed_bag(i), seed_bag(j));
    seed_effect.changed = Recounted(seed_numbers(i), seed_numbers(j), /*counts_only=*/true);
    if (seed_effect.empty()) continue;

    int mi = MutantIndex(i, pivot, tau_length), mj = MutantIndex(j, pivot, tau_length);
    // The mutant is not where the seed was: not comparable. That includes a pair on another
    // screen than the seed's (τ left a screen of its own below the pivot's, and the seed's back
    // led there), and one the seed's own rule would not judge (a screen and a dialog in front of
    // it, which τ's leftovers raised).
    if (!Similar(mutant[mi], seed[i]) || !Similar(mutant[mj], seed[j]) ||
        TypeSimilarity(mutant[mi], mutant[mj]) < settings.min_pair_similarity)
      continue;
    Effect mutant_effect = Delta(mutant_bag(mi), mutant_bag(mj));
    mutant_effect.changed = Recounted(mutant_numbers(mi), mutant_numbers(mj));
    const ViewBag* before = &mutant_bag(mi);
    ViewBag with_tau;  // mutant_bag(mi) with τ's net effect applied
    // τ's net effect on the pair's screen: from the latest layout like mi's at or before the
    // pivot to the latest like it that τ showed (τ may have added a row on another screen than
    // the pivot's and come back).
    auto latest_like_mi = [&](int from, int to) {
      for (int u = to; u > from; --u)
        if (Similar(mutant[u], mutant[mi]) &&
            TypeSimilarity(mutant[u], mutant[mi]) >= settings.min_pair_similarity)
          return u;
      return -1;
    };
    const int tau_from = mi <= pivot && tau_length > 0 ? latest_like_mi(-1, pivot) : -1;
    const int tau_to = tau_from >= 0 ? latest_like_mi(pivot, pivot + tau_length) : -1;
    if (settings.count_tau_effect && tau_to >= 0) {
      with_tau = mutant_bag(mi);
      const Effect tau = Delta(mutant_bag(tau_from), mutant_bag(tau_to));
      for (const auto& [v, n] : tau.added) with_tau[v] += n;
      for (const auto& [v, n] : tau.removed)
        if (auto it = with_tau.find(v); it != with_tau.end() && (it->second -= n) <= 0)
          with_tau.erase(it);
      before = &with_tau;
    }
    Effect missing = MissingFromMutant(seed_effect, seed_bag(j), *before, mutant_bag(mj));
    // A number the seed moved from what it showed at i, that the mutant shows at both ends: it
    // started where the seed's did and did not move (a removal the mutant could make and did
    // not, as above). Not judged when the mutant started elsewhere: a clock that moved on while
    // τ ran, a count τ changed.
    for (const auto& [v, n] : seed_effect.changed) {
      const std::string& from = seed_numbers(i).at(v);
      auto a = mutant_numbers(mi).find(v), b = mutant_numbers(mj).find(v);
      if (a != mutant_numbers(mi).end() && b != mutant_numbers(mj).end() && a->second == from &&
          b->second == from)
        missing.changed[v] = 1;
    }
    if (settings.read_windows && !missing.empty()) {
      if (!missing.added.empty()) {
        // ViewKeys of views in the rows of the mutant's lists that scroll, in its window or in
        // the seed's rows of the same list (a note only the seed's own row shows may be below).
        std::set<std::string> windowed;
        auto collect = [&](const std::vector<ViewBag>& rows) {
          for (const ViewBag& row : rows)
            for (const auto& [v, n] : row) windowed.insert(KeyOfViewString(v));
        };
        const auto seed_rows = ScrollingRows(seed[j], ignored, /*all=*/true);
        for (const auto& [list, rows] : ScrollingRows(mutant[mj], ignored)) {
          collect(rows);
          if (auto in_seed = seed_rows.find(list); in_seed != seed_rows.end())
            collect(in_seed->second);
        }
        for (auto it = missing.added.begin(); it != missing.added.end();)
          it = windowed.count(KeyOfViewString(it->first)) ? missing.added.erase(it) : std::next(it);
      }
      if (!missing.removed.empty()) {
        // From after τ when the pair spans it: τ's own removals are not the seed's.
        const Layout& from = mutant[tau_to >= 0 ? tau_to : mi];
        ViewBag went = RowsRemovedInOrder(from, mutant[mj], ignored);
        // A list that scrolled may hide the removal of its last row where the mutant's last row
        // is like it: a like row came up from below (one τ added: a second "New item"), and the
        // list may now show all it holds (then the rows after the last one it still shows went
        // too). The last row went too when that makes as many rows go as went in the seed's pair.
        const auto after = ScrollingRows(mutant[mj], ignored, /*all=*/true);
        const auto after_scrolls = ScrollingRows(mutant[mj], ignored);
        const auto seed_i = ScrollingRows(seed[i], ignored, /*all=*/true);
        const auto seed_j = ScrollingRows(seed[j], ignored, /*all=*/true);
        const auto seed_j_scrolls = ScrollingRows(seed[j], ignored);
        for (const auto& [list, rows] : ScrollingRows(from, ignored)) {
          auto w = after.find(list);
          auto si = seed_i.find(list), sj = seed_j.find(list);
          if (rows.empty() || w == after.end() || w->second.empty() ||
              w->second.back() != rows.back() || si == seed_i.end() || sj == seed_j.end())
            continue;
          const size_t seed_gone =
              RowsGone(si->second, sj->second, !seed_j_scrolls.count(list)).size();
          const std::span<const ViewBag> a(rows), b(w->second);
          const size_t others_gone =
              RowsGone(a.first(a.size() - 1), b.first(b.size() - 1), !after_scrolls.count(list))
                  .size();
          if (others_gone + 1 == seed_gone)
            for (const auto& [v, n] : rows.back()) went[v] += n;
        }
        for (auto it = missing.removed.begin(); it != missing.removed.end();)
          it = Count(went, it->first) > 0 ? missing.removed.erase(it) : std::next(it);
      }
    }
    if (settings.excuse_tau_effects && !missing.empty()) {
      // Single views (in no group) that τ itself wrote may show τ's content afterwards.
      std::set<std::string> grouped_i = GroupedKeys(seed[i]), grouped_j = GroupedKeys(seed[j]);
      auto excuse = [&](ViewBag& bag, const std::set<std::string>& grouped) {
        for (auto it = bag.begin(); it != bag.end();) {
          std::string k = KeyOfViewString(it->first);
          bool excused =
              grouped.count(k) ? footprint.changed.count(k) > 0 : footprint.keys.count(k) > 0;
          it = excused ? bag.erase(it) : std::next(it);
        }
      };
      excuse(missing.removed, grouped_i);
      excuse(missing.added, grouped_j);
      excuse(missing.changed, grouped_j);
      for (auto it = missing.added.begin(); it != missing.added.end();)
        it = footprint.removed.count(it->first) ? missing.added.erase(it) : std::next(it);
      // A single view the seed shows at j (an empty list's placeholder, say) may give way to
      // rows the mutant shows there and the seed does not: data τ added.
      bool extra_rows = false;
      std::set<std::string> mutant_grouped = GroupedKeys(mutant[mj]);
      for (const auto& [v, n] : mutant_bag(mj))
        extra_rows |= mutant_grouped.count(KeyOfViewString(v)) && n > Count(seed_bag(j), v);
      if (extra_rows)
        for (auto it = missing.added.begin(); it != missing.added.end();)
          it = !grouped_j.count(KeyOfViewString(it->first)) ? missing.added.erase(it)
                                                            : std::next(it);
    }
    if (settings.count_window_rows && !missing.added.empty() && !seed_effect.removed.empty()) {
      // Rows that came into view as others left: compared by number only.
      const std::set<std::string> grouped = GroupedKeys(seed[j]);
      const std::set<std::string> removed_keys = KeysOf(seed_effect.removed);
      for (auto it = missing.added.begin(); it != missing.added.end();) {
        const std::string key = KeyOfViewString(it->first);
        const bool window =
            grouped.count(key) && removed_keys.count(key) &&
            CountOfKey(mutant_effect.added, key) >= CountOfKey(seed_effect.added, key);
        it = window ? missing.added.erase(it) : std::next(it);
      }
    }
    if (settings.excuse_tau_data && !missing.empty()) {
      if (!tau_data) tau_data = TauData(mutant, mutant_events, pivot, tau_length);
      auto names_tau_data = [&](const std::string& v) {
        const std::string_view content = ContentOfViewString(v);
        return std::any_of(tau_data->begin(), tau_data->end(),
                           [&](const std::string& data) { return HasWords(content, data); });
      };
      // A view the seed added that the mutant shows with τ's data instead.
      std::set<std::string> with_tau_data;  // ViewKeys
      for (const auto& [v, n] : mutant_bag(mj))
        if (n > Count(seed_bag(j), v) && names_tau_data(v))
          with_tau_data.insert(KeyOfViewString(v));
      for (auto it = missing.added.begin(); it != missing.added.end();)
        it = with_tau_data.count(KeyOfViewString(it->first)) ? missing.added.erase(it)
                                                             : std::next(it);
      // A row the seed removed that the mutant still shows, named by τ's data, while the mutant
      // shows more views of its key than the seed, where τ, between the pair or before it, never
      // showed its screen: τ made a like row elsewhere ("Reading" tapped on the main screen
      // starts a second Reading entry, and the seed's later note goes to it), and the one left
      // may be τ's. (Where τ showed the screen, its rows are counted above, and a row τ only
      // opened is the seed's to remove; unless τ acted on another screen after it showed it, as
      // [Diary, back, Cooking] does, and the pair, after τ, starts with more rows in a list than
      // the seed's: τ made one it did not see.)
      const int looked = mi <= pivot ? tau_to : latest_like_mi(pivot, pivot + tau_length);
      bool acted_after = false;
      for (int t = looked + 1; looked >= 0 && t < pivot + tau_length; ++t)
        acted_after |= !Similar(mutant[t], mutant[mi]);
      auto more_rows = [&] {
        const auto seed_rows = ScrollingRows(seed[i], ignored, /*all=*/true);
        for (const auto& [list, rows] : ScrollingRows(mutant[mi], ignored, /*all=*/true)) {
          auto it = seed_rows.find(list);
          if (rows.size() > (it == seed_rows.end() ? 0 : it->second.size())) return true;
        }
        return false;
      };
      const bool unseen_rows = mi > pivot && acted_after && more_rows();
      if ((looked < 0 || unseen_rows) && !missing.removed.empty()) {
        const std::set<std::string> grouped = GroupedKeys(seed[i]);
        for (auto it = missing.removed.begin(); it != missing.removed.end();) {
          const std::string key = KeyOfViewString(it->first);
          const std::string row = RowPrefix(it->first);
          const bool more =
              CountOfKey(mutant_bag(mj), key) - CountOfKey(seed_bag(j), key) >= it->second ||
              (!row.empty() && CountInRow(mutant_bag(mj), row) > CountInRow(seed_bag(j), row));
          const bool like = grouped.count(key) && names_tau_data(it->first) && more;
          it = like ? missing.removed.erase(it) : std::next(it);
        }
      }
    }
    if (i < pivot && !missing.empty()) {
      // Effects the seed had already made before the insertion (seen in a layout like l_j, or
      // like l_i, between i and the pivot) are τ's to change, not the seed's rest to make.
      for (int t = i + 1; t <= pivot; ++t) {
        if (Similar(seed[t], seed[j]))
          for (auto it = missing.added.begin(); it != missing.added.end();)
            it = Count(seed_bag(t), it->first) >= Count(seed_bag(j), it->first)
                     ? missing.added.erase(it)
                     : std::next(it);
        if (!Similar(seed[t], seed[i])) continue;
        for (auto it = missing.removed.begin(); it != missing.removed.end();)
          it = Count(seed_bag(t), it->first) < Count(seed_bag(i), it->first)
                   ? missing.removed.erase(it)
                   : std::next(it);
        // A number the seed had already changed.
        for (auto it = missing.changed.begin(); it != missing.changed.end();) {
          auto shown = seed_numbers(t).find(it->first);
          it = shown != seed_numbers(t).end() && shown->second != seed_numbers(i).at(it->first)
                   ? missing.changed.erase(it)
                   : std::next(it);
        }
      }
    }
    if (shared_changed) {
      // Keep only what lies in the row of a seed event after the insertion.
      std::set<std::string> in_rows;
      for (int t = std::max(i, pivot); t < j; ++t) in_rows.insert(rows[t].begin(), rows[t].end());
      for (auto* bag : {&missing.removed, &missing.added, &missing.changed})
        for (auto it = bag->begin(); it != bag->end();)
          it = in_rows.count(it->first) ? std::next(it) : bag->erase(it);
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
