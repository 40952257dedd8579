#include "gui/actions.h"

#include <array>

namespace roam::gui {
namespace {

constexpr std::string_view kSystemUi = "com.android.systemui";

bool Contains(std::string_view s, std::string_view part) { return s.find(part) != s.npos; }

// Scrollers whose class moves them sideways only / up and down only (checked in this order:
// "HorizontalScrollView" also contains "ScrollView").
constexpr std::array<std::string_view, 5> kHorizontalScrollers = {
    "HorizontalScrollView", "Gallery", "TabLayout", "TabWidget", "HorizontalGridView"};
constexpr std::array<std::string_view, 6> kVerticalScrollers = {
    "ScrollView", "ListView", "GridView", "ExpandableListView", "WebView", "VerticalGridView"};

bool MatchesAny(std::string_view cls, std::span<const std::string_view> names) {
  for (std::string_view n : names)
    if (Contains(cls, n)) return true;
  return false;
}

// Whether a scrollable widget can scroll up and down / sideways: one axis when its class
// allows no other, both otherwise (RecyclerView, ViewPager2 and unknown classes may go either
// way, whatever their shape).
bool ScrollsVertically(const Widget& w) {
  return w.scrollable && !MatchesAny(w.cls, kHorizontalScrollers);
}
bool ScrollsHorizontally(const Widget& w) {
  return w.scrollable &&
         (MatchesAny(w.cls, kHorizontalScrollers) || !MatchesAny(w.cls, kVerticalScrollers));
}

// THE table. Keep the comment in actions.h in step with it.
constexpr std::array<WidgetRule, 7> kWidgetRules = {{
    {[](const Widget& w) { return w.clickable || w.checkable; }, ActionKind::kClick,
     "clickable or checkable"},
    {[](const Widget& w) { return w.long_clickable; }, ActionKind::kLongClick, "long-clickable"},
    {[](const Widget& w) { return w.editable; }, ActionKind::kInputText, "editable"},
    {ScrollsVertically, ActionKind::kScrollUp, "scrollable, not a sideways-only class"},
    {ScrollsVertically, ActionKind::kScrollDown, "scrollable, not a sideways-only class"},
    {ScrollsHorizontally, ActionKind::kScrollLeft, "scrollable, not a vertical-only class"},
    {ScrollsHorizontally, ActionKind::kScrollRight, "scrollable, not a vertical-only class"},
}};

constexpr std::array<GlobalAction, 11> kGlobalActions = {{
    {ActionKind::kBack, ""},
    {ActionKind::kMenu, ""},
    {ActionKind::kRotate, ""},
    {ActionKind::kRestart, ""},
    {ActionKind::kSwipeUp, ""},
    {ActionKind::kSwipeDown, ""},
    {ActionKind::kSwipeLeft, ""},
    {ActionKind::kSwipeRight, ""},
    {ActionKind::kKey, "VOLUME_UP"},
    {ActionKind::kKey, "VOLUME_DOWN"},
    {ActionKind::kKey, "VOLUME_MUTE"},
}};

// Sets `a` to a widget action, reusing its strings and the path of `same` (an action on the
// same widget just before) when there is one.
void Fill(Action& a, ActionKind kind, const Screen& screen, int widget, const Action* same) {
  a.kind = kind;
  a.widget = widget;
  a.text.clear();
  if (!a.target) a.target.emplace();
  if (same)
    a.target->path = same->target->path;
  else
    a.target->path = screen.PathOf(widget);
  a.target->bounds = screen.widgets[widget].bounds;
}

}  // namespace

std::span<const WidgetRule> WidgetRules() { return kWidgetRules; }
std::span<const GlobalAction> GlobalActions() { return kGlobalActions; }

bool CanAct(const Screen& screen, int widget, const ActionOptions& options) {
  const Widget& w = screen.widgets[widget];
  if (!w.enabled || !w.displayed || w.bounds.empty()) return false;
  if (options.skip_off_screen) {
    const Rect& b = w.bounds;
    if (b.right <= 0 || b.bottom <= 0 || b.left >= screen.width || b.top >= screen.height)
      return false;
  }
  if (options.skip_system_ui && w.package == kSystemUi) return false;
  return true;
}

void ActionsFor(const Screen& screen, std::vector<Action>& out, const ActionOptions& options) {
  size_t n = 0;
  const int count = static_cast<int>(screen.widgets.size());
  for (int i = 0; i < count; ++i) {
    const Widget& w = screen.widgets[i];
    bool checked = false;  // CanAct only for widgets some rule applies to: most have none
    for (const WidgetRule& rule : kWidgetRules) {
      if (!rule.applies(w)) continue;
      if (!checked && !CanAct(screen, i, options)) break;
      checked = true;
      if (n == out.size()) out.emplace_back();
      Fill(out[n], rule.kind, screen, i, n > 0 && out[n - 1].widget == i ? &out[n - 1] : nullptr);
      ++n;
    }
  }
  out.resize(n);
}

void AppendGlobalActions(std::vector<Action>& out) {
  for (const GlobalAction& g : kGlobalActions)
    out.push_back(MakeGlobalAction(g.kind, std::string(g.text)));
}

}  // namespace roam::gui
