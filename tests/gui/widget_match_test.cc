// The harness's matchers: each widget matcher kind (resource-id, text, path expression,
// screen-fraction rectangle), activity names, and the errors of bad matchers.
#include "gui/widget_match.h"

#include <gtest/gtest.h>

#include "gui/uiautomator.h"

namespace roam::gui {
namespace {

// A login-like screen: root, toolbar with title, a field, two buttons, a bottom bar with an icon.
gui::Screen Screen() {
  auto s = gui::ParseDump(R"(<hierarchy rotation="0">
<node index="0" class="android.widget.FrameLayout" package="org.app" bounds="[0,0][1000,2000]">
  <node index="0" class="android.view.ViewGroup" resource-id="org.app:id/toolbar" package="org.app" bounds="[0,0][1000,200]">
    <node index="0" class="android.widget.TextView" text="Account" package="org.app" bounds="[0,0][800,200]"/>
  </node>
  <node index="1" class="android.widget.EditText" resource-id="org.app:id/email" package="org.app" clickable="true" bounds="[0,200][1000,400]"/>
  <node index="2" class="android.widget.Button" resource-id="org.app:id/delete" text="Delete account" package="org.app" clickable="true" bounds="[0,400][1000,600]"/>
  <node index="3" class="android.widget.Button" resource-id="org.app:id/sign_out" text="Sign out" package="org.app" clickable="true" enabled="true" bounds="[0,600][1000,800]"/>
  <node index="4" class="android.widget.LinearLayout" resource-id="org.app:id/bottom" package="org.app" bounds="[0,1800][1000,2000]">
    <node index="0" class="android.widget.ImageButton" content-desc="Share" package="org.app" clickable="true" bounds="[0,1800][200,2000]"/>
  </node>
</node></hierarchy>)");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}
// Indices in pre-order: 0 root, 1 toolbar, 2 title, 3 email, 4 delete, 5 sign out, 6 bottom, 7
// share.

std::vector<int> Matching(const gui::Screen& s, const WidgetMatcher& m) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (m.Matches(s, i)) out.push_back(i);
  return out;
}

WidgetMatcher Parse(const std::string& json_text) {
  auto m = ParseWidgetMatcher(nlohmann::json::parse(json_text), "test");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : WidgetMatcher{};
}

std::vector<int> PathMatches(const gui::Screen& s, const std::string& path) {
  auto p = PathExpr::Parse(path);
  EXPECT_TRUE(p.ok()) << path << ": " << p.status().message();
  std::vector<int> out;
  if (!p.ok()) return out;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (p->Matches(s, i)) out.push_back(i);
  return out;
}

TEST(WidgetMatcher, ResourceIdWithOrWithoutPackage) {
  auto s = Screen();
  EXPECT_EQ(Matching(s, Parse(R"({"resource_id": "org.app:id/delete"})")), std::vector<int>{4});
  EXPECT_EQ(Matching(s, Parse(R"({"resource_id": "id/delete"})")), std::vector<int>{4});
  EXPECT_EQ(Matching(s, Parse(R"({"resource_id": "delete"})")), std::vector<int>{4});
  EXPECT_TRUE(Matching(s, Parse(R"({"resource_id": "other.app:id/delete"})")).empty());
  EXPECT_TRUE(Matching(s, Parse(R"({"resource_id": "dele"})")).empty());
}

TEST(WidgetMatcher, TextMatchesTextOrContentDescExactly) {
  auto s = Screen();
  EXPECT_EQ(Matching(s, Parse(R"({"text": "Sign out"})")), std::vector<int>{5});
  EXPECT_EQ(Matching(s, Parse(R"({"text": "Share"})")), std::vector<int>{7});
  EXPECT_TRUE(Matching(s, Parse(R"({"text": "Sign"})")).empty());
}

TEST(WidgetMatcher, RectangleMatchesByTheCentreOfTheBounds) {
  auto s = Screen();
  // The bottom tenth: the bar (centre y 0.95) and its icon.
  EXPECT_EQ(Matching(s, Parse(R"({"rect": [0, 0.9, 1, 1]})")), (std::vector<int>{6, 7}));
  // The left fifth of the bottom tenth: the icon (centre x 0.1) but not the bar (centre x 0.5).
  EXPECT_EQ(Matching(s, Parse(R"({"rect": [0, 0.9, 0.2, 1]})")), std::vector<int>{7});
  // Band y 0.2..0.3: the delete button (centre 0.25) only; edges count.
  EXPECT_EQ(Matching(s, Parse(R"({"rect": [0, 0.2, 1, 0.3]})")), std::vector<int>{4});
  EXPECT_EQ(Matching(s, Parse(R"({"rect": [0, 0.25, 1, 0.3]})")), std::vector<int>{4});
  EXPECT_TRUE(Matching(s, Parse(R"({"rect": [0, 0.26, 1, 0.3]})")).empty());
}

TEST(WidgetMatcher, EveryKeyGivenMustHold) {
  auto s = Screen();
  EXPECT_EQ(Matching(s, Parse(R"({"text": "Sign out", "rect": [0, 0.25, 1, 0.5]})")),
            std::vector<int>{5});
  EXPECT_TRUE(Matching(s, Parse(R"({"text": "Sign out", "rect": [0, 0.9, 1, 1]})")).empty());
}

TEST(PathExpr, DescendantChildClassAndAttributeTests) {
  auto s = Screen();
  EXPECT_EQ(PathMatches(s, "//android.widget.Button[@resource-id='id/delete']"),
            std::vector<int>{4});
  EXPECT_EQ(PathMatches(s, "//*[@text='Sign out']"), std::vector<int>{5});
  EXPECT_EQ(PathMatches(s, "//Button"), (std::vector<int>{4, 5}));
  EXPECT_EQ(PathMatches(s, "/FrameLayout/Button"), (std::vector<int>{4, 5}));
  EXPECT_EQ(PathMatches(s, "/FrameLayout/*/TextView"), std::vector<int>{2});
  EXPECT_TRUE(PathMatches(s, "/TextView").empty());  // '/' at the start: a window root
  EXPECT_EQ(PathMatches(s, "/*"), std::vector<int>{0});
  EXPECT_EQ(PathMatches(s, "//*[@resource-id='bottom']//*"), std::vector<int>{7});
  EXPECT_EQ(PathMatches(s, "//*[contains(@text, 'account')]"), std::vector<int>{4});
  EXPECT_EQ(PathMatches(s, "//*[starts-with(@text, 'Acc')]"), std::vector<int>{2});
  EXPECT_EQ(PathMatches(s, "//Button[@clickable='true' and @index='3']"), std::vector<int>{5});
  EXPECT_EQ(PathMatches(s, "//*[@content-desc=\"Share\"][@class='android.widget.ImageButton']"),
            std::vector<int>{7});
  EXPECT_EQ(Matching(s, Parse(R"({"path": "//EditText"})")), std::vector<int>{3});
}

TEST(PathExpr, SyntaxErrorsSayTheColumnAndWhatWasExpected) {
  auto e = PathExpr::Parse("Button");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("column 1"), std::string::npos) << e.status().message();
  e = PathExpr::Parse("//Button[@text='x'");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("expected ']'"), std::string::npos) << e.status().message();
  e = PathExpr::Parse("//Button[@text=x]");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("column 16"), std::string::npos) << e.status().message();
  e = PathExpr::Parse("//Button[@txt='x']");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("did you mean @text?"), std::string::npos)
      << e.status().message();
  e = PathExpr::Parse("//");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("a class name or '*'"), std::string::npos)
      << e.status().message();
}

TEST(WidgetMatcher, BadMatchersAreRefusedWithThePlace) {
  auto bad = [](const std::string& text) {
    auto m = ParseWidgetMatcher(nlohmann::json::parse(text), "f.json: widgets.black[1]");
    EXPECT_FALSE(m.ok()) << text;
    return m.ok() ? std::string() : m.status().message();
  };
  std::string e = bad(R"({"rect": [0.5, 0, 0.2, 1]})");
  EXPECT_NE(e.find("f.json: widgets.black[1].rect"), std::string::npos) << e;
  EXPECT_NE(e.find("empty rectangle"), std::string::npos) << e;
  e = bad(R"({"rect": [0, 0, 1.5, 1]})");
  EXPECT_NE(e.find("outside 0..1"), std::string::npos) << e;
  e = bad(R"({"rect": [0, 0, 1]})");
  EXPECT_NE(e.find("[x0, y0, x1, y1]"), std::string::npos) << e;
  e = bad(R"({"resource-id": "delete"})");
  EXPECT_NE(e.find("did you mean \"resource_id\""), std::string::npos) << e;
  e = bad(R"({})");
  EXPECT_NE(e.find("one or more of"), std::string::npos) << e;
  e = bad(R"({"path": "Button"})");
  EXPECT_NE(e.find("widgets.black[1].path: path \"Button\": column 1"), std::string::npos) << e;
  e = bad(R"({"text": 3})");
  EXPECT_NE(e.find("black[1].text: expected a non-empty string"), std::string::npos) << e;
}

TEST(ActivityMatches, FullNameOrATailAfterADot) {
  EXPECT_TRUE(ActivityMatches("bf.io.openshop.ux.LoginActivity", "LoginActivity"));
  EXPECT_TRUE(ActivityMatches("bf.io.openshop.ux.LoginActivity", ".ux.LoginActivity"));
  EXPECT_TRUE(
      ActivityMatches("bf.io.openshop.ux.LoginActivity", "bf.io.openshop.ux.LoginActivity"));
  EXPECT_TRUE(
      ActivityMatches("bf.io.openshop/.ux.LoginActivity", "bf.io.openshop.ux.LoginActivity"));
  EXPECT_TRUE(
      ActivityMatches("bf.io.openshop.ux.LoginActivity", "bf.io.openshop/.ux.LoginActivity"));
  EXPECT_FALSE(ActivityMatches("bf.io.openshop.ux.LoginActivity", "Activity"));
  EXPECT_FALSE(ActivityMatches("bf.io.openshop.ux.LoginActivity", "ginActivity"));
  EXPECT_FALSE(ActivityMatches("bf.io.openshop.ux.LoginActivity", "RegisterActivity"));
  EXPECT_FALSE(ActivityMatches("bf.io.openshop.ux.LoginActivity", ""));
}

}  // namespace
}  // namespace roam::gui
