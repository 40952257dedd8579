// Hand-built widget trees for the fuzz/ tests: W("ListView", "list", {...children}) with
// chained setters, flattened into a linked gui::Screen.
#pragma once

#include <string>
#include <vector>

#include "fuzz/layout.h"
#include "gui/screen.h"

namespace roam::fuzz::testing {

struct W {
  std::string cls, id, text, desc;
  std::vector<W> children;
  bool click = false, long_click = false, scroll = false, edit = false;
  W(std::string c, std::string i, std::vector<W> kids = {})
      : cls(std::move(c)), id(std::move(i)), children(std::move(kids)) {}
  W& Text(std::string t) {
    text = std::move(t);
    return *this;
  }
  W& Desc(std::string d) {
    desc = std::move(d);
    return *this;
  }
  W& Click() {
    click = true;
    return *this;
  }
  W& Edit() {  // a text field
    edit = true;
    return *this;
  }
  W& Scroll() {  // a list that holds more rows than it shows
    scroll = true;
    return *this;
  }
};

inline void Flatten(const W& w, int parent, gui::Screen& s) {
  gui::Widget x;
  x.cls = w.cls.find('.') == std::string::npos ? "android.widget." + w.cls : w.cls;
  x.resource_id = w.id.empty() || w.id.find(':') != std::string::npos ? w.id : "app:id/" + w.id;
  x.text = w.text;
  x.content_desc = w.desc;
  x.package = "app";
  x.clickable = w.click;
  x.long_clickable = w.long_click;
  x.scrollable = w.scroll;
  x.editable = w.edit;
  x.parent = parent;
  int index = static_cast<int>(s.widgets.size());
  x.bounds = {0, index * 10, 1080, index * 10 + 10};
  s.widgets.push_back(x);
  for (const auto& c : w.children) Flatten(c, index, s);
}

inline gui::Screen MakeScreen(const W& root, const std::string& activity = "app.Main") {
  gui::Screen s;
  s.package = "app";
  s.activity = activity;
  Flatten(root, -1, s);
  s.Link();
  return s;
}

inline Layout L(const W& root, const std::string& activity = "app.Main") {
  return MakeLayout(MakeScreen(root, activity), "app");
}

// The index of the widget showing `text`.
inline int Find(const gui::Screen& s, const std::string& text) {
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (s.widgets[i].text == text || s.widgets[i].content_desc == text) return i;
  return -1;
}

// A click on the clickable widget showing `text`.
inline Event ClickOn(const gui::Screen& s, const std::string& text) {
  Event e;
  e.kind = gui::ActionKind::kClick;
  int i = -1;
  for (int k = 0; k < static_cast<int>(s.widgets.size()) && i < 0; ++k)
    if ((s.widgets[k].text == text || s.widgets[k].content_desc == text) && s.widgets[k].clickable)
      i = k;
  e.type = WidgetType(s, i);
  e.signature = WidgetSignature(s, i);
  return e;
}

}  // namespace roam::fuzz::testing
