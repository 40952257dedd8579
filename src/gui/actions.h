// Which widgets yield which actions: one table (kWidgetRules in actions.cc, listed below) and
// the global actions that need no widget. Strategies pick among what these return.
// Plain functions over immutable tables: thread-safe.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "gui/action.h"
#include "gui/screen.h"

namespace roam::gui {

// The widget rules, in the order actions are emitted for one widget:
//   clickable or checkable          -> click
//   long-clickable                  -> long_click
//   editable (EditText-like)        -> input_text (Action::text left empty: the strategy fills it)
//   scrollable, not sideways-only   -> scroll_up, scroll_down
//   scrollable, not vertical-only   -> scroll_left, scroll_right
// Sideways-only classes: HorizontalScrollView, Gallery, TabLayout, TabWidget, HorizontalGridView;
// vertical-only: ScrollView (and NestedScrollView), ListView, GridView, ExpandableListView,
// WebView, VerticalGridView. Every other scrollable (RecyclerView, ViewPager, ViewPager2, an
// unknown class) gets both axes, whatever its shape, as Monkey's swipes would reach both.
// Before the rules, a widget is skipped when it is disabled, has empty bounds, lies entirely
// off the screen, or (by default) belongs to the system UI. NAF widgets are not skipped.
struct WidgetRule {
  bool (*applies)(const Widget&);
  ActionKind kind;
  std::string_view why;  // for docs and logs: "clickable or checkable"
};
std::span<const WidgetRule> WidgetRules();

struct ActionOptions {
  // Skip widgets whose package is com.android.systemui (status and navigation bars: clicking
  // them leaves the app; back is a global action). Default: true.
  bool skip_system_ui = true;
  // Skip widgets whose bounds do not meet [0,width) x [0,height) of the screen. Default: true.
  bool skip_off_screen = true;
};

// Replaces `out` with the widget actions of `screen` in widget order, reusing its storage.
void ActionsFor(const Screen& screen, std::vector<Action>& out, const ActionOptions& options = {});

// Whether the skip conditions above let `widget` act at all.
bool CanAct(const Screen& screen, int widget, const ActionOptions& options = {});

// The global actions, in this order: back, menu, rotate, restart, swipe_up, swipe_down,
// swipe_left, swipe_right, key VOLUME_UP, key VOLUME_DOWN, key VOLUME_MUTE. Appended to `out`
// (not cleared), so a strategy can add them after ActionsFor or keep them apart and weigh
// each kind as it likes.
void AppendGlobalActions(std::vector<Action>& out);

struct GlobalAction {
  ActionKind kind;
  std::string_view text;  // the key name for kKey, else empty
};
std::span<const GlobalAction> GlobalActions();

}  // namespace roam::gui
