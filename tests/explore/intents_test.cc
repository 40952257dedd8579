#include "explore/intents.h"

#include <gtest/gtest.h>

#include "explore/fastbot.h"
#include "explore/random.h"
#include "gui/intent.h"

namespace roam::explore {
namespace {

gui::Screen ScreenOf(const std::string& activity) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = activity;
  s.widgets.resize(2);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  s.widgets[1].parent = 0;
  s.widgets[1].bounds = {0, 200, 1080, 350};
  s.widgets[1].clickable = true;
  s.Link();
  return s;
}

IntentOffer Offer(const gui::Intent& intent, const std::string& activity) {
  return {gui::MakeGlobalAction(gui::ActionKind::kIntent, intent.ToText()), activity};
}

const std::vector<IntentOffer>& Offers() {
  static const std::vector<IntentOffer> offers = {
      Offer({.component = "org.app.Main"}, "org.app.Main"),
      Offer({.component = "org.app.Detail", .extras = {{"id", gui::ExtraType::kInt, "3"}}},
            "org.app.Detail"),
      Offer({.component = "org.app.Detail"}, "org.app.Detail"),
  };
  return offers;
}

TEST(IntentChooser, WithoutIntentsItPicksNothingAndDrawsNothing) {
  IntentChooser chooser;
  gui::Screen screen = ScreenOf("org.app.Main");
  std::vector<gui::Action> actions;
  StepView view{screen, 1, actions, 500};
  chooser.Saw(view);
  Rng rng(7), untouched(7);
  EXPECT_FALSE(chooser.Pick(view, rng));
  EXPECT_FALSE(chooser.Stalled(view));
  EXPECT_EQ(rng.Next(), untouched.Next());
}

TEST(IntentChooser, UnseenActivitiesFirstThenUnsentThenAny) {
  IntentChooser chooser;
  gui::Screen screen = ScreenOf("org.app.Main");
  std::vector<gui::Action> actions;
  StepView view{screen, 1, actions, 0, {}, Offers()};
  chooser.Saw(view);
  Rng rng(1);
  std::vector<std::string> picked;
  for (int i = 0; i < 3; ++i) picked.push_back(chooser.Pick(view, rng)->text);
  // The two intents to Detail (not seen) first, in either order; then Main's, never sent.
  EXPECT_NE(picked[0], Offers()[0].action.text);
  EXPECT_NE(picked[1], Offers()[0].action.text);
  EXPECT_NE(picked[0], picked[1]);
  EXPECT_EQ(picked[2], Offers()[0].action.text);
}

TEST(IntentChooser, StallsAfterItsStepsWithoutANewActivity) {
  IntentChooser chooser({.stall_steps = 10});
  gui::Screen main = ScreenOf("org.app.Main"), detail = ScreenOf("org.app.Detail");
  std::vector<gui::Action> actions;
  auto at = [&](const gui::Screen& s, int64_t step) {
    return StepView{s, 1, actions, step, {}, Offers()};
  };
  chooser.Saw(at(main, 0));
  EXPECT_FALSE(chooser.Stalled(at(main, 9)));
  EXPECT_TRUE(chooser.Stalled(at(main, 10)));
  chooser.Saw(at(detail, 10));  // a new activity: the count starts again
  EXPECT_FALSE(chooser.Stalled(at(detail, 15)));
  EXPECT_TRUE(chooser.Stalled(at(detail, 20)));
  Rng rng(2);
  ASSERT_TRUE(chooser.Pick(at(detail, 20), rng));  // so does a pick
  EXPECT_FALSE(chooser.Stalled(at(detail, 29)));
  IntentChooser never({.stall_steps = 0});
  EXPECT_FALSE(never.Stalled(at(main, 1000)));
}

TEST(IntentChooser, RandomDrawsIntentsByItsPercentage) {
  RandomOptions o;
  o.pct_click = 1, o.pct_intent = 1;
  o.pct_long_click = o.pct_input = o.pct_scroll = o.pct_swipe = o.pct_back = o.pct_menu = 0;
  o.pct_rotate = o.pct_restart = o.pct_syskeys = 0;
  RandomStrategy random(o);
  gui::Screen screen = ScreenOf("org.app.Main");
  std::vector<gui::Action> actions = {gui::MakeWidgetAction(gui::ActionKind::kClick, screen, 1)};
  Rng rng(3);
  int intents = 0;
  for (int i = 0; i < 400; ++i)
    intents +=
        random.Next({screen, 1, actions, i, {}, Offers()}, rng).kind == gui::ActionKind::kIntent;
  EXPECT_GT(intents, 150);
  EXPECT_LT(intents, 250);
  for (int i = 0; i < 100; ++i)  // an app without intents: none
    EXPECT_EQ(random.Next({screen, 1, actions, i}, rng).kind, gui::ActionKind::kClick);
}

TEST(IntentChooser, FastbotSendsOneWhenExploringStalls) {
  FastbotOptions o;
  o.intents.stall_steps = 20;
  o.stuck_steps = 0;  // no forced back on the one screen
  auto made = FastbotStrategy::Make(FastbotMode::kCombined, o, "org.app");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  Strategy& fastbot = **made;
  gui::Screen screen = ScreenOf("org.app.Main");
  std::vector<gui::Action> actions = {gui::MakeWidgetAction(gui::ActionKind::kClick, screen, 1)};
  Rng rng(4);
  int64_t first_intent = -1;
  for (int64_t i = 0; i < 60 && first_intent < 0; ++i) {
    gui::Action a = fastbot.Next({screen, 1, actions, i, {}, Offers()}, rng);
    if (a.kind == gui::ActionKind::kIntent) first_intent = i;
  }
  EXPECT_EQ(first_intent, 20);
}

}  // namespace
}  // namespace roam::explore
