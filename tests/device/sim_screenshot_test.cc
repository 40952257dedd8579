// The simulator's screenshots: the page, and a dialog over it (dimmed) or a menu (not dimmed),
// as a phone shows them.
#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "draw/draw.h"
#include "gui/actions.h"
#include "sim/spec.h"

namespace roam::device {
namespace {

constexpr const char* kSpec = R"json({
  "app": "shots", "package": "org.roam.shots", "label": "Shots", "start": "Main",
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Shots",
     "menu": [{"id": "about", "text": "About", "on": {"click": []}}],
     "widgets": [
       {"id": "ask", "text": "Delete", "on": {"click": [{"dialog": "Confirm"}]}}
     ]}
  ],
  "dialogs": [
    {"id": "Confirm", "title": "Delete photo?", "message": "It cannot be undone.",
     "widgets": [{"id": "ok", "text": "OK", "on": {"click": [{"dismiss": true}]}}]}
  ]
})json";

gui::Action Tap(const gui::Screen& s, const std::string& text) {
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (s.widgets[i].text == text || s.widgets[i].content_desc == text)
      return gui::MakeWidgetAction(gui::ActionKind::kClick, s, i);
  ADD_FAILURE() << "no widget " << text;
  return {};
}

TEST(SimScreenshot, PageDialogAndMenu) {
  auto spec = sim::LoadSpecJson(nlohmann::json::parse(kSpec), "shots");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimDevice device(*spec, {});
  ASSERT_TRUE(device.Launch().ok());
  auto page = device.Screenshot(std::nullopt);
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_TRUE(draw::ReadPngSize(*page).has_value());

  gui::Screen s;
  ASSERT_TRUE(device.Observe(s).ok());
  ASSERT_TRUE(device.Perform(Tap(s, "Delete")).ok());
  ASSERT_TRUE(device.Observe(s).ok());
  ASSERT_EQ(s.widgets.size() > 0 && s.widgets[0].bounds.top > 0, true) << "a dialog window";
  auto dialog = device.Screenshot(std::nullopt);
  ASSERT_TRUE(dialog.ok());
  EXPECT_NE(*dialog, *page);
  // The page is drawn beneath, and taking the picture changes nothing on the device.
  gui::Screen after;
  ASSERT_TRUE(device.Observe(after).ok());
  EXPECT_EQ(after.widgets, s.widgets);
  EXPECT_EQ(*device.Screenshot(std::nullopt), *dialog);  // the same state, the same bytes

  ASSERT_TRUE(device.Perform(Tap(s, "OK")).ok());
  ASSERT_TRUE(device.Observe(s).ok());
  auto again = device.Screenshot(std::nullopt);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *page);  // the dialog closed: the page as it was
  ASSERT_TRUE(device.Perform(Tap(s, "More options")).ok());
  auto menu = device.Screenshot(std::nullopt);
  ASSERT_TRUE(menu.ok());
  EXPECT_NE(*menu, *page);
}

}  // namespace
}  // namespace roam::device
