// fuzz/model: Υ by hand, pruned edges.
#include "fuzz/model.h"

#include <gtest/gtest.h>

namespace roam::fuzz {
namespace {

Event Click(const std::string& name) {
  Event e;
  e.kind = gui::ActionKind::kClick;
  e.type = "android.widget.Button|app:id/" + name;
  e.signature = e.type + "|" + name + "|";
  return e;
}

TEST(Model, WeightUpdateByHand) {
  Model m;  // Υ_1 = 100
  const uint64_t s1 = 1, s2 = 2;
  Event a = Click("a"), b = Click("b"), c = Click("c");
  EXPECT_DOUBLE_EQ(m.Weight(s1, a.Key()), 100);
  EXPECT_EQ(m.ExecTimes(s1, a.Key()), 1);
  // b and c run on s2 first: each (100 + 0) / 2^2 = 25 (nothing ran on s1 yet).
  m.Observe(s2, b, s1);
  m.Observe(s2, c, s1);
  EXPECT_DOUBLE_EQ(m.Weight(s2, b.Key()), 25);
  // c's update read new_events(c) = events run on s1 = {} -> 25 as well.
  EXPECT_DOUBLE_EQ(m.Weight(s2, c.Key()), 25);
  // a on s1 leads to s2, where b and c ran: (100 + 25 + 25) / 2^2 = 37.5.
  m.Observe(s1, a, s2);
  EXPECT_DOUBLE_EQ(m.Weight(s1, a.Key()), 37.5);
  EXPECT_EQ(m.ExecTimes(s1, a.Key()), 2);
  // Again: (37.5 + 25 + 25) / 3^2.
  m.Observe(s1, a, s2);
  EXPECT_DOUBLE_EQ(m.Weight(s1, a.Key()), 87.5 / 9);
}

TEST(Model, SelfLoopsGetNoCreditFromTheirOwnState) {
  Model m;
  Event a = Click("a"), b = Click("b");
  m.Observe(1, b, 2);
  m.Observe(1, a, 1);  // stays: new_events empty -> 100 / 4
  EXPECT_DOUBLE_EQ(m.Weight(1, a.Key()), 25);
}

TEST(Model, PrunedOutKeepsOneEdgePerTargetState) {
  Model m;
  Event a = Click("a"), b = Click("b"), c = Click("c");
  m.Observe(1, a, 2);
  m.Observe(1, b, 2);
  m.Observe(1, b, 2);
  m.Observe(1, c, 3);
  EXPECT_EQ(m.Out(1).size(), 3u);
  auto pruned = m.PrunedOut(1);
  ASSERT_EQ(pruned.size(), 2u);
  EXPECT_EQ(pruned[0]->type_key, b.TypeKey());  // the most observed edge to state 2
  EXPECT_EQ(pruned[1]->to, 3u);
}

TEST(Model, OutcomesAreTheStatesAnEventTypeLedToFromAState) {
  Model m;
  Event a = Click("a"), b = Click("b");
  m.Observe(1, a, 2);
  m.Observe(1, a, 3);
  m.Observe(1, a, 2);
  m.Observe(1, b, 1);
  m.Observe(4, a, 5);
  EXPECT_EQ(m.Outcomes(1, a.TypeKey()), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(m.Outcomes(1, b.TypeKey()), (std::vector<uint64_t>{1}));
  EXPECT_TRUE(m.Outcomes(2, a.TypeKey()).empty());
}

}  // namespace
}  // namespace roam::fuzz
