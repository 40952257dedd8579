#include "model/run_graph.h"

#include <set>

#include <gtest/gtest.h>

namespace roam::model {
namespace {

// States 1 -> 2 -> 3 and 1 -> 4 -> 3; state 3 offers event 30, not tried yet.
TEST(RunGraph, RoutesAlongTheShortestKnownWayToAPageWithSomethingLeft) {
  RunGraph g;
  std::set<EventId> tried = {10, 11, 20, 40, 41};
  auto wanted = [&](EventId e) { return !tried.contains(e); };
  g.SetPage(1, std::vector<EventId>{10, 11});
  g.SetPage(2, std::vector<EventId>{20});
  g.SetPage(4, std::vector<EventId>{40, 41});
  g.SetPage(3, std::vector<EventId>{30});
  g.Record(1, 10, 2);
  g.Record(2, 20, 4);  // 2 leads on to 4, not to 3
  g.Record(1, 11, 4);
  g.Record(4, 40, 1);
  g.Record(4, 41, 3);
  EXPECT_EQ(g.Route(1, wanted), EventId{11});  // 1 -11-> 4 -41-> 3 (1 -10-> 2 is a step longer)
  EXPECT_EQ(g.Route(2, wanted), EventId{20});
  EXPECT_EQ(g.Route(4, wanted), EventId{41});
  EXPECT_EQ(g.Route(3, wanted), std::nullopt);   // here already
  EXPECT_EQ(g.Route(99, wanted), std::nullopt);  // never seen

  // The last outcome counts: 41 now leads back to 1, so 3 is out of reach.
  g.Record(4, 41, 1);
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);
  // And once 30 is tried, nothing is wanted anywhere.
  g.Record(4, 41, 3);
  tried.insert(30);
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);
}

TEST(RunGraph, TheFirstStepIsAnEventThePageOffersNow) {
  RunGraph g;
  auto wanted = [](EventId e) { return e == 30; };
  g.SetPage(1, std::vector<EventId>{10, 11});
  g.SetPage(2, std::vector<EventId>{30});
  g.Record(1, 10, 2);
  EXPECT_EQ(g.Route(1, wanted), EventId{10});
  g.SetPage(1, std::vector<EventId>{11});  // the button of event 10 is gone from state 1
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);
}

// Once every page is spent a call asks no page again, but a page that changes is asked anew.
TEST(RunGraph, APageFoundSpentIsAskedAgainWhenItChanges) {
  RunGraph g;
  std::set<EventId> tried = {10, 20};
  auto wanted = [&](EventId e) { return !tried.contains(e); };
  g.SetPage(1, std::vector<EventId>{10});
  g.SetPage(2, std::vector<EventId>{20});
  g.Record(1, 10, 2);
  g.Record(2, 20, 1);
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);  // nothing left anywhere
  g.SetPage(2, std::vector<EventId>{20});       // the same page again: still spent
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);
  g.SetPage(2, std::vector<EventId>{20, 21});  // a new button on state 2
  EXPECT_EQ(g.Route(1, wanted), EventId{10});
  // A state first met as an outcome is routed to once its page is known.
  tried.insert(21);
  g.Record(2, 20, 3);
  EXPECT_EQ(g.Route(1, wanted), std::nullopt);
  g.SetPage(3, std::vector<EventId>{30});
  EXPECT_EQ(g.Route(1, wanted), EventId{10});  // 1 -10-> 2 -20-> 3
}

}  // namespace
}  // namespace roam::model
