#include "sim/bug_distance.h"

#include <algorithm>
#include <deque>

namespace roam::sim {

namespace {

// Every handler a page holds: its widgets' (rows and children too), its menu's, its own.
void PageHandlers(const std::vector<WidgetSpec>& widgets, std::vector<int>& out) {
  for (const auto& w : widgets) {
    for (int h : w.on)
      if (h >= 0) out.push_back(h);
    PageHandlers(w.children, out);
    PageHandlers(w.row, out);
  }
}

std::vector<int> PageHandlers(const PageSpec& page) {
  std::vector<int> out;
  PageHandlers(page.widgets, out);
  for (const auto& item : page.menu)
    if (item.on_click >= 0) out.push_back(item.on_click);
  for (int h : page.on)
    if (h >= 0) out.push_back(h);
  for (const auto& [key, h] : page.keys)
    if (h >= 0) out.push_back(h);
  for (const auto& [action, h] : page.broadcasts)
    if (h >= 0) out.push_back(h);
  return out;
}

}  // namespace

BugDistance::BugDistance(const AppSpec& spec, const std::string& bug_id)
    : screens_(static_cast<int>(spec.screens().size())), start_(spec.start()) {
  const int bug = spec.FindBug(bug_id);
  const int pages = screens_ + static_cast<int>(spec.dialogs().size());
  to_bug_.assign(static_cast<size_t>(pages), kFar);
  // Forward moves, reversed: for each page, the pages that lead to it.
  std::vector<std::vector<int>> from(static_cast<size_t>(pages));
  std::deque<int> queue;
  for (int p = 0; p < pages; ++p) {
    const PageSpec& page = p < screens_ ? spec.screens()[p] : spec.dialogs()[p - screens_];
    for (int h : PageHandlers(page)) {
      for (const Effect& e : spec.handlers()[h].effects) {
        if (e.verb == Verb::kNavigate && e.target >= 0) from[e.target].push_back(p);
        if (e.verb == Verb::kDialog && e.target >= 0) from[screens_ + e.target].push_back(p);
        const bool raises = (e.verb == Verb::kCrash || e.verb == Verb::kHang) && !e.fix;
        if (bug >= 0 && raises && e.bug == bug && to_bug_[p] != 0) {
          to_bug_[p] = 0;
          queue.push_back(p);
        }
      }
    }
  }
  while (!queue.empty()) {
    const int p = queue.front();
    queue.pop_front();
    for (int q : from[p])
      if (to_bug_[q] == kFar) {
        to_bug_[q] = to_bug_[p] + 1;
        queue.push_back(q);
      }
  }
}

int BugDistance::From(const SimState& state) const {
  auto page = [&](int p) {
    return p >= 0 && static_cast<size_t>(p) < to_bug_.size() ? to_bug_[p] : kFar;
  };
  // Out of the app: a launch shows the start screen.
  if (!state.running || !state.foreground || state.stack.empty()) return 1 + page(start_);
  int best = kFar, backs = 0;
  if (state.has_dialog) {
    best = page(screens_ + state.dialog.page);
    backs = 1;
  }
  for (auto f = state.stack.rbegin(); f != state.stack.rend(); ++f, ++backs)
    best = std::min(best, backs + page(f->page));
  // A restart (one action) shows the start screen.
  return std::min(best, 1 + page(start_));
}

}  // namespace roam::sim
