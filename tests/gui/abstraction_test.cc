#include "gui/abstraction.h"

#include <gtest/gtest.h>

#include "gui/actions.h"
#include "gui/uiautomator.h"
#include "gui_test_util.h"

namespace roam::gui {
namespace {

using testing::Dump;
using testing::Node;

// A list screen: a toolbar title, an edit field and `rows` like rows (clickable row with an id,
// a title and a time that change per row).
std::string ListDump(int rows, const std::string& title = "Inbox", const std::string& typed = "") {
  std::string body =
      R"(<node class="android.widget.FrameLayout" package="org.app" bounds="[0,0][1080,1920]">)" +
      Node("android.widget.TextView", "[0,0][1080,100]", "text=\"" + title + "\"") +
      Node("android.widget.EditText", "[0,100][1080,200]",
           "resource-id=\"org.app:id/search\" clickable=\"true\" text=\"" + typed + "\"") +
      R"(<node class="android.widget.ListView" resource-id="org.app:id/list" scrollable="true" bounds="[0,200][1080,1920]">)";
  for (int i = 0; i < rows; ++i) {
    std::string top = std::to_string(200 + i * 100), bottom = std::to_string(300 + i * 100);
    body +=
        R"(<node class="android.widget.LinearLayout" resource-id="org.app:id/row" clickable="true" bounds="[0,)" +
        top + "][1080," + bottom + R"(]">)" +
        Node("android.widget.TextView", "[0," + top + "][800," + bottom + "]",
             "resource-id=\"org.app:id/title\" text=\"Message " + std::to_string(i) + "\"") +
        Node("android.widget.TextView", "[800," + top + "][1080," + bottom + "]",
             "text=\"" + std::to_string(i % 12) + ":0" + std::to_string(i % 10) + "\"") +
        "</node>";
  }
  body += "</node></node>";
  return Dump(body);
}

Screen Parse(const std::string& xml, const std::string& activity = ".MainActivity") {
  Result<Screen> s = ParseDump(xml);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  Screen out = s.ok() ? *s : Screen{};
  out.activity = activity;
  return out;
}

std::string DialogDump(const std::string& ok, bool checked = false) {
  return Dump(
      R"(<node class="android.widget.FrameLayout" package="org.app" bounds="[100,600][980,1300]">)" +
      Node("android.widget.TextView", "[100,600][980,800]", R"(text="Delete 3 files?")") +
      Node("android.widget.CheckBox", "[100,800][980,900]",
           std::string("text=\"Don't ask again\" checkable=\"true\" checked=\"") +
               (checked ? "true" : "false") + "\"") +
      Node("android.widget.Button", "[100,1200][500,1300]", R"(text="Cancel" clickable="true")") +
      Node("android.widget.Button", "[500,1200][980,1300]",
           "text=\"" + ok + "\" clickable=\"true\"") +
      "</node>");
}

TEST(ScreenKey, ListOf3And30RowsAreOneState) {
  EXPECT_EQ(ScreenKey(Parse(ListDump(3))), ScreenKey(Parse(ListDump(30))));
  EXPECT_EQ(ScreenKey(Parse(ListDump(1))), ScreenKey(Parse(ListDump(3))));
  EXPECT_NE(ScreenKey(Parse(ListDump(0))), ScreenKey(Parse(ListDump(3))));  // empty list differs
}

TEST(ScreenKey, DifferentActivityDiffers) {
  EXPECT_NE(ScreenKey(Parse(ListDump(3), ".MainActivity")),
            ScreenKey(Parse(ListDump(3), ".OtherActivity")));
}

TEST(ScreenKey, IgnoresLabelTextAndTypedText) {
  uint64_t base = ScreenKey(Parse(ListDump(3)));
  EXPECT_EQ(base, ScreenKey(Parse(ListDump(3, "Archive 12:03"))));
  EXPECT_EQ(base, ScreenKey(Parse(ListDump(3, "Inbox", "hello world"))));
}

TEST(ScreenKey, DialogButtonTextAndCheckedStateCount) {
  uint64_t ok = ScreenKey(Parse(DialogDump("OK")));
  EXPECT_EQ(ok, ScreenKey(Parse(DialogDump("OK"))));
  EXPECT_NE(ok, ScreenKey(Parse(DialogDump("Delete"))));
  EXPECT_NE(ok, ScreenKey(Parse(DialogDump("OK", /*checked=*/true))));
  // Digits are masked: "Retry (3)" and "Retry (12)" are one button.
  EXPECT_EQ(ScreenKey(Parse(DialogDump("Retry (3)"))), ScreenKey(Parse(DialogDump("Retry (12)"))));
}

TEST(ScreenKey, StructureCounts) {
  Screen a = Parse(DialogDump("OK"));
  Screen b = a;
  b.widgets[3].enabled = false;
  EXPECT_NE(ScreenKey(a), ScreenKey(b));
  b = a;
  b.widgets[1].cls = "android.widget.ImageView";
  EXPECT_NE(ScreenKey(a), ScreenKey(b));
  b = a;
  b.widgets[1].resource_id = "org.app:id/message";
  EXPECT_NE(ScreenKey(a), ScreenKey(b));
  b = a;
  b.widgets[1].bounds = {0, 0, 5, 5};  // bounds and focus are ignored
  b.widgets[1].focused = true;
  EXPECT_EQ(ScreenKey(a), ScreenKey(b));
}

TEST(ScreenKey, StatusBarIsIgnored) {
  std::string app = Node("a.Root", "[0,48][1080,1920]", R"(clickable="true")");
  auto bar = [](const std::string& icons) {
    return R"(<node class="a.Bar" package="com.android.systemui" bounds="[0,0][1080,48]">)" +
           icons + "</node>";
  };
  std::string icon =
      R"(<node class="a.Icon" package="com.android.systemui" bounds="[0,0][48,48]"/>)";
  std::string other =
      R"(<node class="a.Clock" package="com.android.systemui" bounds="[0,0][48,48]"/>)";
  EXPECT_EQ(ScreenKey(Parse(Dump(bar(icon) + app))),
            ScreenKey(Parse(Dump(bar(icon + other) + app))));
  EXPECT_NE(ScreenKey(Parse(Dump(bar(icon) + app))), ScreenKey(Parse(Dump(bar(icon)))));
}

TEST(ScreenKey, PinnedValueIsStableAcrossBuilds) {
  // If this changes, saved models no longer match: bump the "-v1" tag on purpose instead.
  EXPECT_EQ(KeyHex(ScreenKey(Parse(DialogDump("OK")))), "d8fc23f82e92c23f");
}

TEST(MaskDigits, Runs) {
  EXPECT_EQ(MaskDigits("12:03"), "#:#");
  EXPECT_EQ(MaskDigits("v2.10 build 7"), "v#.# build #");
  EXPECT_EQ(MaskDigits("Grüße 日本語 😀"), "Grüße 日本語 😀");
  EXPECT_EQ(MaskDigits(""), "");
}

TEST(StableHash, SeparatesStringBoundaries) {
  EXPECT_NE(StableHash().Add("ab").Add("c").value(), StableHash().Add("a").Add("bc").value());
  EXPECT_NE(StableHash().Add("").value(), StableHash().value());
  EXPECT_EQ(StableHash().AddMasked("at 12:03", 64).value(), StableHash().Add("at #:#").value());
  EXPECT_EQ(StableHash().AddMasked("abcdefghij", 4).value(), StableHash().Add("abcd").value());
}

TEST(HyperEvent, FromWidgetAndGlobalActions) {
  Screen s = Parse(ListDump(3));
  std::vector<Action> actions;
  ActionsFor(s, actions);
  ASSERT_FALSE(actions.empty());
  // The edit field: its typed text never enters the event.
  HyperEvent input = MakeHyperEvent(s, MakeWidgetAction(ActionKind::kInputText, s, 2));
  EXPECT_EQ(input, (HyperEvent{".MainActivity", "org.app:id/search", "", ActionKind::kInputText}));
  Screen typed = Parse(ListDump(3, "Inbox", "typed 42"));
  EXPECT_EQ(input.Hash(),
            MakeHyperEvent(typed, MakeWidgetAction(ActionKind::kInputText, typed, 2)).Hash());

  Screen d = Parse(DialogDump("Delete 2"));
  HyperEvent del = MakeHyperEvent(d, MakeWidgetAction(ActionKind::kClick, d, 4));
  EXPECT_EQ(del.text, "Delete #");
  EXPECT_EQ(del.resource_id, "");
  Action stale = MakeWidgetAction(ActionKind::kClick, d, 4);
  stale.widget = 1;  // a wrong hint: the path and bounds win
  EXPECT_EQ(MakeHyperEvent(d, stale), del);
  EXPECT_NE(del.Hash(), MakeHyperEvent(d, MakeWidgetAction(ActionKind::kLongClick, d, 4)).Hash());

  HyperEvent back = MakeHyperEvent(d, MakeGlobalAction(ActionKind::kBack));
  EXPECT_EQ(back, (HyperEvent{".MainActivity", "", "", ActionKind::kBack}));
  EXPECT_NE(MakeHyperEvent(d, MakeGlobalAction(ActionKind::kKey, "VOLUME_UP")).Hash(),
            MakeHyperEvent(d, MakeGlobalAction(ActionKind::kKey, "VOLUME_MUTE")).Hash());
  // Two broadcasts are two events, as two keys are.
  EXPECT_NE(MakeHyperEvent(
                d, MakeGlobalAction(ActionKind::kBroadcast, "android.intent.action.BATTERY_LOW"))
                .Hash(),
            MakeHyperEvent(d, MakeGlobalAction(ActionKind::kBroadcast, "org.app.REFRESH")).Hash());
}

TEST(HyperEvent, HashIsPinned) {
  HyperEvent e{".MainActivity", "org.app:id/save", "Save #", ActionKind::kClick};
  EXPECT_EQ(e.Hash(), e.Hash());
  EXPECT_EQ(KeyHex(e.Hash()), "3b5e1d7c16505527");
  HyperEvent other = e;
  other.text = "Save";
  EXPECT_NE(e.Hash(), other.Hash());
}

}  // namespace
}  // namespace roam::gui
