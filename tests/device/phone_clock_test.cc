// The phone's clock over the simulator (PhoneClockDevice) against `roam sim serve --pace phone`
// (SimAdbServer in process, counting its pace without sleeping): the same calls, made through
// AndroidDevice on the served phone and on the clock's simulator, cost the same milliseconds
// call by call, with either driver. And the clock's own arithmetic: the host's CPU time between
// calls counts, a call's own simulator time does not.
#include "device/phone_clock.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "device/android/android_device.h"
#include "device/android/uia2_driver.h"
#include "device/sim_device.h"
#include "gui/actions.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::device {
namespace {

using android::AndroidDevice;
using android::AndroidDeviceOptions;
using android::DriverKind;

class PhoneClockServed : public ::testing::TestWithParam<DriverKind> {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    ASSERT_TRUE(spec.ok());
    spec_ = *spec;
    serve::SimAdbServerOptions so;
    so.port = 0;
    so.phone_pace = true;
    so.pace_sleeps = false;
    so.sim.seed = 7;
    server_ = std::make_unique<serve::SimAdbServer>(spec_, so);
    ASSERT_TRUE(server_->Start().ok());
  }

  std::shared_ptr<const sim::AppSpec> spec_;
  std::unique_ptr<serve::SimAdbServer> server_;
};

TEST_P(PhoneClockServed, EachCallCostsWhatTheServedPhoneIsPacedBy) {
  const DriverKind driver = GetParam();
  if (driver == DriverKind::kUia2 && !android::FindUia2Apks(android::DefaultUia2ApkDir()).ok())
    GTEST_SKIP() << "no UiAutomator2 server APKs (setup.sh fetches them)";
  AndroidDeviceOptions o;
  o.port = server_->port();
  o.serial = "emulator-5554";
  o.package = spec_->package();
  o.io_timeout_ms = 5000;
  o.driver = driver;
  // Settled by comparing reads, without a pause between two page sources (the client's own wait,
  // not a request the served phone paces): both sides count requests alone. (Settled by idle, the
  // served phone would wait by its wall clock, which does not move when it does not sleep.)
  o.uia2.settle = android::Uia2Settings::Settle::kCompare;
  o.uia2.settle_poll_ms = 0;
  auto phone = AndroidDevice::Open(o);
  ASSERT_TRUE(phone.ok()) << phone.status().message();
  ASSERT_EQ((*phone)->driver_name(), android::NameOf(driver));
  PhoneClockDevice sim(std::make_unique<SimDevice>(spec_, sim::SimOptions{.seed = 7}), driver,
                       o.uia2);

  // Each call of the clock's device from a thread of its own: the CPU time between calls is
  // then left out (CPU clocks are per thread), so both sides count the phone's costs alone.
  int checked = 0;
  auto both = [&](const std::string& what, auto on_phone, auto on_sim) {
    const int64_t paced = server_->paced_ms();
    const double before = sim.clock().Now();
    Status a = on_phone(**phone);
    std::thread([&] { on_sim(sim); }).join();
    const int64_t charged = std::llround((sim.clock().Now() - before) * 1000);
    EXPECT_TRUE(a.ok()) << what << ": " << a.message();
    EXPECT_EQ(charged, server_->paced_ms() - paced) << what;
    ++checked;
  };
  // The first launch also starts uia2's stream of resumes (a logcat: one round trip), set-up the
  // clock leaves out as it leaves out AndroidDevice::Open's.
  ASSERT_TRUE((*phone)->Launch().ok());
  ASSERT_TRUE(sim.Launch().ok());
  both(
      "launch", [](Device& d) { return d.Launch(); }, [](Device& d) { (void)d.Launch(); });
  gui::Screen screen, ignored;
  std::vector<gui::Action> actions;
  std::set<std::string> kinds;
  std::string last = "the launch";
  for (int step = 0; step < 40; ++step) {
    both(
        "observe after " + last, [&](Device& d) { return d.Observe(screen); },
        [&](Device& d) { (void)d.Observe(ignored); });
    actions.clear();
    gui::ActionsFor(screen, actions);
    gui::AppendGlobalActions(actions);
    // Every kind of action the screen offers once (text, long presses, swipes, keys, rotations,
    // restarts), then a spread of the rest.
    auto fresh = std::find_if(actions.begin(), actions.end(), [&](const gui::Action& x) {
      return !kinds.count(std::string(gui::ActionKindName(x.kind)));
    });
    gui::Action a = fresh != actions.end() ? *fresh : actions[step * 7 % actions.size()];
    if (a.kind == gui::ActionKind::kInputText) a.text = "Roam's 2 notes";
    kinds.insert(std::string(gui::ActionKindName(a.kind)));
    last = a.Describe();
    both(
        a.Describe(), [&](Device& d) { return d.Perform(a); },
        [&](Device& d) { (void)d.Perform(a); });
  }
  both(
      "snapshot", [](Device& d) { return d.Snapshot("s1"); },
      [](Device& d) { (void)d.Snapshot("s1"); });
  both(
      "restore", [](Device& d) { return d.Restore("s1"); },
      [](Device& d) { (void)d.Restore("s1"); });
  both(
      "observe after the restore", [&](Device& d) { return d.Observe(screen); },
      [&](Device& d) { (void)d.Observe(ignored); });
  both(
      "stop", [](Device& d) { return d.Stop(); }, [](Device& d) { (void)d.Stop(); });
  both(
      "clear", [](Device& d) { return d.ClearData(); }, [](Device& d) { (void)d.ClearData(); });
  both(
      "screenshot", [](Device& d) { return d.Screenshot(std::nullopt).status(); },
      [](Device& d) { (void)d.Screenshot(std::nullopt); });
  EXPECT_EQ(checked, 87);
  EXPECT_GE(kinds.size(), 10u) << "kinds of action: " << ::testing::PrintToString(kinds);
}

INSTANTIATE_TEST_SUITE_P(Drivers, PhoneClockServed,
                         ::testing::Values(DriverKind::kUiautomator, DriverKind::kUia2),
                         [](const auto& info) { return std::string(NameOf(info.param)); });

TEST(PhoneClock, AShellLineCostsItsCommandsSplitOutsideQuotes) {
  using android::PhoneShellLineMs;
  EXPECT_EQ(PhoneShellLineMs("input tap 1 2"), 600);
  // A ; or | typed inside quotes is text, not a second command.
  EXPECT_EQ(PhoneShellLineMs("input text 'a;b|c'"), 600);
  EXPECT_EQ(PhoneShellLineMs("input text \"a;b\" ; input keyevent 66"), 1200);
  EXPECT_EQ(PhoneShellLineMs("input text a\\;b"), 600);
  EXPECT_EQ(PhoneShellLineMs("am force-stop 'org.x';monkey -p 'org.x' 1"), 1100 + 1400);
  EXPECT_EQ(PhoneShellLineMs("uiautomator dump /dev/tty && dumpsys window || echo no"),
            2000 + 80 + 30);
  EXPECT_EQ(PhoneShellLineMs("input swipe 1 2 3 4 300"), 900);
  EXPECT_EQ(PhoneShellLineMs(""), 0);
}

// Issue 60, row 11: durations a client chooses were summed in an int (and read with atoi), so a
// long enough swipe or line of them ran a phone's clock backwards.
TEST(PhoneClock, AbsurdDurationsSaturateInsteadOfOverflowing) {
  using android::kMaxGestureMs;
  using android::kMaxLineMs;
  using android::PhoneShellLineMs;
  EXPECT_EQ(PhoneShellLineMs("input swipe 1 2 3 4 99999999999999999999"), 600 + kMaxGestureMs);
  EXPECT_EQ(PhoneShellLineMs("input swipe 1 2 3 4 -5"), 600);
  std::string many;
  for (int i = 0; i < 100; ++i) many += "input swipe 1 2 3 4 2147483647;";
  EXPECT_EQ(PhoneShellLineMs(many), kMaxLineMs);
  EXPECT_EQ(android::PhoneUia2RequestMs("POST", "/actions", std::numeric_limits<int>::max()),
            1000 + kMaxGestureMs);
}

TEST(PhoneClock, CountsTheHostsTimeBetweenCallsAndNotTheSimulatorsOwn) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  android::Uia2Settings compare;
  compare.settle = android::Uia2Settings::Settle::kCompare;
  PhoneClockDevice d(std::make_unique<SimDevice>(*spec, sim::SimOptions{}), DriverKind::kUia2,
                     compare);
  android::PhoneCalls costs{.driver = DriverKind::kUia2,
                            .package = (*spec)->package(),
                            .settle_idle = false,
                            .settle_compare = true};
  gui::Screen screen;
  ASSERT_TRUE(d.Launch().ok());
  double before = d.clock().Now();
  for (int k = 0; k < 200; ++k) ASSERT_TRUE(d.Observe(screen).ok());
  // 200 page sources (the first after the launch read again to see it settled) and the CPU time
  // the loop spent between them (microseconds, not seconds).
  const double observed = d.clock().Now() - before;
  const double sources = (costs.ObserveMs(true) + 199 * costs.ObserveMs(false)) / 1000.0;
  EXPECT_GT(costs.ObserveMs(true), costs.ObserveMs(false));
  EXPECT_GE(observed, sources);
  EXPECT_LT(observed, sources + 0.5);
  // Work between two calls: 300 ms of this thread's CPU time are charged as 0.3 s.
  before = d.clock().Now();
  auto cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  };
  const double start = cpu();
  volatile uint64_t spin = 0;
  while (cpu() - start < 0.3) spin = spin + 1;
  ASSERT_TRUE(d.Observe(screen).ok());
  const double spent = d.clock().Now() - before - costs.ObserveMs(false) / 1000.0;
  EXPECT_GE(spent, 0.3);
  EXPECT_LT(spent, 0.35);
}

// A phone's UiAutomator2 server polls 2 s for a rotation before it refuses one on an activity
// locked to portrait: the clock charges that, not an accepted rotation's second.
TEST(PhoneClock, ARotationTheScreenRefusesCostsTheServersPolling) {
  auto spec = sim::LoadSpec(testing::DiaryLockedToPortrait("phone-clock-locked"));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  for (const bool locked : {true, false}) {
    auto app = locked ? *spec : *sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    PhoneClockDevice d(std::make_unique<SimDevice>(app, sim::SimOptions{}), DriverKind::kUia2);
    android::PhoneCalls costs{.driver = DriverKind::kUia2, .package = app->package()};
    gui::Screen screen;
    ASSERT_TRUE(d.Launch().ok());
    ASSERT_TRUE(d.Observe(screen).ok());
    const double before = d.clock().Now();
    const gui::Action rotate = gui::MakeGlobalAction(gui::ActionKind::kRotate);
    ASSERT_TRUE(d.Perform(rotate).ok());
    ASSERT_TRUE(d.Observe(screen).ok());
    const int rotation_ms = locked ? android::kRotationRefusalMs
                                   : android::PhoneUia2RequestMs("POST", "/orientation", 0);
    EXPECT_NEAR(d.clock().Now() - before, (rotation_ms + costs.ObserveMs(false)) / 1000.0, 0.05)
        << (locked ? "locked" : "free");
  }
}

// Settled by idle (the default), the first page source after an input waits for the rest of the
// UI's 500 ms quiet after it: a tap's 400 ms leave 100; a long press's 1,200 leave none.
TEST(PhoneClock, APageSourceAfterAnInputWaitsForTheRestOfTheQuietTime) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  PhoneClockDevice d(std::make_unique<SimDevice>(*spec, sim::SimOptions{}), DriverKind::kUia2);
  android::PhoneCalls costs{.driver = DriverKind::kUia2, .package = (*spec)->package()};
  EXPECT_EQ(costs.IdleWaitMs(400), 100);
  EXPECT_EQ(costs.IdleWaitMs(1200), 0);
  gui::Screen screen;
  ASSERT_TRUE(d.Launch().ok());
  ASSERT_TRUE(d.Observe(screen).ok());
  double before = d.clock().Now();
  ASSERT_TRUE(d.Observe(screen).ok());  // no input since the last: no wait
  EXPECT_NEAR(d.clock().Now() - before, costs.ObserveMs(false) / 1000.0, 0.01);
  const gui::Action back = gui::MakeGlobalAction(gui::ActionKind::kBack);
  auto input = android::PlanAction(back, screen.width, screen.height, 0, {});
  ASSERT_TRUE(input.ok());
  const int input_ms = costs.PerformMs(*input);
  before = d.clock().Now();
  ASSERT_TRUE(d.Perform(back).ok());
  ASSERT_TRUE(d.Observe(screen).ok());
  EXPECT_NEAR(d.clock().Now() - before,
              (input_ms + costs.IdleWaitMs(input_ms) + costs.ObserveMs(false)) / 1000.0, 0.01);
}

}  // namespace
}  // namespace roam::device
