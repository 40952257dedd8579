#include <gtest/gtest.h>

#include "sim_test_util.h"

namespace roam::sim {
namespace {

using gui::ActionKind;
using namespace roam::sim::testing;

const char* kDyn = R"json({
  "app": "dyn", "package": "org.dyn", "start": "Main",
  "vars": {"n": 0},
  "lists": {"rows": [{"t": "r0"}, {"t": "r1"}, {"t": "r2"}, {"t": "r3"}, {"t": "r4"}]},
  "screens": [
    {"id": "Main", "activity": ".Main", "title": "Main",
     "widgets": [
       {"id": "clock", "dynamic": {"kind": "clock"}},
       {"id": "ad", "dynamic": {"kind": "rotate", "texts": ["Ad 1", "Ad 2", "Ad 3", "Ad 4"], "p": 0.5}},
       {"id": "inc", "text": "Inc {var.n}", "on": {"click": [{"inc": "n"}]}},
       {"id": "name", "hint": "Name", "input": {}},
       {"id": "box", "children": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]},
       {"id": "list", "list": "rows", "visible_rows": 2, "row": [{"id": "t", "text": "{row.t}"}]}
     ],
     "on": {"rotate": [{"set_input": "name", "to": ""}]}}
  ]
})json";

TEST(Render, BoundsAreNonEmptyInsideTheScreenAndLinked) {
  auto app = MustApp(kDyn);
  const gui::Screen& s = app->screen();
  ASSERT_GT(s.widgets.size(), 5u);
  EXPECT_EQ(s.widgets[0].parent, -1);
  EXPECT_EQ(s.widgets[0].cls, "android.widget.FrameLayout");
  for (size_t i = 0; i < s.widgets.size(); ++i) {
    const gui::Widget& w = s.widgets[i];
    EXPECT_FALSE(w.bounds.empty()) << i;
    EXPECT_GE(w.bounds.left, 0);
    EXPECT_GE(w.bounds.top, 0);
    EXPECT_LE(w.bounds.right, s.width);
    EXPECT_LE(w.bounds.bottom, s.height);
    EXPECT_EQ(w.package, "org.dyn");
    EXPECT_EQ(s.FindPath(s.PathOf(static_cast<int>(i))), static_cast<int>(i));
  }
  // Stacked top to bottom; children inside their container; rows inside the list.
  EXPECT_LT(s.widgets[Find(s, "clock")].bounds.top, s.widgets[Find(s, "inc")].bounds.top);
  const gui::Widget& box = s.widgets[Find(s, "box")];
  const gui::Widget& b = s.widgets[Find(s, "b")];
  EXPECT_EQ(b.parent, Find(s, "box"));
  EXPECT_GE(b.bounds.top, box.bounds.top);
  EXPECT_LE(b.bounds.bottom, box.bounds.bottom);
  EXPECT_TRUE(s.widgets[Find(s, "list")].scrollable);
  EXPECT_TRUE(Has(*app, "r1"));
  EXPECT_FALSE(Has(*app, "r2"));  // visible_rows: 2
}

// A list of two rows showing three at most, and an Add that puts a new row first.
const char* kRows = R"json({
  "app": "rows", "package": "org.rows", "start": "Main",
  "lists": {"rows": [{"t": "r0"}, {"t": "r1"}]},
  "screens": [
    {"id": "Main", "activity": ".Main", "title": "Main",
     "widgets": [
       {"id": "add", "text": "Add",
        "on": {"click": [{"add_item": "rows", "item": {"t": "new"}, "at": 0}]}},
       {"id": "list", "list": "rows", "visible_rows": 3, "row": [{"id": "t", "text": "{row.t}"}]}
     ]}
  ]
})json";

// As on a phone (../shared/real: a RecyclerView of 3 rows says scrollable="false"), a list can
// scroll only while it holds more rows than it shows.
TEST(Render, AListIsScrollableOnlyWhenItsRowsOverflow) {
  auto app = MustApp(kRows);
  auto list = [&] { return app->screen().widgets[Find(app->screen(), "list")]; };
  EXPECT_FALSE(list().scrollable);
  Click(*app, "add");
  EXPECT_FALSE(list().scrollable);  // three rows, three shown
  Click(*app, "add");
  EXPECT_TRUE(list().scrollable);
}

// add_item with "at": 0 puts the new item first (a list that shows the newest on top).
TEST(Render, AnItemAddedAtZeroComesFirst) {
  auto app = MustApp(kRows);
  Click(*app, "add");
  const gui::Screen& s = app->screen();
  ASSERT_GE(Find(s, "new"), 0);
  EXPECT_LT(Find(s, "new"), Find(s, "r0"));
  EXPECT_LT(Find(s, "r0"), Find(s, "r1"));
}

// A screen that declares its own app bar gets no second one over it; others keep ours.
TEST(Render, AScreenWithItsOwnBarGetsNoSyntheticToolbar) {
  auto app = MustApp(R"json({
    "app": "bars", "package": "org.bars", "start": "Main",
    "screens": [
      {"id": "Main", "activity": ".Main", "title": "Main",
       "widgets": [
         {"id": "toolbar", "class": "androidx.appcompat.widget.Toolbar",
          "children": [{"id": "heading", "text": "My bar"}]},
         {"id": "go", "text": "Go", "on": {"click": [{"navigate": "Other"}]}}
       ],
       "menu": [{"id": "about", "text": "About", "on": {"click": []}}]},
      {"id": "Other", "activity": ".Other", "title": "Other",
       "widgets": [{"id": "x", "text": "X"}]}
    ]
  })json");
  auto count = [](const gui::Screen& s, const std::string& id) {
    int n = 0;
    for (const auto& w : s.widgets) n += w.resource_id == id;
    return n;
  };
  const gui::Screen& own = app->screen();
  EXPECT_EQ(count(own, "org.bars:id/toolbar"), 1);  // the app's, not a second one
  int bar = -1, more = -1;
  for (int i = 0; i < static_cast<int>(own.widgets.size()); ++i) {
    if (own.widgets[i].resource_id == "org.bars:id/toolbar") bar = i;
    if (own.widgets[i].content_desc == "More options") more = i;
  }
  ASSERT_GE(bar, 0);
  EXPECT_EQ(own.widgets[bar].cls, "androidx.appcompat.widget.Toolbar");
  EXPECT_GE(more, 0);  // the menu still opens
  Click(*app, "Go");
  EXPECT_EQ(count(app->screen(), "org.bars:id/toolbar"), 1);  // ours, with the title
}

TEST(Render, ScrollMovesTheListWindow) {
  auto app = MustApp(kDyn);
  Act(*app, ActionKind::kScrollDown, "list");
  EXPECT_FALSE(Has(*app, "r0"));
  EXPECT_TRUE(Has(*app, "r1"));
  Act(*app, ActionKind::kScrollDown, "list");
  Act(*app, ActionKind::kScrollDown, "list");
  Act(*app, ActionKind::kScrollDown, "list");
  EXPECT_TRUE(Has(*app, "r4"));  // clamped at the end
  EXPECT_TRUE(Has(*app, "r3"));
  Act(*app, ActionKind::kScrollUp, "list");
  Act(*app, ActionKind::kScrollUp, "list");
  Act(*app, ActionKind::kScrollUp, "list");
  Act(*app, ActionKind::kScrollUp, "list");
  EXPECT_TRUE(Has(*app, "r0"));
}

TEST(Render, ClockAdvancesWithStepsDeterministically) {
  auto app = MustApp(kDyn);
  EXPECT_EQ(TextOf(*app, "clock"), "09:00");
  for (int i = 0; i < 25; ++i) Click(*app, "inc");
  EXPECT_EQ(TextOf(*app, "clock"), "09:02");
  EXPECT_EQ(TextOf(*app, "inc"), "Inc 25");
}

std::vector<std::string> AdTexts(uint64_t seed) {
  SimOptions o;
  o.seed = seed;
  auto app = MustApp(kDyn, o);
  std::vector<std::string> out;
  for (int i = 0; i < 40; ++i) {
    Global(*app, ActionKind::kSwipeUp);
    out.push_back(TextOf(*app, "ad"));
  }
  return out;
}

TEST(Render, RotatingTextsDependOnlyOnTheSeed) {
  auto a = AdTexts(7);
  EXPECT_EQ(a, AdTexts(7));
  EXPECT_NE(a, AdTexts(8));
  EXPECT_GT(std::set<std::string>(a.begin(), a.end()).size(), 1u);
}

TEST(Render, RotationSwapsSizeAndRunsTheRotateHandler) {
  auto app = MustApp(kDyn);
  Type(*app, "name", "Ann");
  EXPECT_EQ(TextOf(*app, "name"), "Ann");
  Global(*app, ActionKind::kRotate);
  const gui::Screen& s = app->screen();
  EXPECT_EQ(s.width, 1920);
  EXPECT_EQ(s.height, 1080);
  EXPECT_EQ(s.rotation, 1);
  EXPECT_EQ(TextOf(*app, "name"), "");  // the screen's rotate handler lost the input
  for (const gui::Widget& w : app->screen().widgets) EXPECT_LE(w.bounds.bottom, 1080);
  Global(*app, ActionKind::kRotate);
  EXPECT_EQ(app->screen().width, 1080);
}

TEST(Render, SaveLoadRestoresTheScreenExactly) {
  auto app = MustApp(kDyn);
  Type(*app, "name", "Bob");
  Act(*app, ActionKind::kScrollDown, "list");
  for (int i = 0; i < 13; ++i) Click(*app, "inc");
  auto saved = app->Save();
  gui::Screen before = app->screen();
  for (int i = 0; i < 20; ++i) Click(*app, "inc");
  Global(*app, ActionKind::kRotate);
  Type(*app, "name", "Zed");
  EXPECT_NE(app->screen().widgets, before.widgets);
  app->Load(*saved);
  const gui::Screen& after = app->screen();
  EXPECT_EQ(after.widgets, before.widgets);
  EXPECT_EQ(after.width, before.width);
  EXPECT_EQ(after.activity, before.activity);
  // The future is the same too: the rng state is part of the snapshot.
  auto again = app->Save();
  EXPECT_TRUE(*again == *saved);
}

TEST(Render, LauncherHasOneClickableIcon) {
  auto app = MustApp(kDyn);
  app->Stop();
  const gui::Screen& s = app->screen();
  EXPECT_EQ(s.package, "com.android.launcher3");
  int clickable = 0;
  for (const gui::Widget& w : s.widgets) clickable += w.clickable;
  EXPECT_EQ(clickable, 1);
  EXPECT_TRUE(Has(*app, "dyn"));  // label defaults to the app name
  Click(*app, "dyn");
  EXPECT_EQ(app->screen().package, "org.dyn");
}

TEST(Render, SteadyStateReusesTheScreen) {
  auto app = MustApp(kDyn);
  const gui::Screen* first = &app->screen();
  const std::string* text_storage = &first->widgets[1].text;
  Global(*app, ActionKind::kKey, "VOLUME_UP");
  EXPECT_EQ(&app->screen(), first);
  EXPECT_EQ(&app->screen().widgets[1].text, text_storage);
}

}  // namespace
}  // namespace roam::sim
