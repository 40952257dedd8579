#include "gui/actions.h"

#include <gtest/gtest.h>

#include "gui/uiautomator.h"
#include "gui_test_util.h"

namespace roam::gui {
namespace {

using testing::Dump;
using testing::Node;

// "kind path" for each action, for compact expectations.
std::vector<std::string> Describe(const std::vector<Action>& actions) {
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(a.Describe());
  return out;
}

std::vector<Action> ActionsOf(const std::string& body, const ActionOptions& options = {}) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node class="android.widget.FrameLayout" package="org.app" bounds="[0,0][1080,1920]">)" +
      body + "</node>"));
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  std::vector<Action> out;
  if (s.ok()) ActionsFor(*s, out, options);
  return out;
}

using Strings = std::vector<std::string>;

TEST(ActionsFor, ClickableButton) {
  std::vector<Action> a =
      ActionsOf(Node("android.widget.Button", "[0,0][100,100]", R"(clickable="true")"));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].kind, ActionKind::kClick);
  EXPECT_EQ(a[0].widget, 1);
  ASSERT_TRUE(a[0].target.has_value());
  EXPECT_EQ(a[0].target->path, "0/0");
  EXPECT_EQ(a[0].target->bounds, (Rect{0, 0, 100, 100}));
}

TEST(ActionsFor, DisabledWidgetYieldsNothing) {
  EXPECT_TRUE(ActionsOf(Node("android.widget.Button", "[0,0][100,100]",
                             R"(clickable="true" long-clickable="true" enabled="false")"))
                  .empty());
}

TEST(ActionsFor, CheckableYieldsClick) {
  EXPECT_EQ(
      Describe(ActionsOf(Node("android.widget.CheckBox", "[0,0][100,100]", R"(checkable="true")"))),
      Strings{"click 0/0"});
}

TEST(ActionsFor, EditFieldYieldsInputText) {
  EXPECT_EQ(Describe(ActionsOf(Node("android.widget.EditText", "[0,0][100,100]",
                                    R"(clickable="true" long-clickable="true")"))),
            (Strings{"click 0/0", "long_click 0/0", "input_text 0/0"}));
}

// A class that scrolls one way only gets that axis; any other scrollable both, as Monkey's
// swipes would: a RecyclerView scrolls sideways in real apps however tall it is, and a
// ViewPager2 pages vertically too (the screens behind those scrolls were unreachable).
TEST(ActionsFor, ScrollablesYieldTheAxesTheirClassCanScroll) {
  const Strings vertical = {"scroll_up 0/0", "scroll_down 0/0"};
  const Strings horizontal = {"scroll_left 0/0", "scroll_right 0/0"};
  const Strings both = {"scroll_up 0/0", "scroll_down 0/0", "scroll_left 0/0", "scroll_right 0/0"};
  auto scrolls = [](const char* cls, const char* bounds) {
    return Describe(ActionsOf(Node(cls, bounds, R"(scrollable="true")")));
  };
  EXPECT_EQ(scrolls("android.widget.ListView", "[0,0][1080,300]"), vertical);
  EXPECT_EQ(scrolls("android.widget.ScrollView", "[0,0][1080,300]"), vertical);
  EXPECT_EQ(scrolls("androidx.core.widget.NestedScrollView", "[0,0][1080,1500]"), vertical);
  EXPECT_EQ(scrolls("android.widget.HorizontalScrollView", "[0,0][1080,1500]"), horizontal);
  EXPECT_EQ(scrolls("com.google.android.material.tabs.TabLayout", "[0,0][1080,150]"), horizontal);
  EXPECT_EQ(scrolls("androidx.viewpager.widget.ViewPager", "[0,0][500,1000]"), both);
  EXPECT_EQ(scrolls("androidx.viewpager2.widget.ViewPager2", "[0,0][1080,1500]"), both);
  EXPECT_EQ(scrolls("androidx.recyclerview.widget.RecyclerView", "[0,0][1080,1500]"), both);
  EXPECT_EQ(scrolls("androidx.recyclerview.widget.RecyclerView", "[0,0][1080,300]"), both);
  EXPECT_EQ(scrolls("android.view.View", "[0,0][1080,300]"), both);
}

TEST(ActionsFor, SkipsEmptyAndOffScreenButNotNaf) {
  EXPECT_TRUE(ActionsOf(Node("a.Button", "[10,10][10,50]", R"(clickable="true")")).empty());
  EXPECT_TRUE(ActionsOf(Node("a.Button", "[0,0][0,0]", R"(clickable="true")")).empty());
  EXPECT_TRUE(ActionsOf(Node("a.Button", "garbage", R"(clickable="true")")).empty());
  EXPECT_TRUE(ActionsOf(Node("a.Button", "[0,2000][100,2100]", R"(clickable="true")")).empty());
  EXPECT_TRUE(ActionsOf(Node("a.Button", "[-200,0][-10,100]", R"(clickable="true")")).empty());
  ActionOptions keep_off_screen;
  keep_off_screen.skip_off_screen = false;
  EXPECT_EQ(
      ActionsOf(Node("a.Button", "[0,2000][100,2100]", R"(clickable="true")"), keep_off_screen)
          .size(),
      1u);
  // Partly on screen still counts.
  EXPECT_EQ(ActionsOf(Node("a.Button", "[1000,1800][1200,2100]", R"(clickable="true")")).size(),
            1u);
  EXPECT_EQ(ActionsOf(Node("a.View", "[0,0][10,10]", R"(clickable="true" NAF="true")")).size(), 1u);
}

TEST(ActionsFor, SystemUiSkippedByDefault) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node class="a.Bar" package="com.android.systemui" clickable="true" bounds="[0,0][1080,48]"/>)"
      R"(<node class="a.App" package="org.app" clickable="true" bounds="[0,48][1080,1920]"/>)"));
  ASSERT_TRUE(s.ok());
  std::vector<Action> out;
  ActionsFor(*s, out);
  EXPECT_EQ(Describe(out), Strings{"click 1"});
  ActionOptions all;
  all.skip_system_ui = false;
  ActionsFor(*s, out, all);
  EXPECT_EQ(Describe(out), (Strings{"click 0", "click 1"}));
}

TEST(ActionsFor, ReusesOutput) {
  Result<Screen> s =
      ParseDump(Dump(Node("a.B", "[0,0][10,10]", R"(clickable="true" long-clickable="true")")));
  ASSERT_TRUE(s.ok());
  std::vector<Action> out(5, MakeGlobalAction(ActionKind::kKey, "VOLUME_UP"));
  ActionsFor(*s, out);
  EXPECT_EQ(Describe(out), (Strings{"click 0", "long_click 0"}));  // old contents gone
}

TEST(WidgetRules, EveryRuleHasAWidgetKindAndReason) {
  ASSERT_FALSE(WidgetRules().empty());
  for (const WidgetRule& r : WidgetRules()) {
    EXPECT_TRUE(IsWidgetAction(r.kind)) << ActionKindName(r.kind);
    EXPECT_FALSE(r.why.empty());
  }
}

TEST(GlobalActions, AllPresentAndAppended) {
  std::vector<Action> out = {MakeGlobalAction(ActionKind::kBack)};
  AppendGlobalActions(out);
  EXPECT_EQ(Describe(out), (Strings{"back", "back", "menu", "rotate", "restart", "swipe_up",
                                    "swipe_down", "swipe_left", "swipe_right", "key \"VOLUME_UP\"",
                                    "key \"VOLUME_DOWN\"", "key \"VOLUME_MUTE\""}));
  for (const Action& a : out) EXPECT_FALSE(a.target.has_value());
}

}  // namespace
}  // namespace roam::gui
