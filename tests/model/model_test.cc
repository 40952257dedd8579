#include "model/model.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gui/actions.h"
#include "model/events.h"
#include "model/learning.h"

namespace roam::model {
namespace {

using gui::ActionKind;

gui::HyperEvent Click(const std::string& activity, const std::string& id,
                      const std::string& text = "") {
  return {.activity = activity, .resource_id = id, .text = text, .kind = ActionKind::kClick};
}

TEST(FastbotModel, CountsAndProbabilities) {
  Model m("org.app");
  EventId e = m.Intern(Click("A1", "id/open"));
  EXPECT_EQ(m.Intern(Click("A1", "id/open")), e);  // interned once
  ActivityId a2 = m.InternActivity("A2"), a3 = m.InternActivity("A3");
  EXPECT_FALSE(m.Known(e));
  m.RecordTransition(e, a2);
  m.RecordTransition(e, a2);
  m.RecordTransition(e, a3);
  m.RecordTransition(e, std::nullopt);  // left the app
  EXPECT_TRUE(m.Known(e));
  EXPECT_EQ(m.Count(e), 4u);
  EXPECT_EQ(m.Count(e, a2), 2u);
  EXPECT_EQ(m.Count(e, a3), 1u);
  EXPECT_DOUBLE_EQ(m.P(e, a2), 0.5);
  EXPECT_DOUBLE_EQ(m.P(e, a3), 0.25);
  EXPECT_EQ(m.transition_count(), 2u);
}

TEST(FastbotModel, ExpectationCountsOnlyActivitiesNotVisitedInThisRun) {
  Model m;
  EventId e = m.Intern(Click("A1", "id/open"));
  ActivityId a2 = m.InternActivity("A2"), a3 = m.InternActivity("A3");
  m.RecordTransition(e, a2);
  m.RecordTransition(e, a3);
  m.RecordTransition(e, a3);
  m.RecordTransition(e, a3);
  EXPECT_DOUBLE_EQ(m.Expectation(e), 1.0);  // neither visited: 1/4 + 3/4
  m.VisitActivity(a3);
  EXPECT_DOUBLE_EQ(m.Expectation(e), 0.25);
  EXPECT_DOUBLE_EQ(m.Expectation(e, a3), 1.0);  // a3 counted as new (its first visit)
  m.StartRun();                                 // a new run: nothing visited, M kept
  EXPECT_DOUBLE_EQ(m.Expectation(e), 1.0);
  EXPECT_EQ(m.Count(e), 4u);
}

TEST(FastbotModel, SoftmaxWeights) {
  std::vector<double> w;
  SoftmaxWeights({0.0, 0.8, 1.6}, 0.8, w);
  ASSERT_EQ(w.size(), 3u);
  double sum = w[0] + w[1] + w[2];
  // exp(v/0.8) normalised: 1, e, e^2 over their sum.
  double z = 1 + std::exp(1.0) + std::exp(2.0);
  EXPECT_NEAR(w[0] / sum, 1 / z, 1e-12);
  EXPECT_NEAR(w[1] / sum, std::exp(1.0) / z, 1e-12);
  EXPECT_NEAR(w[2] / sum, std::exp(2.0) / z, 1e-12);
  SoftmaxWeights({1000.0, 999.0}, 0.1, w);  // shifted: no overflow
  EXPECT_TRUE(std::isfinite(w[0]) && std::isfinite(w[1]));
  EXPECT_NEAR(w[1] / (w[0] + w[1]), 1 / (1 + std::exp(10.0)), 1e-12);
}

TEST(FastbotLearning, RewardMatchesTheFormula) {
  Model m;
  ActivityId a1 = m.InternActivity("A1"), a2 = m.InternActivity("A2"), a3 = m.InternActivity("A3");
  EventId et = m.Intern(Click("A1", "id/go"));
  EventId known = m.Intern(Click("A2", "id/known"));  // in M, not executed in this run
  EventId done = m.Intern(Click("A2", "id/done"));    // in M and executed in this run
  EventId fresh = m.Intern(Click("A2", "id/fresh"));  // never executed: not in M
  m.RecordTransition(known, a3);
  m.RecordTransition(known, a1);  // E(known) = 1/2 (a1 visited below)
  m.RecordTransition(done, a1);   // E(done) = 0
  m.MarkExecuted(done);
  m.VisitActivity(a1);
  // e_t executed for the 2nd time, reaching A2 for the first time in this run.
  m.RecordTransition(et, a1);
  m.RecordTransition(et, a2);
  m.VisitActivity(a2);
  std::vector<EventId> page = {known, done, fresh};
  double r = Reward(m, et, a2, /*first_visit=*/true, page);
  // E(e_t) = P(e_t, A2) = 1/2 (A2 counted as new), N(e_t) = 2; n_h = 1 (fresh), n_c = 2 (known,
  // fresh), sum E = 1/2 + 0 + 0; N(A2) = 1.
  double want = 0.5 / std::sqrt(3.0) + (1 + 0.5 * 2 + 0.5) / std::sqrt(2.0);
  EXPECT_NEAR(r, want, 1e-12);
  // A later visit: A2 no longer new, N(A2) = 2.
  m.VisitActivity(a2);
  EXPECT_NEAR(Reward(m, et, a2, false, page), 0.0 + 2.5 / std::sqrt(3.0), 1e-12);
}

TEST(FastbotLearning, NStepReturnAndSarsaUpdate) {
  std::vector<double> rewards = {1.0, 2.0, 4.0};
  // G = 1 + 0.5*2 + 0.25*4 + 0.125*Q, Q = 8.
  EXPECT_DOUBLE_EQ(NStepReturn(rewards, 0.5, 8.0), 4.0);
  Model m;
  EventId e = m.Intern(Click("A1", "id/x"));
  m.SetQ(e, 1.0);
  SarsaUpdate(m, e, 4.0, 0.5);  // 1 + 0.5 (4 - 1)
  EXPECT_DOUBLE_EQ(m.Q(e), 2.5);
}

gui::Screen ScreenWithLabel(const std::string& text) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = "org.app.Feed";
  s.widgets.resize(3);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  s.widgets[1].parent = 0;
  s.widgets[1].bounds = {0, 0, 1080, 200};
  s.widgets[1].clickable = true;
  s.widgets[1].resource_id = "org.app:id/title";
  s.widgets[1].text = text;
  s.widgets[2].parent = 0;
  s.widgets[2].bounds = {0, 200, 1080, 400};
  s.widgets[2].clickable = true;
  s.widgets[2].text = "Settings";
  s.Link();
  return s;
}

TEST(FastbotEvents, TextThatChangesBetweenVisitsCountsAsEmpty) {
  Model m;
  EventMapper mapper;
  auto first = ScreenWithLabel("Breaking: 12 news");
  mapper.BeginScreen(first);
  auto title1 = mapper.Map(m, first, gui::MakeWidgetAction(ActionKind::kClick, first, 1));
  auto settings1 = mapper.Map(m, first, gui::MakeWidgetAction(ActionKind::kClick, first, 2));
  EXPECT_EQ(m.event(title1).text, "Breaking: # news");  // digits masked
  // The same text again (digits aside): the same hyper-event.
  auto again = ScreenWithLabel("Breaking: 13 news");
  mapper.BeginScreen(again);
  EXPECT_EQ(mapper.Map(m, again, gui::MakeWidgetAction(ActionKind::kClick, again, 1)), title1);
  // Another text in the same slot: dynamic, so empty text from now on.
  auto second = ScreenWithLabel("Weather today");
  mapper.BeginScreen(second);
  auto title2 = mapper.Map(m, second, gui::MakeWidgetAction(ActionKind::kClick, second, 1));
  EXPECT_NE(title2, title1);
  EXPECT_EQ(m.event(title2).text, "");
  EXPECT_EQ(m.event(title2).resource_id, "org.app:id/title");
  mapper.BeginScreen(first);
  EXPECT_EQ(mapper.Map(m, first, gui::MakeWidgetAction(ActionKind::kClick, first, 1)), title2);
  mapper.BeginScreen(second);
  // The static button keeps its text and its id.
  EXPECT_EQ(mapper.Map(m, second, gui::MakeWidgetAction(ActionKind::kClick, second, 2)), settings1);
  EXPECT_EQ(m.event(settings1).text, "Settings");
  // The first text again, after the slot turned dynamic: still the empty-text event.
  mapper.BeginScreen(first);
  EXPECT_EQ(mapper.Map(m, first, gui::MakeWidgetAction(ActionKind::kClick, first, 1)), title2);
  EXPECT_EQ(m.DynamicSlots().size(), 1u);
}

TEST(FastbotEvents, ALimitOfTwoTextsToleratesOneChange) {
  Model m;
  m.set_dynamic_text_limit(2);
  EXPECT_FALSE(m.DynamicText(5, 100));
  EXPECT_FALSE(m.DynamicText(5, 200));  // a second text: still static
  EXPECT_FALSE(m.DynamicText(5, 100));
  EXPECT_TRUE(m.DynamicText(5, 300));  // a third: dynamic for good
  EXPECT_TRUE(m.DynamicText(5, 100));
  EXPECT_EQ(m.DynamicSlots(), std::vector<uint64_t>{5});
}

TEST(FastbotEvents, MatchesTheGuiHyperEventForStaticText) {
  Model m;
  EventMapper mapper;
  auto s = ScreenWithLabel("Top 10 songs");
  mapper.BeginScreen(s);
  for (int w : {1, 2}) {
    auto action = gui::MakeWidgetAction(ActionKind::kClick, s, w);
    EXPECT_EQ(m.key(mapper.Map(m, s, action)), gui::MakeHyperEvent(s, action).Hash());
  }
  auto back = gui::MakeGlobalAction(ActionKind::kBack);
  EXPECT_EQ(m.key(mapper.Map(m, s, back)), gui::MakeHyperEvent(s, back).Hash());
}

}  // namespace
}  // namespace roam::model
