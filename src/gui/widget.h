// gui/ is Roam's vocabulary: Widget, Screen, Action, the uiautomator XML format, which widgets
// yield which actions (actions.h) and the abstraction into state keys and hyper-events
// (abstraction.h). It knows nothing of devices or strategies. Value types, thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace roam::gui {

struct Rect {
  int left = 0, top = 0, right = 0, bottom = 0;

  int width() const { return right - left; }
  int height() const { return bottom - top; }
  bool empty() const { return width() <= 0 || height() <= 0; }
  int center_x() const { return left + width() / 2; }
  int center_y() const { return top + height() / 2; }
  bool Contains(int x, int y) const { return x >= left && x < right && y >= top && y < bottom; }
  bool operator==(const Rect&) const = default;
};

// One node of a uiautomator hierarchy. Attribute names follow the dump format.
struct Widget {
  std::string cls;          // class, e.g. android.widget.Button
  std::string resource_id;  // resource-id, e.g. org.app:id/save ("" when absent)
  std::string text;
  std::string content_desc;  // content-desc
  std::string package;
  std::string hint;  // uiautomator2-style dumps only
  Rect bounds;
  bool clickable = false;
  bool long_clickable = false;
  bool checkable = false;
  bool checked = false;
  bool scrollable = false;
  bool editable = false;  // an EditText-like input (class, or `editable`-style hints)
  bool password = false;
  bool enabled = true;
  bool focusable = false;
  bool focused = false;
  bool selected = false;
  bool naf = false;  // NAF="true": not accessibility-friendly
  // displayed="false" (the UiAutomator2 server's page source): on the screen's tree but not
  // shown; no action targets it.
  bool displayed = true;

  // Tree links in Screen::widgets (pre-order). parent is -1 for a window root.
  int parent = -1;
  int depth = 0;
  int child_index = 0;  // position among its siblings (the dump's `index`)
  int subtree_end = 0;  // one past the last descendant in pre-order

  bool operator==(const Widget&) const = default;
};

// The content description Android gives the app bar's overflow button, which opens the
// options menu.
inline constexpr std::string_view kOverflowDescription = "More options";

}  // namespace roam::gui
