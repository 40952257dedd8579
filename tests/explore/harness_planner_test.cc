// The oracle under a harness: its shadow copy of the app mirrors the actions the device
// performed (PlannerStrategy::Learn), so a harness that replaces the oracle's choices (the
// shop's login script, new texts) does not put it out of step.
#include <optional>
#include <set>

#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "explore/harness.h"
#include "explore/planner.h"
#include "gui/abstraction.h"
#include "gui/actions.h"
#include "test_paths.h"

namespace roam::explore {
namespace {

// The loop runs as the campaign's does: Learn the last transition, then Next.
TEST(HarnessOracle, TheOracleStaysInStepWhenTheHarnessActs) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/bench/shop.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  HarnessOptions o;
  o.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
  o.text_input = true;
  auto config = LoadHarnessConfig(o);
  ASSERT_TRUE(config.ok()) << config.status().message();
  sim::SimOptions sim_options{.seed = 1};
  auto oracle = std::make_unique<PlannerStrategy>(*spec, sim_options, PlannerOptions{});
  const PlannerStrategy* raw = oracle.get();
  Harness harness(std::move(oracle), std::move(*config));
  device::SimDevice device(*spec, sim_options);
  ASSERT_TRUE(device.Launch().ok());
  Rng rng(1);
  std::vector<gui::Action> actions;
  std::vector<device::Event> events;
  std::optional<gui::Action> pending;
  uint64_t from = 0;
  std::set<std::string> activities;
  for (int64_t step = 0; step < 300; ++step) {
    bool left = false;
    if (device.CurrentScreen().package != device.Package()) {
      ASSERT_TRUE(device.Launch().ok());
      left = true;
    }
    const gui::Screen& screen = device.CurrentScreen();
    uint64_t key = gui::ScreenKey(screen);
    activities.insert(screen.activity);
    if (pending) harness.Learn({.from = from, .to = key, .action = *pending, .left_app = left});
    gui::ActionsFor(screen, actions);
    gui::Action a = harness.Next({screen, key, actions, step}, rng);
    ASSERT_TRUE(device.Perform(a).ok());
    events.clear();
    device.DrainEvents(events);
    pending = a;
    from = key;
  }
  EXPECT_GE(harness.stats().scripts_completed, 1);
  EXPECT_GT(harness.stats().texts_replaced, 0);  // the oracle's own texts were replaced too
  EXPECT_EQ(raw->desyncs(), 0);
  EXPECT_GE(activities.size(), 6u);
}

}  // namespace
}  // namespace roam::explore
