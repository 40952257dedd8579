// fuzz/view_bag: a View's parts and its written form (the tab-separated ViewString it replaced),
// the string readers giving the same key and content of either, and counting a bag by key and
// by row.
#include "fuzz/view_bag.h"

#include <gtest/gtest.h>

#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::L;
using testing::W;

TEST(ViewBag, AViewHoldsItsPartsAndIsWrittenAsItsViewString) {
  const Layout l = L(W("FrameLayout", "",
                       {W("TextView", "current").Text("Cinema 2"),
                        W("ListView", "list",
                          {W("LinearLayout", "", {W("TextView", "title").Text("Cinema").Click()}),
                           W("LinearLayout", "", {W("TextView", "title").Text("Cleaning")})})}));
  const Groups groups = FindGroups(l.screen);
  int title = -1, current = -1;
  for (int i = 0; i < static_cast<int>(l.screen.widgets.size()); ++i) {
    if (l.screen.widgets[i].text == "Cinema") title = i;
    if (l.screen.widgets[i].text == "Cinema 2") current = i;
  }
  ASSERT_GE(title, 0);
  ASSERT_GE(current, 0);
  const View row = ViewOf(l.screen, groups, title);
  EXPECT_EQ(row.key(), "android.widget.TextView|app:id/title");
  EXPECT_EQ(row.content(), "[Cinema]Cinema||cEs");
  EXPECT_EQ(row.group(), "android.widget.ListView|app:id/list");
  EXPECT_EQ(row.RowPrefix(), "[Cinema]");
  EXPECT_EQ(ViewString(l.screen, groups, title),
            "android.widget.TextView|app:id/title\t[Cinema]Cinema||cEs\t"
            "android.widget.ListView|app:id/list");
  const View single = ViewOf(l.screen, groups, current);
  EXPECT_EQ(single.written(), "android.widget.TextView|app:id/current\tCinema #||cEs");
  EXPECT_EQ(single.group(), "");
  EXPECT_EQ(single.RowPrefix(), "");
  // The string readers (run/fuzz/fuzz_report.cc) read either form alike.
  for (const View& v : {row, single}) {
    EXPECT_EQ(KeyOfViewString(v), v.key());
    EXPECT_EQ(ContentOfViewString(v), v.content());
    EXPECT_EQ(ContentOfViewString(v), ContentOfViewString(std::string_view(v.written())));
    const std::string& as_string = v;
    EXPECT_EQ(as_string, v.written());
  }
}

TEST(ViewBag, ViewsOrderAsTheirWrittenForms) {
  const View a("k", "x", "g"), b("k", "x"), c("k", "x\x01"), d("k|b", "x");
  EXPECT_EQ(b < a, b.written() < a.written());
  EXPECT_EQ(a < c, a.written() < c.written());  // the tab before the group sorts after \x01
  EXPECT_EQ(b < d, b.written() < d.written());
  EXPECT_TRUE(View("k", "x") == b);
  EXPECT_FALSE(a == b);
  EXPECT_EQ(View().written(), "\t");
  // A tab in what a view shows: its parts hold it; the string readers stop at it as they did.
  const View tab("k", "x\ty");
  EXPECT_EQ(tab.content(), "x\ty");
  EXPECT_EQ(tab.group(), "");
  EXPECT_EQ(ContentOfViewString(tab), "x");
}

TEST(ViewBag, CountsByViewKeyAndRow) {
  const ViewBag bag = {{View("k", "[A]one|cEs", "list"), 2},
                       {View("k", "[B]two|cEs", "list"), 1},
                       {View("j", "[A]three|cEs", "list"), 1}};
  EXPECT_EQ(CountOfKey(bag, "k"), 3);
  EXPECT_EQ(CountInRow(bag, "[A]"), 3);
  EXPECT_EQ(CountOf(bag, View("k", "[B]two|cEs", "list")), 1);
  EXPECT_EQ(CountOf(bag, View("k", "[B]two|cEs")), 0);
  EXPECT_EQ(KeysOf(bag), (KeySet{"j", "k"}));
  const ViewBag less = Minus(bag, {{View("k", "[A]one|cEs", "list"), 1}});
  EXPECT_EQ(less.at(View("k", "[A]one|cEs", "list")), 1);
  EXPECT_EQ(less.size(), 3u);
  EXPECT_TRUE(Minus(bag, bag).empty());
}

}  // namespace
}  // namespace roam::fuzz
