// fuzz/ is Genie (functional fuzzing with independent-view mutants, shared/seeds/001): pure
// logic over sequences of gui::Screen, with no device. This header: the layout abstraction and
// the events of seeds and mutants.
//   - A widget's type is class + resource-id (plus its digit-masked text when it is actionable
//     and has no resource-id or one of the platform's, android:id/..., so a dialog's OK and
//     Cancel differ, and so do a menu's items and a list dialog's). A layout's abstraction
//     l_abs is its activity plus the SET of its widget types, so two layouts whose lists differ
//     only in row count are equal (l ≃ l').
//   - Layouts are similar when they are of the same activity (Similar_layout_type).
//   - A widget's signature (type + text + content-desc) names a view across layouts: an event
//     finds its target in another layout by the exact signature first, then by the nearest
//     signature (edit distance) among widgets of the same type that can take the event.
// Value types and plain functions: thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gui/action.h"
#include "gui/screen.h"

namespace roam::fuzz {

// class|resource-id (|masked text for actionable widgets without a resource-id or with an
// android:id/... one).
std::string WidgetType(const gui::Screen& screen, int index);
// WidgetType|text|content-desc.
std::string WidgetSignature(const gui::Screen& screen, int index);
// Whether widget `index` can take an action of `kind` (flags, enabled, on screen, not system UI).
bool Takes(const gui::Screen& screen, int index, gui::ActionKind kind);

// One observed layout with its abstraction.
struct Layout {
  gui::Screen screen;
  std::vector<std::string> types;  // sorted, unique widget types: l_abs without the activity
  uint64_t abs = 0;                // hash of activity + types: the model's state

  bool in_app = true;  // false: the launcher or another app was in front
};
Layout MakeLayout(gui::Screen screen, const std::string& package);

// Same activity (Similar_layout_type of the notes); layouts outside the app are never similar.
bool Similar(const Layout& a, const Layout& b);
// |types(a) ∩ types(b)| / |types(a) ∪ types(b)|: 1 for equal abstractions. The mutant drop
// rule compares this with FuzzSettings::min_pivot_similarity.
double TypeSimilarity(const Layout& a, const Layout& b);

// An event of a seed or mutant, independent of any one screen: its kind and, for widget
// events, the type and signature of its target.
struct Event {
  gui::ActionKind kind = gui::ActionKind::kBack;
  std::string type;       // WidgetType of the target ("" for a global event)
  std::string signature;  // WidgetSignature of the target ("" for a global event)
  std::string text;       // input_text: the text typed; key: the key name
  std::string row;        // RowLabel of the target: picks among like views of several rows
  // Resolve only to a widget of the same signature (digit runs masked): a seed's events in a
  // mutant must find their own targets, not the nearest ones.
  bool exact = false;

  bool widget() const { return !type.empty(); }
  // kind + signature (+ the key name of a key event; not the text typed): one concrete event
  // (Υ weights are kept per state and key).
  std::string Key() const;
  // kind + type: the event as the transition model M knows it.
  std::string TypeKey() const;
  // For people: `click "Cinema"`, `long_click ImageView entry_photo`, `back`.
  std::string Describe() const;
  bool operator==(const Event&) const = default;
};

// A scroll of a widget (up, down, left, right) or a swipe of the screen: seeds take them (rows
// below the fold, drawers, pagers), τ does not (a loop that moves a list's window or opens a
// drawer to pick another feed is not independent of what the seed does next), and the check
// judges no pair of a seed's layouts with one between them (what a scroll shows depends on the
// rows τ added).
bool IsScrollOrSwipe(gui::ActionKind kind);

// The event on widget `index` of `screen` (its type, signature and row).
Event EventOn(const gui::Screen& screen, gui::ActionKind kind, int index);
// The event of `action` on `screen` (action.widget or its target path names the widget).
Event EventOf(const gui::Screen& screen, const gui::Action& action);
// The widget of `layout` that `event` acts on (e.r(l)): the exact signature first (among several,
// the one in the event's row), then (unless event.exact, which accepts the signature with digit
// runs masked and insists on the event's row) the nearest signature among widgets of the same
// type that take the event; -1 when none.
int Resolve(const gui::Screen& screen, const Event& event);
// The concrete action of `event` on `screen` (widget from Resolve; -1 for global events).
gui::Action ActionFor(const gui::Screen& screen, const Event& event, int widget);

}  // namespace roam::fuzz
