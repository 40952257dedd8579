// Genie's mutant generation (Search_traces of the notes). For each pivot layout l_p of a seed,
// breadth-first search over the model M for an independent event sequence τ: its first event
// hits a view of l_p that is not active and is independent of every active view, and M predicts
// that τ ends in a layout ≃ l_p, so the rest of the seed [e_p, ..., e_n] still applies. The
// mutant is the seed with τ inserted before e_p. Bounds: |τ| <= max_length; each loop (the same
// sequence of model edges) used at most max_loop_uses times a seed; at most
// max_views_per_group first views per group; redundant edges between two states pruned (the
// first step excepted, which looks at every event type of the pivot's state); a τ prefix that
// failed to reproduce prunes every mutant that starts with it. Plain functions:
// thread-compatible.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/rng.h"
#include "fuzz/layout.h"
#include "fuzz/model.h"
#include "fuzz/views.h"

namespace roam::fuzz {

struct MutantSettings {
  // MAX_LENGTH: events in τ. Short τ, and more of them at the pivots right before effects: the
  // event that breaks another sits on its screen as a rule (a Copy link before a Like, an Add
  // before a wrong delete), and 6 events per τ with 5 per pivot spent the budget on long detours
  // that came back less often (issue 19's sweeps: recall 0.61 -> 0.69, on apps not swept 0.46 ->
  // 0.62).
  // The overflow button's tap is not counted: opening the options menu and picking its item is
  // one action, as it was with the menu key (tube's [More options, Open in browser, Chrome, back]
  // is three).
  int max_length = 3;
  // τ may type (Genie's τ replays a seed's input as it was, so no mutant fills a form another
  // way): into a field on a state where M has seen a seed type (its input edge), into at most
  // max_typed_fields fields of one τ, another value of that field's kind than a seed typed there
  // (gui::OtherFieldValue: "Alice" -> "Alice Smith"; the seed's text where it is of no kind), or
  // a name the seed acts on next: the ShownName of the targets of its next names_ahead widget
  // events from the pivot, and such a name without its file extension ("Shopping list.md" ->
  // "Shopping list": a new-file dialog adds the extension of the format picked). A new item typed
  // and left unsaved before the seed edits an old one, or a second Add under the name of the
  // note the seed opens next: planted bugs no τ of replayed input reaches (a draft typed as the
  // seed typed the new name shows nothing). Typing is not counted in |τ| (a form's fields and
  // its OK are one action, like the overflow tap), nor in the search's depth or the draw's
  // weight; each text is a candidate of its own, and at most max_typing_per_pivot of a pivot's
  // mutants type (more only where too few others are found). Off by default (0: τ types only as
  // its first event, what a seed typed there): measured, the typing τ took the place of mutants
  // that find other bugs, and found the bugs they are for once in twelve runs at best
  // (docs/fuzzing.md, "Beside Genie's notes").
  int max_typed_fields = 0;
  int names_ahead = 1;
  int max_typing_per_pivot = 1;
  int max_views_per_group = 3;  // independent first views tried per group
  int max_loop_uses = 2;        // mutants per loop per seed
  int max_per_pivot = 8;        // mutants per pivot
  // With a random generator, max_per_pivot are drawn from up to candidate_factor times as many
  // found by the search (else the first found, the shortest, are taken), each event of τ halving
  // its chance: long loops get theirs, short τ stay the most drawn.
  int candidate_factor = 4;
  int max_per_seed = 20;  // mutants per seed (more seeds test more of the app in a budget)
  // The model M knows only what seeds did, so τ could only start with an event some run took on
  // the pivot's state. With this, a click on a view of the pivot that M has never seen taken
  // there (under the same rules as the first events) is also tried as a τ of its own, kept when
  // it comes back to a layout like the pivot (a screen's Add that no seed tapped).
  bool try_unseen_clicks = true;
  int max_expansions = 4000;  // BFS nodes per pivot, against path explosion
  // A mutant whose layout after τ is less similar than this to the pivot (TypeSimilarity) did not
  // come back to it and is dropped.
  double min_pivot_similarity = 0.5;
};

struct Mutant {
  int pivot = 0;  // τ goes before seed event `pivot` (after layout `pivot`)
  std::vector<Event> tau;
  std::vector<uint64_t> states;  // the states M predicts after each event of τ
  std::string loop;              // the model edges τ follows (for the loop-use bound)
  bool types = false;            // τ types past its first event (MutantSettings::max_typed_fields)

  // The key of τ's first `n` events at this pivot (for failed-prefix pruning).
  std::string PrefixKey(size_t n) const;
  // |τ| as MutantSettings::max_length counts it: the overflow button's taps and typing aside.
  int Length() const;
};

// The τ mutants ran from each pivot layout state, over a whole campaign (not one seed): the
// search looks past them for τ not run there yet, as Genie, which runs every mutant in its
// bounds, would get to them; a budget runs only some, and without this the same short τ were
// drawn at a screen seed after seed while a longer one (a menu, its item, a dialog's answer,
// back) was never drawn. Not thread-safe.
class TriedTaus {
 public:
  void Add(uint64_t pivot_state, const Mutant& m) { tried_.emplace(pivot_state, Key(m)); }
  bool Has(uint64_t pivot_state, const Mutant& m) const {
    return tried_.count({pivot_state, Key(m)}) > 0;
  }

 private:
  // The model edges τ follows (Mutant::loop: event types and states, so the same way through
  // another video's page is no new τ), and for a click M has not seen, the view clicked.
  static std::string Key(const Mutant& m);
  std::set<std::pair<uint64_t, std::string>> tried_;
};

// The first events τ may start with at pivot `p`: click / long click / input on views of l_p that
// take an event type M knows from l_p's state, are not active, are independent of every active
// view of h_p, and are not the target of a seed event up to e_p (`touched` signatures: typing
// again into the field the seed typed into is not an independent event; later in τ, see
// GenerateMutants),
// and are not negative answers (Cancel, Discard, ...: they abandon what the seed is doing); at
// most max_views_per_group per group. With try_unseen_clicks, also clicks of such views whose type
// M has never seen clicked on l_p's state, with a null edge.
std::vector<std::pair<Event, const Edge*>> FirstEvents(const Layout& pivot,
                                                       const ActiveViews& active,
                                                       const Model& model,
                                                       const std::set<std::string>& touched,
                                                       const MutantSettings& settings);

// Whether a mutant came back to its pivot: the layout after τ is at least min_pivot_similarity
// like the pivot (TypeSimilarity).
bool ReturnedToPivot(const Layout& pivot, const Layout& end, const MutantSettings& settings);

// The pivots first_pivot..pivots-1 in the order mutants are made for them, in rounds over the
// effects that follow them (an effect lands on a seed layout that differs, in views or numbers,
// views in `ignored` aside, from the latest earlier layout similar and at least
// min_pair_similarity like it; what made it is the event before and the layout state it acted
// on): first the nearest pivot before each such event, then the second nearest, and so on;
// within a round, nearest first, so the seed's events right after τ are ones with an effect. A
// seed that taps "Show more" five times and then "Like" tests "Like" too. events[t] acts on
// layouts[t].
std::vector<int> PivotOrder(const std::vector<Layout>& layouts, const std::vector<Event>& events,
                            int pivots, const std::set<std::string>& ignored,
                            double min_pair_similarity, int first_pivot = 0);

// The texts τ may type at pivot `p` besides a seed's own input (MutantSettings::names_ahead).
std::vector<std::string> NamesAhead(const std::vector<Layout>& layouts,
                                    const std::vector<Event>& events, int p,
                                    const MutantSettings& settings);

// Mutants of one seed. layouts[t] (t = 0..n) and active[t] are the seed's, events[t] (t < n) its
// events; τ does not type into a field on a state where the seed typed into it before the pivot
// while that input is still pending (a layout of that state after the pivot still shows it in
// the field: the seed comes back to the form and sends it); only pivots before the last layout that
// the check can judge are used (`last_effect`: the largest j of a seed pair with a non-empty
// effect; pivots p < last_effect), in PivotOrder, each with up to max_per_pivot mutants,
// max_per_seed in all. `failed` holds PrefixKeys that failed before (this seed's). `rng` (optional)
// draws each pivot's mutants among more candidates. Pivots before `first_pivot` are skipped (a
// seed's replayed prefix: the seed that made it was mutated there). With `tried`, a pivot's τ run
// there before (by its state) are taken only when too few others are found.
std::vector<Mutant> GenerateMutants(const std::vector<Layout>& layouts,
                                    const std::vector<Event>& events,
                                    const std::vector<ActiveViews>& active, const Model& model,
                                    int last_effect, const std::set<std::string>& failed,
                                    const MutantSettings& settings,
                                    const std::set<std::string>& ignored = {},
                                    double min_pair_similarity = 0.5, Rng* rng = nullptr,
                                    int first_pivot = 0, const TriedTaus* tried = nullptr);

}  // namespace roam::fuzz
