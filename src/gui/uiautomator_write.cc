// WriteDump: a Screen in the device's `uiautomator dump` format (see uiautomator.h).
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
  const Rect& b = w.bounds;
  char bounds[64];
  std::snprintf(bounds, sizeof bounds, "[%d,%d][%d,%d]", b.left, b.top, b.right, b.bottom);
  AppendAttr(out, "bounds", bounds);
  if (!w.hint.empty()) AppendAttr(out, "hint", w.hint);
}

}  // namespace

std::string WriteDump(const Screen& screen) {
  const std::vector<Widget>& ws = screen.widgets;
  std::string out;
  out.reserve(128 + ws.size() * 400);
  out += "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"";
  out += std::to_string(screen.rotation);
  out += "\">";
  std::vector<int> open;  // the chain of unclosed ancestors
  for (size_t i = 0; i < ws.size(); ++i) {
    while (!open.empty() && open.back() != ws[i].parent) {
      out += "</node>";
      open.pop_back();
    }
    AppendNode(out, ws[i]);
    bool has_child = i + 1 < ws.size() && ws[i + 1].parent == static_cast<int>(i);
    if (has_child) {
      out += '>';
      open.push_back(static_cast<int>(i));
    } else {
      out += " />";
    }
  }
  for (size_t k = 0; k < open.size(); ++k) out += "</node>";
  out += "</hierarchy>";
  return out;
}

}  // namespace roam::gui
