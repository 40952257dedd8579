// Building widget trees by hand for the draw/ tests. Header-only; thread-compatible.
#pragma once

#include "gui/screen.h"

namespace roam::draw {

// Appends a widget of class `cls` under `parent` (-1: a root) and returns its index.
inline int Add(gui::Screen& s, int parent, const char* cls, gui::Rect b) {
  gui::Widget w;
  w.cls = cls;
  w.parent = parent;
  w.bounds = b;
  s.widgets.push_back(w);
  return static_cast<int>(s.widgets.size()) - 1;
}

}  // namespace roam::draw
