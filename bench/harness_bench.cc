// The harness's per-step overhead (explore/harness.h): one decision by the random strategy
// alone and wrapped in a harness with every part on (four black-list matchers, one of each
// kind, an activity black list, a login script whose activity is elsewhere, text input), on a
// screen of 200 widgets offering 60 actions; then whole simulator steps on the notes app.
#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "device/sim_device.h"
#include "explore/harness.h"
#include "explore/random.h"
#include "gui/abstraction.h"
#include "gui/actions.h"
#include "sim/sim_app.h"

namespace roam {
namespace {

// 200 widgets: a root, 40 rows each with a container, a label, a button, a long-clickable
// image and (every fourth row) an edit field instead of the image.
gui::Screen ListScreen() {
  gui::Screen s;
  s.package = "org.app";
  s.activity = "org.app.MainActivity";
  s.widgets.emplace_back();
  s.widgets[0].cls = "android.widget.FrameLayout";
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  for (int row = 0; row < 40 && s.widgets.size() < 200; ++row) {
    int top = row * 48;
    int container = static_cast<int>(s.widgets.size());
    gui::Widget c;
    c.cls = "android.widget.LinearLayout";
    c.parent = 0;
    c.bounds = {0, top, 1080, top + 48};
    s.widgets.push_back(c);
    gui::Widget label;
    label.cls = "android.widget.TextView";
    label.text = "Row " + std::to_string(row);
    label.parent = container;
    label.bounds = {0, top, 500, top + 48};
    s.widgets.push_back(label);
    gui::Widget button;
    button.cls = "android.widget.Button";
    button.resource_id = "org.app:id/open";
    button.text = "Open";
    button.clickable = true;
    button.parent = container;
    button.bounds = {500, top, 800, top + 48};
    s.widgets.push_back(button);
    gui::Widget last;
    last.parent = container;
    last.bounds = {800, top, 1080, top + 48};
    if (row % 4 == 0) {
      last.cls = "android.widget.EditText";
      last.editable = true;
    } else {
      last.cls = "android.widget.ImageView";
      last.content_desc = "More";
      last.long_clickable = true;
    }
    s.widgets.push_back(last);
  }
  for (auto& w : s.widgets) w.package = "org.app";
  s.Link();
  return s;
}

explore::HarnessConfig EveryPart() {
  explore::HarnessConfig c;
  c.options.text_input = true;
  c.user_strings = {"alpha", "beta"};
  auto matcher = [](const char* text) {
    return *gui::ParseWidgetMatcher(nlohmann::json::parse(text), "bench");
  };
  c.widgets.black = {matcher(R"({"resource_id": "delete"})"), matcher(R"({"text": "Sign out"})"),
                     matcher(R"({"path": "//LinearLayout/Button[@text='Remove']"})"),
                     matcher(R"({"rect": [0, 0.97, 1, 1]})")};
  c.activities.black = {"SettingsActivity"};
  explore::Script login;
  login.activity = "LoginActivity";
  login.steps = {{gui::ActionKind::kClick, matcher(R"({"text": "Sign in"})"), ""}};
  c.scripts = {login};
  return c;
}

// One decision; `new_states` gives every step a new state key (text collection runs each time).
void BM_Decide(benchmark::State& state, bool harness, bool new_states) {
  gui::Screen screen = ListScreen();
  std::vector<gui::Action> actions;
  gui::ActionsFor(screen, actions);
  explore::RandomOptions options;
  options.pct_input = 30;
  std::unique_ptr<explore::Strategy> strategy = std::make_unique<explore::RandomStrategy>(options);
  if (harness) strategy = std::make_unique<explore::Harness>(std::move(strategy), EveryPart());
  Rng rng(1);
  int64_t step = 0;
  uint64_t key = gui::ScreenKey(screen);
  for (auto _ : state) {
    gui::Action a = strategy->Next({screen, new_states ? key + step : key, actions, step}, rng);
    ++step;
    benchmark::DoNotOptimize(a);
  }
  state.counters["actions"] = static_cast<double>(actions.size());
  state.counters["widgets"] = static_cast<double>(screen.widgets.size());
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_Decide, random, false, false);
BENCHMARK_CAPTURE(BM_Decide, harness, true, false);
BENCHMARK_CAPTURE(BM_Decide, harness_new_state_each_step, true, true);

// Whole steps on the simulator (screen key, actions, decision, perform) with and without it.
void BM_SimStep(benchmark::State& state, bool harness) {
  auto spec = sim::LoadSpec(std::string(ROAM_SOURCE_DIR) + "/apps/bench/notes.json");
  if (!spec.ok()) {
    state.SkipWithError(spec.status().message().c_str());
    return;
  }
  device::SimDevice device(*spec, {.seed = 1});
  std::unique_ptr<explore::Strategy> strategy =
      std::make_unique<explore::RandomStrategy>(explore::RandomOptions{});
  if (harness) strategy = std::make_unique<explore::Harness>(std::move(strategy), EveryPart());
  Rng rng(1);
  std::vector<gui::Action> actions;
  std::vector<device::Event> events;
  if (!device.Launch().ok()) {
    state.SkipWithError("launch failed");
    return;
  }
  int64_t step = 0;
  for (auto _ : state) {
    const gui::Screen& screen = device.CurrentScreen();
    if (screen.package != device.Package()) {
      if (!device.Launch().ok()) state.SkipWithError("launch failed");
      continue;
    }
    uint64_t key = gui::ScreenKey(screen);
    gui::ActionsFor(screen, actions);
    gui::Action action = strategy->Next({screen, key, actions, step++}, rng);
    if (!device.Perform(action).ok()) state.SkipWithError("perform failed");
    events.clear();
    device.DrainEvents(events);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_SimStep, notes_random, false);
BENCHMARK_CAPTURE(BM_SimStep, notes_harness, true);

}  // namespace
}  // namespace roam
