// The `uiautomator dump` XML format and the UiAutomator2 server's page source: ParseDump turns
// either (any of the dumper variants seen in the wild) into a Screen, WriteDump and
// WritePageSource write a Screen back in each format.
// Plain functions without shared state: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::gui {

// Parses a dump. Fills every Widget field (parent links, then Screen::Link()), the rotation
// from <hierarchy rotation="">, the package (that of the first node not from
// com.android.systemui or android, else of the first node) and the size (the union of the
// window roots' bounds; without roots 1080x1920, swapped for rotation 1 and 3). The activity
// is not in a dump and is left empty.
//
// A widget is a <node> (uiautomator dump) or an element named by its class that has a class
// attribute (the UiAutomator2 server's page source, whose root also carries class="hierarchy").
// Tolerated: missing attributes (Widget defaults), NAF, several windows, windows wrapped in
// extra elements, other non-<node> elements (transparent: their <node>s attach to the nearest
// <node> above), entities, non-ASCII text, text that is not UTF-8 (a Latin-1 byte, a lone
// surrogate's character reference: each ill-formed sequence becomes U+FFFD, base/utf8.h),
// malformed bounds (an empty Rect), uiautomator2 attributes (only `hint` is kept), a dump
// without nodes (an empty screen). `editable` comes from the class (EditText, AutoComplete...)
// or an `editable="true"` attribute.
//
// Errors (InvalidArgument) say what and where: "uiautomator dump: line 3:14: ...".
Result<Screen> ParseDump(std::string_view xml);

// The same, reusing `screen`'s storage (its widgets' strings keep their capacity), for loops
// that parse many dumps. On error `screen` holds no widgets.
Status ParseDumpInto(std::string_view xml, Screen& screen);

// Writes the device's format: <?xml ...?><hierarchy rotation=".."><node index=".." text=".."
// resource-id=".." class=".." package=".." content-desc=".." checkable=".." checked=".."
// clickable=".." enabled=".." focusable=".." focused=".." scrollable=".." long-clickable=".."
// password=".." selected=".." bounds="[l,t][r,b]">. NAF="true" (first, as devices do) and
// hint are written only when set. Uses the parent links, not subtree_end. Activity, size and
// `editable` (implied by the class) are not carried; ParseDump(WriteDump(s)) gives back every
// other field.
std::string WriteDump(const Screen& screen);

// Writes the UiAutomator2 server's page source (GET /session/:id/source): elements named by
// their class, the server's attributes in its order, a root <hierarchy index="0"
// class="hierarchy" rotation=".." width=".." height="..">, indented. ParseDump reads it back.
std::string WritePageSource(const Screen& screen);

// True for classes that take text input: contains "EditText" or "AutoComplete".
bool IsEditableClass(std::string_view cls);

}  // namespace roam::gui
