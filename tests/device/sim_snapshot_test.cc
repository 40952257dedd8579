// The simulator's device snapshots: a restore brings the app back, while the world's time goes
// on, as on an emulator (its clock and what an ad server sends are not the app's to rewind).
#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "gui/actions.h"
#include "sim/spec.h"

namespace roam::device {
namespace {

constexpr const char* kSpec = R"json({
  "app": "clock", "package": "org.roam.clock", "label": "Clock", "start": "Main",
  "vars": {"count": 0},
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Clock",
     "widgets": [
       {"id": "clock", "text": "00:00", "dynamic": {"kind": "clock"}},
       {"id": "add", "text": "Add", "on": {"click": [{"inc": "count"}]}},
       {"id": "count", "text": "Count: {var.count}"}
     ]}
  ]
})json";

std::string TextOf(const gui::Screen& s, const std::string& prefix) {
  for (const auto& w : s.widgets)
    if (w.text.rfind(prefix, 0) == 0) return w.text;
  return "";
}

TEST(SimSnapshot, ARestoreBringsTheAppBackButNotTheClock) {
  auto spec = sim::LoadSpecJson(nlohmann::json::parse(kSpec), "clock");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimDevice device(*spec, {});
  ASSERT_TRUE(device.Launch().ok());
  ASSERT_TRUE(device.Snapshot("start").ok());
  gui::Screen s;
  // 10 steps a minute: 25 taps move the clock from 09:00 to 09:02.
  for (int i = 0; i < 25; ++i) {
    ASSERT_TRUE(device.Observe(s).ok());
    int add = -1;
    for (int w = 0; w < static_cast<int>(s.widgets.size()); ++w)
      if (s.widgets[w].text == "Add") add = w;
    ASSERT_GE(add, 0);
    ASSERT_TRUE(device.Perform(gui::MakeWidgetAction(gui::ActionKind::kClick, s, add)).ok());
  }
  ASSERT_TRUE(device.Observe(s).ok());
  EXPECT_EQ(TextOf(s, "Count"), "Count: 25");
  const std::string later = TextOf(s, "09:");
  EXPECT_EQ(later, "09:02");
  ASSERT_TRUE(device.Restore("start").ok());
  ASSERT_TRUE(device.Observe(s).ok());
  EXPECT_EQ(TextOf(s, "Count"), "Count: 0");
  EXPECT_EQ(TextOf(s, "09:"), later);
}

}  // namespace
}  // namespace roam::device
