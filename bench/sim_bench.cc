// Speed of one exploration step on the simulator: the screen handed over (no XML), the screen
// key, the actions table, the random strategy's choice, and the simulator performing it.
// Target: >= 200,000 steps/s on one core for apps/diary.json.
#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "device/sim_device.h"
#include "explore/random.h"
#include "gui/abstraction.h"
#include "gui/actions.h"
#include "sim/sim_app.h"

namespace roam {
namespace {

void BM_SimStepRandom(benchmark::State& state, const char* app) {
  auto spec = sim::LoadSpec(std::string(ROAM_SOURCE_DIR) + "/" + app);
  if (!spec.ok()) {
    state.SkipWithError(spec.status().message().c_str());
    return;
  }
  device::SimDevice device(*spec, {.seed = 1});
  explore::RandomStrategy strategy({});
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
    gui::Action action = strategy.Next({screen, key, actions, step++}, rng);
    if (!device.Perform(action).ok()) state.SkipWithError("perform failed");
    events.clear();
    device.DrainEvents(events);
    benchmark::DoNotOptimize(key);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_SimStepRandom, diary, "apps/diary.json");
BENCHMARK_CAPTURE(BM_SimStepRandom, nectroid, "apps/nectroid.json");

}  // namespace
}  // namespace roam
