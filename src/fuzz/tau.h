// What τ, the events a mutant inserts, did (fuzz/independent_view.h): its footprint on the views
// (what it changed, removed, deleted from lists), input it left in a field, and the texts it acted
// on. CheckMutant's excuses read these. Plain functions and value types: thread-compatible.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/layout.h"
#include "fuzz/view_bag.h"

namespace roam::fuzz {

// What τ itself did, from each layout τ led to against the latest similar layout before it (and
// the pivot against τ's last layout): `changed` holds the ViewKeys of views that show other
// content (a key removed and added), `keys` every ViewKey that changed at all (across an overlay
// such as a menu or dialog, where the layouts are less alike than overlay_similarity, only the
// `changed` ones: an overlay hides views, it does not change them).
struct TauFootprint {
  KeySet keys;
  KeySet changed;
  std::set<View> removed;  // views τ removed (what τ deleted)
  // Views of list items (views in groups) τ removed or changed, overlays aside.
  std::set<View> removed_rows;
};
TauFootprint Footprint(const std::vector<Layout>& mutant, int pivot, int tau_length,
                       const std::set<std::string>& ignored, double overlay_similarity);
// The same from the mutant's views (those of `mutant` without `ignored`).
TauFootprint Footprint(const std::vector<Layout>& mutant, RunViews& views, int pivot,
                       int tau_length, const std::set<std::string>& ignored,
                       double overlay_similarity);

// Whether a text field of `end` shows other text than the field of the same ViewKey at `pivot`
// (fields whose key is in `ignored` aside): τ, from the pivot to `end`, left input behind.
bool LeftInput(const Layout& pivot, const Layout& end, const std::set<std::string>& ignored);

// What τ (mutant_events[pivot, pivot + tau_length), acting on mutant[pivot + k]) acted on, as
// texts (IndependentViewSettings::excuse_tau_data): the text or content-desc of each widget it
// tapped (digits masked, as views are compared), the row it picked, the text it typed. Texts
// shorter than three characters name nothing in particular and are left out.
std::vector<std::string> TauData(const std::vector<Layout>& mutant,
                                 const std::vector<Event>& mutant_events, int pivot,
                                 int tau_length);
// Whether `text` holds `words` with no letter or digit right before or after them.
bool HasWords(std::string_view text, std::string_view words);

}  // namespace roam::fuzz
