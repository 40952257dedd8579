// Genie's GUI-effect check. A layout is seen as the multiset of its views (fuzz/view_bag.h: each
// a View, "class|resource-id", what it shows and its group; bounds left out: rows move when rows
// are added). The GUI effect of two layouts is Δ(li, lj) = (li \ lj) ⊎ (lj \ li): the views removed
// and the views added (fuzz/effects.h). A mutant violates the independent-view property when, for
// a pair of similar seed layouts chosen as in the notes, the seed's effect is not contained in the
// mutant's effect on the corresponding layouts, once the excuses (fuzz/excuses.h) have taken out
// what the mutant may rightly not show. Views that differed between runs of the seed (clocks, ads;
// run/fuzz runs a seed twice, and up to three more times before it reports a violation) are
// ignored. This header: the settings, CheckMutant and its Violation, and the ranking of reports;
// it includes the views, effects and τ's footprint for its callers.
// Plain functions and value types: thread-compatible.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/effects.h"
#include "fuzz/layout.h"
#include "fuzz/tau.h"
#include "fuzz/view_bag.h"

namespace roam::fuzz {

struct Violation {
  int seed_i = -1, seed_j = -1;      // the seed pair
  int mutant_i = -1, mutant_j = -1;  // the mutant's corresponding layouts
  std::string activity;
  Effect seed_effect, mutant_effect, missing;
  // The de-duplication key (the violation string): the activity and the ViewKeys of the missing
  // views, removed and added (not their content: one wrong deletion seen on several rows is one
  // report).
  std::string Key() const;
  // The excuses that took views out of this pair's missing effect (fuzz/excuses.h), a line each in
  // the order they ran: "name (setting): what they are: -key 'content', +key 'content' x2, ~...".
  // Not part of Key. Empty when none did.
  std::vector<std::string> excused;
};

// A violation string (Violation::Key) in words: "MainActivity: the mutant did not add TextView
// attachments, as the seed did". A string of another shape comes back as it is.
std::string ViolationInWords(std::string_view key);

struct IndependentViewSettings {
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
  // seed's later views of those items differ for no fault of the app. Default: true. Off, such
  // a mutant is judged on the views τ did not touch, the views of the lists τ cut (their group
  // or their key) excused (excuse_tau_effects); measured, that made false reports where the
  // data τ deleted shows on another screen in other views (tube: τ unsubscribed a channel, the
  // seed's feed then lacked its "New videos from ..." row), so it stays on.
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
                                     const IndependentViewSettings& settings = {},
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
