// The budget every campaign spends: events and wall time, read from a clock that tests drive by
// hand, so the --time budget is checked without waiting for it.
#include "run/budget.h"

#include <cmath>

#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "explore/random.h"
#include "run/explore/campaign.h"
#include "run_test_util.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

TEST(Budget, EventsRunOut) {
  FakeClock clock;
  Budget b({.events = 3, .seconds = 0}, clock);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(b.Left());
    b.Spend();
  }
  EXPECT_FALSE(b.Left());
  EXPECT_EQ(b.SpentOn(), "events");
}

TEST(Budget, TimeRunsOutOnTheClockGiven) {
  FakeClock clock;
  Budget b({.events = 0, .seconds = 10}, clock);
  clock.Advance(9.5);
  EXPECT_TRUE(b.Left());
  clock.Advance(0.5);
  EXPECT_FALSE(b.Left());
  EXPECT_EQ(b.SpentOn(), "time");
  EXPECT_DOUBLE_EQ(b.Elapsed(), 10);
}

TEST(Budget, UsedIsTheLargerShareOfEventsAndTime) {
  FakeClock clock;
  Budget b({.events = 10, .seconds = 100}, clock);
  EXPECT_DOUBLE_EQ(b.Used(), 0);
  b.Spend(2);
  clock.Advance(50);
  EXPECT_DOUBLE_EQ(b.Used(), 0.5);
  b.Spend(6);
  EXPECT_DOUBLE_EQ(b.Used(), 0.8);
  b.Spend(6);
  EXPECT_DOUBLE_EQ(b.Used(), 1);
  EXPECT_DOUBLE_EQ(Budget::Unbounded().Used(), 0);
}

TEST(Budget, UnboundedNeverRunsOut) {
  Budget b = Budget::Unbounded();
  b.Spend(1000000);
  EXPECT_TRUE(b.Left());
}

TEST(Budget, ACampaignNeedsOneFiniteBudget) {
  EXPECT_TRUE(CheckBudget({.events = 5, .seconds = 0}).ok());
  EXPECT_TRUE(CheckBudget({.events = 0, .seconds = 2.5}).ok());
  EXPECT_FALSE(CheckBudget({.events = 0, .seconds = 0}).ok());
  EXPECT_FALSE(CheckBudget({.events = -1, .seconds = 0}).ok());
  EXPECT_FALSE(CheckBudget({.events = 0, .seconds = std::nan("")}).ok());
  EXPECT_FALSE(CheckBudget({.events = 0, .seconds = INFINITY}).ok());
}

// A simulated device on which every action takes one second of the test's clock.
class OneSecondPerAction final : public ForwardingDevice {
 public:
  OneSecondPerAction(device::Device& inner, FakeClock& clock)
      : ForwardingDevice(inner), clock_(clock) {}
  Status Perform(const gui::Action& action) override {
    clock_.Advance(1);
    return inner_.Perform(action);
  }

 private:
  FakeClock& clock_;
};

TEST(Budget, ATimeBudgetStopsTheCampaignOnTime) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  device::SimDevice sim(*spec, {});
  FakeClock clock;
  OneSecondPerAction device(sim, clock);
  explore::RandomStrategy strategy({});
  Rng rng(1);
  CampaignIo io{.app = "diary", .seed = 1, .out_dir = testing::TempDir("time_budget")};
  Campaign campaign({}, {.events = 0, .seconds = 25}, device, strategy, rng, io, {.clock = &clock});
  auto summary = campaign.Run();
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->events, 25);
  EXPECT_EQ(summary->stop_reason, "time");
  EXPECT_DOUBLE_EQ(summary->wall_seconds, 25);
}

}  // namespace
}  // namespace roam::run
