#include "fuzz/seeds.h"

#include <algorithm>
#include <array>

#include "base/utf8.h"
#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/fields.h"

namespace roam::fuzz {

namespace {

constexpr std::array<std::string_view, 9> kPositive = {
    "ok", "yes", "delete", "save", "confirm", "accept", "done", "remove", "continue"};
constexpr std::array<std::string_view, 6> kNegative = {"cancel", "no",      "dismiss",
                                                       "close",  "decline", "discard"};
constexpr std::array<std::string_view, 6> kWords = {"Gardening", "Shopping", "Meeting",
                                                    "test",      "42",       "ann@example.com"};
constexpr size_t kMaxAppTexts = 200;

template <size_t N>
bool Says(const gui::Widget& w, const std::array<std::string_view, N>& words) {
  std::string t = AsciiLower(w.text.empty() ? w.content_desc : w.text);
  return std::find(words.begin(), words.end(), t) != words.end();
}

}  // namespace

std::vector<Event> CandidateEvents(const Layout& layout) {
  std::vector<Event> out;
  const gui::Screen& s = layout.screen;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    for (auto kind :
         {gui::ActionKind::kClick, gui::ActionKind::kLongClick, gui::ActionKind::kInputText})
      if (Takes(s, i, kind)) out.push_back(EventOn(s, kind, i));
    // Rows below the fold and a pager's next page: the scrolls gui/actions.h's rules give it.
    for (const gui::WidgetRule& rule : gui::WidgetRules())
      if (IsScrollOrSwipe(rule.kind) && rule.applies(s.widgets[i]) && Takes(s, i, rule.kind))
        out.push_back(EventOn(s, rule.kind, i));
  }
  out.push_back(Event{});  // back
  // The screen's swipes: a drawer from the edge, a pull to refresh, a pager of no scroller.
  for (auto kind : {gui::ActionKind::kSwipeUp, gui::ActionKind::kSwipeDown,
                    gui::ActionKind::kSwipeLeft, gui::ActionKind::kSwipeRight})
    out.push_back(Event{.kind = kind});
  return out;
}

bool IsNegativeAnswer(const gui::Widget& w) {
  return w.resource_id == "android:id/button2" || Says(w, kNegative);
}

int PositiveAnswer(const gui::Screen& s) {
  int positive = -1;
  bool negative = false;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    if (!Takes(s, i, gui::ActionKind::kClick)) continue;
    const gui::Widget& w = s.widgets[i];
    if (positive < 0 && (w.resource_id == "android:id/button1" || Says(w, kPositive))) positive = i;
    if (IsNegativeAnswer(w)) negative = true;
  }
  return negative ? positive : -1;
}

std::vector<std::vector<Event>> WaysWithoutDetours(const std::vector<Layout>& layouts,
                                                   const std::vector<Event>& events) {
  std::vector<std::vector<Event>> ways;
  if (layouts.empty()) return ways;
  // A return is to the same layout state showing the same: typing, a toggle or a list's new
  // row leaves the state as it was but is no detour (a form refuses a Continue without it).
  auto exact = [&](size_t t) {
    return std::pair(layouts[t].abs, gui::ContentHash(layouts[t].screen));
  };
  std::vector<std::pair<uint64_t, uint64_t>> states = {exact(0)};  // where way[0, k) leads
  std::vector<Event> way;
  ways.push_back(way);
  for (size_t t = 0; t < events.size() && t + 1 < layouts.size(); ++t) {
    way.push_back(events[t]);
    states.push_back(exact(t + 1));
    // Back at a state shown before on the way: cut the detour.
    for (size_t k = 0; k + 1 < states.size(); ++k)
      if (states[k] == states.back()) {
        way.resize(k);
        states.resize(k + 1);
        break;
      }
    ways.push_back(way);
  }
  return ways;
}

void Starts::Add(const std::vector<Layout>& layouts, const std::vector<Event>& events) {
  if (layouts.empty()) return;
  launch_.insert(layouts.front().abs);
  const auto ways = WaysWithoutDetours(layouts, events);
  for (size_t t = 1; t < ways.size(); ++t) {
    const Layout& l = layouts[t];
    if (!l.in_app || launch_.count(l.abs) || ways[t].size() > static_cast<size_t>(max_prefix_))
      continue;
    auto [it, fresh] = index_.emplace(l.abs, starts_.size());
    if (fresh) {
      starts_.push_back({ways[t], l.screen.activity, l.abs, 0, {}});
      continue;
    }
    Start& s = starts_[it->second];
    const bool failed = std::find(s.failed.begin(), s.failed.end(), ways[t]) != s.failed.end();
    if (!failed && (!s.Usable() || ways[t].size() < s.prefix.size())) s.prefix = ways[t];
  }
}

void SeedChooser::See(const Layout& layout) {
  activity_of_.emplace(layout.abs, layout.in_app ? layout.screen.activity : "");
  for (const auto& w : layout.screen.widgets) {
    if (w.editable || w.text.empty() || w.text.size() > 40 || app_texts_.size() >= kMaxAppTexts)
      continue;
    if (std::find(app_texts_.begin(), app_texts_.end(), w.text) == app_texts_.end())
      app_texts_.push_back(w.text);
  }
}

std::string SeedChooser::TextToType(const gui::Screen& screen, int widget) {
  if (widget >= 0) {
    const auto& fitting = gui::FieldValues(gui::ClassifyField(screen.widgets[widget]));
    if (!fitting.empty()) return fitting.front();
  }
  if (!app_texts_.empty() && rng_.Chance(settings_.pct_app_text / 100))
    return app_texts_[rng_.Below(app_texts_.size())];
  return std::string(kWords[rng_.Below(kWords.size())]);
}

Event SeedChooser::Choose(const Layout& layout, bool systematic, const EffectLedger* ledger) {
  std::vector<Event> candidates = CandidateEvents(layout);
  const bool arrived = layout.abs != last_state_;  // the seed's last event led here, or none
  last_state_ = layout.abs;
  const bool stay = ledger && rng_.Chance(settings_.pct_stay / 100);
  if (stay) {
    std::vector<Event> staying;
    for (const Event& c : candidates)
      if (!Leaves(layout, c)) staying.push_back(c);
    if (!staying.empty()) candidates = std::move(staying);
  }
  if (ledger && settings_.pct_untested_effect > 0) {
    std::vector<const Event*> untested;
    for (const Event& c : candidates)
      if (ledger->Untested(layout.abs, c) && !taken_.count({layout.abs, c.Key()}))
        untested.push_back(&c);
    if (!untested.empty() && rng_.Chance(settings_.pct_untested_effect / 100)) {
      Event e = *untested[rng_.Below(untested.size())];
      taken_.emplace(layout.abs, e.Key());
      if (e.kind == gui::ActionKind::kInputText)
        e.text = TextToType(layout.screen, Resolve(layout.screen, e));
      return e;
    }
  }
  // A form's fields before its OK: a dialog that asks for a name refuses it empty.
  if (!ledger && rng_.Chance(settings_.pct_fill_forms / 100))
    if (auto fill = FillForm(layout)) return *fill;
  if (int positive = PositiveAnswer(layout.screen); positive >= 0) {
    Event answer = EventOn(layout.screen, gui::ActionKind::kClick, positive);
    if (!ChangesNothing(layout.abs, answer) && !(stay && Leaves(layout, answer)) && arrived &&
        rng_.Chance(settings_.pct_dialog_positive / 100))
      return answer;
  }
  Event e = systematic ? Systematic(layout, candidates) : Random(layout, candidates);
  if (e.kind == gui::ActionKind::kInputText)
    e.text = TextToType(layout.screen, Resolve(layout.screen, e));
  return e;
}

std::optional<Event> SeedChooser::FillForm(const Layout& layout) {
  const gui::Screen& s = layout.screen;
  std::vector<int> empty, submits;
  bool fields = false;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
    const gui::Widget& w = s.widgets[i];
    if (Takes(s, i, gui::ActionKind::kInputText)) {
      fields = true;
      if (w.text.empty() || w.text == w.hint) empty.push_back(i);
    } else if (Takes(s, i, gui::ActionKind::kClick) &&
               gui::SubmitsForm(w.text.empty() ? w.content_desc : w.text)) {
      submits.push_back(i);
    }
  }
  // A form that let a seed through before (its submit led to another state) is not filled by
  // rule again: the screen behind it is a start already, and the rest of this one needs mapping.
  for (int i : submits)
    for (uint64_t to :
         model_.Outcomes(layout.abs, EventOn(s, gui::ActionKind::kClick, i).TypeKey()))
      if (to != layout.abs) return std::nullopt;
  if (!empty.empty()) {
    const int i = empty[rng_.Below(empty.size())];
    Event e = EventOn(s, gui::ActionKind::kInputText, i);
    e.text = TextToType(s, i);
    return e;
  }
  if (fields && !submits.empty())
    return EventOn(s, gui::ActionKind::kClick, submits[rng_.Below(submits.size())]);
  return std::nullopt;
}

bool SeedChooser::Leaves(const Layout& layout, const Event& event) const {
  const std::vector<uint64_t> outcomes = model_.Outcomes(layout.abs, event.TypeKey());
  return !outcomes.empty() && std::none_of(outcomes.begin(), outcomes.end(), [&](uint64_t to) {
    auto a = activity_of_.find(to);
    return a == activity_of_.end() || (layout.in_app && a->second == layout.screen.activity);
  });
}

bool SeedChooser::ChangesNothing(uint64_t state, const Event& event) const {
  const std::vector<uint64_t> outcomes = model_.Outcomes(state, event.TypeKey());
  return !outcomes.empty() &&
         std::all_of(outcomes.begin(), outcomes.end(), [&](uint64_t to) { return to == state; });
}

Event SeedChooser::Systematic(const Layout& layout, const std::vector<Event>& candidates) {
  double best = -1;
  std::vector<size_t> ties;
  for (size_t i = 0; i < candidates.size(); ++i) {
    double w = model_.Weight(layout.abs, candidates[i].Key());
    if (w > best + 1e-9)
      best = w, ties.assign(1, i);
    else if (w > best - 1e-9)
      ties.push_back(i);
  }
  return candidates[ties[rng_.Below(ties.size())]];
}

Event SeedChooser::Random(const Layout& /*layout*/, const std::vector<Event>& candidates) {
  std::vector<size_t> clicks, longs, scrolls;
  bool back = false;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const gui::ActionKind kind = candidates[i].kind;
    if (kind == gui::ActionKind::kLongClick)
      longs.push_back(i);
    else if (IsScrollOrSwipe(kind))
      scrolls.push_back(i);
    else if (candidates[i].widget())
      clicks.push_back(i);
    else
      back = true;
  }
  std::vector<double> weights = {
      clicks.empty() ? 0 : settings_.pct_click, longs.empty() ? 0 : settings_.pct_long_click,
      back ? settings_.pct_navigation : 0, scrolls.empty() ? 0 : settings_.pct_scroll};
  if (weights[0] + weights[1] + weights[2] + weights[3] <= 0) return Event{};
  switch (rng_.Weighted(weights)) {
    case 0:
      return candidates[clicks[rng_.Below(clicks.size())]];
    case 1:
      return candidates[longs[rng_.Below(longs.size())]];
    case 3:
      return candidates[scrolls[rng_.Below(scrolls.size())]];
    default:
      return Event{};
  }
}

}  // namespace roam::fuzz
