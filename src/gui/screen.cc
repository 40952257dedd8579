#include "gui/screen.h"

#include <charconv>

namespace roam::gui {

std::string Screen::PathOf(int index) const {
  if (index < 0 || index >= static_cast<int>(widgets.size())) return "";
  // Walk up collecting child indices; the root's "child index" is its window number.
  int chain[64];
  int n = 0;
  for (int i = index; i >= 0 && n < 64; i = widgets[i].parent) chain[n++] = widgets[i].child_index;
  std::string path;
  for (int k = n - 1; k >= 0; --k) {
    path += std::to_string(chain[k]);
    if (k) path += '/';
  }
  return path;
}

int Screen::FindPath(std::string_view path) const {
  int node = -1;  // -1: the virtual parent of all windows
  size_t pos = 0;
  while (pos <= path.size() && !path.empty()) {
    size_t slash = path.find('/', pos);
    std::string_view part =
        path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos);
    int want = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), want);
    if (ec != std::errc() || p != part.data() + part.size()) return -1;
    // Children of `node` are scanned in pre-order: start right after it, skip subtrees.
    int i = node + 1;
    int end = node < 0 ? static_cast<int>(widgets.size()) : widgets[node].subtree_end;
    int found = -1;
    while (i < end) {
      if (widgets[i].child_index == want) {
        found = i;
        break;
      }
      i = widgets[i].subtree_end;
    }
    if (found < 0) return -1;
    node = found;
    if (slash == std::string_view::npos) return node;
    pos = slash + 1;
  }
  return -1;
}

void Screen::Link() {
  const int n = static_cast<int>(widgets.size());
  int windows = 0;
  std::vector<int> next_child(n, 0);
  for (int i = 0; i < n; ++i) {
    Widget& w = widgets[i];
    if (w.parent < 0) {
      w.depth = 0;
      w.child_index = windows++;
    } else {
      w.depth = widgets[w.parent].depth + 1;
      w.child_index = next_child[w.parent]++;
    }
    w.subtree_end = i + 1;
  }
  // Extend each ancestor's subtree_end to cover its descendants (children follow parents).
  for (int i = n - 1; i >= 0; --i) {
    int p = widgets[i].parent;
    if (p >= 0 && widgets[p].subtree_end < widgets[i].subtree_end)
      widgets[p].subtree_end = widgets[i].subtree_end;
  }
}

}  // namespace roam::gui
