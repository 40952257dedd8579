// Genie's independent and active views (shared/seeds/001, "从Seeds中确定独立页面和活跃状态").
//   - Groups are inner nodes holding like children: a list class (ListView, RecyclerView,
//     GridView, ...) with children, or any other non-root node with at least two children of
//     the same type. Group(w) is the nearest group above w (-1: w is in no group).
//   - w1 and w2 are independent when their groups differ, or they are siblings of the same
//     type in one group; a view in no group is independent of every view in a group (two views
//     in no group are not).
//   - Active views h: group -> its active view, named by signatures so they carry across
//     layouts; UpdateActiveViews carries h from the latest similar earlier layout.
// Plain functions and value types: thread-compatible.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fuzz/layout.h"

namespace roam::fuzz {

struct Groups {
  std::vector<int> group_of;           // per widget: the index of Group(w), or -1
  std::vector<int> groups;             // the group nodes, in widget order
  std::vector<std::string> row_label;  // per widget in a group: its RowLabel
};
Groups FindGroups(const gui::Screen& screen);

// The label of the row a view sits in: the first text (or content-desc) of a view that is not a
// text field in the subtree of the group's child that holds it, digit runs masked; "" for a view
// in no group. It tells like views of different rows apart ("Playing" in the FIP row is not
// "Playing" in the SomaFM row).
std::string RowLabel(const gui::Screen& screen, const Groups& groups, int index);
// The same for one view, from the groups above it only (FindGroups looks at every node).
std::string RowLabel(const gui::Screen& screen, int index);

// The name a view shows a person: the first text of a view that is not a text field in the row
// the view sits in (in no group: in the view's own subtree), digits kept; "" when none. A seed's
// click on a row of notes names the note ("Shopping list.md").
std::string ShownName(const gui::Screen& screen, int index);

// w1 ∦ w2 as above (a view is not independent of itself).
bool Independent(const gui::Screen& screen, const Groups& groups, int w1, int w2);

// h: (signature of a group node, signature of its active view).
struct ActiveViews {
  std::vector<std::pair<std::string, std::string>> entries;
  // Makes `view` the active view of its group (rule 1 and 2 of the notes; views in no group
  // are never active, and other groups keep theirs: rule 3).
  void Activate(const gui::Screen& screen, const Groups& groups, int view);
  // Indices of the active views of `screen` (their group and view both found in it).
  std::vector<int> In(const gui::Screen& screen, const Groups& groups) const;
};

// The widget of `screen` among `candidates` whose signature is `signature`, else the nearest by
// edit distance among those of the same type; -1 when none.
int MatchSignature(const gui::Screen& screen, const std::vector<int>& candidates,
                   const std::string& signature);

// update_active_views(l, <L, H>): from the latest layout of `history` similar to `layout`, every
// (w_g, w_a) of its h whose group and active view have like widgets in `layout` (w_g' ~ w_g and
// w_a' ~ w_a, w_a' inside w_g') is carried over. history[i] pairs with active[i].
ActiveViews UpdateActiveViews(const Layout& layout, const std::vector<const Layout*>& history,
                              const std::vector<const ActiveViews*>& active);

// The active views along a run: h_t for each layout t, carried by UpdateActiveViews from the
// earlier layouts, then with the target of event t made active (steps 2-7 of the notes).
// events[t] acts on layouts[t]; layouts has one more entry than events (or as many).
std::vector<ActiveViews> TrackActiveViews(const std::vector<Layout>& layouts,
                                          const std::vector<Event>& events);

}  // namespace roam::fuzz
