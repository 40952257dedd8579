// Widget and activity matchers for the harness (explore/harness.h): black and white lists and
// the widgets of custom-action scripts. A WidgetMatcher matches by resource-id, text, a path
// expression (a small XPath subset, below) or a screen-fraction rectangle; every key given
// must hold. Matchers are immutable once parsed: thread-safe.
//
// Path expressions (docs/harness.md): steps joined by '/' (child) or '//' (descendant); the
// first step is taken from the window roots ('/') or from anywhere ('//').
//   step      := ('*' | CLASS) predicate*      CLASS: full (android.widget.Button) or short
//   (Button) predicate := '[' test ('and' test)* ']' test      := '@'ATTR '=' 'value'  |
//   contains(@ATTR, 'value')  |  starts-with(@ATTR, 'value')
// ATTR is a uiautomator dump attribute: resource-id, text, content-desc, class, package, hint,
// index, clickable, long-clickable, checkable, checked, scrollable, enabled, focusable, focused,
// selected, password. Values are quoted with ' or ". A resource-id value without a package
// ("delete" or "id/delete") matches the id in any package ("org.app:id/delete").
// Examples: //android.widget.Button[@resource-id='id/delete'], //*[@text='Sign out'],
// /FrameLayout/*/Button[contains(@text, 'Buy') and @enabled='true'].
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::explore {

class PathExpr {
 public:
  // Parses `text`; errors say the column and what was expected.
  static Result<PathExpr> Parse(std::string_view text);
  // Whether the widget at `index` of `screen` (linked) is selected by the expression.
  bool Matches(const gui::Screen& screen, int index) const;
  const std::string& text() const { return text_; }

  struct Test {
    enum class Op { kEquals, kContains, kStartsWith };
    Op op = Op::kEquals;
    std::string attr;
    std::string value;
  };
  struct Step {
    bool descendant = false;  // reached by '//' (any depth) rather than '/' (a child)
    std::string cls;          // "" for '*'
    std::vector<Test> tests;  // all must hold
  };

 private:
  bool MatchFrom(const gui::Screen& screen, int index, int step) const;
  std::string text_;
  std::vector<Step> steps_;
};

// The fraction rectangle [x0, y0, x1, y1] in 0..1 of the screen's width and height; a widget
// is inside when the centre of its bounds is (edges included).
struct FractionRect {
  double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
};

struct WidgetMatcher {
  std::optional<std::string> resource_id;  // the id, with or without "pkg:" and "id/"
  std::optional<std::string> text;         // equals the widget's text or its content-desc
  std::optional<PathExpr> path;
  std::optional<FractionRect> rect;
  std::string describe;  // the matcher as written, for logs

  bool Matches(const gui::Screen& screen, int index) const;
};

// Parses {"resource_id": ..., "text": ..., "path": ..., "rect": [x0,y0,x1,y1]} (at least one
// key). `where` names the place for errors, e.g. "filters.json: widgets.black[2]".
Result<WidgetMatcher> ParseWidgetMatcher(const nlohmann::json& j, const std::string& where);

// Whether a resource-id matches a wanted id: equal, or `wanted` has no package and equals the
// part after "pkg:" ("id/delete"), or after "pkg:id/" ("delete").
bool ResourceIdMatches(std::string_view id, std::string_view wanted);

// Whether `activity` (as a Screen reports it: "org.app.ui.Main", "org.app/.ui.Main") is named by
// `wanted`: the full name, or a tail of it that starts after a '.' or '/' ("ui.Main", "Main",
// ".ui.Main").
bool ActivityMatches(std::string_view activity, std::string_view wanted);

}  // namespace roam::explore
