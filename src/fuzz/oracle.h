// Genie's GUI-effect oracle. A layout is seen as the multiset of its views, each written as
// "class|resource-id|text|content-desc|flags" (bounds left out: rows move when rows are added).
// The GUI effect of two layouts is Δ(li, lj) = (li \ lj) ⊎ (lj \ li): the views removed and the
// views added. A mutant violates the independent-view property when, for a pair of similar seed
// layouts chosen as in the notes, the seed's effect is not contained in the mutant's effect on
// the corresponding layouts. Views that differed between runs of the seed (clocks, ads; run/fuzz
// runs a seed twice, and up to three more times before it reports a violation) are ignored.
// Plain functions and value types: thread-compatible.
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
// The view as the oracle compares it (see above). Flags: checked, enabled, selected. A view in a
// group carries its RowLabel too ("[Cinema]Photo of Cinema"), so like views of different rows
// differ, and the ViewKey of its group, so a row of one list is not a row of another (a video of
// the feed that τ bookmarked shows in the bookmarks list with the same views: the feed's row
// still went); `groups` are those of `screen`. Written "key\tcontent" or "key\tcontent\tgroup".
std::string ViewString(const gui::Screen& screen, const Groups& groups, int index);
// The ViewKey of a ViewString's view.
std::string KeyOfViewString(const std::string& view);
// What a ViewString's view shows: its row label, text, content-desc and flags.
std::string_view ContentOfViewString(std::string_view view);

using ViewBag = std::map<std::string, int>;  // view string -> count
// The numbers views show: for each view string that holds a digit and that the layout shows
// once, the view's text and content-desc as shown (digits and all).
using Numbers = std::map<std::string, std::string>;
// The views of a layout that the oracle looks at (those with text or content-desc, actionable
// or checkable ones), minus those whose ViewKey is in `ignored`; and their numbers, if asked.
ViewBag ViewsOf(const Layout& layout, const std::set<std::string>& ignored,
                Numbers* numbers = nullptr);

// The views of each layout of a run (ViewsOf, with their numbers), each made when first asked
// for. A seed's views are read again for every mutant of it: one RunViews of the seed serves
// them all while the ignored views stay the same (CheckMutant). With `prefix_of` (made without
// the same views), the views of layouts up to `prefix_end` that equal those of prefix_of's run
// are read from it (a mutant repeats its seed's first events). Keeps a pointer to `layouts` (and to
// `prefix_of`): they must outlive it, unchanged. Not thread-safe.
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

// The rows of each list of a layout that can scroll (it holds more rows than it shows; with
// `all`, of every list), in order, each as the bag of its views, by the list's ViewKey.
std::map<std::string, std::vector<ViewBag>> ScrollingRows(const Layout& layout,
                                                          const std::set<std::string>& ignored,
                                                          bool all = false);
// The views of rows that went from a scrolling list between `a` and `b`, read in order: b's rows
// from the top are matched, each to the next like row of a; rows of a skipped before the last
// match went (rows after it may only have left the window). A row that went while one just like
// it came into view is seen here, where the bags of views are equal.
ViewBag RowsRemovedInOrder(const Layout& a, const Layout& b, const std::set<std::string>& ignored);

struct Effect {
  ViewBag removed;  // li \ lj
  ViewBag added;    // lj \ li
  // Views of both layouts that show other numbers (in a seed's effect: counts that moved by one):
  // the view strings mask digits, so "Like count: 0" -> "Like count: 1" is in neither bag above.
  ViewBag changed;
  bool empty() const { return removed.empty() && added.empty() && changed.empty(); }
};
Effect Delta(const ViewBag& li, const ViewBag& lj);
// The view strings both show once, with other numbers; with `counts_only`, only those where one
// number moved by one (a count: 'Like count: 0' -> 1, '27 Alarms' -> 26), not a time or a
// line that changes on its own ('Updated 12 min ago' -> 'Updated 2 min ago').
ViewBag Recounted(const Numbers& li, const Numbers& lj, bool counts_only = false);
// What of `seed` is not in `mutant` (multiset difference, per side): the plain containment of
// the notes, Δ_seed ⊆ Δ_mutant when empty.
Effect Missing(const Effect& seed, const Effect& mutant);
// The refined form CheckMutant uses, from the layouts' views: a view the seed removed is missing
// when the mutant had it at i and did not remove it (a view the mutant never had cannot be
// removed); a view the seed added is missing when the mutant neither added it as often nor ends
// with as many of it as the seed (seed_j). (Numbers the seed changed are judged apart, by the
// removed side only: one is missing when the mutant shows the seed's number of i at its i and
// at its j; CheckMutant.)
Effect MissingFromMutant(const Effect& seed, const ViewBag& seed_j, const ViewBag& mutant_i,
                         const ViewBag& mutant_j);

// What τ itself did, from each layout τ led to against the latest similar layout before it (and
// the pivot against τ's last layout): `changed` holds the ViewKeys of views that show other
// content (a key removed and added), `keys` every ViewKey that changed at all (across an overlay
// such as a menu or dialog, where the layouts are less alike than overlay_similarity, only the
// `changed` ones: an overlay hides views, it does not change them).
struct TauFootprint {
  std::set<std::string> keys;
  std::set<std::string> changed;
  std::set<std::string> removed;  // ViewStrings τ removed (what τ deleted)
  // ViewStrings of list items (views in groups) τ removed or changed, overlays aside.
  std::set<std::string> removed_rows;
};
TauFootprint Footprint(const std::vector<Layout>& mutant, int pivot, int tau_length,
                       const std::set<std::string>& ignored, double overlay_similarity);

// Whether a text field of `end` shows other text than the field of the same ViewKey at `pivot`
// (fields whose key is in `ignored` aside): τ, from the pivot to `end`, left input behind.
bool LeftInput(const Layout& pivot, const Layout& end, const std::set<std::string>& ignored);

// The ViewKeys of views that differ between two runs of one seed, layout by layout, digits
// included (layouts past the shorter run are not compared).
std::set<std::string> UnstableViews(std::span<const Layout> run1, std::span<const Layout> run2);

// The pairs (i, j) of seed layouts (0-based; layout t+1 follows event t, the pivot is layout p,
// τ is inserted before event p) the oracle compares: i < j, both similar, and either
// i <= p < j or p < i. A pair whose seed effect is empty is skipped.
std::vector<std::pair<int, int>> OraclePairs(const std::vector<Layout>& seed, int pivot);
// The largest j of a pair (i < j, similar, at least min_pair_similarity alike) of seed layouts
// with a non-empty effect (numbers included); -1 when none. Pivots at or after it cannot show a
// violation.
int LastEffect(const std::vector<Layout>& seed, const std::set<std::string>& ignored,
               double min_pair_similarity);
int LastEffect(const std::vector<Layout>& seed, RunViews& views, double min_pair_similarity);
// Seed layout index -> mutant layout index, for τ of length m: i <= p stays, i > p moves by m.
inline int MutantIndex(int seed_index, int pivot, int tau_length) {
  return seed_index <= pivot ? seed_index : seed_index + tau_length;
}

// Where effects land along a run: lands[j] when layout j differs (views, or counts) from the
// latest earlier layout similar and at least min_pair_similarity like it, i.e. event j - 1 (or
// the dialog it closed) had an effect the oracle can judge.
std::vector<char> EffectLands(const std::vector<Layout>& layouts,
                              const std::set<std::string>& ignored, double min_pair_similarity);
std::vector<char> EffectLands(const std::vector<Layout>& layouts, RunViews& views,
                              double min_pair_similarity);

struct Violation {
  int seed_i = -1, seed_j = -1;      // the seed pair
  int mutant_i = -1, mutant_j = -1;  // the mutant's corresponding layouts
  std::string activity;
  Effect seed_effect, mutant_effect, missing;
  // The de-duplication key (the violation string): the activity and the ViewKeys of the missing
  // views, removed and added (not their content: one wrong deletion seen on several rows is one
  // report).
  std::string Key() const;
};

struct OracleSettings {
  // Excuse missing effects on views τ itself changed (TauFootprint): single views (in no group,
  // such as a "current item" label) when their key is in `keys`, views in groups (list rows) only
  // when τ changed the content of such a view (`changed`: τ renamed a row), not when τ merely
  // added or removed rows. τ may legitimately overwrite what it wrote. Default: true.
  bool excuse_tau_effects = true;
  double overlay_similarity = 0.5;  // see Footprint
  // Only pairs of seed layouts at least this alike (TypeSimilarity) are judged, and only where the
  // mutant's pair is as alike: a dialog or menu against the screen under it differs by what the
  // overlay hides, not by an effect. Default 0.5.
  double min_pair_similarity = 0.5;
  // When τ left a single view of the pivot showing other content (it changed shared state such as
  // the current item; with a dialog at the pivot and at τ's end, the screens under them count),
  // only missing views that lie in the row of a seed event after the insertion (a particular list
  // item the seed acted on) are judged: a button acting on "the current item" acts on τ's item, as
  // it should. Default: true.
  bool attribute_to_rows = true;
  // Judge no mutant whose τ removed or changed list items (TauFootprint::removed_rows): Genie's
  // premise is that an independent τ only adds GUI effects; one that deletes items makes the
  // seed's later views of those items differ for no fault of the app. Default: true.
  bool skip_destructive_tau = true;
  // Judge no mutant whose τ left other text in a field of the screen it came back to
  // (LeftInput): the seed's later events there read it (any of the screen's buttons may send a
  // field: the tags screen's Add sent the tag τ typed), so τ is not independent of them. A τ
  // that typed and sent its own input (the field empty again) is judged. Default: true.
  bool skip_tau_left_input = true;
  // A view the seed added, where the mutant added instead a view of the same key whose content
  // names what τ acted on (the text of a widget τ tapped, the row it picked, a text it typed, as
  // whole words: "Photo of Cinema" after τ tapped "Cinema"), is not judged: the seed's action
  // read state that τ set (the current item), so τ was not independent of it. Views the seed
  // removed are judged still (removing another item than the one acted on is wrong whatever τ
  // did), but for a row view named by τ's data that the mutant shows more of than the seed,
  // when τ ran between the pair without showing its screen: τ made a like row there unseen
  // ("Reading" tapped on another screen starts a second Reading entry), and the one left may be
  // τ's. Default: true.
  bool excuse_tau_data = true;
  // When the seed's effect both removed and added rows of one list (views of one ViewKey in a
  // group), the rows added are the list's window moving on: the next rows coming into view,
  // which depend on data τ may have changed. Of those only the number is judged: the mutant
  // must add as many views of that key, whatever they show. Default: true.
  bool count_window_rows = true;
  // On a pair that spans the insertion, the mutant's views at i are taken with τ's own net
  // effect on that screen applied (what τ added, less what it removed, from the latest layout
  // like i's at or before the pivot to the latest like it that τ showed; τ may change a screen
  // other than the pivot's and come back): a row τ
  // added that looks like the row the seed then removes leaves the mutant's views the same over
  // the pair, which is τ's effect and the seed's together, not a missing one. Default: true.
  bool count_tau_effect = true;
  // A list that scrolls shows a window of its rows, so on such a list at the mutant's j: a row
  // the seed added is not judged (it may be below the window, behind rows τ added), and a row
  // the seed removed counts as removed by the mutant when RowsRemovedInOrder says it went (a
  // like row may have come into view). Default: true.
  bool read_windows = true;
};

// What τ (mutant_events[pivot, pivot + tau_length), acting on mutant[pivot + k]) acted on, as
// texts (OracleSettings::excuse_tau_data).
std::vector<std::string> TauData(const std::vector<Layout>& mutant,
                                 const std::vector<Event>& mutant_events, int pivot,
                                 int tau_length);
// Whether `text` holds `words` with no letter or digit right before or after them.
bool HasWords(std::string_view text, std::string_view words);

// Whether the single views (in no group) of `a` and `b` show the same content.
bool SameSingleViews(const Layout& a, const Layout& b, const std::set<std::string>& ignored);

// Checks one executed mutant against its seed (its layouts and the events between them). On a
// pair that spans the insertion (i < p < j), a missing view the seed had already added (removed)
// before the pivot, as a layout like l_j (l_i) between i and p shows, is not judged: the seed's
// rest did not make that effect, and τ may change what came before it. A view the seed added is
// not judged either when τ removed that very view (τ deleted the item the seed shows again), nor
// a single view when the mutant shows rows at j that the seed does not (a placeholder such as
// "No bookmarks" gives way to the data τ added). When τ changed the pivot's single views, pairs
// that span the insertion are not judged, nor a pair the mutant shows on other screens than the
// seed's (Similar).
// `mutant` holds every layout of the mutant run:
// mutant[t] for t <= p equals the seed's prefix, then τ's m layouts, then the seed's rest. The
// first violating pair (by j, then i descending) is returned; none when the effects hold.
// `mutant_events` are the mutant's events (τ is mutant_events[p, p + tau_length)).
// `seed_views`, when they are those of `seed` without `ignored`, are read instead of made again.
std::optional<Violation> CheckMutant(const std::vector<Layout>& seed,
                                     const std::vector<Event>& seed_events,
                                     const std::vector<Layout>& mutant,
                                     const std::vector<Event>& mutant_events, int pivot,
                                     int tau_length, const std::set<std::string>& ignored,
                                     const OracleSettings& settings = {},
                                     RunViews* seed_views = nullptr);

// Reports, de-duplicated by Violation::Key: how often each key was seen, in the order to report
// them: those seen once first, then by count, then by first sighting.
struct Ranked {
  std::string key;
  int count = 0;
  int first = 0;  // order of first sighting
};
std::vector<Ranked> RankReports(const std::vector<std::string>& keys_in_order);

}  // namespace roam::fuzz
