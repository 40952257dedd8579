// Widget and activity matchers, and the steps that use them, as users write them: the harness's
// black and white lists and custom-action scripts (explore/harness.h), properties' conditions and
// interactions (oracle/property.h). A WidgetMatcher matches by resource-id, text, a path
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
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::gui {

class PathExpr {
 public:
  // Parses `text`; errors say the column and what was expected.
  static Result<PathExpr> Parse(std::string_view text);
  // Whether the widget at `index` of `screen` (linked) is selected by the expression.
  bool Matches(const Screen& screen, int index) const;
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
  bool MatchFrom(const Screen& screen, int index, int step) const;
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

  bool Matches(const Screen& screen, int index) const;
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

// Every key of `j` (an object) must be in `known`; else "where: unknown key "x" (did you mean
// ...); known: ...". Not an object: "where: expected an object, got ...".
Status CheckJsonKeys(const nlohmann::json& j, const std::string& where,
                     const std::vector<std::string>& known);

// One step a user writes (a harness script's, a property's interaction): an action kind, the
// widget it acts on (widget actions only) and its text (input_text: what is typed; key: the key
// name; broadcast: the intent action).
struct WidgetStep {
  ActionKind kind = ActionKind::kClick;
  std::optional<WidgetMatcher> widget;  // set exactly for widget actions
  std::string text;
};

// Parses {"action": "click", "widget": {...}, "text": "..."}; `where` names it in errors.
Result<WidgetStep> ParseWidgetStep(const nlohmann::json& j, const std::string& where);

// The widget `action` targets on `screen` (its index, checked against the target's bounds, else
// found by its path), or -1.
int TargetOf(const Screen& screen, const Action& action);

// `step` as an action on `screen`: for a widget step the first of `actions` of its kind on a
// widget its matcher selects (with the step's text typed), nullopt when there is none; a global
// step as it is.
std::optional<Action> StepAction(const WidgetStep& step, const Screen& screen,
                                 const std::vector<Action>& actions);

}  // namespace roam::gui
