// ParseDump: the public entry, the attribute handling both readers share, and the general
// reader through pugixml. The fast scanner is in uiautomator_scan.cc, the writer in
// uiautomator_write.cc.
#include "gui/uiautomator.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include <pugixml.hpp>

#include "base/utf8.h"
#include "gui/uiautomator_internal.h"

namespace roam::gui {
namespace internal {
namespace {

constexpr int kDefaultWidth = 1080;
constexpr int kDefaultHeight = 1920;

bool IsTrue(std::string_view v) { return v == "true"; }

}  // namespace

Rect ParseBounds(std::string_view rest) {
  static constexpr std::string_view kBefore[4] = {"[", ",", "][", ","};
  int v[4];
  for (int i = 0; i < 4; ++i) {
    if (!rest.starts_with(kBefore[i])) return {};
    rest.remove_prefix(kBefore[i].size());
    auto [q, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v[i]);
    if (ec != std::errc()) return {};
    rest.remove_prefix(q - rest.data());
  }
  if (rest != "]") return {};
  return Rect{v[0], v[1], v[2], v[3]};
}

void ResetWidget(Widget& w) {
  w.cls.clear();
  w.resource_id.clear();
  w.text.clear();
  w.content_desc.clear();
  w.package.clear();
  w.hint.clear();
  w.bounds = {};
  w.clickable = w.long_clickable = w.checkable = w.checked = w.scrollable = false;
  w.editable = w.password = w.focusable = w.focused = w.selected = w.naf = false;
  w.enabled = w.displayed = true;
  w.parent = -1;
  w.depth = w.child_index = w.subtree_end = 0;
}

void SetNodeAttribute(Widget& w, std::string_view n, std::string_view v, bool& editable_attr) {
  if (n.empty()) return;
  switch (n[0]) {
    case 'b':
      if (n == "bounds") w.bounds = ParseBounds(v);
      break;
    case 'c':
      if (n == "class")
        w.cls.assign(v);
      else if (n == "clickable")
        w.clickable = IsTrue(v);
      else if (n == "checkable")
        w.checkable = IsTrue(v);
      else if (n == "checked")
        w.checked = IsTrue(v);
      else if (n == "content-desc")
        w.content_desc.assign(v);
      break;
    case 'd':
      if (n == "displayed") w.displayed = IsTrue(v);
      break;
    case 'e':
      if (n == "enabled")
        w.enabled = IsTrue(v);
      else if (n == "editable")
        editable_attr = IsTrue(v);
      break;
    case 'f':
      if (n == "focusable")
        w.focusable = IsTrue(v);
      else if (n == "focused")
        w.focused = IsTrue(v);
      break;
    case 'h':
      if (n == "hint") w.hint.assign(v);
      break;
    case 'l':
      if (n == "long-clickable") w.long_clickable = IsTrue(v);
      break;
    case 'N':
      if (n == "NAF") w.naf = IsTrue(v);
      break;
    case 'p':
      if (n == "package")
        w.package.assign(v);
      else if (n == "password")
        w.password = IsTrue(v);
      break;
    case 'r':
      if (n == "resource-id") w.resource_id.assign(v);
      break;
    case 's':
      if (n == "scrollable")
        w.scrollable = IsTrue(v);
      else if (n == "selected")
        w.selected = IsTrue(v);
      break;
    case 't':
      if (n == "text") w.text.assign(v);
      break;
    default:
      break;  // index (recomputed by Link), visible-to-user, drawing-order, ...
  }
}

void DropToasts(Screen& s) {
  std::vector<Widget>& ws = s.widgets;
  s.toasts.clear();
  auto is_toast = [](const Widget& w) { return w.parent < 0 && w.cls == kToastClass; };
  if (std::none_of(ws.begin(), ws.end(), is_toast)) return;
  // A toast is a root: it and what hangs from it go, the others keep their order and links.
  std::vector<int> index(ws.size(), -1);
  size_t kept = 0;
  for (size_t i = 0; i < ws.size(); ++i) {
    const int parent = ws[i].parent;
    if (is_toast(ws[i]) || (parent >= 0 && index[parent] < 0)) {
      if (is_toast(ws[i]) && !ws[i].text.empty()) s.toasts.push_back(ws[i].text);
      continue;
    }
    index[i] = static_cast<int>(kept);
    Widget w = std::move(ws[i]);
    w.parent = parent >= 0 ? index[parent] : -1;
    ws[kept++] = std::move(w);
  }
  ws.resize(kept);
}

void FinishNode(Widget& w, bool editable_attr) {
  w.editable = editable_attr || IsEditableClass(w.cls);
}

void FinishScreen(Screen& s, size_t count, int rotation, int display_width, int display_height) {
  s.widgets.resize(count);
  DropToasts(s);
  s.Link();
  s.package.clear();
  s.activity.clear();
  s.rotation = rotation;
  for (const Widget& w : s.widgets) {
    if (w.package.empty()) continue;
    if (s.package.empty()) s.package = w.package;
    if (w.package != "com.android.systemui" && w.package != "android") {
      s.package = w.package;
      break;
    }
  }
  int right = 0, bottom = 0;
  for (const Widget& w : s.widgets) {
    if (w.parent >= 0) continue;
    right = std::max(right, w.bounds.right);
    bottom = std::max(bottom, w.bounds.bottom);
  }
  bool landscape = rotation % 2 == 1;
  s.width = right > 0 ? right : (landscape ? kDefaultHeight : kDefaultWidth);
  s.height = bottom > 0 ? bottom : (landscape ? kDefaultWidth : kDefaultHeight);
  // The UiAutomator2 server says the display's size (the window it would show an app in): a
  // dialog's window, the only root with multi-window off, is smaller than the screen.
  if (display_width > 0 && display_height > 0) {
    s.width = display_width;
    s.height = display_height;
  }
}

bool IsClassName(std::string_view tag) {
  return tag != "node" && tag != "hierarchy" && tag.find('.') != std::string_view::npos;
}

namespace {

// Entities and attribute whitespace normalisation only: no comments, PIs, DOCTYPE, CDATA.
constexpr unsigned kParseFlags = pugi::parse_escapes | pugi::parse_wconv_attribute;

// 1-based line:column of a byte offset.
std::string Where(std::string_view xml, ptrdiff_t offset) {
  size_t off = std::min<size_t>(offset < 0 ? 0 : static_cast<size_t>(offset), xml.size());
  size_t line = 1 + std::count(xml.begin(), xml.begin() + off, '\n');
  size_t nl = off == 0 ? std::string_view::npos : xml.rfind('\n', off - 1);
  size_t col = nl == std::string_view::npos ? off + 1 : off - nl;
  return "line " + std::to_string(line) + ":" + std::to_string(col);
}

Status Error(std::string_view xml, ptrdiff_t offset, const std::string& what) {
  return Status::InvalidArgument("uiautomator dump: " + Where(xml, offset) + ": " + what);
}

// A <node>, or an element named by its class (the UiAutomator2 server's page source), with a
// class attribute or without one (a view whose class name is null: the server names it
// android.view.View and leaves the attribute out).
bool IsNode(const pugi::xml_node& n) {
  return n.type() == pugi::node_element &&
         (!std::strcmp(n.name(), "node") ||
          (std::strcmp(n.name(), "hierarchy") && n.attribute("class")) || IsClassName(n.name()));
}

// The element whose descendants are the windows: <hierarchy> wherever it is, else the root
// when the dump is bare <node>s. Null when this is not a dump.
pugi::xml_node FindContainer(const pugi::xml_document& doc) {
  pugi::xml_node root = doc.document_element();
  if (!std::strcmp(root.name(), "hierarchy")) return root;
  if (pugi::xml_node h = root.find_node([](pugi::xml_node n) {
        return n.type() == pugi::node_element && !std::strcmp(n.name(), "hierarchy");
      }))
    return h;
  if (IsNode(root)) return doc;
  if (root.find_node([](pugi::xml_node n) { return IsNode(n); })) return root;
  return {};
}

}  // namespace

Status ParseDumpWithPugixml(std::string_view xml, Screen& screen) {
  std::vector<Widget>& ws = screen.widgets;
  if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    ws.clear();
    return Status::InvalidArgument("uiautomator dump: empty input (line 1:1)");
  }
  pugi::xml_document doc;
  pugi::xml_parse_result r =
      doc.load_buffer(xml.data(), xml.size(), kParseFlags, pugi::encoding_utf8);
  if (!r) {
    ws.clear();
    if (r.status == pugi::status_no_document_element)
      return Error(xml, r.offset, "not XML: no element found");
    return Error(xml, r.offset, r.description());
  }
  pugi::xml_node container = FindContainer(doc);
  if (!container) {
    ws.clear();
    return Error(xml, doc.document_element().offset_debug(),
                 std::string("no <hierarchy> or <node> element (root is <") +
                     doc.document_element().name() + ">)");
  }
  // Iterative pre-order walk; other elements are transparent. owner holds, for each open
  // element, the widget its <node> children attach to (-1: a window root).
  size_t kept = 0;
  std::vector<int> owner;
  pugi::xml_node cur = container.first_child();
  int parent = -1;
  while (cur) {
    int self = parent;
    bool element = cur.type() == pugi::node_element;
    if (element && IsNode(cur)) {
      if (kept == ws.size()) ws.emplace_back();
      Widget& w = ws[kept];
      ResetWidget(w);
      bool editable_attr = false;
      for (pugi::xml_attribute a = cur.first_attribute(); a; a = a.next_attribute())
        SetNodeAttribute(w, a.name(), a.value(), editable_attr);
      if (w.cls.empty() && IsClassName(cur.name())) w.cls = cur.name();
      FinishNode(w, editable_attr);
      w.parent = parent;
      self = static_cast<int>(kept++);
    }
    if (element && cur.first_child()) {
      owner.push_back(parent);
      parent = self;
      cur = cur.first_child();
      continue;
    }
    while (cur && !cur.next_sibling()) {
      cur = cur.parent();
      if (cur == container || owner.empty()) {
        cur = pugi::xml_node();
        break;
      }
      parent = owner.back();
      owner.pop_back();
    }
    if (cur) cur = cur.next_sibling();
  }
  FinishScreen(screen, kept, container.attribute("rotation").as_int(0),
               container.attribute("width").as_int(0), container.attribute("height").as_int(0));
  return Status::Ok();
}

}  // namespace internal

bool IsEditableClass(std::string_view cls) {
  return cls.find("EditText") != cls.npos || cls.find("AutoComplete") != cls.npos;
}

namespace {

// Text from the device is made valid UTF-8 here, where it enters (base/utf8.h).
void MakeTextValid(Screen& screen) {
  MakeValidUtf8(screen.package);
  for (std::string& toast : screen.toasts) MakeValidUtf8(toast);
  for (Widget& w : screen.widgets)
    for (std::string* field :
         {&w.cls, &w.resource_id, &w.text, &w.content_desc, &w.package, &w.hint})
      MakeValidUtf8(*field);
}

}  // namespace

Status ParseDumpInto(std::string_view xml, Screen& screen) {
  if (!internal::ScanDumpInto(xml, screen))
    ROAM_RETURN_IF_ERROR(internal::ParseDumpWithPugixml(xml, screen));
  MakeTextValid(screen);
  return Status::Ok();
}

Result<Screen> ParseDump(std::string_view xml) {
  Screen s;
  Status st = ParseDumpInto(xml, s);
  if (!st.ok()) return st;
  return s;
}

}  // namespace roam::gui
