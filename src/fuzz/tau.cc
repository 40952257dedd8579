#include "fuzz/tau.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "fuzz/effects.h"
#include "gui/abstraction.h"

namespace roam::fuzz {

TauFootprint Footprint(const std::vector<Layout>& mutant, int pivot, int tau_length,
                       const std::set<std::string>& ignored, double overlay_similarity) {
  RunViews views(mutant, ignored);
  return Footprint(mutant, views, pivot, tau_length, ignored, overlay_similarity);
}

TauFootprint Footprint(const std::vector<Layout>& mutant, RunViews& views, int pivot,
                       int tau_length, const std::set<std::string>& ignored,
                       double overlay_similarity) {
  TauFootprint f;
  auto add = [&](int ia, int ib) {
    const Layout &a = mutant[ia], &b = mutant[ib];
    const Numbers &na = views.NumbersAt(ia), &nb = views.NumbersAt(ib);
    Effect d = Delta(views.Bag(ia), views.Bag(ib));
    KeySet removed = KeysOf(d.removed), added = KeysOf(d.added);
    for (const auto& k : removed)
      if (added.count(k)) f.changed.insert(k);
    KeySet recounted = KeysOf(Recounted(na, nb));  // numbers τ changed
    f.changed.insert(recounted.begin(), recounted.end());
    for (const auto& [v, n] : d.removed) f.removed.insert(v);
    if (TypeSimilarity(a, b) >= overlay_similarity) {
      KeySet grouped = GroupedKeys(a);
      for (const auto& [v, n] : d.removed)
        if (grouped.count(v.key())) f.removed_rows.insert(v);
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

bool HasWords(std::string_view text, std::string_view words) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = text.find(words); at != std::string_view::npos; at = text.find(words, at + 1)) {
    const size_t end = at + words.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end])))
      return true;
  }
  return false;
}

}  // namespace roam::fuzz
