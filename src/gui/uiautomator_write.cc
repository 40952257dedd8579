// WriteDump and WritePageSource: a Screen in the device's `uiautomator dump` format and in the
// UiAutomator2 server's page source (see uiautomator.h).
#include <cctype>
#include <cstdio>
#include <vector>

#include "gui/uiautomator.h"

namespace roam::gui {
namespace {

void AppendEscaped(std::string& out, std::string_view v) {
  size_t run = 0;  // start of the pending stretch that needs no escaping
  for (size_t i = 0; i < v.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(v[i]);
    const char* rep = nullptr;
    char num[8];
    switch (c) {
      case '&':
        rep = "&amp;";
        break;
      case '<':
        rep = "&lt;";
        break;
      case '>':
        rep = "&gt;";
        break;
      case '"':
        rep = "&quot;";
        break;
      default:
        if (c < 0x20) {  // \n, \t, ...: numeric references survive attribute normalisation
          std::snprintf(num, sizeof num, "&#%d;", c);
          rep = num;
        }
    }
    if (!rep) continue;
    out.append(v.data() + run, i - run);
    out.append(rep);
    run = i + 1;
  }
  out.append(v.data() + run, v.size() - run);
}

void AppendAttr(std::string& out, const char* name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  AppendEscaped(out, value);
  out += '"';
}

void AppendBool(std::string& out, const char* name, bool value) {
  AppendAttr(out, name, value ? "true" : "false");
}

void AppendBounds(std::string& out, const Rect& b) {
  char bounds[64];
  std::snprintf(bounds, sizeof bounds, "[%d,%d][%d,%d]", b.left, b.top, b.right, b.bottom);
  AppendAttr(out, "bounds", bounds);
}

void AppendNode(std::string& out, const Widget& w) {
  out += "<node";
  if (w.naf) AppendAttr(out, "NAF", "true");
  AppendAttr(out, "index", std::to_string(w.parent < 0 ? 0 : w.child_index));
  AppendAttr(out, "text", w.text);
  AppendAttr(out, "resource-id", w.resource_id);
  AppendAttr(out, "class", w.cls);
  AppendAttr(out, "package", w.package);
  AppendAttr(out, "content-desc", w.content_desc);
  AppendBool(out, "checkable", w.checkable);
  AppendBool(out, "checked", w.checked);
  AppendBool(out, "clickable", w.clickable);
  AppendBool(out, "enabled", w.enabled);
  AppendBool(out, "focusable", w.focusable);
  AppendBool(out, "focused", w.focused);
  AppendBool(out, "scrollable", w.scrollable);
  AppendBool(out, "long-clickable", w.long_clickable);
  AppendBool(out, "password", w.password);
  AppendBool(out, "selected", w.selected);
  AppendBounds(out, w.bounds);
  if (!w.hint.empty()) AppendAttr(out, "hint", w.hint);
}

// The server's element name: the class with [$@#&] as dots, repeated dots collapsed, the ends
// trimmed, characters not allowed in an XML name as '_' (AccessibilityNodeInfoDumper).
std::string TagName(std::string_view cls) {
  std::string out;
  for (char c : cls) {
    if (c == '$' || c == '@' || c == '#' || c == '&') c = '.';
    if (c == '.' && (out.empty() || out.back() == '.')) continue;
    bool name_char = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                     c == '.' || static_cast<unsigned char>(c) >= 0x80;
    out += name_char ? c : '_';
  }
  while (!out.empty() && out.back() == '.') out.pop_back();
  while (!out.empty() && !std::isalpha(static_cast<unsigned char>(out[0])) && out[0] != '_' &&
         static_cast<unsigned char>(out[0]) < 0x80)
    out.erase(0, 1);
  return out.empty() ? "android.view.View" : out;
}

// One element as the server writes it: its attributes in the server's order (those Roam has).
void AppendElement(std::string& out, const Widget& w, int drawing_order) {
  out += '<';
  out += TagName(w.cls);
  AppendAttr(out, "index", std::to_string(w.parent < 0 ? 0 : w.child_index));
  if (!w.package.empty()) AppendAttr(out, "package", w.package);
  AppendAttr(out, "class", w.cls);
  AppendAttr(out, "text", w.text);
  if (!w.content_desc.empty()) AppendAttr(out, "content-desc", w.content_desc);
  if (!w.resource_id.empty()) AppendAttr(out, "resource-id", w.resource_id);
  AppendBool(out, "checkable", w.checkable);
  AppendBool(out, "checked", w.checked);
  AppendBool(out, "clickable", w.clickable);
  AppendBool(out, "enabled", w.enabled);
  AppendBool(out, "focusable", w.focusable);
  AppendBool(out, "focused", w.focused);
  AppendBool(out, "long-clickable", w.long_clickable);
  AppendBool(out, "password", w.password);
  AppendBool(out, "scrollable", w.scrollable);
  AppendBool(out, "selected", w.selected);
  AppendBounds(out, w.bounds);
  AppendAttr(out, "displayed", "true");
  if (!w.hint.empty()) AppendAttr(out, "hint", w.hint);
  AppendAttr(out, "a11y-important", "true");
  AppendAttr(out, "screen-reader-focusable", "false");
  AppendAttr(out, "drawing-order", std::to_string(drawing_order));
  AppendAttr(out, "showing-hint", "false");
  AppendAttr(out, "text-entry-key", "false");
  AppendAttr(out, "dismissable", "false");
  AppendAttr(out, "a11y-focused", "false");
  AppendAttr(out, "heading", "false");
  AppendAttr(out, "live-region", "0");
  AppendAttr(out, "context-clickable", "false");
  AppendAttr(out, "content-invalid", "false");
}

// Writes the elements in pre-order, nesting by the parent links; `node` writes one open tag
// without its end.
template <typename Open, typename Close>
void AppendTree(std::string& out, const std::vector<Widget>& ws, Open open_tag, Close close_tag,
                const char* indent) {
  std::vector<int> open;  // the chain of unclosed ancestors
  auto pad = [&](size_t depth) {
    if (!*indent) return;
    out += '\n';
    for (size_t k = 0; k <= depth; ++k) out += indent;
  };
  for (size_t i = 0; i < ws.size(); ++i) {
    while (!open.empty() && open.back() != ws[i].parent) {
      pad(open.size() - 1);
      close_tag(ws[open.back()]);
      open.pop_back();
    }
    pad(open.size());
    open_tag(ws[i], static_cast<int>(i));
    bool has_child = i + 1 < ws.size() && ws[i + 1].parent == static_cast<int>(i);
    if (has_child) {
      out += '>';
      open.push_back(static_cast<int>(i));
    } else {
      out += " />";
    }
  }
  while (!open.empty()) {
    pad(open.size() - 1);
    close_tag(ws[open.back()]);
    open.pop_back();
  }
}

}  // namespace

std::string WritePageSource(const Screen& screen) {
  std::string out;
  out.reserve(256 + screen.widgets.size() * 600);
  out +=
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy index=\"0\" "
      "class=\"hierarchy\" rotation=\"";
  out += std::to_string(screen.rotation);
  out += "\" width=\"" + std::to_string(screen.width) + "\" height=\"" +
         std::to_string(screen.height) + "\">";
  AppendTree(
      out, screen.widgets, [&](const Widget& w, int i) { AppendElement(out, w, i + 1); },
      [&](const Widget& w) {
        out += "</";
        out += TagName(w.cls);
        out += '>';
      },
      "  ");
  out += "\n</hierarchy>";
  return out;
}

std::string WriteDump(const Screen& screen) {
  const std::vector<Widget>& ws = screen.widgets;
  std::string out;
  out.reserve(128 + ws.size() * 400);
  out += "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"";
  out += std::to_string(screen.rotation);
  out += "\">";
  AppendTree(
      out, ws, [&](const Widget& w, int) { AppendNode(out, w); },
      [&](const Widget&) { out += "</node>"; }, "");
  out += "</hierarchy>";
  return out;
}

}  // namespace roam::gui
