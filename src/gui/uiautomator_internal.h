// Internal to gui/: what the two dump readers share. ParseDumpInto first tries ScanDumpInto, a
// fast scanner for the well-formed subset devices write, and falls back to pugixml (which
// tolerates and reports everything else). Both fill widgets through SetNodeAttribute, so they
// agree field for field (a test checks this on every real dump). Thread-safe (no state).
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::gui::internal {

// Resets a widget to the defaults, keeping its strings' capacity.
void ResetWidget(Widget& w);
// Applies one (already unescaped) attribute of a <node>; editable="true" is collected in
// `editable_attr` because the class may come later. Unknown names are ignored.
void SetNodeAttribute(Widget& w, std::string_view name, std::string_view value,
                      bool& editable_attr);
// After all attributes: `editable` from the class or the attribute.
void FinishNode(Widget& w, bool editable_attr);
// "[l,t][r,b]"; anything else gives an empty Rect.
Rect ParseBounds(std::string_view s);

// Keeps widgets[0, count) but toasts (DropToasts), links them, and sets rotation, package and
// size (uiautomator.h): the display's size when the page source gives it (<hierarchy width
// height>), else what the window roots span.
void FinishScreen(Screen& screen, size_t count, int rotation, int display_width = 0,
                  int display_height = 0);
// A toast's element in the UiAutomator2 server's page source.
inline constexpr std::string_view kToastClass = "android.widget.Toast";
// Takes toast roots (and anything under them) out of the widgets, their text into
// Screen::toasts; the parents are still indexes of the unlinked list.
void DropToasts(Screen& screen);
// An element named by a class ("android.widget.Button"): the page source's kind of node.
bool IsClassName(std::string_view tag);

// The fast path: true when `xml` is within the subset and `screen` is filled as ParseDumpInto
// would; false, with `screen` unspecified, for anything else: a root other than <hierarchy>,
// DOCTYPE or CDATA, raw tabs, newlines or '<' in attribute values, entities other than the
// five named and numeric ones, a BOM, mismatched or unclosed tags, text outside the root.
bool ScanDumpInto(std::string_view xml, Screen& screen);
// The general path through pugixml: tolerant, and says where a broken dump breaks.
Status ParseDumpWithPugixml(std::string_view xml, Screen& screen);

}  // namespace roam::gui::internal
