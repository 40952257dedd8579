// Screens the speed benchmarks decide on.
#pragma once

#include <string>

#include <fmt/format.h>

#include "gui/screen.h"

namespace roam::bench {

// A screen of `activity` with `n` clickable buttons, each with its own resource-id and text.
inline gui::Screen Buttons(const std::string& activity, int n) {
  gui::Screen s;
  s.package = "org.bench";
  s.activity = activity;
  s.widgets.resize(n + 1);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  for (int i = 1; i <= n; ++i) {
    auto& w = s.widgets[i];
    w.parent = 0;
    w.clickable = true;
    w.cls = "android.widget.Button";
    w.resource_id = fmt::format("org.bench:id/button_{}", static_cast<char>('a' + i % 26));
    w.text = fmt::format("Action {}", std::string(1 + i / 26, static_cast<char>('A' + i % 26)));
    w.bounds = {0, 30 * i, 1080, 30 * i + 28};
  }
  s.Link();
  return s;
}

}  // namespace roam::bench
