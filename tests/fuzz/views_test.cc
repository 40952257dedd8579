// fuzz/views: groups, the independence rules on the notes' w0..w6 tree, active views.
#include "fuzz/views.h"

#include <gtest/gtest.h>

#include "tree.h"

namespace roam::fuzz {
namespace {

using testing::Find;
using testing::L;
using testing::W;

// The notes' figure (d): w0 a list with like children w1..w3 (Cinema, Sleeping, Cleaning), w4 a
// camera button in no group, w5 and w6 two like buttons of a navigation bar (another group).
W Figure() {
  return W("FrameLayout", "",
           {W("ListView", "w0",
              {W("TextView", "name").Text("Cinema").Click(),
               W("TextView", "name").Text("Sleeping").Click(),
               W("TextView", "name").Text("Cleaning").Click()}),
            W("ImageButton", "camera").Desc("Camera").Click(), W("TextView", "status").Text("Now"),
            W("LinearLayout", "nav",
              {W("Button", "tab").Text("Diary").Click(), W("Button", "tab").Text("Stats").Click()}),
            W("LinearLayout", "form",
              {W("Button", "ok").Text("OK").Click(), W("Button", "ok").Text("Apply").Click(),
               W("TextView", "hint").Text("Hint")})});
}

TEST(Views, GroupsAreInnerNodesWithLikeChildren) {
  auto s = testing::MakeScreen(Figure());
  Groups g = FindGroups(s);
  EXPECT_EQ(g.group_of[Find(s, "Cinema")], g.group_of[Find(s, "Cleaning")]);
  EXPECT_GE(g.group_of[Find(s, "Cinema")], 0);
  EXPECT_EQ(g.group_of[Find(s, "Camera")], -1);  // the root holds everything: not a group
  EXPECT_EQ(g.group_of[Find(s, "Now")], -1);
  EXPECT_GE(g.group_of[Find(s, "Diary")], 0);
  EXPECT_NE(g.group_of[Find(s, "Diary")], g.group_of[Find(s, "Cinema")]);
}

TEST(Views, IndependenceRulesOfTheNotes) {
  auto s = testing::MakeScreen(Figure());
  Groups g = FindGroups(s);
  int w1 = Find(s, "Cinema"), w2 = Find(s, "Sleeping"), w3 = Find(s, "Cleaning");
  int w4 = Find(s, "Camera"), w6 = Find(s, "Stats"), status = Find(s, "Now");
  EXPECT_TRUE(Independent(s, g, w1, w2));  // like siblings of one group
  EXPECT_TRUE(Independent(s, g, w3, w1));
  EXPECT_TRUE(Independent(s, g, w6, w1));  // different groups
  EXPECT_TRUE(Independent(s, g, w4, w1));  // w4 in no group, w1 in one
  EXPECT_TRUE(Independent(s, g, w1, w4));
  EXPECT_FALSE(Independent(s, g, w4, status));  // both in no group
  EXPECT_FALSE(Independent(s, g, w1, w1));
  // One group, different types: OK and Apply are like buttons, the hint is not one of them.
  EXPECT_TRUE(Independent(s, g, Find(s, "OK"), Find(s, "Apply")));
  EXPECT_FALSE(Independent(s, g, Find(s, "OK"), Find(s, "Hint")));
}

TEST(Views, RowsOfAListAreIndependentThroughTheirRows) {
  // The notes' figure (e): two diary rows under one list; a view in one row is independent of
  // the like view in the other row, not of another view of its own row.
  auto row = [](const std::string& t) {
    return W("LinearLayout", "",
             {W("TextView", "title").Text(t).Click(),
              W("ImageView", "photo").Desc("Photo of " + t).Click()});
  };
  auto s = testing::MakeScreen(
      W("FrameLayout", "", {W("ListView", "list", {row("Cleaning"), row("Cinema")})}));
  Groups g = FindGroups(s);
  EXPECT_TRUE(Independent(s, g, Find(s, "Photo of Cinema"), Find(s, "Photo of Cleaning")));
  EXPECT_FALSE(Independent(s, g, Find(s, "Photo of Cinema"), Find(s, "Cinema")));
}

TEST(Views, OneViewsRowLabelIsTheOneOfTheScreensGroups) {
  // Rows of a list, a text field first in one (not its label), like buttons nested in a row (the
  // nearest group holds them), digits masked; every view's label by itself and by FindGroups.
  auto row = [](const std::string& t, bool field) {
    std::vector<W> views;
    if (field) views.push_back(W("EditText", "note").Text("typed").Edit());
    views.push_back(W("TextView", "title").Text(t).Click());
    views.push_back(
        W("LinearLayout", "actions",
          {W("Button", "act").Text("Edit").Click(), W("Button", "act").Text("Delete").Click()}));
    return W("LinearLayout", "", views);
  };
  auto s =
      testing::MakeScreen(W("FrameLayout", "",
                            {W("ListView", "list", {row("Cinema 2", true), row("Sleeping", false)}),
                             W("Button", "add").Text("Add").Click()}));
  Groups g = FindGroups(s);
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    EXPECT_EQ(RowLabel(s, i), RowLabel(s, g, i)) << "view " << i;
  EXPECT_EQ(RowLabel(s, Find(s, "Sleeping")), "Sleeping");
  EXPECT_EQ(RowLabel(s, Find(s, "typed")), "Cinema #");
  EXPECT_EQ(RowLabel(s, Find(s, "Add")), "");
  EXPECT_EQ(RowLabel(s, Find(s, "Delete")), "Delete");  // the actions bar is its nearest group
}

TEST(Views, ActivateFollowsTheThreeRules) {
  auto s = testing::MakeScreen(Figure());
  Groups g = FindGroups(s);
  ActiveViews h;
  h.Activate(s, g, Find(s, "Cinema"));  // rule 1
  h.Activate(s, g, Find(s, "Diary"));   // rule 3: another group keeps its active view
  h.Activate(s, g, Find(s, "Camera"));  // in no group: never active
  auto active = h.In(s, g);
  ASSERT_EQ(active.size(), 2u);
  EXPECT_EQ(active[0], Find(s, "Cinema"));
  EXPECT_EQ(active[1], Find(s, "Diary"));
  h.Activate(s, g, Find(s, "Sleeping"));  // rule 2: Cinema becomes inactive
  active = h.In(s, g);
  ASSERT_EQ(active.size(), 2u);
  EXPECT_EQ(active[0], Find(s, "Sleeping"));
}

TEST(Views, UpdateActiveViewsCarriesFromTheLatestSimilarLayout) {
  Layout main1 = L(Figure(), "app.Main");
  Layout other = L(W("FrameLayout", "", {W("TextView", "x").Text("Diary page")}), "app.Diary");
  Layout main2 = L(Figure(), "app.Main");
  std::vector<Event> events = {testing::ClickOn(main1.screen, "Cleaning"),
                               testing::ClickOn(main1.screen, "Diary")};
  // main1 --click Cleaning--> main2? No: [main1, other, main2] with events [Cleaning, Diary].
  std::vector<Layout> layouts = {main1, other, main2};
  std::vector<ActiveViews> h = TrackActiveViews(layouts, {events[0], Event{}});
  ASSERT_EQ(h.size(), 3u);
  ASSERT_EQ(h[0].entries.size(), 1u);  // Cleaning became active at layout 0
  EXPECT_TRUE(h[1].entries.empty());   // another activity: nothing carried
  ASSERT_EQ(h[2].entries.size(), 1u);  // carried from main1, skipping `other`
  Groups g = FindGroups(main2.screen);
  EXPECT_EQ(h[2].In(main2.screen, g), std::vector<int>{testing::Find(main2.screen, "Cleaning")});

  // The view must still be there: a layout whose list lost Cleaning carries nothing for it.
  Layout shorter = L(W("FrameLayout", "",
                       {W("ListView", "w0",
                          {W("TextView", "name").Text("Cinema").Click(),
                           W("TextView", "name").Text("Sleeping").Click()})}),
                     "app.Main");
  ActiveViews carried = UpdateActiveViews(shorter, {&main1}, {&h[0]});
  // Nearest by edit distance stands in when the exact view is gone (w_a' ~ w_a).
  ASSERT_EQ(carried.entries.size(), 1u);
}

}  // namespace
}  // namespace roam::fuzz
