// The check's reading of a layout (fuzz/independent_view.h): each view it compares as a View (its
// ViewKey, what it shows, its group; bounds left out), a layout as the bag of its Views (ViewBag),
// the numbers views show, RunViews (the bags of a run, made once), and the rows of lists that
// scroll. Value types and plain functions; RunViews is not thread-safe.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/layout.h"
#include "fuzz/views.h"

namespace roam::fuzz {

// The identity of a view without its content: class|resource-id (|depth when it has no
// resource-id). Views are ignored, and τ's own effects excused, by this key.
std::string ViewKey(const gui::Screen& screen, int index);

// A view as the check compares it. Its content holds flags (checked, enabled, selected) and, for a
// view in a group, its RowLabel ("[Cinema]Photo of Cinema"), so like views of different rows
// differ; its group, so a row of one list is not a row of another (a video of the feed that τ
// bookmarked shows in the bookmarks list with the same views: the feed's row still went). It
// keeps its parts written out as one string, "key\tcontent" or "key\tcontent\tgroup" (ViewString),
// and where each ends: views order and compare as that string (a bag iterates, and a violation
// names its first view, in that order), and a copy costs one string.
class View {
 public:
  View() = default;
  View(std::string_view key, std::string_view content, std::string_view group = {});

  std::string_view key() const { return std::string_view(written_).substr(0, key_size_); }
  // "[row label]" (in a row), text|content-desc|flags, digits masked ("[Cinema]Photo of #|cEs").
  std::string_view content() const {
    return std::string_view(written_).substr(key_size_ + 1, content_size_);
  }
  // The ViewKey of its group; "" for a view in no group.
  std::string_view group() const {
    const size_t at = key_size_ + 1 + content_size_;
    return at < written_.size() ? std::string_view(written_).substr(at + 1) : std::string_view();
  }
  // "[label]" of the row it sits in; "" for a view in no row.
  std::string_view RowPrefix() const;
  // Its written form (ViewString).
  const std::string& written() const { return written_; }
  // For readers of views as strings (run/fuzz/fuzz_report.cc's DescribeView, which finds a view
  // in a layout by its ViewString). Drop once they read the parts.
  operator const std::string&() const { return written_; }

  friend bool operator==(const View& a, const View& b) { return a.written_ == b.written_; }
  friend bool operator<(const View& a, const View& b) { return a.written_ < b.written_; }

 private:
  std::string written_ = "\t";
  size_t key_size_ = 0, content_size_ = 0;
};

// ViewKeys, looked up by a View's key() as well.
using KeySet = std::set<std::string, std::less<>>;

// View `index` of `screen` (`groups` are those of `screen`).
View ViewOf(const gui::Screen& screen, const Groups& groups, int index);
// Its written form, ViewOf(...).written(): what reports match views by.
std::string ViewString(const gui::Screen& screen, const Groups& groups, int index);
// The ViewKey of a written view (up to its first tab).
std::string KeyOfViewString(const std::string& view);
// What a written view shows: its row label, text, content-desc and flags (between its first tab
// and the next).
std::string_view ContentOfViewString(std::string_view view);
// The same of a View, read from its written form (so up to a tab in what it shows).
inline std::string_view ContentOfViewString(const View& view) {
  return ContentOfViewString(std::string_view(view.written()));
}

using ViewBag = std::map<View, int>;  // view -> count
// The numbers views show: for each view that holds a digit and that the layout shows once, the
// view's text and content-desc as shown (digits and all), "text|content-desc".
using Numbers = std::map<View, std::string>;
// The views of a layout that the check looks at (those with text or content-desc, actionable
// or checkable ones), minus those whose ViewKey is in `ignored`; and their numbers, if asked.
ViewBag ViewsOf(const Layout& layout, const std::set<std::string>& ignored,
                Numbers* numbers = nullptr);

// The views of each layout of a run (ViewsOf, with their numbers), each made when first asked
// for. A seed's views are read again for every mutant of it: one RunViews of the seed serves
// them all while the ignored views stay the same (CheckMutant). With `prefix_of` (made without
// the same views), the views of layouts up to `prefix_end` that equal those of prefix_of's run
// are read from it (a mutant repeats its seed's first events). Keeps a pointer to `layouts` (and
// to `prefix_of`): they must outlive it, unchanged. A bag, once made, stays where it is: the
// references Bag and NumbersAt return live as long as this. Not thread-safe.
class RunViews {
 public:
  RunViews(const std::vector<Layout>& layouts, std::set<std::string> ignored,
           RunViews* prefix_of = nullptr, int prefix_end = -1);
  const ViewBag& Bag(int t) { return At(t).bag; }
  const Numbers& NumbersAt(int t) { return At(t).numbers; }
  // Whether these are the views of `layouts` without `ignored`.
  bool Of(const std::vector<Layout>& layouts, const std::set<std::string>& ignored) const {
    return &layouts == layouts_ && ignored == ignored_;
  }

 private:
  struct Views {
    ViewBag bag;
    Numbers numbers;
  };
  const Views& At(int t);

  const std::vector<Layout>* layouts_;
  std::set<std::string> ignored_;
  RunViews* prefix_of_;
  int prefix_end_;
  std::vector<std::optional<Views>> views_;
};

// Bags: a - b, per view (counts that stay above zero).
ViewBag Minus(const ViewBag& a, const ViewBag& b);
// How often `bag` holds `view`.
int CountOf(const ViewBag& bag, const View& view);
// How many views of `bag` have the ViewKey `key`.
int CountOfKey(const ViewBag& bag, std::string_view key);
// How many views of `bag` sit in rows of the label `row` ("[label]").
int CountInRow(const ViewBag& bag, std::string_view row);
// The ViewKeys of the views of `bag`.
KeySet KeysOf(const ViewBag& bag);
// The ViewKeys of `layout`'s views that sit in a group.
KeySet GroupedKeys(const Layout& layout);

// Whether the list `list` (a ViewKey, as ScrollingRows gives it) shows at `after` every row it
// holds: it does not scroll there, or it is shorter than at `before` (a list that scrolls keeps
// its height while it has rows to fill it; one that shrank shows them all).
bool ShowsAllRows(const Layout& before, const Layout& after, const std::string& list);

// The rows of each list of a layout that can scroll (it holds more rows than it shows; with
// `all`, of every list), in order, each as the bag of its views, by the list's ViewKey.
std::map<std::string, std::vector<ViewBag>> ScrollingRows(const Layout& layout,
                                                          const std::set<std::string>& ignored,
                                                          bool all = false);
// The rows of `a` that went, reading `b` in order: b's rows from the top, each matched to the
// first like row of a after the last match; the rows of a skipped before the last match went,
// and with `shows_all` (b's list holds no more than it shows) those after it too. Rows of b
// after the first that matches none came into view.
std::vector<size_t> RowsGone(std::span<const ViewBag> a, std::span<const ViewBag> b,
                             bool shows_all);
// The views of rows that went from a scrolling list between `a` and `b`, read in order: b's rows
// from the top are matched, each to the next like row of a; rows of a skipped before the last
// match went (rows after it may only have left the window). A row that went while one just like
// it came into view is seen here, where the bags of views are equal.
ViewBag RowsRemovedInOrder(const Layout& a, const Layout& b, const std::set<std::string>& ignored);

// Whether the single views (in no group) of `a` and `b` show the same content.
bool SameSingleViews(const Layout& a, const Layout& b, const std::set<std::string>& ignored);

}  // namespace roam::fuzz
