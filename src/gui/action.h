// Action: one input event Roam can send, with a stable reference to its target widget (the
// path in the tree plus its bounds, so a replay can find it again or fall back to the point).
// Value type, thread-compatible.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gui/widget.h"

namespace roam::gui {

enum class ActionKind {
  kClick,
  kLongClick,
  kSwipeUp,  // screen gestures: finger moves up (content scrolls down), etc.
  kSwipeDown,
  kSwipeLeft,
  kSwipeRight,
  kScrollUp,  // on a scrollable widget
  kScrollDown,
  kScrollLeft,
  kScrollRight,
  kInputText,
  kBack,
  kMenu,
  kRotate,
  kRestart,    // stop and relaunch the app
  kKey,        // a system key event: VOLUME_UP, VOLUME_DOWN, VOLUME_MUTE, HOME, ...
  kBroadcast,  // a system broadcast to the app: `am broadcast -a ACTION -p PACKAGE`
  kIntent,     // start an activity from outside the GUI: `am start` (text: gui::Intent::ToText)
};
constexpr int kActionKindCount = static_cast<int>(ActionKind::kIntent) + 1;

std::string_view ActionKindName(ActionKind kind);  // "click", "long_click", "swipe_up", ...
std::optional<ActionKind> ActionKindFromName(std::string_view name);
// True for kinds that act on a widget (click, long click, scroll, input).
bool IsWidgetAction(ActionKind kind);
// True for kinds whose text names the action itself (a key's name, a broadcast's intent
// action, an intent): two such actions with other texts are other events. Typed text is not so.
inline bool TextNamesAction(ActionKind kind) {
  return kind == ActionKind::kKey || kind == ActionKind::kBroadcast || kind == ActionKind::kIntent;
}

struct WidgetRef {
  std::string path;  // Screen::PathOf
  Rect bounds;
  bool operator==(const WidgetRef&) const = default;
};

struct Action {
  ActionKind kind = ActionKind::kBack;
  std::optional<WidgetRef> target;  // set for widget actions; optional for swipes
  int widget = -1;                  // index in the observed Screen (a hint; path is the truth)
  // kInputText: the text; kKey: the key name; kBroadcast: the intent action; kIntent: the
  // intent (gui/intent.h's ToText).
  std::string text;

  // Human-readable form for logs: `click 0/1/3 "Save"`.
  std::string Describe() const;
};

Action MakeWidgetAction(ActionKind kind, const struct Screen& screen, int widget);
Action MakeGlobalAction(ActionKind kind, std::string text = "");

}  // namespace roam::gui
