#include "fuzz/views.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <set>

#include "base/files.h"
#include "gui/abstraction.h"

namespace roam::fuzz {

namespace {

constexpr std::array<std::string_view, 6> kListClasses = {
    "ListView", "RecyclerView", "GridView", "ExpandableListView", "ViewPager", "TabLayout"};

bool IsListClass(const std::string& cls) {
  for (auto name : kListClasses)
    if (cls.find(name) != std::string::npos) return true;
  return false;
}

std::vector<int> ChildrenOf(const gui::Screen& screen, int node) {
  std::vector<int> out;
  for (int c = node + 1; c < screen.widgets[node].subtree_end; c = screen.widgets[c].subtree_end)
    out.push_back(c);
  return out;
}

bool IsGroup(const gui::Screen& screen, int node) {
  const gui::Widget& w = screen.widgets[node];
  if (w.parent < 0) return false;  // a window root holds everything: not a group
  std::vector<int> children = ChildrenOf(screen, node);
  if (children.empty()) return false;
  if (IsListClass(w.cls)) return true;
  if (children.size() < 2) return false;
  std::map<std::string, int> seen;
  for (int c : children)
    if (++seen[WidgetType(screen, c)] >= 2) return true;
  return false;
}

std::string LabelOfRow(const gui::Screen& screen, int row);
void LabelRows(const gui::Screen& screen, Groups& g);

// The row `index` sits in: the child of its nearest group that holds it; -1 in no group.
int RowOf(const gui::Screen& screen, int index) {
  for (int row = index, p = screen.widgets[index].parent; p >= 0;
       row = p, p = screen.widgets[p].parent)
    if (IsGroup(screen, p)) return row;
  return -1;
}

}  // namespace

Groups FindGroups(const gui::Screen& screen) {
  Groups g;
  const int n = static_cast<int>(screen.widgets.size());
  g.group_of.assign(n, -1);
  std::vector<char> is_group(n, 0);
  for (int i = 0; i < n; ++i) {
    is_group[i] = IsGroup(screen, i);
    if (is_group[i]) g.groups.push_back(i);
  }
  // Pre-order: a parent's answer is known before its children's.
  for (int i = 0; i < n; ++i) {
    int p = screen.widgets[i].parent;
    if (p < 0) continue;
    g.group_of[i] = is_group[p] ? p : g.group_of[p];
  }
  LabelRows(screen, g);
  return g;
}

std::string RowLabel(const gui::Screen& /*screen*/, const Groups& groups, int index) {
  return index < static_cast<int>(groups.row_label.size()) ? groups.row_label[index] : "";
}

std::string RowLabel(const gui::Screen& screen, int index) {
  if (index < 0 || index >= static_cast<int>(screen.widgets.size())) return "";
  const int row = RowOf(screen, index);
  return row < 0 ? "" : LabelOfRow(screen, row);
}

std::string ShownName(const gui::Screen& screen, int index) {
  if (index < 0 || index >= static_cast<int>(screen.widgets.size())) return "";
  const int in_row = RowOf(screen, index);
  const int row = in_row < 0 ? index : in_row;
  for (int i = row; i < screen.widgets[row].subtree_end; ++i)
    if (!screen.widgets[i].editable && !screen.widgets[i].text.empty())
      return screen.widgets[i].text;
  return "";
}

namespace {

// The first text (or content-desc) in the row's subtree that is not a text field's, digits
// masked; "" when none.
std::string LabelOfRow(const gui::Screen& screen, int row) {
  for (int i = row; i < screen.widgets[row].subtree_end; ++i) {
    const gui::Widget& w = screen.widgets[i];
    if (w.editable) continue;
    if (!w.text.empty()) return gui::MaskDigits(w.text);
    if (!w.content_desc.empty()) return gui::MaskDigits(w.content_desc);
  }
  return "";
}

void LabelRows(const gui::Screen& screen, Groups& g) {
  g.row_label.assign(screen.widgets.size(), "");
  for (int group : g.groups)
    for (int row : ChildrenOf(screen, group)) {
      const std::string label = LabelOfRow(screen, row);
      for (int i = row; i < screen.widgets[row].subtree_end; ++i)
        if (g.group_of[i] == group) g.row_label[i] = label;
    }
}

}  // namespace

bool Independent(const gui::Screen& screen, const Groups& groups, int w1, int w2) {
  if (w1 == w2) return false;
  int g1 = groups.group_of[w1], g2 = groups.group_of[w2];
  if (g1 < 0 && g2 < 0) return false;
  if (g1 != g2) return true;
  // The same group: independent when siblings of one type. A view deeper in a row is compared
  // through the row (the group's child) it sits in.
  auto row_of = [&](int w) {
    while (screen.widgets[w].parent != g1) w = screen.widgets[w].parent;
    return w;
  };
  int r1 = row_of(w1), r2 = row_of(w2);
  if (r1 == r2) return false;
  return WidgetType(screen, r1) == WidgetType(screen, r2) &&
         WidgetType(screen, w1) == WidgetType(screen, w2);
}

int MatchSignature(const gui::Screen& screen, const std::vector<int>& candidates,
                   const std::string& signature) {
  // The type is the signature without its last two fields (text and desc).
  std::string type = signature;
  for (int k = 0; k < 2; ++k) {
    size_t bar = type.rfind('|');
    if (bar != std::string::npos) type.resize(bar);
  }
  int best = -1;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (int i : candidates) {
    if (WidgetType(screen, i) != type) continue;
    std::string sig = WidgetSignature(screen, i);
    if (sig == signature) return i;
    size_t d = EditDistance(sig, signature);
    if (d < best_distance) best = i, best_distance = d;
  }
  return best;
}

void ActiveViews::Activate(const gui::Screen& screen, const Groups& groups, int view) {
  if (view < 0) return;
  int g = groups.group_of[view];
  if (g < 0) return;
  std::string gs = WidgetSignature(screen, g), vs = WidgetSignature(screen, view);
  for (auto& [group, active] : entries)
    if (group == gs) {
      active = vs;
      return;
    }
  entries.emplace_back(gs, vs);
}

std::vector<int> ActiveViews::In(const gui::Screen& screen, const Groups& groups) const {
  std::vector<int> out;
  for (const auto& [group, active] : entries) {
    int g = MatchSignature(screen, groups.groups, group);
    if (g < 0) continue;
    std::vector<int> inside;
    for (int i = g + 1; i < screen.widgets[g].subtree_end; ++i) inside.push_back(i);
    int a = MatchSignature(screen, inside, active);
    if (a >= 0) out.push_back(a);
  }
  return out;
}

ActiveViews UpdateActiveViews(const Layout& layout, const std::vector<const Layout*>& history,
                              const std::vector<const ActiveViews*>& active) {
  ActiveViews h;
  Groups groups = FindGroups(layout.screen);
  for (size_t k = history.size(); k-- > 0;) {
    if (!Similar(layout, *history[k])) continue;
    for (const auto& [group, view] : active[k]->entries) {
      int g = MatchSignature(layout.screen, groups.groups, group);
      if (g < 0) continue;
      std::vector<int> inside;
      for (int i = g + 1; i < layout.screen.widgets[g].subtree_end; ++i) inside.push_back(i);
      int a = MatchSignature(layout.screen, inside, view);
      if (a < 0) continue;
      h.entries.emplace_back(WidgetSignature(layout.screen, g), WidgetSignature(layout.screen, a));
    }
    break;  // the latest similar layout only
  }
  return h;
}

std::vector<ActiveViews> TrackActiveViews(const std::vector<Layout>& layouts,
                                          const std::vector<Event>& events) {
  std::vector<ActiveViews> out(layouts.size());
  std::vector<const Layout*> history;
  std::vector<const ActiveViews*> active;
  for (size_t t = 0; t < layouts.size(); ++t) {
    out[t] = UpdateActiveViews(layouts[t], history, active);
    if (t < events.size() && events[t].widget()) {
      int target = Resolve(layouts[t].screen, events[t]);
      if (target >= 0) out[t].Activate(layouts[t].screen, FindGroups(layouts[t].screen), target);
    }
    history.push_back(&layouts[t]);
    active.push_back(&out[t]);
  }
  return out;
}

}  // namespace roam::fuzz
