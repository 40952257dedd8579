// Time travel's decisions against hand-computed cases: fitness, selectFittestState over walks
// of length k, the dead-end counter and the loop window, and the requests the controller makes.
#include "explore/timetravel.h"

#include <cmath>

#include <gtest/gtest.h>

#include "explore/registry.h"

namespace roam::explore {
namespace {

StateGraph::Node NodeWith(uint64_t visits, uint64_t children, bool interesting) {
  StateGraph::Node n;
  n.visits = visits;
  n.interesting_children = children;
  n.interesting = interesting;
  return n;
}

TEST(TimeTravelFitness, MatchesTheFormula) {
  FitnessParams p;  // r = p = 0.1, f0 ratio 6
  // 6 * 1.1^2 * 0.9^(5-2)
  EXPECT_NEAR(Fitness(NodeWith(5, 2, true), p), 6 * 1.21 * 0.729, 1e-12);
  // 1 * 0.9^3
  EXPECT_NEAR(Fitness(NodeWith(3, 0, false), p), 0.729, 1e-12);
  // More interesting children than visits: the penalty exponent stays at 0.
  EXPECT_NEAR(Fitness(NodeWith(1, 3, false), p), 1.331, 1e-12);
  EXPECT_NEAR(Fitness(NodeWith(0, 0, false), p), 1.0, 1e-12);
}

// A -> B, A -> C, B -> D; f(A) = 0.9, f(B) = 6 * 0.81 = 4.86, f(C) = 0.9, f(D) = 1.
StateGraph Diamond() {
  StateGraph g;
  gui::Action a;
  g.AddEdge(1, 2, a);
  g.AddEdge(1, 3, a);
  g.AddEdge(2, 4, a);
  g.AddEdge(2, 4, a);  // a second edge between the same states is not added
  g.AddEdge(3, 3, a);  // nor a self-loop
  g.At(1).visits = 1;
  g.At(2).visits = 2;
  g.At(2).interesting = true;
  g.At(3).visits = 1;
  return g;
}

TEST(TimeTravelSelect, MeanFitnessOverWalksOfLengthK) {
  StateGraph g = Diamond();
  EXPECT_EQ(g.At(2).out.size(), 1u);
  EXPECT_TRUE(g.At(3).out.empty());
  FitnessParams p;
  auto mean = NeighbourhoodFitness(g, 2, p);
  // From A: walks A-B-D and A-C (C has no successors): (0.9+4.86+1 + 0.9+0.9) / 5 nodes.
  EXPECT_NEAR(mean[g.IndexOf(1)], 8.56 / 5, 1e-9);
  // From B: B-D: (4.86 + 1) / 2.
  EXPECT_NEAR(mean[g.IndexOf(2)], 5.86 / 2, 1e-9);
  EXPECT_NEAR(mean[g.IndexOf(3)], 0.9, 1e-9);
  // k = 0: the state's own fitness.
  auto own = NeighbourhoodFitness(g, 0, p);
  EXPECT_NEAR(own[g.IndexOf(2)], 4.86, 1e-9);
  EXPECT_EQ(SelectFittestState({1, 2, 3}, g, 2, p), std::optional<uint64_t>(2));
  EXPECT_EQ(SelectFittestState({1, 3}, g, 2, p), std::optional<uint64_t>(1));
  EXPECT_EQ(SelectFittestState({}, g, 2, p), std::nullopt);
}

TEST(TimeTravelSelect, WalksMayRevisitAState) {
  StateGraph g;
  gui::Action a;
  g.AddEdge(1, 2, a);
  g.AddEdge(2, 1, a);
  g.At(1).visits = 2;          // 0.81
  g.At(2).interesting = true;  // 6
  // From 1 with k = 3: the single walk 1-2-1-2.
  auto mean = NeighbourhoodFitness(g, 3, FitnessParams{});
  EXPECT_NEAR(mean[g.IndexOf(1)], (0.81 + 6 + 0.81 + 6) / 4, 1e-9);
}

TEST(TimeTravelSelect, DenseGraphsDoNotExplode) {
  // 300 states all linked to each other: 299^3 (about 27 million) walks of length 3 from each.
  StateGraph g;
  gui::Action a;
  for (uint64_t i = 0; i < 300; ++i)
    for (uint64_t j = 0; j < 300; ++j) g.AddEdge(i, j, a);
  g.At(7).interesting = true;
  // (Its speed is measured in bench/timetravel_bench.cc.)
  EXPECT_EQ(SelectFittestState({3, 7, 11}, g, 3, FitnessParams{}), std::optional<uint64_t>(7));
  // Every node but 7 has fitness 1 (7 has 6). Over all walks 3-x-y-z, 7 is x with share
  // 1/299, y with share (1 - 1/299)/299 (y follows x != 7) and z with share (1 - share_y)/299.
  double x = 1.0 / 299, y = (1 - x) / 299, z = (1 - y) / 299;
  auto mean = NeighbourhoodFitness(g, 3, FitnessParams{});
  EXPECT_NEAR(mean[g.IndexOf(3)], 1 + 5.0 * (x + y + z) / 4, 1e-9);
}

TEST(TimeTravelStuck, DeadEndAfterMaxNoProgressEvents) {
  StateGraph g;
  g.At(1).visits = 1;
  StuckDetector d(10, 0.2, 0.8, 200);
  EXPECT_FALSE(d.Update(1, g));  // entered
  for (int i = 1; i < 200; ++i) ASSERT_FALSE(d.Update(1, g)) << i;
  EXPECT_EQ(d.no_progress(), 199);
  EXPECT_TRUE(d.Update(1, g));  // the 200th event without leaving
  // Leaving resets the counter.
  g.At(2).visits = 1;
  EXPECT_FALSE(d.Update(2, g));
  EXPECT_EQ(d.no_progress(), 0);
  d.Reset();
  EXPECT_TRUE(d.window().empty());
}

TEST(TimeTravelStuck, LoopWindowCountsRepeatedAndFrequentStates) {
  // Ten states; top ceil(0.2 * 10) = 2 most visited: 1 (50 visits) and 2 (40).
  StateGraph g;
  for (uint64_t s = 1; s <= 10; ++s) g.At(s).visits = 3;
  g.At(1).visits = 50;
  g.At(2).visits = 40;
  StuckDetector d(10, 0.2, 0.8, 200);
  using Q = std::deque<uint64_t>;
  // The share is over distinct states: easy (frequent or repeated) / distinct.
  // All distinct, two of them frequent: 2/10.
  EXPECT_FALSE(d.IsLoop(Q{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, g));
  // 1 and 2 alternate three times, then four fresh states: {1, 2} of 6 distinct.
  EXPECT_FALSE(d.IsLoop(Q{1, 2, 1, 2, 1, 2, 7, 8, 9, 10}, g));
  // Only 1 and 2: 2/2.
  EXPECT_TRUE(d.IsLoop(Q{1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, g));
  // A cycle of four rare states and one fresh one: {1, 2, 3, 4} of 5 = 0.8, the threshold.
  EXPECT_TRUE(d.IsLoop(Q{1, 2, 3, 4, 1, 2, 3, 4, 1, 5}, g));
  // Three repeated of four: 0.75 < 0.8.
  EXPECT_FALSE(d.IsLoop(Q{1, 2, 3, 1, 2, 3, 4, 1, 2, 3}, g));
  // Repeats of rarely visited states count too.
  EXPECT_TRUE(d.IsLoop(Q{3, 4, 5, 6, 3, 4, 5, 6, 3, 4}, g));
  // A frequent state that also repeats is counted once: {1} of 6 distinct.
  EXPECT_FALSE(d.IsLoop(Q{1, 5, 1, 6, 1, 7, 1, 8, 1, 9}, g));
  // With alpha = 0.5 the top five (1, 2 and three of the ties at 3 visits) are frequent: the
  // ties at the threshold are all in, so every entry is easy.
  StuckDetector wide(10, 0.5, 0.8, 200);
  EXPECT_TRUE(wide.IsLoop(Q{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, g));
}

TEST(TimeTravelStuck, UpdatePushesOnlyStateChangesAndWaitsForAFullWindow) {
  StateGraph g;
  for (uint64_t s = 1; s <= 10; ++s) g.At(s).visits = s;  // frequent: 10 and 9
  StuckDetector d(4, 0.2, 0.75, 200);
  EXPECT_FALSE(d.Update(1, g));
  EXPECT_FALSE(d.Update(1, g));  // no push
  EXPECT_FALSE(d.Update(2, g));
  EXPECT_FALSE(d.Update(1, g));
  EXPECT_EQ(d.window().size(), 3u);
  // Window 1,2,1,2: every entry repeated -> loop.
  EXPECT_TRUE(d.Update(2, g));
  EXPECT_EQ(d.window(), (std::deque<uint64_t>{1, 2, 1, 2}));
  EXPECT_FALSE(d.Update(3, g));  // 2,1,2,3: only 2 of {1, 2, 3} is easy, 1/3 < 0.75
}

// A base strategy that records what it is asked.
class FakeBase final : public Strategy {
 public:
  std::string_view Name() const override { return "fake"; }
  gui::Action Next(const StepView&, Rng&) override {
    ++nexts;
    return gui::MakeGlobalAction(gui::ActionKind::kBack);
  }
  void Learn(const Transition&) override { ++learns; }
  int nexts = 0, learns = 0;
};

struct Harness {
  explicit Harness(TimeTravelOptions o) {
    auto base = std::make_unique<FakeBase>();
    fake = base.get();
    tt = std::make_unique<TimeTravelStrategy>(std::move(base), std::move(o));
  }
  std::optional<Request> Ask(uint64_t state) {
    StepView view{screen, state, actions, 0};
    return tt->TakeRequest(view);
  }
  void Move(uint64_t from, uint64_t to, size_t new_units, bool new_activity = false) {
    Transition t{.from = from,
                 .to = to,
                 .action = action,
                 .new_state = false,
                 .new_activity = new_activity,
                 .new_units = new_units};
    tt->Learn(t);
  }
  gui::Screen screen;
  std::vector<gui::Action> actions;
  gui::Action action = gui::MakeGlobalAction(gui::ActionKind::kBack);
  FakeBase* fake = nullptr;
  std::unique_ptr<TimeTravelStrategy> tt;
};

TEST(TimeTravelStrategy, SnapshotsInterestingStatesAndRestoresTheFittestWhenStuck) {
  TimeTravelOptions o;
  o.interesting = "coverage";
  o.max_no_progress = 5;
  Harness h(o);
  EXPECT_EQ(h.tt->Name(), "timetravel:fake");
  // The start state is snapshot first.
  auto r = h.Ask(100);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, Request::Kind::kSnapshot);
  EXPECT_EQ(r->state, 100u);
  h.tt->Done(*r, true);
  EXPECT_FALSE(h.Ask(100));
  // A new state with new code: interesting.
  h.Move(100, 200, 3);
  r = h.Ask(200);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, Request::Kind::kSnapshot);
  EXPECT_NE(r->name, "tt1");
  h.tt->Done(*r, true);
  EXPECT_EQ(h.tt->graph().Find(100)->interesting_children, 1u);
  EXPECT_FALSE(h.Ask(200));
  // A new state without new code: not interesting (coverage rule).
  h.Move(200, 300, 0);
  EXPECT_FALSE(h.Ask(300));
  // A known state with new code: not a first visit.
  h.Move(300, 200, 4);
  EXPECT_FALSE(h.Ask(200));
  EXPECT_EQ(h.tt->snapshots().size(), 2u);
  EXPECT_EQ(h.fake->learns, 3);
  // Five events without leaving 300: a dead end, restore the fitter snapshot.
  h.Move(200, 300, 0);
  EXPECT_FALSE(h.Ask(300));
  for (int i = 0; i < 4; ++i) {
    h.Move(300, 300, 0);
    EXPECT_FALSE(h.Ask(300));
  }
  h.Move(300, 300, 0);
  r = h.Ask(300);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, Request::Kind::kRestore);
  // 100 (interesting, 1 visit, 1 child: 6 * 1.1, walks 100-200-300-200) against 200
  // (interesting, 2 visits: 6 * 0.81, walks 200-300-200-300): 100 is fitter.
  EXPECT_EQ(r->state, 100u);
  // The restore fails: that snapshot is dropped and the next stuck check picks the other.
  h.tt->Done(*r, false);
  EXPECT_EQ(h.tt->snapshots().size(), 1u);
  h.Move(300, 300, 0);
  r = h.Ask(300);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, Request::Kind::kRestore);
  EXPECT_EQ(r->state, 200u);
  uint64_t visits = h.tt->graph().Find(200)->visits;
  h.tt->Done(*r, true);
  EXPECT_EQ(h.tt->graph().Find(200)->visits, visits + 1);
  EXPECT_FALSE(h.Ask(200));
}

TEST(TimeTravelStrategy, GuiRuleUsesNewActivitiesAndHyperEvents) {
  TimeTravelOptions o;
  o.interesting = "gui";
  Harness h(o);
  EXPECT_TRUE(h.tt->gui_rule());
  auto r = h.Ask(1);
  h.tt->Done(*r, true);
  // New state, new activity, no coverage at all: interesting.
  h.Move(1, 2, 0, /*new_activity=*/true);
  r = h.Ask(2);
  ASSERT_TRUE(r);
  h.tt->Done(*r, true);
  // New state, same activity, no actions: nothing new offered.
  h.Move(2, 3, 0);
  EXPECT_FALSE(h.Ask(3));
  // New state offering an action never offered: interesting.
  h.screen.activity = "org.app.Main";
  h.actions = {gui::MakeGlobalAction(gui::ActionKind::kMenu)};
  h.Move(3, 4, 0);
  r = h.Ask(4);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, Request::Kind::kSnapshot);
  h.tt->Done(*r, true);
  // The same hyper-event again on a further new state: not interesting.
  h.Move(4, 5, 0);
  EXPECT_FALSE(h.Ask(5));
}

TEST(TimeTravelStrategy, TheLeastFitSnapshotIsReplacedAtTheCap) {
  TimeTravelOptions o;
  o.interesting = "coverage";
  o.max_snapshots = 2;
  Harness h(o);
  auto r = h.Ask(1);
  h.tt->Done(*r, true);
  h.Move(1, 2, 1);
  r = h.Ask(2);
  h.tt->Done(*r, true);
  // State 1 is visited often (1 -> 9 -> 1 ten times; steps that stay in 1 are no visits): its
  // fitness (6 * 1.1^2 * 0.9^10 once 3 is found from it) drops below 2's (6 * 0.9).
  h.Move(2, 1, 0);
  (void)h.Ask(1);
  h.Move(1, 1, 0);
  h.Move(1, 1, 0);
  EXPECT_EQ(h.tt->graph().Find(1)->visits, 2u);
  for (int i = 0; i < 10; ++i) {
    h.Move(1, 9, 0);
    (void)h.Ask(9);  // the loop detector may ask for restores: left unanswered here
    h.Move(9, 1, 0);
    (void)h.Ask(1);
  }
  EXPECT_EQ(h.tt->graph().Find(1)->visits, 12u);
  std::string name_of_1;
  for (const auto& [name, state] : h.tt->snapshots())
    if (state == 1) name_of_1 = name;
  h.Move(1, 3, 1);
  r = h.Ask(3);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, name_of_1);  // 1 is evicted, its name reused
  h.tt->Done(*r, true);
  EXPECT_EQ(h.tt->snapshots().size(), 2u);
  EXPECT_EQ(h.tt->snapshots().at(name_of_1), 3u);
}

TEST(TimeTravelRegistry, WrapsAnyStrategyByName) {
  StrategySettings settings;
  auto s = MakeStrategy("timetravel:random", settings, {});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ((*s)->Name(), "timetravel:random");
  EXPECT_TRUE(IsKnownStrategy("timetravel:random"));
  EXPECT_TRUE(IsKnownStrategy("timetravel:oracle"));
  EXPECT_FALSE(IsKnownStrategy("timetravel:nope"));
  auto bad = MakeStrategy("timetravel:rnadom", settings, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("did you mean \"random\""), std::string::npos);
  EXPECT_FALSE(MakeStrategy("timetravel:timetravel:random", settings, {}).ok());
  settings.timetravel.beta = 0;
  auto invalid = MakeStrategy("timetravel:random", settings, {});
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(invalid.status().message().find("beta"), std::string::npos);
  EXPECT_NE(StrategyHelp().find("timetravel:<base>"), std::string::npos);
  EXPECT_EQ(ResolveInterestRule("auto", true), "coverage");
  EXPECT_EQ(ResolveInterestRule("auto", false), "gui");
  EXPECT_EQ(ResolveInterestRule("gui", true), "gui");
}

}  // namespace
}  // namespace roam::explore
