#include "fuzz/view_bag.h"

#include <algorithm>

#include <fmt/format.h>

#include "gui/abstraction.h"

namespace roam::fuzz {

std::string ViewKey(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  if (!w.resource_id.empty()) return w.cls + "|" + w.resource_id;
  return fmt::format("{}||d{}", w.cls, w.depth);
}

View::View(std::string_view key, std::string_view content, std::string_view group)
    : key_size_(key.size()), content_size_(content.size()) {
  written_.clear();
  written_.reserve(key.size() + content.size() + group.size() + 2);
  written_.append(key).append(1, '\t').append(content);
  if (!group.empty()) written_.append(1, '\t').append(group);
}

std::string_view View::RowPrefix() const {
  // Read from the written form, as when views were strings.
  const size_t at = written_.find('\t') + 1;
  if (at >= written_.size() || written_[at] != '[') return {};
  const size_t end = written_.find(']', at);
  return end == std::string::npos ? std::string_view()
                                  : std::string_view(written_).substr(at, end - at + 1);
}

View ViewOf(const gui::Screen& screen, const Groups& groups, int index) {
  const gui::Widget& w = screen.widgets[index];
  const std::string row = RowLabel(screen, groups, index);
  const int group = groups.group_of[index];
  return View(ViewKey(screen, index),
              fmt::format("{}{}|{}|{}{}{}", row.empty() ? "" : fmt::format("[{}]", row),
                          gui::MaskDigits(w.text), gui::MaskDigits(w.content_desc),
                          w.checked ? "C" : "c", w.enabled ? "E" : "e", w.selected ? "S" : "s"),
              group < 0 ? std::string() : ViewKey(screen, group));
}

std::string ViewString(const gui::Screen& screen, const Groups& groups, int index) {
  return ViewOf(screen, groups, index).written();
}

std::string KeyOfViewString(const std::string& view) { return view.substr(0, view.find('\t')); }

std::string_view ContentOfViewString(std::string_view view) {
  const size_t tab = view.find('\t');
  if (tab == std::string_view::npos) return {};
  view.remove_prefix(tab + 1);
  return view.substr(0, view.find('\t'));
}

namespace {

// Whether the check looks at widget i (ViewsOf).
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
    View view = ViewOf(s, groups, i);
    if (numbers && (has_digit(w.text) || has_digit(w.content_desc)))
      (*numbers)[view] = w.text + "|" + w.content_desc;
    ++bag[std::move(view)];
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

ViewBag Minus(const ViewBag& a, const ViewBag& b) {
  ViewBag out;
  for (const auto& [v, n] : a) {
    auto it = b.find(v);
    int left = n - (it == b.end() ? 0 : it->second);
    if (left > 0) out.emplace_hint(out.end(), v, left);  // in a's order
  }
  return out;
}

int CountOf(const ViewBag& bag, const View& view) {
  auto it = bag.find(view);
  return it == bag.end() ? 0 : it->second;
}

int CountOfKey(const ViewBag& bag, std::string_view key) {
  int n = 0;
  for (const auto& [v, c] : bag)
    if (v.key() == key) n += c;
  return n;
}

int CountInRow(const ViewBag& bag, std::string_view row) {
  int n = 0;
  for (const auto& [v, count] : bag) {
    const std::string& w = v.written();  // as when views were strings
    if (w.compare(w.find('\t') + 1, row.size(), row) == 0) n += count;
  }
  return n;
}

KeySet KeysOf(const ViewBag& bag) {
  KeySet out;
  for (const auto& [v, n] : bag) out.emplace(v.key());
  return out;
}

KeySet GroupedKeys(const Layout& layout) {
  KeySet out;
  Groups groups = FindGroups(layout.screen);
  for (int i = 0; i < static_cast<int>(layout.screen.widgets.size()); ++i)
    if (groups.group_of[i] >= 0) out.insert(ViewKey(layout.screen, i));
  return out;
}

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
        if (Compared(s, i, ignored)) ++row[ViewOf(s, groups, i)];
      rows.push_back(std::move(row));
    }
  }
  return out;
}

bool ShowsAllRows(const Layout& before, const Layout& after, const std::string& list) {
  // The first node of that key; -1 when none.
  auto node = [&](const gui::Screen& s) {
    for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
      if (ViewKey(s, i) == list) return i;
    return -1;
  };
  const int a = node(after.screen), b = node(before.screen);
  if (a < 0 || !after.screen.widgets[a].scrollable) return true;
  return b >= 0 &&
         after.screen.widgets[a].bounds.height() < before.screen.widgets[b].bounds.height();
}

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

ViewBag RowsRemovedInOrder(const Layout& a, const Layout& b, const std::set<std::string>& ignored) {
  ViewBag out;
  const auto before = ScrollingRows(a, ignored);
  auto after = ScrollingRows(b, ignored);
  for (const auto& [list, rows_a] : before)
    for (size_t k : RowsGone(rows_a, after[list], /*shows_all=*/false))
      for (const auto& [v, n] : rows_a[k]) out[v] += n;
  return out;
}

bool SameSingleViews(const Layout& a, const Layout& b, const std::set<std::string>& ignored) {
  auto singles = [&](const Layout& l) {
    ViewBag bag;
    Groups g = FindGroups(l.screen);
    for (int i = 0; i < static_cast<int>(l.screen.widgets.size()); ++i) {
      if (g.group_of[i] >= 0 || std::count(g.groups.begin(), g.groups.end(), i)) continue;
      if (ignored.count(ViewKey(l.screen, i))) continue;
      ++bag[ViewOf(l.screen, g, i)];
    }
    return bag;
  };
  return singles(a) == singles(b);
}

}  // namespace roam::fuzz
