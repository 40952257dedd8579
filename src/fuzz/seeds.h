// Seed generation for Genie: which event a seed takes next on a layout. Systematic selection
// takes the event of highest Υ (model.h; ties broken at random); random selection draws 60%
// click, 35% long click, 5% navigation (back) by default, and (ours) 10 more for a scroll or a
// swipe. Both prefer meaningful dialog answers:
// on a layout that offers a positive (OK, Yes, Delete, ...) and a negative (Cancel, No, ...)
// answer, the positive one is taken with probability `pct_dialog_positive`, unless the model
// shows it on this layout state leading nowhere else (a form's Done on invalid input), and only
// as the first event a seed takes on a layout state it came to: a confirm dialog is answered
// each time it opens, a form's Done that may lead on is not pressed over and over. Seeds that map
// the app fill forms and send them on (`pct_fill_forms`); seeds with mutants stay on the screen
// they start on (`pct_stay`). Text fields get what they ask for (an e-mail address, a PIN)
// or, asking nothing, texts the app has shown (so a name can collide with an existing one) or a
// few plain words. Not thread-safe (borrows the Rng and the Model).
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/rng.h"
#include "fuzz/layout.h"
#include "fuzz/model.h"

namespace roam::fuzz {

struct SeedSettings {
  int length = 12;             // events per seed
  double pct_click = 60;       // random selection: clicks (and typing into text fields)
  double pct_long_click = 35;  // random selection: long clicks
  double pct_navigation = 5;   // random selection: back
  // Random selection: a scroll of a scrollable widget or a swipe of the screen (ours: the notes
  // name none, and without them rows below the fold, drawers and pagers were out of reach).
  double pct_scroll = 10;
  double pct_dialog_positive = 80;  // chance to answer a dialog positively when it offers both
  double pct_app_text = 50;         // chance to type a text the app has shown rather than a word
  // Forms, while seeds map the app (before mutants run): on a layout with an empty text field,
  // the chance that a seed types into one (a value of what it asks for, gui/fields.h) and, once
  // all its fields hold text, presses a button that sends the form on (Save, Next, Continue,
  // ...), until the model has seen the form let a run through. Three such events in a row are
  // rare at random (about 1 in 2,000 on a form of eight widgets), so seeds did not get past the
  // forms that gate the deeper screens. Seeds with mutants do not: they test the screen they
  // start on, and a form sent on leaves it.
  double pct_fill_forms = 80;
  // Seeds that start where an earlier seed got to: this share of seeds first replay the shortest
  // way (detours cut) a seed took to a layout state (Starts; the states started from least often
  // chosen first), then take `length` events of their own; mutants are made at pivots after that
  // prefix. Seeds of `length` events from a clean start reach only the screens near the start;
  // this way each seed begins a step further. 0: every seed starts from the clean start.
  double pct_from_reached = 80;
  int max_prefix = 36;  // a state reached by a longer way (detours cut) is not started from
  // The first share of the budget (percent) runs seeds without mutants: as in Genie, where the
  // model is mined from seeds before mutants are made, they map the app (the model M, the
  // starts) before mutants spend most events on what the seeds reached so far.
  double pct_explore = 40;
  // Once mutants run, the chance that a seed takes, on a layout state, an event seen to have an
  // effect there (EffectLedger) that no seed with mutants has taken there yet: effects are what
  // the check judges, and an effect no seed carries is never tested.
  double pct_untested_effect = 50;
  // Once mutants run, the chance that a seed's event is drawn among those the model has not seen
  // only leave the activity it is on (back, a Close, a link away): a seed with mutants tests the
  // screen it starts on, and one that left it at once tested the screens it came to instead.
  double pct_stay = 80;
};

// Which events had an effect the check can judge on which layout state, and which of those a
// seed with mutants took there. Not thread-safe.
class EffectLedger {
 public:
  void Saw(uint64_t state, const Event& event) { effects_.emplace(state, event.Key()); }
  void Tested(uint64_t state, const Event& event) { tested_.emplace(state, event.Key()); }
  bool Untested(uint64_t state, const Event& event) const {
    const std::pair<uint64_t, std::string> k(state, event.Key());
    return effects_.count(k) > 0 && tested_.count(k) == 0;
  }
  // Whether some event had an effect on `state` that no tested seed took there.
  bool HasUntested(uint64_t state) const {
    for (auto it = effects_.lower_bound({state, ""}); it != effects_.end() && it->first == state;
         ++it)
      if (tested_.count(*it) == 0) return true;
    return false;
  }

 private:
  std::set<std::pair<uint64_t, std::string>> effects_, tested_;
};

// The candidate events of a layout: click / long click / input on every widget that takes them,
// the scrolls gui::WidgetRules gives a scrollable widget, back, and the four swipes of the
// screen.
std::vector<Event> CandidateEvents(const Layout& layout);

// The positive answer of a dialog-like layout (a widget saying OK, Yes, Delete, Save, ... or
// android:id/button1, beside one saying Cancel, No, ... or android:id/button2); -1 when the
// layout does not offer both.
int PositiveAnswer(const gui::Screen& screen);

// Whether a widget is a negative answer: android:id/button2, or it says Cancel, No, Dismiss,
// Close, Decline or Discard.
bool IsNegativeAnswer(const gui::Widget& w);

// The ways a run took to each of its layouts, with detours cut: where the run came back to a
// layout state it had shown before, showing the same (gui::ContentHash), the events since then
// are left out. ways[t] leads from layouts[0] to layouts[t] (events[t] acts on layouts[t]; t up
// to events.size()).
std::vector<std::vector<Event>> WaysWithoutDetours(const std::vector<Layout>& layouts,
                                                   const std::vector<Event>& events);

// Where seeds may start (SeedSettings::pct_from_reached): for each layout state in the app that a
// stable seed reached, the shortest way there (detours cut) of at most `max_prefix` events, and
// how many seeds started there since. The launch state is no start (a clean start goes there).
class Starts {
 public:
  struct Start {
    std::vector<Event> prefix;
    std::string activity;  // where the prefix leads
    uint64_t state = 0;    // the layout state it leads to
    int uses = 0;
    // Ways that, replayed, did not lead here: a detour cut was none (it changed what the screens
    // show later), or the app moved on. None is taken again.
    std::vector<std::vector<Event>> failed;
    // Whether the start's way is not one that failed (a start whose way failed waits for another).
    bool Usable() const { return std::find(failed.begin(), failed.end(), prefix) == failed.end(); }
  };
  explicit Starts(int max_prefix) : max_prefix_(max_prefix) {}

  // The ways of a stable seed's run: a state reached first is a new start, at the end; one
  // reached by a shorter way than its start's, or by any way not known to fail when its start's
  // failed, takes that way (fewer events to replay, and a state a long way first reached may
  // come within max_prefix).
  void Add(const std::vector<Layout>& layouts, const std::vector<Event>& events);
  // `start`'s way, replayed, did not lead to its state.
  void Failed(Start& start) { start.failed.push_back(start.prefix); }
  std::vector<Start>& all() { return starts_; }

 private:
  int max_prefix_;
  std::vector<Start> starts_;
  std::unordered_map<uint64_t, size_t> index_;  // state -> its start
  std::set<uint64_t> launch_;                   // states a run began on
};

class SeedChooser {
 public:
  SeedChooser(SeedSettings settings, const Model& model, Rng& rng)
      : settings_(settings), model_(model), rng_(rng) {}

  // At the start of each seed.
  void StartSeed() {
    taken_.clear();
    last_state_ = 0;
  }
  // Remembers the texts a layout shows (for typing) and its activity.
  void See(const Layout& layout);
  // The next event of a seed on `layout`; `systematic` picks by Υ, otherwise at random. With a
  // ledger (a seed with mutants), untested effects first, each once a seed
  // (SeedSettings::pct_untested_effect), and no answer that leaves the screen when staying;
  // without (a seed mapping the app), forms filled and sent on (SeedSettings::pct_fill_forms).
  Event Choose(const Layout& layout, bool systematic, const EffectLedger* ledger = nullptr);

 private:
  // On a form: typing into an empty field, or once every field holds text, a button that sends
  // the form on; nothing when `layout` has no text field or its form has let a run through.
  std::optional<Event> FillForm(const Layout& layout);
  // A text for the field `widget` of `screen`: what its hint or id asks for (an e-mail address, a
  // number, a name), else a text the app has shown or a plain word.
  std::string TextToType(const gui::Screen& screen, int widget);
  // Whether the model has seen `event` on `layout`'s state lead only to layouts of other
  // activities (or out of the app).
  bool Leaves(const Layout& layout, const Event& event) const;
  // Whether `event` was run on `state` and never led anywhere else (a form's Done while its
  // input is invalid): the positive answer is then not preferred, else a seed keeps tapping it.
  bool ChangesNothing(uint64_t state, const Event& event) const;
  Event Systematic(const Layout& layout, const std::vector<Event>& candidates);
  Event Random(const Layout& layout, const std::vector<Event>& candidates);

  SeedSettings settings_;
  const Model& model_;
  Rng& rng_;
  std::vector<std::string> app_texts_;
  std::unordered_map<uint64_t, std::string> activity_of_;  // layout state -> its activity
  // Untested effects this seed took: not preferred again in it (it tests them once).
  std::set<std::pair<uint64_t, std::string>> taken_;
  uint64_t last_state_ = 0;  // the layout state this seed's last event was chosen on
};

}  // namespace roam::fuzz
