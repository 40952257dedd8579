#include "explore/random.h"

#include <gtest/gtest.h>

#include "explore/registry.h"

namespace roam::explore {
namespace {

using gui::ActionKind;

gui::Screen TwoButtonsAndAField() {
  gui::Screen s;
  s.package = "org.app";
  s.activity = "org.app.Main";
  s.widgets.resize(4);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  for (int i = 1; i < 4; ++i) {
    s.widgets[i].parent = 0;
    s.widgets[i].bounds = {0, i * 200, 1080, i * 200 + 150};
  }
  s.Link();
  return s;
}

std::vector<gui::Action> Actions(const gui::Screen& s) {
  return {gui::MakeWidgetAction(ActionKind::kClick, s, 1),
          gui::MakeWidgetAction(ActionKind::kClick, s, 2),
          gui::MakeWidgetAction(ActionKind::kInputText, s, 3)};
}

RandomOptions OnlyClicks() {
  RandomOptions o;
  o.pct_long_click = o.pct_input = o.pct_scroll = o.pct_swipe = o.pct_back = o.pct_menu = 0;
  o.pct_rotate = o.pct_restart = o.pct_syskeys = 0;
  return o;
}

TEST(RandomStrategy, PercentagesDecideTheKinds) {
  auto screen = TwoButtonsAndAField();
  auto actions = Actions(screen);
  RandomStrategy strategy(OnlyClicks());
  Rng rng(3);
  int seen[3] = {0, 0, 0};
  for (int i = 0; i < 400; ++i) {
    auto a = strategy.Next({screen, 1, actions, i}, rng);
    ASSERT_EQ(a.kind, ActionKind::kClick);
    ++seen[a.widget];
  }
  EXPECT_GT(seen[1], 150);  // uniform over the two buttons
  EXPECT_GT(seen[2], 150);
}

TEST(RandomStrategy, KindsTheScreenDoesNotOfferAreRenormalisedAway) {
  gui::Screen empty;
  std::vector<gui::Action> none;
  RandomOptions o = OnlyClicks();
  o.pct_back = 1;  // clicks are impossible on an empty screen: only back remains
  RandomStrategy strategy(o);
  Rng rng(1);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(strategy.Next({empty, 0, none, i}, rng).kind, ActionKind::kBack);
}

TEST(RandomStrategy, TypesTextFromItsListAndIsDeterministicForASeed) {
  auto screen = TwoButtonsAndAField();
  auto actions = Actions(screen);
  RandomOptions o = OnlyClicks();
  o.pct_click = 0;
  o.pct_input = 1;
  o.strings = {"alpha", "beta"};
  RandomStrategy a(o), b(o);
  Rng ra(9), rb(9);
  for (int i = 0; i < 20; ++i) {
    auto x = a.Next({screen, 0, actions, i}, ra);
    auto y = b.Next({screen, 0, actions, i}, rb);
    ASSERT_EQ(x.kind, ActionKind::kInputText);
    EXPECT_TRUE(x.text == "alpha" || x.text == "beta");
    EXPECT_EQ(x.text, y.text);
  }
}

TEST(Registry, UnknownNameSuggestsTheClosest) {
  auto r = MakeStrategy("randon", {}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did you mean \"random\""), std::string::npos);
  EXPECT_TRUE(MakeStrategy("random", {}, {}).ok());
  EXPECT_NE(StrategyHelp().find("random"), std::string::npos);
}

}  // namespace
}  // namespace roam::explore
