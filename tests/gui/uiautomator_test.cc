#include "gui/uiautomator.h"

#include <gtest/gtest.h>

#include "gui_test_util.h"

namespace roam::gui {
namespace {

using testing::Dump;
using testing::ExpectSameDumpContent;
using testing::Node;

constexpr const char* kDeviceDump =
    R"(<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="org.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
    <node index="0" text="Save" resource-id="org.app:id/save" class="android.widget.Button" package="org.app" content-desc="Save it" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="false" selected="true" bounds="[10,20][300,120]" />
    <node index="1" text="secret" resource-id="org.app:id/pw" class="android.widget.EditText" package="org.app" content-desc="" checkable="true" checked="true" clickable="true" enabled="false" focusable="true" focused="false" scrollable="true" long-clickable="false" password="true" selected="false" bounds="[-5,130][1085,240]" />
  </node>
</hierarchy>)";

TEST(ParseDump, FillsEveryField) {
  Result<Screen> s = ParseDump(kDeviceDump);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 3u);
  EXPECT_EQ(s->package, "org.app");
  EXPECT_EQ(s->activity, "");
  EXPECT_EQ(s->width, 1080);
  EXPECT_EQ(s->height, 2400);
  const Widget& save = s->widgets[1];
  EXPECT_EQ(save.cls, "android.widget.Button");
  EXPECT_EQ(save.resource_id, "org.app:id/save");
  EXPECT_EQ(save.text, "Save");
  EXPECT_EQ(save.content_desc, "Save it");
  EXPECT_EQ(save.bounds, (Rect{10, 20, 300, 120}));
  EXPECT_TRUE(save.clickable && save.long_clickable && save.focusable && save.focused);
  EXPECT_TRUE(save.selected && save.enabled);
  EXPECT_FALSE(save.checkable || save.checked || save.scrollable || save.editable);
  EXPECT_FALSE(save.password || save.naf);
  EXPECT_EQ(save.parent, 0);
  EXPECT_EQ(save.depth, 1);
  EXPECT_EQ(save.child_index, 0);
  EXPECT_EQ(save.subtree_end, 2);
  const Widget& pw = s->widgets[2];
  EXPECT_TRUE(pw.editable && pw.password && pw.checkable && pw.checked && pw.scrollable);
  EXPECT_FALSE(pw.enabled);
  EXPECT_EQ(pw.bounds, (Rect{-5, 130, 1085, 240}));
  EXPECT_EQ(pw.child_index, 1);
  EXPECT_EQ(s->widgets[0].subtree_end, 3);
}

TEST(ParseDump, MissingAttributesTakeDefaults) {
  Result<Screen> s =
      ParseDump(R"(<hierarchy><node><node class="android.widget.TextView"/></node></hierarchy>)");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 2u);
  Widget expected;
  expected.subtree_end = 2;
  EXPECT_EQ(s->widgets[0], expected);
  EXPECT_EQ(s->widgets[1].cls, "android.widget.TextView");
  EXPECT_TRUE(s->widgets[1].enabled);
  EXPECT_EQ(s->rotation, 0);
  EXPECT_EQ(s->width, 1080);  // no bounds anywhere: the default size
}

TEST(ParseDump, NafAndUiautomator2Attributes) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node NAF="true" index="0" class="android.view.View" clickable="true" bounds="[0,0][10,10]" visible-to-user="true" drawing-order="3" hint="Search here" display-id="0"/>)"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 1u);
  EXPECT_TRUE(s->widgets[0].naf);
  EXPECT_EQ(s->widgets[0].hint, "Search here");
}

TEST(ParseDump, EditableFromClassOrAttribute) {
  Result<Screen> s =
      ParseDump(Dump(Node("android.widget.AutoCompleteTextView", "[0,0][1,1]") +
                     Node("androidx.appcompat.widget.AppCompatEditText", "[0,0][1,1]") +
                     Node("android.widget.TextView", "[0,0][1,1]", R"(editable="true")") +
                     Node("android.widget.TextView", "[0,0][1,1]")));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 4u);
  EXPECT_TRUE(s->widgets[0].editable);
  EXPECT_TRUE(s->widgets[1].editable);
  EXPECT_TRUE(s->widgets[2].editable);
  EXPECT_FALSE(s->widgets[3].editable);
}

TEST(ParseDump, TwoWindowsPackageAndSize) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1200,48]"><node class="android.widget.TextView" text="12:03" package="com.android.systemui" bounds="[0,0][100,48]"/></node>)"
      R"(<node class="android.widget.FrameLayout" package="android" bounds="[0,48][1200,1824]"><node class="android.widget.FrameLayout" package="org.app" bounds="[0,48][1200,1824]"/></node>)"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 4u);
  EXPECT_EQ(s->package, "org.app");
  EXPECT_EQ(s->width, 1200);
  EXPECT_EQ(s->height, 1824);
  EXPECT_EQ(s->widgets[2].parent, -1);
  EXPECT_EQ(s->widgets[2].child_index, 1);  // window number
  EXPECT_EQ(s->widgets[3].parent, 2);
}

TEST(ParseDump, OnlySystemPackagesFallsBackToFirst) {
  Result<Screen> t = ParseDump(
      R"(<hierarchy><node package="com.android.systemui"/><node package="android"/></hierarchy>)");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->package, "com.android.systemui");
}

TEST(ParseDump, WindowsWrappedInOtherElementsAndStrayElements) {
  Result<Screen> s = ParseDump(
      R"(<dump><hierarchy rotation="1"><window id="3"><node class="a.Root" bounds="[0,0][1920,1080]"><extra>stray text<node class="a.Inner"/></extra><node class="a.Second"/></node></window><window><node class="b.Root"/></window></hierarchy></dump>)");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 4u);
  EXPECT_EQ(s->rotation, 1);
  EXPECT_EQ(s->widgets[1].cls, "a.Inner");
  EXPECT_EQ(s->widgets[1].parent, 0);  // the <extra> wrapper is transparent
  EXPECT_EQ(s->widgets[2].cls, "a.Second");
  EXPECT_EQ(s->widgets[2].child_index, 1);
  EXPECT_EQ(s->widgets[3].parent, -1);
  EXPECT_EQ(s->widgets[3].child_index, 1);
  EXPECT_EQ(s->width, 1920);
}

TEST(ParseDump, BareNodeRoot) {
  Result<Screen> s = ParseDump(R"(<node class="a.Root"><node class="a.Child"/></node>)");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 2u);
  EXPECT_EQ(s->widgets[1].parent, 0);
}

TEST(ParseDump, EntitiesAndNonAscii) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node class="a.B" text="Tom &amp; Jerry &lt;3&gt; &quot;q&quot; &apos;a&apos;&#10;line2&#x9;tab" content-desc="Grüße 日本語 😀"/>)"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->widgets[0].text, "Tom & Jerry <3> \"q\" 'a'\nline2\ttab");
  EXPECT_EQ(s->widgets[0].content_desc, "Grüße 日本語 😀");
}

TEST(ParseDump, OddBounds) {
  Result<Screen> s = ParseDump(
      Dump(Node("a.Zero", "[5,5][5,5]") + Node("a.Negative", "[-100,-50][-10,-5]") +
           Node("a.Inverted", "[50,50][10,10]") + Node("a.Garbage", "[1,2][3]") +
           Node("a.Words", "left top") + Node("a.Empty", "") + Node("a.Trailing", "[1,2][3,4]x")));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 7u);
  EXPECT_TRUE(s->widgets[0].bounds.empty());
  EXPECT_EQ(s->widgets[1].bounds, (Rect{-100, -50, -10, -5}));
  EXPECT_TRUE(s->widgets[2].bounds.empty());
  for (int i = 3; i < 7; ++i) EXPECT_EQ(s->widgets[i].bounds, Rect{}) << s->widgets[i].cls;
}

TEST(ParseDump, EmptyHierarchyIsAnEmptyScreen) {
  Result<Screen> s = ParseDump(R"(<?xml version="1.0"?><hierarchy rotation="3"/>)");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->widgets.empty());
  EXPECT_EQ(s->rotation, 3);
  EXPECT_EQ(s->width, 1920);  // default size, landscape for rotation 3
  EXPECT_EQ(s->height, 1080);
}

TEST(ParseDump, ErrorsSayWhere) {
  Result<Screen> empty = ParseDump("");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);

  Result<Screen> garbage =
      ParseDump("<hierarchy>\n  <node class=\"a\">\n  <node class=\"b\" \"oops\"/>\n</hierarchy>");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.status().message().find("line 3:"), std::string::npos)
      << garbage.status().message();

  Result<Screen> text = ParseDump("this is not xml at all");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("line 1:"), std::string::npos) << text.status().message();

  Result<Screen> other = ParseDump("<html><body/></html>");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("<html>"), std::string::npos) << other.status().message();
}

TEST(ParseDump, UnclosedTagReportsLineAndColumn) {
  Result<Screen> s = ParseDump("<hierarchy>\n<node class=\"a\">\n</hierarchy>");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("line 3:3"), std::string::npos) << s.status().message();
}

TEST(ParseDumpInto, ReusesAndResets) {
  Screen s;
  ASSERT_TRUE(ParseDumpInto(kDeviceDump, s).ok());
  ASSERT_TRUE(ParseDumpInto(Dump(Node("a.Only", "[0,0][1,1]")), s).ok());
  ASSERT_EQ(s.widgets.size(), 1u);
  EXPECT_EQ(s.widgets[0].text, "");  // nothing left over from the first dump
  EXPECT_FALSE(s.widgets[0].focused);
  EXPECT_FALSE(ParseDumpInto("<<<", s).ok());
  EXPECT_TRUE(s.widgets.empty());
}

TEST(WriteDump, RoundTripsEveryCarriedField) {
  Result<Screen> s = ParseDump(kDeviceDump);
  ASSERT_TRUE(s.ok());
  s->widgets[1].text = "a&b <c> \"d\" 'e'\n\ttab\r Grüße 日本語 😀";
  s->widgets[1].naf = true;
  s->widgets[1].hint = "hint & more";
  s->rotation = 2;
  std::string xml = WriteDump(*s);
  EXPECT_EQ(
      xml.rfind(
          "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"2\"><node "
          "index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\"",
          0),
      0u)
      << xml;
  Result<Screen> back = ParseDump(xml);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << xml;
  ExpectSameDumpContent(*s, *back);
}

TEST(WriteDump, MultiWindowAndDeepTreesRoundTrip) {
  Screen s;
  s.package = "org.app";
  auto add = [&](int parent, const char* cls, Rect b) {
    Widget w;
    w.cls = cls;
    w.package = "org.app";
    w.parent = parent;
    w.bounds = b;
    s.widgets.push_back(w);
  };
  add(-1, "a.Win0", {0, 0, 100, 200});
  add(0, "a.A", {0, 0, 10, 10});
  add(1, "a.AA", {0, 0, 5, 5});
  add(2, "a.AAA", {0, 0, 1, 1});
  add(0, "a.B", {0, 10, 10, 20});
  add(-1, "a.Win1", {0, 0, 120, 50});
  add(5, "a.C", {1, 1, 2, 2});
  s.Link();
  s.width = 120;
  s.height = 200;
  Result<Screen> back = ParseDump(WriteDump(s));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSameDumpContent(s, *back);
}

TEST(ScreenPaths, MultiWindowPathOfAndFindPath) {
  Result<Screen> s = ParseDump(Dump(
      R"(<node class="w0"><node class="a"/><node class="b"><node class="b0"/><node class="b1"/></node></node>)"
      R"(<node class="w1"><node class="c"><node class="c0"/></node></node>)"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->widgets.size(), 8u);
  const char* expected[] = {"0", "0/0", "0/1", "0/1/0", "0/1/1", "1", "1/0", "1/0/0"};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(s->PathOf(i), expected[i]) << s->widgets[i].cls;
    EXPECT_EQ(s->FindPath(expected[i]), i) << expected[i];
  }
  EXPECT_EQ(s->widgets[7].cls, "c0");
  EXPECT_EQ(s->FindPath("2"), -1);
  EXPECT_EQ(s->FindPath("0/2"), -1);
  EXPECT_EQ(s->FindPath("1/0/1"), -1);
  EXPECT_EQ(s->FindPath("x"), -1);
  EXPECT_EQ(s->FindPath(""), -1);
}

}  // namespace
}  // namespace roam::gui

namespace roam::gui {
namespace {

// A device's dump may hold bytes that are not UTF-8 (a Latin-1 byte, a lone surrogate written
// as a character reference): they become U+FFFD when the dump is read, so every later writer
// (trace.jsonl, bug.json) gets valid text.
TEST(ParseDump, TextThatIsNotUtf8BecomesReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  for (bool pugixml_path : {false, true}) {
    // A DOCTYPE sends the dump through the pugixml fallback instead of the fast reader.
    std::string xml = std::string(pugixml_path ? "<!DOCTYPE x>" : "") +
                      "<hierarchy><node text=\"caf\xA0\" content-desc=\"&#55357;\" "
                      "resource-id=\"org.app:id/\xFF\" class=\"a.B\" package=\"org.app\"/>"
                      "</hierarchy>";
    auto s = ParseDump(xml);
    ASSERT_TRUE(s.ok()) << s.status().message();
    ASSERT_EQ(s->widgets.size(), 1u);
    EXPECT_EQ(s->widgets[0].text, "caf" + fffd) << pugixml_path;
    EXPECT_EQ(s->widgets[0].content_desc, fffd + fffd + fffd) << pugixml_path;
    EXPECT_EQ(s->widgets[0].resource_id, "org.app:id/" + fffd) << pugixml_path;
  }
}

}  // namespace
}  // namespace roam::gui
