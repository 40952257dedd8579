#include "gui/action.h"

#include <array>

#include "gui/screen.h"

namespace roam::gui {
namespace {

constexpr std::array<std::string_view, kActionKindCount> kNames = {
    "click",     "long_click",  "swipe_up",    "swipe_down",   "swipe_left", "swipe_right",
    "scroll_up", "scroll_down", "scroll_left", "scroll_right", "input_text", "back",
    "menu",      "rotate",      "restart",     "key",          "broadcast",  "intent"};

}  // namespace

std::string_view ActionKindName(ActionKind kind) { return kNames[static_cast<int>(kind)]; }

std::optional<ActionKind> ActionKindFromName(std::string_view name) {
  for (int i = 0; i < kActionKindCount; ++i)
    if (kNames[i] == name) return static_cast<ActionKind>(i);
  return std::nullopt;
}

bool IsWidgetAction(ActionKind kind) {
  switch (kind) {
    case ActionKind::kClick:
    case ActionKind::kLongClick:
    case ActionKind::kScrollUp:
    case ActionKind::kScrollDown:
    case ActionKind::kScrollLeft:
    case ActionKind::kScrollRight:
    case ActionKind::kInputText:
      return true;
    default:
      return false;
  }
}

std::string Action::Describe() const {
  std::string s(ActionKindName(kind));
  if (target) s += " " + target->path;
  if (!text.empty()) s += " \"" + text + "\"";
  return s;
}

Action MakeWidgetAction(ActionKind kind, const Screen& screen, int widget) {
  Action a;
  a.kind = kind;
  a.widget = widget;
  a.target = WidgetRef{screen.PathOf(widget), screen.widgets[widget].bounds};
  return a;
}

Action MakeGlobalAction(ActionKind kind, std::string text) {
  Action a;
  a.kind = kind;
  a.text = std::move(text);
  return a;
}

}  // namespace roam::gui
