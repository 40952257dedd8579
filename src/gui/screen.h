// Screen: what a device shows at one moment: package, activity, the widget tree (all windows,
// flattened in pre-order) and the screen size. Value type, thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gui/widget.h"

namespace roam::gui {

struct Screen {
  std::string package;   // focused package
  std::string activity;  // focused activity, e.g. .MainActivity or org.app/.MainActivity
  int width = 1080;
  int height = 1920;
  int rotation = 0;             // 0, 1, 2, 3 as in the dump's <hierarchy rotation="">
  std::vector<Widget> widgets;  // pre-order; roots have parent == -1 (one per window)
  // The text of a toast on the screen (the UiAutomator2 server's page source shows one as an
  // <android.widget.Toast> root for its 2-3.5 s): not a widget, so it does not change the
  // state, but there for oracles to read.
  std::vector<std::string> toasts;

  // The path of a widget: child indices from its window root, joined by '/', prefixed by the
  // window's index among roots: "0/2/1" is window 0, its child 2, that node's child 1.
  std::string PathOf(int index) const;
  // The widget at a path, or -1.
  int FindPath(std::string_view path) const;
  // Recomputes depth, child_index and subtree_end from the parent links (after building
  // `widgets` by hand). Parents must precede their children.
  void Link();
  void Clear() {
    package.clear();
    activity.clear();
    widgets.clear();
    toasts.clear();
    rotation = 0;
  }
};

}  // namespace roam::gui
