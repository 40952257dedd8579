// CheckMutant's excuses (fuzz/independent_view.h): the table of named steps that take out of a
// pair's missing effect the views a mutant may rightly not show, each a function switched by one
// field of IndependentViewSettings, in the order they run; and the state of one mutant's check they
// read. An excuse that takes views out says so in a line of the Violation (Violation::excused).
// Internal to the check (fuzz/independent_view.cc runs them; tests list them). A MutantCheck makes
// views and τ's data when first asked for: not thread-safe.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/effects.h"
#include "fuzz/independent_view.h"
#include "fuzz/tau.h"
#include "fuzz/view_bag.h"

namespace roam::fuzz {

// One mutant against its seed (CheckMutant's arguments), with what is found out once a mutant.
// Borrows everything it refers to.
struct MutantCheck {
  const std::vector<Layout>& seed;
  const std::vector<Event>& seed_events;
  const std::vector<Layout>& mutant;
  const std::vector<Event>& mutant_events;
  int pivot = 0;
  int tau_length = 0;
  const std::set<std::string>& ignored;
  const IndependentViewSettings& settings;
  RunViews& seed_views;
  RunViews& mutant_views;
  TauFootprint footprint;  // made when excuse_tau_effects or skip_destructive_tau is on
  // τ changed shared state (attribute_to_rows): only views in the rows of seed events after the
  // insertion are judged; rows[t] holds the views of the row seed event t acts on.
  bool shared_changed = false;
  std::vector<std::set<View>> rows;

  // The latest mutant layout u in (from, to] similar to `t` and at least min_pair_similarity
  // like it; -1 when none.
  int LatestLike(int t, int from, int to) const;
  // TauData, made when first asked for (kept in tau_data).
  const std::vector<std::string>& Data();
  std::optional<std::vector<std::string>> tau_data;
};

// One pair of seed layouts (i, j) with the mutant's (mi, mj) and their effects.
struct Pair {
  int i = -1, j = -1;
  int mi = -1, mj = -1;
  // When the pair spans τ (mi <= pivot): the latest layout like mi's at or before the pivot, and
  // the latest like it that τ showed (τ's net effect on the pair's screen runs between them);
  // -1 otherwise or when none.
  int tau_from = -1, tau_to = -1;
  Effect seed_effect, mutant_effect;
};

// An excuse: takes out of `missing` the views it excuses (it only takes views out).
using ExcuseFunction = void (*)(MutantCheck& check, const Pair& pair, Effect& missing);
struct Excuse {
  std::string_view name;
  std::string_view setting_name;           // "always" when `setting` is null
  bool IndependentViewSettings::*setting;  // the field that switches it; null: always on
  ExcuseFunction function;
  std::string_view why;  // what the views it takes out are, for the explanation line
};
// The table, in the order the excuses run.
std::span<const Excuse> Excuses();

// Runs the excuses switched on over a pair's `missing` (until nothing is left); for each that
// took views out, a line to `explanation`: "name (setting): why: -key 'content', +..., ~...".
void ApplyExcuses(MutantCheck& check, const Pair& pair, Effect& missing,
                  std::vector<std::string>& explanation);

}  // namespace roam::fuzz
