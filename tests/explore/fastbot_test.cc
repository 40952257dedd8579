#include "explore/fastbot.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "explore/random.h"
#include "explore/registry.h"
#include "model/learning.h"
#include "model/model_file.h"
#include "test_paths.h"

namespace roam::explore {
namespace {

constexpr const char* kPackage = "org.app";

using gui::ActionKind;

// A screen of `activity` with `buttons` clickable widgets "BA", "BB", ... (letters: digits
// would be masked into one hyper-event)
gui::Screen Page(const std::string& activity, int buttons) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = activity;
  s.widgets.resize(buttons + 1);
  s.widgets[0].bounds = {0, 0, 1080, 1920};
  for (int i = 1; i <= buttons; ++i) {
    s.widgets[i].parent = 0;
    s.widgets[i].child_index = i - 1;
    s.widgets[i].clickable = true;
    s.widgets[i].text = fmt::format("B{}", static_cast<char>('A' + i - 1));
    s.widgets[i].bounds = {0, i * 100, 1080, i * 100 + 90};
  }
  s.Link();
  return s;
}

std::vector<gui::Action> Clicks(const gui::Screen& s) {
  std::vector<gui::Action> out;
  for (int i = 1; i < static_cast<int>(s.widgets.size()); ++i)
    out.push_back(gui::MakeWidgetAction(ActionKind::kClick, s, i));
  return out;
}

FastbotOptions OnlyBack() {
  FastbotOptions o;
  o.globals = {"back"};
  return o;
}

gui::HyperEvent Button(const std::string& activity, int i) {
  return {.activity = activity,
          .text = fmt::format("B{}", static_cast<char>('A' + i)),
          .kind = ActionKind::kClick};
}

std::string Chosen(const gui::Screen& s, const gui::Action& a) {
  return a.kind == ActionKind::kBack ? "back" : s.widgets[a.widget].text;
}

TEST(FastbotStrategy, ExpansionTriesEveryNewHyperEventOnceFirst) {
  auto made = FastbotStrategy::Make(FastbotMode::kCombined, OnlyBack(), "org.app");
  ASSERT_TRUE(made.ok());
  auto s = Page("A1", 4);
  auto actions = Clicks(s);
  Rng rng(3);
  std::set<std::string> seen;
  for (int step = 0; step < 5; ++step) {
    auto a = (*made)->Next({s, 1, actions, step}, rng);
    EXPECT_TRUE(seen.insert(Chosen(s, a)).second) << "repeated " << Chosen(s, a);
  }
  EXPECT_EQ(seen.size(), 5u);  // BA..BD and back
}

// A model where, on A1, BA led to A2 (not visited yet), BB and back to A1.
model::Model ThreeKnownEvents() {
  model::Model m("org.app");
  auto a1 = m.InternActivity("A1"), a2 = m.InternActivity("A2");
  m.RecordTransition(m.Intern(Button("A1", 0)), a2);
  m.RecordTransition(m.Intern(Button("A1", 1)), a1);
  m.RecordTransition(m.Intern(gui::HyperEvent{.activity = "A1", .kind = ActionKind::kBack}), a1);
  return m;
}

// How often each of BA, BB, back is the first choice, over `trials` fresh strategies.
std::map<std::string, double> FirstChoice(FastbotMode mode, const model::Model& m, int trials) {
  auto s = Page("A1", 2);
  auto actions = Clicks(s);
  std::map<std::string, double> freq;
  for (int t = 0; t < trials; ++t) {
    FastbotStrategy strategy(mode, OnlyBack(), m);
    Rng rng(t);
    freq[Chosen(s, strategy.Next({s, 1, actions, 0}, rng))] += 1.0 / trials;
  }
  return freq;
}

TEST(FastbotStrategy, ModelModeIsASoftmaxOverExpectedNewActivities) {
  // E(BA) = 1, E(BB) = E(back) = 0; alpha = 0.8; the prior is random's mix: the two clicks
  // share pct_click, back has pct_back.
  RandomOptions mix;
  const double click = mix.pct_click / 2, back = mix.pct_back;
  double z = click * std::exp(1 / 0.8) + click + back;
  for (FastbotMode mode : {FastbotMode::kModel, FastbotMode::kCombined}) {
    auto freq = FirstChoice(mode, ThreeKnownEvents(), 4000);
    EXPECT_NEAR(freq["BA"], click * std::exp(1 / 0.8) / z, 0.03);
    EXPECT_NEAR(freq["BB"], click / z, 0.03);
    EXPECT_NEAR(freq["back"], back / z, 0.03);
  }
}

// A model in which every event of the page `s` (its clicks and the globals of `o`) has been
// executed and led back to its activity: E = 0 for all, and nothing left to expand.
model::Model KnownPage(const FastbotOptions& o, const gui::Screen& s,
                       const std::vector<gui::Action>& actions) {
  model::Model m(kPackage);
  const auto activity = m.InternActivity(s.activity);
  FastbotStrategy probe(FastbotMode::kModel, o, m);
  Rng rng(1);
  for (int step = 0; step < 40; ++step) probe.Next({s, 1, actions, step}, rng);
  m = probe.model();
  for (model::EventId e = 0; e < m.event_count(); ++e) m.RecordTransition(e, activity);
  return m;
}

// fastbot:pm lost to random on every generated app: once no event of a page is expected to
// reach a new activity, the softmax over E(e) was uniform over the page's hyper-events, and
// the eight global ones (back, menu, rotate, restart, four swipes) outnumber a screen's
// widgets: 79% of its events were globals (random: 19%), so it kept leaving and restarting.
// Without information, once the K rule has had its turns, it now picks as random does: each
// class of event its percentage.
TEST(FastbotStrategy, ModelModeWithoutInformationPicksAsRandomWould) {
  FastbotOptions o;  // the default globals
  auto s = Page("A1", 2);
  auto actions = Clicks(s);
  model::Model m = KnownPage(o, s, actions);
  m.StartRun();
  for (model::EventId e = 0; e < m.event_count(); ++e) m.MarkExecuted(e);  // K = 1 satisfied
  int clicks = 0, restarts = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    FastbotStrategy strategy(FastbotMode::kModel, o, m);
    Rng rng(t);
    gui::Action a = strategy.Next({s, 1, actions, 0}, rng);
    clicks += a.kind == ActionKind::kClick;
    restarts += a.kind == ActionKind::kRestart;
  }
  // Random's mix on this page: click 55 against swipe 4, back 8, menu 3, rotate 1, restart 1.
  RandomOptions mix;
  double globals = mix.pct_swipe + mix.pct_back + mix.pct_menu + mix.pct_rotate + mix.pct_restart;
  EXPECT_NEAR(double(clicks) / trials, mix.pct_click / (mix.pct_click + globals), 0.03);
  EXPECT_NEAR(double(restarts) / trials, mix.pct_restart / (mix.pct_click + globals), 0.01);
}

// The K rule gives a page's own events (its widgets' and back, what Fastbot's states hold) their
// turn before Roam's other globals: each of these took a step of every activity before, which
// on a phone's hour of the uiautomator driver (1,100 steps, 40 activities) was a fifth of it.
// Then the globals have theirs, then every event is free.
TEST(FastbotStrategy, TheKRuleServesThePagesOwnEventsBeforeTheOtherGlobals) {
  FastbotOptions o;  // the default globals
  auto s = Page("A1", 3);
  auto actions = Clicks(s);
  model::Model m = KnownPage(o, s, actions);
  const size_t own = actions.size() + 1;  // three clicks and back
  const size_t all = actions.size() + o.globals.size();
  ASSERT_EQ(m.event_count(), all);  // every event known: no expansion
  m.StartRun();
  o.route = false;
  o.repeat = 0;
  FastbotStrategy strategy(FastbotMode::kModel, o, m);
  Rng rng(7);
  std::vector<ActionKind> kinds;
  for (size_t step = 0; step < all; ++step)
    kinds.push_back(strategy.Next({s, 1, actions, 0}, rng).kind);
  auto own_kind = [](ActionKind k) { return k == ActionKind::kClick || k == ActionKind::kBack; };
  for (size_t i = 0; i < kinds.size(); ++i)
    EXPECT_EQ(own_kind(kinds[i]), i < own) << "step " << i << ": " << gui::ActionKindName(kinds[i]);
  // Each global once: the page's K picks all made.
  std::set<ActionKind> globals(kinds.begin() + own, kinds.end());
  EXPECT_EQ(globals.size(), o.globals.size() - 1);
}

// Where E is 0 for every event of the page, pm looks ahead: BA leads to A2, visited in this run
// but offering an event never executed (BX), so BA weighs as if E(BA) were 1.
TEST(FastbotStrategy, ModelModeLooksAheadWhereEIsZero) {
  model::Model m = ThreeKnownEvents();
  m.Intern(Button("A2", 23));  // seen on A2, never executed
  m.VisitActivity(*m.FindActivity("A2"));
  RandomOptions mix;
  const double click = mix.pct_click / 2, back = mix.pct_back;
  double z = click * std::exp(1 / 0.8) + click + back;
  auto freq = FirstChoice(FastbotMode::kModel, m, 4000);
  EXPECT_NEAR(freq["BA"], click * std::exp(1 / 0.8) / z, 0.03);
  EXPECT_NEAR(freq["back"], back / z, 0.03);
}

TEST(FastbotStrategy, LearningModeIsASoftmaxOverQ) {
  model::Model m = ThreeKnownEvents();
  m.SetQ(0, 0.2);  // BA
  m.SetQ(1, 0.1);  // BB; back keeps 0; beta = 0.1; the prior as above
  RandomOptions mix;
  const double click = mix.pct_click / 2, back = mix.pct_back;
  double z = click * std::exp(2.0) + click * std::exp(1.0) + back;
  auto freq = FirstChoice(FastbotMode::kLearning, m, 4000);
  EXPECT_NEAR(freq["BA"], click * std::exp(2.0) / z, 0.03);
  EXPECT_NEAR(freq["BB"], click * std::exp(1.0) / z, 0.03);
  EXPECT_NEAR(freq["back"], back / z, 0.03);
}

// The notes' combination: the model decides early in a run while Q is learned (its first
// model_steps steps), Q later; with model_steps 0, Q as soon as every event of the page has been
// picked K times in this run.
TEST(FastbotStrategy, CombinedModePicksByTheModelEarlyAndByQLater) {
  for (int model_steps : {0, 40}) {
    SCOPED_TRACE(model_steps);
    model::Model m = ThreeKnownEvents();
    m.SetQ(1, 5.0);  // BB: exp(50) beats everything once Q decides
    FastbotOptions o = OnlyBack();
    o.model_steps = model_steps;
    o.stuck_steps = 0;    // one screen all along: no forced back
    o.learning_rate = 0;  // Q stays as set, so only the rule in use shows
    FastbotStrategy strategy(FastbotMode::kCombined, o, m);
    auto s = Page("A1", 2);
    auto actions = Clicks(s);
    Rng rng(1);
    std::map<std::string, int> picks;
    int step = 0;
    for (; step < 3; ++step) ++picks[Chosen(s, strategy.Next({s, 1, actions, step}, rng))];
    EXPECT_EQ(picks.size(), 3u);  // K = 1: each event once while the model decides
    if (model_steps > 0) {
      // E(BA) = 1 (A2 not visited), E(BB) = 0: the model leans on BA, whatever Q says.
      picks.clear();
      for (; step < model_steps; ++step)
        ++picks[Chosen(s, strategy.Next({s, 1, actions, step}, rng))];
      EXPECT_GT(picks["BA"], picks["BB"]);
    }
    for (int end = step + 7; step < end; ++step)
      EXPECT_EQ(Chosen(s, strategy.Next({s, 1, actions, step}, rng)), "BB");
  }
}

// Expansion tries a screen's own new events; the globals (back, rotate, restart...) come by the
// rules, not as soon as each screen is met (expand_globals: as the notes read, they do).
TEST(FastbotStrategy, ExpansionLeavesTheGlobalsToTheRulesUnlessAsked) {
  auto s = Page("A1", 4);
  auto actions = Clicks(s);
  for (bool expand_globals : {false, true}) {
    int globals = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      FastbotOptions o;  // the eight globals
      o.expand_globals = expand_globals;
      auto made = FastbotStrategy::Make(FastbotMode::kCombined, o, "org.app");
      ASSERT_TRUE(made.ok());
      Rng rng(seed);
      for (int step = 0; step < 4; ++step)
        globals += (*made)->Next({s, 1, actions, step}, rng).kind != ActionKind::kClick;
    }
    if (expand_globals) {
      EXPECT_GT(globals, 20);  // 8 of 12 new events are globals: about 2 of each run's 4 steps
    } else {
      EXPECT_EQ(globals, 0);
    }
  }
}

// A list's like rows are one hyper-event. Its prior is the mix's weight of every row it stands
// for ("widget": 20 rows weigh 20 buttons) or of one row ("event": a list weighs a button).
TEST(FastbotStrategy, APriorPerEventWeighsAListAsOneButton) {
  gui::Screen s = Page("A1", 21);
  for (int i = 2; i <= 21; ++i) s.widgets[i].text = "Row";
  s.Link();
  auto actions = Clicks(s);
  model::Model m("org.app");
  const auto a1 = m.InternActivity("A1");
  {  // Every event executed once and led back to A1: E = 0 everywhere, nothing to look ahead to.
    FastbotStrategy probe(FastbotMode::kModel, OnlyBack(), m);
    Rng rng(1);
    for (int step = 0; step < 30; ++step) probe.Next({s, 1, actions, step}, rng);
    m = probe.model();
    for (model::EventId e = 0; e < m.event_count(); ++e) m.RecordTransition(e, a1);
  }
  m.StartRun();
  for (const char* prior : {"widget", "event"}) {
    FastbotOptions o = OnlyBack();
    o.prior = prior;
    int rows = 0, button = 0;
    for (int t = 0; t < 2000; ++t) {
      FastbotStrategy strategy(FastbotMode::kModel, o, m);
      Rng rng(t);
      const std::string chosen = Chosen(s, strategy.Next({s, 1, actions, 0}, rng));
      rows += chosen == "Row";
      button += chosen == "BA";
    }
    const double ratio = static_cast<double>(rows) / std::max(button, 1);
    if (std::string(prior) == "widget") {
      EXPECT_NEAR(ratio, 20, 5) << rows << " rows, " << button << " button";
    } else {
      EXPECT_NEAR(ratio, 1, 0.25) << rows << " rows, " << button << " button";
    }
  }
}

TEST(FastbotStrategy, NStepSarsaUpdateFromTheStepLoop) {
  FastbotOptions o = OnlyBack();
  o.n_step = 1;
  o.gamma = 0.5;
  o.learning_rate = 0.5;
  FastbotStrategy strategy(FastbotMode::kCombined, o, model::Model("org.app"));
  auto a1 = Page("A1", 0), a2 = Page("A2", 0);
  std::vector<gui::Action> none;
  Rng rng(1);
  EXPECT_EQ(strategy.Next({a1, 1, none, 0}, rng).kind, ActionKind::kBack);
  strategy.Next({a2, 2, none, 1}, rng);
  // back@A1 reached A2 for the first time: E = 1, N = 1; A2's page: back@A2 new (n_h = n_c = 1),
  // N(A2) = 1. r = 1/sqrt(2) + 1.5/sqrt(2); G = r + 0.5 Q(back@A2) = r; Q = 0.5 r.
  double r = 2.5 / std::sqrt(2.0);
  EXPECT_NEAR(strategy.last_reward(), r, 1e-12);
  const auto& m = strategy.model();
  auto back1 = m.Find(gui::HyperEvent{.activity = "A1", .kind = ActionKind::kBack}.Hash());
  ASSERT_TRUE(back1);
  EXPECT_NEAR(m.Q(*back1), 0.5 * r, 1e-12);
  EXPECT_EQ(m.Count(*back1, *m.FindActivity("A2")), 1u);
}

TEST(FastbotStrategy, ANewVersionExpandsNewEventsFirstAndNeverOffersGoneOnes) {
  // The model of version 1: BA and BB on A1, and an event of an activity that is gone.
  model::Model m = ThreeKnownEvents();
  auto gone = m.Intern(Button("Gone", 0));
  m.RecordTransition(gone, m.InternActivity("A2"));
  m.SetQ(gone, 100.0);
  // Version 2's A1 has a third button, BC.
  auto s = Page("A1", 3);
  auto actions = Clicks(s);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    FastbotStrategy strategy(FastbotMode::kCombined, OnlyBack(), m);
    Rng rng(seed);
    EXPECT_EQ(Chosen(s, strategy.Next({s, 1, actions, 0}, rng)), "BC");
    for (int step = 1; step < 30; ++step) {
      auto a = strategy.Next({s, 1, actions, step}, rng);
      EXPECT_TRUE(a.kind == ActionKind::kBack || (a.widget >= 1 && a.widget <= 3));
    }
    EXPECT_EQ(strategy.model().RunCount(gone), 0u);
  }
}

// Three activities, each a page of clicks whose outcomes `Go` gives: A1's BA leads to A2 and BB
// to A3; A2's BA back to A1 (BB stays); A3's BA back to A1 (BB, BC, BD stay). Returns the
// steps a strategy took until it had tried all eight events, or `limit`.
int StepsToTryEverything(FastbotOptions options, uint64_t seed, int limit) {
  const std::map<std::string, std::vector<std::string>> go = {
      {"A1", {"A2", "A3"}}, {"A2", {"A1", "A2"}}, {"A3", {"A1", "A3", "A3", "A3"}}};
  options.globals.clear();
  FastbotStrategy strategy(FastbotMode::kCombined, options, model::Model("org.app"));
  Rng rng(seed);
  std::string here = "A1";
  std::set<std::string> tried;
  for (int step = 0; step < limit; ++step) {
    auto page = Page(here, static_cast<int>(go.at(here).size()));
    auto actions = Clicks(page);
    const uint64_t key = here[1];
    auto a = strategy.Next({page, key, actions, step}, rng);
    tried.insert(fmt::format("{}{}", here, Chosen(page, a)));
    if (tried.size() == 8) return step + 1;
    std::string next = go.at(here)[a.widget - 1];
    strategy.Learn({.from = key, .to = static_cast<uint64_t>(next[1]), .action = a});
    here = next;
  }
  return limit;
}

// Once a page has nothing left to try, the strategy walks the shortest way it knows to a page
// that has, rather than leaving it to the Q-table's softmax.
TEST(FastbotStrategy, ARunWalksToWhereEventsAreLeftToTry) {
  int worst = 0, worst_without = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    worst = std::max(worst, StepsToTryEverything({}, seed, 100));
    FastbotOptions off;
    off.route = false;
    worst_without = std::max(worst_without, StepsToTryEverything(off, seed, 100));
  }
  // Eight events and at most three steps of walking back (A3 -> A1 -> A2, A2 -> A1 -> A3).
  EXPECT_LE(worst, 12);
  EXPECT_GT(worst_without, 12);  // the Q-table alone wanders
}

// A form on F: an e-mail field, Next, which leads to D only while the field holds an '@', and
// Favorite, which does nothing. On D, Home leads back to F (its field empty again), Stay stays.
TEST(FastbotStrategy, AFormIsFilledBeforeItsButtonsArePressedAndTypedIntoOnTheWayBack) {
  auto form = [](const std::string& typed) {
    gui::Screen s = Page("F", 3);
    s.widgets[1].text = typed;
    s.widgets[1].hint = "Email";
    s.widgets[1].editable = true;
    s.widgets[1].resource_id = "org.app:id/email";
    s.widgets[2].text = "Next";
    s.widgets[3].text = "Favorite";
    s.Link();
    return s;
  };
  auto done = [] {
    gui::Screen s = Page("D", 2);
    s.widgets[1].text = "Home";
    s.widgets[2].text = "Stay";
    return s;
  };
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    FastbotOptions o;
    o.globals.clear();
    FastbotStrategy strategy(FastbotMode::kCombined, o, model::Model("org.app"));
    Rng rng(seed);
    std::string typed;
    char here = 'F';  // or 'D'
    std::set<std::string> tried;
    int step = 0;
    for (; step < 30 && tried.size() < 5; ++step) {
      gui::Screen page = here == 'F' ? form(typed) : done();
      std::vector<gui::Action> actions = Clicks(page);
      if (here == 'F') actions[0] = gui::MakeWidgetAction(ActionKind::kInputText, page, 1);
      const uint64_t key = here;  // typed text is no part of a screen key
      auto a = strategy.Next({page, key, actions, step}, rng);
      std::string label = a.kind == ActionKind::kInputText ? "type" : Chosen(page, a);
      if (step == 0) {
        EXPECT_EQ(label, "type") << "seed " << seed;
      } else if (step == 1) {
        EXPECT_EQ(label, "Next") << "seed " << seed;  // not Favorite
      }
      tried.insert(label);
      char next = here;
      if (label == "type") typed = a.text;
      if (label == "Home") {
        next = 'F';
        typed.clear();
      }
      if (label == "Next" && typed.find('@') != std::string::npos) next = 'D';
      strategy.Learn({.from = key, .to = static_cast<uint64_t>(next), .action = a});
      here = next;
    }
    // Worst: type, Next, Home, Favorite, then back to D for Stay: type and Next again.
    EXPECT_LE(step, 7) << "seed " << seed;
  }
}

TEST(FastbotStrategy, AnEmptyPageGetsBack) {
  FastbotOptions o = OnlyBack();
  o.globals.clear();
  FastbotStrategy strategy(FastbotMode::kCombined, o, model::Model("org.app"));
  auto s = Page("A1", 0);
  std::vector<gui::Action> none;
  Rng rng(1);
  EXPECT_EQ(strategy.Next({s, 1, none, 0}, rng).kind, ActionKind::kBack);
}

TEST(FastbotStrategy, InputTextGetsABuiltInString) {
  auto s = Page("A1", 1);
  s.widgets[1].editable = true;
  std::vector<gui::Action> actions = {gui::MakeWidgetAction(ActionKind::kInputText, s, 1)};
  FastbotOptions o = OnlyBack();
  o.globals.clear();
  FastbotStrategy strategy(FastbotMode::kCombined, o, model::Model("org.app"));
  Rng rng(1);
  auto a = strategy.Next({s, 1, actions, 0}, rng);
  ASSERT_EQ(a.kind, ActionKind::kInputText);
  const auto& strings = DefaultInputStrings();
  EXPECT_NE(std::find(strings.begin(), strings.end(), a.text), strings.end());
}

TEST(FastbotStrategy, ModelFolderIsLoadedAndFlushed) {
  auto dir = testing::TempDir("fastbot_model_dir");
  FastbotOptions o = OnlyBack();
  o.model_dir = dir;
  auto s = Page("A1", 3);
  auto actions = Clicks(s);
  size_t events = 0;
  {
    auto made = FastbotStrategy::Make(FastbotMode::kCombined, o, kPackage);
    ASSERT_TRUE(made.ok()) << made.status().message();
    Rng rng(1);
    for (int step = 0; step < 6; ++step) (*made)->Next({s, 1, actions, step}, rng);
    ASSERT_TRUE((*made)->Flush().ok());
    events = (*made)->model().event_count();
  }
  ASSERT_TRUE(std::filesystem::exists(ModelFile(dir)));
  auto again = FastbotStrategy::Make(FastbotMode::kCombined, o, kPackage);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->model().event_count(), events);
  for (model::EventId e = 0; e < events; ++e) EXPECT_TRUE((*again)->model().Known(e));
  // Another app's model is refused.
  auto foreign = FastbotStrategy::Make(FastbotMode::kCombined, o, "org.other");
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.status().message().find(ModelFile(dir).string()), std::string::npos);
}

TEST(FastbotStrategy, CorruptModelStopsUnlessReset) {
  auto dir = testing::TempDir("fastbot_model_corrupt");
  std::filesystem::create_directories(dir);
  { std::ofstream(ModelFile(dir), std::ios::binary) << "ROAMMODL-not-really"; }
  FastbotOptions o = OnlyBack();
  o.model_dir = dir;
  auto refused = MakeStrategy("fastbot", {.fastbot = o}, {.package = kPackage});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(ModelFile(dir).string() + ": truncated"),
            std::string::npos)
      << refused.status().message();
  std::vector<std::string> notes;
  o.model_reset = true;
  o.note = [&](const std::string& n) { notes.push_back(n); };
  auto reset = MakeStrategy("fastbot", {.fastbot = o}, {.package = kPackage});
  ASSERT_TRUE(reset.ok()) << reset.status().message();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("set aside"), std::string::npos) << notes[0];
  EXPECT_TRUE(std::filesystem::exists(dir / "model.bin.bad"));
  ASSERT_TRUE((*reset)->Flush().ok());
  EXPECT_TRUE(model::LoadModel(ModelFile(dir), "org.app").ok());
}

TEST(FastbotStrategy, RegisteredUnderThreeNames) {
  for (std::string name : {"fastbot", "fastbot:pm", "fastbot:rl"}) {
    auto s = MakeStrategy(name, {}, {.package = kPackage});
    ASSERT_TRUE(s.ok()) << name;
    EXPECT_EQ((*s)->Name(), name);
  }
}

// Strategies of several devices on one model (run/explore/fleet.h): many threads stepping at once
// lose no update. Each of 8 strategies takes 2,000 steps over two screens; every step marks its
// event executed once, and every step but a strategy's first records the transition before it.
TEST(FastbotStrategy, StrategiesSharingOneModelLoseNoUpdateUnderContention) {
  constexpr int kThreads = 8, kSteps = 2000;
  FastbotOptions options = OnlyBack();
  options.shared = std::make_shared<model::SharedModel>();
  std::vector<std::unique_ptr<FastbotStrategy>> strategies;
  for (int t = 0; t < kThreads; ++t) {
    auto made = FastbotStrategy::Make(FastbotMode::kCombined, options, "org.app");
    ASSERT_TRUE(made.ok()) << made.status().message();
    strategies.push_back(std::move(*made));
  }
  const gui::Screen screens[2] = {Page("A1", 6), Page("A2", 4)};
  const std::vector<gui::Action> actions[2] = {Clicks(screens[0]), Clicks(screens[1])};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Rng rng(t);
      int here = t % 2;
      for (int step = 0; step < kSteps; ++step) {
        gui::Action a =
            strategies[t]->Next({screens[here], uint64_t(here), actions[here], step}, rng);
        const int next = a.kind == ActionKind::kBack ? 0 : 1 - here;
        strategies[t]->Learn({.from = uint64_t(here), .to = uint64_t(next), .action = a});
        here = next;
      }
    });
  for (auto& t : threads) t.join();
  const model::Model& m = options.shared->model;
  uint64_t executed = 0, recorded = 0, by_activity = 0;
  for (model::EventId e = 0; e < m.event_count(); ++e) {
    executed += m.RunCount(e);
    recorded += m.Count(e);
    for (const auto& [activity, n] : m.Transitions(e)) by_activity += n;
  }
  EXPECT_EQ(executed, uint64_t(kThreads) * kSteps);
  EXPECT_EQ(recorded, uint64_t(kThreads) * (kSteps - 1));
  EXPECT_EQ(by_activity, recorded);
  // One model: the 6 + 4 buttons and back on each activity, interned once.
  EXPECT_EQ(m.event_count(), 12u);
  EXPECT_EQ(m.Visits(*m.FindActivity("A1")) + m.Visits(*m.FindActivity("A2")),
            uint32_t(kThreads) * kSteps);
}

TEST(FastbotStrategy, ASharedModelIsOfOnePackage) {
  FastbotOptions options = OnlyBack();
  options.shared = std::make_shared<model::SharedModel>();
  ASSERT_TRUE(FastbotStrategy::Make(FastbotMode::kCombined, options, "org.app").ok());
  auto other = FastbotStrategy::Make(FastbotMode::kCombined, options, "org.other");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("org.app"), std::string::npos);
}

}  // namespace
}  // namespace roam::explore
