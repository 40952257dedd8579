#include "model/lookahead.h"

#include <gtest/gtest.h>

namespace roam::model {
namespace {

gui::HyperEvent Click(const std::string& activity, const std::string& text) {
  return {.activity = activity, .text = text, .kind = gui::ActionKind::kClick};
}

// A1 --next--> A2 --next--> A3, where A3 offers an event never executed; A1 and A2 also have a
// "stay" event back to themselves. Every activity is visited: E(e) is 0 for every event.
TEST(Lookahead, ValuesTheWayTowardsUnexpandedEventsAndNotTheLoops) {
  Model m("org.app");
  auto a1 = m.InternActivity("A1"), a2 = m.InternActivity("A2"), a3 = m.InternActivity("A3");
  EventId next1 = m.Intern(Click("A1", "next")), stay1 = m.Intern(Click("A1", "stay"));
  EventId next2 = m.Intern(Click("A2", "next")), stay2 = m.Intern(Click("A2", "stay"));
  EventId fresh = m.Intern(Click("A3", "fresh"));
  m.RecordTransition(next1, a2);
  m.RecordTransition(stay1, a1);
  m.RecordTransition(next2, a3);
  m.RecordTransition(stay2, a2);
  for (auto a : {a1, a2, a3}) m.VisitActivity(a);
  for (EventId e : {next1, stay1, next2, stay2}) EXPECT_EQ(m.Expectation(e), 0);

  const double gamma = 0.8;
  Lookahead look;
  look.Update(m, 1, gamma, a1);  // one step: only the event into A3 sees the frontier
  EXPECT_DOUBLE_EQ(look.Expectation(m, next2), 1.0);
  EXPECT_DOUBLE_EQ(look.Expectation(m, next1), 0.0);

  look.Update(m, 3, gamma, a1);
  EXPECT_DOUBLE_EQ(look.Expectation(m, next2), 1.0);
  EXPECT_DOUBLE_EQ(look.Expectation(m, next1), gamma * 1.0);  // A2's best is next2
  EXPECT_DOUBLE_EQ(look.Expectation(m, stay1), 0.0);          // back to A1, where the test is
  EXPECT_DOUBLE_EQ(look.Expectation(m, stay2), gamma * 1.0);  // A2 still leads on
  EXPECT_EQ(look.Expectation(m, fresh), 0.0);                 // never executed: P(e, A) unknown

  // Once the frontier is expanded (and led nowhere new), nothing is left to look for.
  m.RecordTransition(fresh, a3);
  look.Update(m, 3, gamma, a1);
  for (EventId e : {next1, stay1, next2, stay2, fresh}) EXPECT_EQ(look.Expectation(m, e), 0.0);
}

TEST(Lookahead, AnUnvisitedActivityCountsAndLeavingTheAppDilutes) {
  Model m("org.app");
  auto a1 = m.InternActivity("A1"), a2 = m.InternActivity("A2");
  EventId e = m.Intern(Click("A1", "go"));
  m.RecordTransition(e, a2);
  m.RecordTransition(e, std::nullopt);  // once it left the app
  m.VisitActivity(a1);
  Lookahead look;
  look.Update(m, 2, 0.8, a1);
  EXPECT_DOUBLE_EQ(look.Expectation(m, e), 0.5);  // P(e, A2) = 1/2, A2 not visited
  EXPECT_EQ(look.Expectation(m, e + 1), 0.0);     // an event the last update did not see
  // A count that changes nothing of the model's shape keeps the values; a first visit does not.
  const uint64_t version = m.version();
  m.RecordTransition(e, a2);
  EXPECT_EQ(m.version(), version);
  m.VisitActivity(a2);
  EXPECT_NE(m.version(), version);
  look.Update(m, 2, 0.8, a1);
  EXPECT_EQ(look.Expectation(m, e), 0.0);  // A2 is visited now
}

}  // namespace
}  // namespace roam::model
