// Helpers for the simulator tests: build a SimApp from an inline JSON spec and find widgets.
// Test-only; not thread-safe.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gui/action.h"
#include "sim/interpreter.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::sim::testing {

inline std::shared_ptr<const AppSpec> MustCompile(const std::string& text) {
  auto spec = LoadSpecJson(nlohmann::json::parse(text), "inline");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : nullptr;
}

inline std::unique_ptr<SimApp> MustApp(const std::string& text, SimOptions options = {}) {
  auto spec = MustCompile(text);
  if (!spec) return nullptr;
  auto app = std::make_unique<SimApp>(spec, options);
  app->Launch();
  return app;
}

// Index of the first widget whose text, content-desc or resource-id suffix is `key`, or -1.
inline int Find(const gui::Screen& s, const std::string& key) {
  for (size_t i = 0; i < s.widgets.size(); ++i) {
    const gui::Widget& w = s.widgets[i];
    const std::string& rid = w.resource_id;
    bool id = rid.size() > key.size() + 4 &&
              rid.compare(rid.size() - key.size() - 4, std::string::npos, ":id/" + key) == 0;
    if (w.text == key || w.content_desc == key || id) return static_cast<int>(i);
  }
  return -1;
}

inline bool Has(SimApp& app, const std::string& key) { return Find(app.screen(), key) >= 0; }

// Performs `kind` on the widget `key` of the current screen; fails the test if it is absent.
inline void Act(SimApp& app, gui::ActionKind kind, const std::string& key,
                const std::string& text = "") {
  const gui::Screen& s = app.screen();
  int i = Find(s, key);
  ASSERT_GE(i, 0) << "no widget " << key << " on " << s.activity;
  gui::Action a = gui::MakeWidgetAction(kind, s, i);
  a.text = text;
  app.Perform(a);
}
inline void Click(SimApp& app, const std::string& key) { Act(app, gui::ActionKind::kClick, key); }
inline void Type(SimApp& app, const std::string& key, const std::string& text) {
  Act(app, gui::ActionKind::kInputText, key, text);
}
inline void Global(SimApp& app, gui::ActionKind kind, const std::string& text = "") {
  app.Perform(gui::MakeGlobalAction(kind, text));
}
inline std::string TextOf(SimApp& app, const std::string& key) {
  const gui::Screen& s = app.screen();
  int i = Find(s, key);
  return i < 0 ? "<absent>" : s.widgets[i].text;
}

}  // namespace roam::sim::testing
