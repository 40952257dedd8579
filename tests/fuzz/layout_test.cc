// fuzz/layout: the abstraction (lists of different lengths are equal), similarity, resolution.
#include "fuzz/layout.h"

#include <gtest/gtest.h>

#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::ClickOn;
using testing::L;
using testing::W;

W Row(const std::string& title) {
  return W("LinearLayout", "",
           {W("TextView", "title").Text(title).Click(),
            W("ImageView", "photo").Desc("Photo of " + title).Click()});
}

W Diary(std::vector<std::string> titles) {
  std::vector<W> rows;
  for (const auto& t : titles) rows.push_back(Row(t));
  return W("FrameLayout", "",
           {W("TextView", "count").Text(std::to_string(titles.size()) + " entries"),
            W("ListView", "list", rows)});
}

TEST(Layout, ListsThatDifferOnlyInRowCountAreEqual) {
  Layout one = L(Diary({"Cinema"})), three = L(Diary({"Cinema", "Cleaning", "Sleeping"}));
  EXPECT_EQ(one.abs, three.abs);
  EXPECT_EQ(one.types, three.types);
  EXPECT_DOUBLE_EQ(TypeSimilarity(one, three), 1.0);
}

TEST(Layout, ANewKindOfWidgetMakesAnotherState) {
  W with_photo("FrameLayout", "",
               {W("TextView", "current").Text("Cinema"), W("ImageView", "picture")});
  W without("FrameLayout", "", {W("TextView", "current").Text("Cinema")});
  Layout a = L(with_photo), b = L(without);
  EXPECT_NE(a.abs, b.abs);
  EXPECT_LT(TypeSimilarity(a, b), 1.0);
  EXPECT_GT(TypeSimilarity(a, b), 0.5);
}

TEST(Layout, AnItemOfThePlatformsListsIsKnownByItsText) {
  // apps/bench tube: the video's menu offers Share and Open in browser, and each opens a dialog
  // of android:id/text1 items (Copy link, Messages; Chrome, Firefox). By class and id alone the
  // two dialogs were one state and the two items one event type, so M kept Share's tap as the
  // way to the browser dialog, and a τ through Chrome was never made. An id of the platform's
  // (android:id/...) names a slot, not an item: the item's text does.
  auto dialog = [](const std::string& a, const std::string& b) {
    return L(W("FrameLayout", "",
               {W("TextView", "android:id/alertTitle").Text("Choose"),
                W("TextView", "android:id/text1").Text(a).Click(),
                W("TextView", "android:id/text1").Text(b).Click()}));
  };
  const Layout open_with = dialog("Chrome", "Firefox"), share = dialog("Copy link", "Messages");
  EXPECT_NE(open_with.abs, share.abs);
  EXPECT_NE(WidgetType(open_with.screen, 2), WidgetType(open_with.screen, 3));
  // A view of the app's own id keeps one type whatever it shows (rows of a list).
  const Layout rows = L(W("ListView", "list",
                          {W("TextView", "title").Text("Cinema").Click(),
                           W("TextView", "title").Text("Cleaning").Click()}));
  EXPECT_EQ(WidgetType(rows.screen, 1), WidgetType(rows.screen, 2));
}

TEST(Layout, AnEmptyListDiffersFromAFullOne) {
  EXPECT_NE(L(Diary({})).abs, L(Diary({"Cinema"})).abs);
}

TEST(Layout, SimilarMeansSameActivity) {
  EXPECT_TRUE(Similar(L(Diary({"a"}), "app.Diary"), L(W("FrameLayout", ""), "app.Diary")));
  EXPECT_FALSE(Similar(L(Diary({"a"}), "app.Diary"), L(Diary({"a"}), "app.Main")));
}

TEST(Layout, ResolveFindsTheSameRowInALongerList) {
  Layout seed = L(Diary({"Cinema"}));
  Event e = ClickOn(seed.screen, "Photo of Cinema");
  Layout mutant = L(Diary({"Cleaning", "Cinema"}));
  int w = Resolve(mutant.screen, e);
  ASSERT_GE(w, 0);
  EXPECT_EQ(mutant.screen.widgets[w].content_desc, "Photo of Cinema");
}

TEST(Layout, ResolveFallsBackToTheNearestUnlessExact) {
  Layout seed = L(Diary({"Cinema"}));
  Event e = ClickOn(seed.screen, "Photo of Cinema");
  Layout other = L(Diary({"Cleaning", "Sleeping"}));
  int w = Resolve(other.screen, e);
  ASSERT_GE(w, 0);
  EXPECT_EQ(other.screen.widgets[w].content_desc, "Photo of Cleaning");  // nearest by edit distance
  e.exact = true;
  EXPECT_EQ(Resolve(other.screen, e), -1);
}

TEST(Layout, AnEventOnALikeViewOfSeveralRowsNamesItsRow) {
  // A report's "the seed's steps [click "Remove"]" did not say which entry went.
  std::vector<W> rows;
  for (std::string t : {"Trip to Rome", "Car service"})
    rows.push_back(
        W("LinearLayout", "",
          {W("TextView", "title").Text(t).Click(), W("Button", "remove").Text("Remove").Click()}));
  Layout list = L(W("FrameLayout", "", {W("ListView", "list", rows)}));
  const int car = testing::Find(list.screen, "Car service");
  EXPECT_EQ(EventOn(list.screen, gui::ActionKind::kClick, car + 1).Describe(),
            "click \"Remove\" in row \"Car service\"");
  EXPECT_EQ(EventOn(list.screen, gui::ActionKind::kClick, car).Describe(), "click \"Car service\"");
}

}  // namespace
}  // namespace roam::fuzz
