// `roam sim serve --out`: the summary gathered from the served devices has the campaign's shape
// and counts what the adb clients did: events, activities, the planted crash with its bug id.
#include "run/serve_summary.h"

#include <gtest/gtest.h>

#include "gui/uiautomator.h"
#include "sim/sim_app.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using serve::SimAndroidDevice;

// Taps the widget showing `text` on the device's current screen, as an adb client would.
::testing::AssertionResult TapText(SimAndroidDevice& dev, const std::string& text) {
  auto dump = dev.RunShell("uiautomator dump /dev/tty");
  std::string xml = dump.out.substr(0, dump.out.rfind("</hierarchy>") + 12);
  auto screen = gui::ParseDump(xml);
  if (!screen.ok()) return ::testing::AssertionFailure() << screen.status().message();
  for (const auto& w : screen->widgets)
    if (w.text == text) {
      dev.RunShell("input tap " + std::to_string(w.bounds.center_x()) + " " +
                   std::to_string(w.bounds.center_y()));
      return ::testing::AssertionSuccess();
    }
  return ::testing::AssertionFailure() << "no \"" << text << "\" on screen";
}

TEST(ServeSummary, CountsWhatTheClientsDidOnEveryDevice) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServerOptions options;
  options.port = 0;
  options.devices = 2;
  serve::SimAdbServer server(*spec, options);
  auto serials = server.Serials();
  ASSERT_EQ(serials.size(), 2u);
  for (const auto& serial : serials) {
    SimAndroidDevice& dev = *server.Device(serial);
    dev.RunShell("monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1");
    ASSERT_TRUE(TapText(dev, "Shopping list"));
    ASSERT_TRUE(TapText(dev, "Share"));  // the planted crash, on both devices
  }
  report::Summary s =
      SummariseServedDevices(server, "crashy.json", "org.roam.crashy", 3, 1.5, "stopped");
  EXPECT_EQ(s.events, 4);  // two taps on each device
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.stop_reason, "stopped");
  EXPECT_EQ(s.activities_total, std::optional<size_t>(3));
  EXPECT_EQ(s.activities_covered.size(), 2u);  // main and details, counted once across devices
  ASSERT_EQ(s.crashes.size(), 1u);             // one signature, seen twice
  EXPECT_EQ(s.crashes[0].count, 2);
  EXPECT_EQ(s.crashes[0].bug_id, "crashy-npe");
  EXPECT_TRUE(s.anrs.empty());
}

}  // namespace
}  // namespace roam::run
