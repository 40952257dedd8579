// The harness around a scripted fake strategy: widget lists filter what the base sees and veto
// what it returns, activity lists press back then restart, scripts play step by step and give
// up when a widget is missing, input texts come from the configured mix; Learn always reaches
// the base. Plus the harness files' errors.
#include "explore/harness.h"

#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "explore/random.h"
#include "gui/actions.h"
#include "gui/uiautomator.h"
#include "test_paths.h"

namespace roam::explore {
namespace {

using gui::ActionKind;

// The base: returns `reply` (or, when unset, the first action it is offered, else back) and
// remembers what it saw.
class FakeBase final : public Strategy {
 public:
  std::string_view Name() const override { return "fake"; }
  gui::Action Next(const StepView& view, Rng&) override {
    ++calls;
    offered = view.actions;
    if (reply) return *reply;
    return view.actions.empty() ? gui::MakeGlobalAction(ActionKind::kBack) : view.actions[0];
  }
  void Learn(const Transition&) override { ++learned; }
  std::optional<Request> TakeRequest(const StepView&) override { return request; }
  void Done(const Request&, bool ok) override { done += ok ? 1 : 0; }

  std::optional<gui::Action> reply;
  std::optional<Request> request;
  int done = 0;
  std::vector<gui::Action> offered;
  int calls = 0;
  int learned = 0;
};

gui::Screen LoginScreen(const std::string& activity = "org.app.ui.LoginActivity") {
  auto s = gui::ParseDump(R"(<hierarchy rotation="0">
<node index="0" class="android.widget.FrameLayout" package="org.app" bounds="[0,0][1000,2000]">
  <node index="0" class="android.widget.TextView" text="Welcome back" package="org.app" bounds="[0,0][1000,200]"/>
  <node index="1" class="android.widget.EditText" resource-id="org.app:id/email" package="org.app" clickable="true" bounds="[0,200][1000,400]"/>
  <node index="2" class="android.widget.EditText" resource-id="org.app:id/password" package="org.app" clickable="true" bounds="[0,400][1000,600]"/>
  <node index="3" class="android.widget.Button" resource-id="org.app:id/sign_in" text="Sign in" package="org.app" clickable="true" bounds="[0,600][1000,800]"/>
  <node index="4" class="android.widget.Button" resource-id="org.app:id/delete" text="Delete account" package="org.app" clickable="true" bounds="[0,800][1000,1000]"/>
  <node index="5" class="android.widget.ImageButton" content-desc="Help" package="org.app" clickable="true" bounds="[0,1800][1000,2000]"/>
</node></hierarchy>)");
  EXPECT_TRUE(s.ok()) << s.status().message();
  s->activity = activity;
  return *s;
}

struct Fixture {
  explicit Fixture(HarnessConfig config, const std::string& activity = "org.app.ui.LoginActivity")
      : screen(LoginScreen(activity)) {
    gui::ActionsFor(screen, actions);
    auto b = std::make_unique<FakeBase>();
    base = b.get();
    harness = std::make_unique<Harness>(std::move(b), std::move(config));
  }
  gui::Action Next() { return harness->Next({screen, 7, actions, step++}, rng); }

  gui::Screen screen;
  std::vector<gui::Action> actions;
  FakeBase* base = nullptr;
  std::unique_ptr<Harness> harness;
  Rng rng{5};
  int64_t step = 0;
};

gui::WidgetMatcher Matcher(const std::string& json_text) {
  auto m = gui::ParseWidgetMatcher(nlohmann::json::parse(json_text), "test");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return *m;
}

std::string TextOf(const gui::Screen& s, const gui::Action& a) {
  return a.widget >= 0 ? s.widgets[a.widget].text + s.widgets[a.widget].content_desc : "";
}

TEST(Harness, NameIsTheBaseStrategysAndLearnReachesTheBase) {
  Fixture f(HarnessConfig{});
  EXPECT_EQ(f.harness->Name(), "fake");
  gui::Action back = gui::MakeGlobalAction(ActionKind::kBack);
  f.harness->Learn({.from = 1, .to = 2, .action = back});
  EXPECT_EQ(f.base->learned, 1);
}

TEST(Harness, BlacklistedWidgetsAreRemovedBeforeTheBaseSeesTheScreen) {
  HarnessConfig c;
  c.widgets.black = {Matcher(R"({"text": "Delete account"})"),
                     Matcher(R"({"rect": [0, 0.9, 1, 1]})")};
  Fixture f(std::move(c));
  ASSERT_EQ(f.actions.size(), 7u);  // click and input on each field, 3 button clicks
  f.Next();
  for (const auto& a : f.base->offered) {
    EXPECT_NE(TextOf(f.screen, a), "Delete account");
    EXPECT_NE(TextOf(f.screen, a), "Help");
  }
  EXPECT_EQ(f.base->offered.size(), 5u);
  EXPECT_EQ(f.harness->stats().actions_removed, 2);
}

TEST(Harness, ABaseChoiceOnABlacklistedWidgetIsReplaced) {
  HarnessConfig c;
  c.widgets.black = {Matcher(R"({"resource_id": "delete"})")};
  Fixture f(std::move(c));
  // A strategy that builds its own action (as the oracle does) on the forbidden widget.
  f.base->reply = gui::MakeWidgetAction(ActionKind::kClick, f.screen, 5);
  ASSERT_EQ(f.screen.widgets[5].text, "Delete account");
  for (int i = 0; i < 50; ++i) {
    gui::Action a = f.Next();
    EXPECT_NE(a.widget, 5);
    EXPECT_NE(TextOf(f.screen, a), "Delete account");
  }
  EXPECT_EQ(f.harness->stats().vetoed, 50);
}

TEST(Harness, WhitelistKeepsOnlyListedWidgetActions) {
  HarnessConfig c;
  c.widgets.white = {Matcher(R"({"path": "//EditText"})")};
  Fixture f(std::move(c));
  f.Next();
  ASSERT_FALSE(f.base->offered.empty());
  for (const auto& a : f.base->offered)
    EXPECT_EQ(f.screen.widgets[a.widget].cls, "android.widget.EditText");
  // Global actions are not widget actions: they pass.
  f.base->reply = gui::MakeGlobalAction(ActionKind::kMenu);
  EXPECT_EQ(f.Next().kind, ActionKind::kMenu);
}

TEST(Harness, BlacklistedActivityPressesBackThenRestarts) {
  HarnessConfig c;
  c.options.max_backs = 3;
  c.activities.black = {"LoginActivity"};
  Fixture f(std::move(c));
  std::vector<ActionKind> kinds;
  for (int i = 0; i < 8; ++i) kinds.push_back(f.Next().kind);
  using K = ActionKind;
  EXPECT_EQ(kinds, (std::vector<K>{K::kBack, K::kBack, K::kBack, K::kRestart, K::kBack, K::kBack,
                                   K::kBack, K::kRestart}));
  EXPECT_EQ(f.base->calls, 0);
  EXPECT_EQ(f.harness->stats().activity_backs, 6);
  EXPECT_EQ(f.harness->stats().activity_restarts, 2);
}

TEST(Harness, ActivityWhitelistLetsListedActivitiesThrough) {
  HarnessConfig in;
  in.activities.white = {"ui.LoginActivity", "MainActivity"};
  Fixture inside(std::move(in));
  inside.Next();
  EXPECT_EQ(inside.base->calls, 1);
  HarnessConfig out;
  out.activities.white = {"MainActivity"};
  Fixture outside(std::move(out));
  EXPECT_EQ(outside.Next().kind, ActionKind::kBack);
  EXPECT_EQ(outside.base->calls, 0);
}

Script Login(double probability = 1.0) {
  Script s;
  s.name = "login";
  s.activity = "LoginActivity";
  s.probability = probability;
  s.steps = {{ActionKind::kInputText, Matcher(R"({"resource_id": "email"})"), "qa@roam.test"},
             {ActionKind::kInputText, Matcher(R"({"path": "//*[@resource-id='id/password']"})"),
              "secret!"},
             {ActionKind::kClick, Matcher(R"({"text": "Sign in"})"), ""}};
  return s;
}

TEST(Harness, AScriptPlaysOneStepPerCallThenTheBaseResumes) {
  HarnessConfig c;
  c.scripts = {Login()};
  c.scripts[0].max_runs = 1;
  Fixture f(std::move(c));
  gui::Action a = f.Next();
  EXPECT_EQ(a.kind, ActionKind::kInputText);
  EXPECT_EQ(f.screen.widgets[a.widget].resource_id, "org.app:id/email");
  EXPECT_EQ(a.text, "qa@roam.test");
  a = f.Next();
  EXPECT_EQ(f.screen.widgets[a.widget].resource_id, "org.app:id/password");
  EXPECT_EQ(a.text, "secret!");
  a = f.Next();
  EXPECT_EQ(a.kind, ActionKind::kClick);
  EXPECT_EQ(TextOf(f.screen, a), "Sign in");
  EXPECT_EQ(f.base->calls, 0);
  f.Next();  // max_runs 1: the base's turn
  EXPECT_EQ(f.base->calls, 1);
  EXPECT_EQ(f.harness->stats().scripts_completed, 1);
  EXPECT_EQ(f.harness->stats().script_steps, 3);
}

TEST(Harness, AScriptWhoseWidgetIsMissingIsAbandoned) {
  HarnessConfig c;
  Script s = Login();
  s.steps[1].widget = Matcher(R"({"resource_id": "no_such_field"})");
  s.max_runs = 1;
  c.scripts = {s};
  Fixture f(std::move(c));
  EXPECT_EQ(f.Next().text, "qa@roam.test");
  f.Next();  // step 2 is missing: the base decides
  EXPECT_EQ(f.base->calls, 1);
  EXPECT_EQ(f.harness->stats().scripts_abandoned, 1);
  EXPECT_EQ(f.harness->stats().scripts_completed, 0);
}

TEST(Harness, AScriptNeedsItsActivityAndItsProbability) {
  HarnessConfig elsewhere;
  elsewhere.scripts = {Login()};
  Fixture f(std::move(elsewhere), "org.app.ui.MainActivity");
  for (int i = 0; i < 20; ++i) f.Next();
  EXPECT_EQ(f.harness->stats().scripts_started, 0);
  HarnessConfig never;
  never.scripts = {Login(0.0)};
  Fixture g(std::move(never));
  for (int i = 0; i < 20; ++i) g.Next();
  EXPECT_EQ(g.harness->stats().scripts_started, 0);
  // Probability 0.25, max_runs 1000: starts at about a quarter of the steps it is not playing.
  HarnessConfig sometimes;
  sometimes.scripts = {Login(0.25)};
  sometimes.scripts[0].max_runs = 1000;
  Fixture h(std::move(sometimes));
  for (int i = 0; i < 2000; ++i) h.Next();
  const auto& st = h.harness->stats();
  double rate =
      double(st.scripts_started) / double(st.steps - st.script_steps + st.scripts_started);
  EXPECT_NEAR(rate, 0.25, 0.04);
}

TEST(Harness, RunLoopRequestsPassThroughExceptDuringAScript) {
  HarnessConfig c;
  c.scripts = {Login()};
  c.scripts[0].max_runs = 1;
  Fixture f(std::move(c));
  f.base->request = Request{.kind = Request::Kind::kRestore, .name = "s1", .state = 3};
  gui::Screen& s = f.screen;
  auto take = [&] { return f.harness->TakeRequest({s, 7, f.actions, f.step}); };
  ASSERT_TRUE(take().has_value());  // no script playing yet
  EXPECT_EQ(take()->name, "s1");
  f.Next();  // the login starts
  EXPECT_FALSE(take().has_value());
  f.Next();
  f.Next();  // and ends
  EXPECT_TRUE(take().has_value());
  f.harness->Done(*f.base->request, true);
  EXPECT_EQ(f.base->done, 1);
}

TEST(Harness, BlacklistWinsOverAScript) {
  HarnessConfig c;
  c.scripts = {Login()};
  c.widgets.black = {Matcher(R"({"text": "Sign in"})")};
  Fixture f(std::move(c));
  f.Next();
  f.Next();
  gui::Action a = f.Next();  // the click on "Sign in" is not offered: abandoned, base decides
  EXPECT_NE(TextOf(f.screen, a), "Sign in");
  EXPECT_EQ(f.harness->stats().scripts_abandoned, 1);
}

HarnessConfig TextMixConfig(double user, double seen, double awkward, double plain) {
  HarnessConfig c;
  c.options.text_input = true;
  c.options.mix.pct_user = user;
  c.options.mix.pct_seen = seen;
  c.options.mix.pct_awkward = awkward;
  c.options.mix.pct_plain = plain;
  c.user_strings = {"user-one", "user-two"};
  return c;
}

TEST(Harness, InputTextsOfTheBaseComeFromTheMix) {
  Fixture f(TextMixConfig(40, 30, 20, 10));
  f.base->reply = gui::MakeWidgetAction(ActionKind::kInputText, f.screen, 2);
  const auto& awkward = AwkwardStrings();
  const auto& plain = DefaultInputStrings();
  std::map<std::string, int> by_source;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    gui::Action a = f.Next();
    ASSERT_EQ(a.kind, ActionKind::kInputText);
    if (a.text == "user-one" || a.text == "user-two")
      ++by_source["user"];
    else if (a.text == "Welcome back" || a.text == "Sign in" || a.text == "Delete account" ||
             a.text == "Help")
      ++by_source["seen"];
    else if (std::count(awkward.begin(), awkward.end(), a.text))
      ++by_source["awkward"];
    else if (std::count(plain.begin(), plain.end(), a.text))
      ++by_source["plain"];
    else
      ADD_FAILURE() << "text from nowhere: " << a.text;
  }
  // "", "-1", "0" and the like are in both the awkward and the plain list: count by the
  // harness's own tally too, and check the content-based split is near the weights.
  EXPECT_NEAR(by_source["user"] / double(n), 0.40, 0.03);
  EXPECT_NEAR(by_source["seen"] / double(n), 0.30, 0.03);
  EXPECT_NEAR((by_source["awkward"] + by_source["plain"]) / double(n), 0.30, 0.03);
  auto j = f.harness->StatsJson();
  EXPECT_NEAR(j["texts_by_source"]["awkward"].get<double>() / n, 0.20, 0.03);
  EXPECT_NEAR(j["texts_by_source"]["plain"].get<double>() / n, 0.10, 0.03);
  EXPECT_EQ(j["texts_replaced"], n);
  EXPECT_EQ(j["texts_seen"], 4);  // the labels and the content-desc, not the fields
}

TEST(Harness, SourcesWithNothingToOfferAreLeftOut) {
  HarnessConfig c = TextMixConfig(100, 0, 0, 0);
  c.user_strings.clear();  // no --strings file: the weight of user strings goes nowhere
  c.options.mix.pct_awkward = 1;
  Fixture f(std::move(c));
  f.base->reply = gui::MakeWidgetAction(ActionKind::kInputText, f.screen, 2);
  const auto& awkward = AwkwardStrings();
  for (int i = 0; i < 200; ++i)
    EXPECT_TRUE(std::count(awkward.begin(), awkward.end(), f.Next().text));
}

TEST(Harness, ScriptTextsAreNotReplaced) {
  HarnessConfig c = TextMixConfig(100, 0, 0, 0);
  c.scripts = {Login()};
  Fixture f(std::move(c));
  EXPECT_EQ(f.Next().text, "qa@roam.test");
  EXPECT_EQ(f.harness->stats().texts_replaced, 0);
}

TEST(TextInput, AwkwardStringsHaveTheAwkwardCases) {
  const auto& a = AwkwardStrings();
  auto has = [&](const std::string& s) { return std::count(a.begin(), a.end(), s) > 0; };
  EXPECT_TRUE(has(""));
  EXPECT_TRUE(has("2147483648"));
  EXPECT_TRUE(has("' OR 1=1 --"));
  EXPECT_TRUE(has("%s%n%x%d"));
  EXPECT_TRUE(has("   "));
  EXPECT_TRUE(
      std::any_of(a.begin(), a.end(), [](const std::string& s) { return s.size() >= 5000; }));
  EXPECT_TRUE(has("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xD7\xA2\xD7\x95\xD7\x9C\xD7\x9D"));  // Hebrew
}

TEST(TextInput, SeenTextsAreBounded) {
  TextMix mix;
  mix.max_seen = 3;
  TextInput input(mix, {});
  gui::Screen s;
  s.package = "org.app";
  s.widgets.resize(7);
  for (int i = 0; i < 7; ++i) s.widgets[i].text = "label " + std::to_string(i);
  s.widgets[5].editable = true;                   // typed text is not collected
  s.widgets[6].package = "com.android.systemui";  // nor the status bar's
  input.Observe(s, 1);
  // The oldest are replaced: labels 2, 3 and 4 remain.
  auto seen = input.seen();
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"label 2", "label 3", "label 4"}));
  TextInput roomy(TextMix{}, {});
  roomy.Observe(s, 1);
  s.widgets[0].text = "new";
  roomy.Observe(s, 1);  // a state seen before is not collected again
  EXPECT_EQ(std::count(roomy.seen().begin(), roomy.seen().end(), "new"), 0);
  roomy.Observe(s, 2);
  EXPECT_EQ(std::count(roomy.seen().begin(), roomy.seen().end(), "new"), 1);
  EXPECT_EQ(roomy.seen().size(), 6u);
}

// --- the files -----------------------------------------------------------------------------

std::filesystem::path Write(const std::string& name, const std::string& content) {
  auto dir = testing::TempDir("harness_files");
  auto path = dir / name;
  std::ofstream(path) << content;
  return path;
}

std::string LoadError(HarnessOptions o) {
  auto c = LoadHarnessConfig(o);
  EXPECT_FALSE(c.ok());
  return c.ok() ? std::string() : c.status().message();
}

TEST(HarnessFiles, MissingFilesAreNamed) {
  HarnessOptions o;
  o.strings_file = "/nonexistent/words.txt";
  EXPECT_NE(LoadError(o).find("/nonexistent/words.txt: no such file"), std::string::npos);
  o = {};
  o.filters_file = "/nonexistent/filters.json";
  EXPECT_NE(LoadError(o).find("/nonexistent/filters.json"), std::string::npos);
  o = {};
  o.actions_file = "/nonexistent/actions.json";
  EXPECT_NE(LoadError(o).find("harness.actions: /nonexistent/actions.json"), std::string::npos);
}

TEST(HarnessFiles, MalformedJsonGivesLineAndColumn) {
  HarnessOptions o;
  o.filters_file = Write("bad.json", "{\n  \"widgets\": {\"black\": [}\n}\n");
  std::string e = LoadError(o);
  EXPECT_NE(e.find("bad.json:2:"), std::string::npos) << e;
}

TEST(HarnessFiles, UnknownKeysGetASuggestion) {
  HarnessOptions o;
  o.filters_file = Write("f.json", R"({"widgets": {"blak": []}})");
  std::string e = LoadError(o);
  EXPECT_NE(e.find("f.json: widgets: unknown key \"blak\" (did you mean \"black\"?)"),
            std::string::npos)
      << e;
  o.filters_file = Write("f.json", R"({"activites": {}})");
  e = LoadError(o);
  EXPECT_NE(e.find("did you mean \"activities\"?"), std::string::npos) << e;
  o = {};
  o.actions_file = Write("a.json", R"({"actions": [{"activity": "Login", "stepz": []}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("a.json: actions[0]: unknown key \"stepz\" (did you mean \"steps\"?)"),
            std::string::npos)
      << e;
}

TEST(HarnessFiles, BadRectanglesAndBadStepsAreRefused) {
  HarnessOptions o;
  o.filters_file =
      Write("f.json", R"({"widgets": {"white": [{"text": "OK"}, {"rect": [0, 0, 2, 1]}]}})");
  std::string e = LoadError(o);
  EXPECT_NE(e.find("f.json: widgets.white[1].rect: element 2 is 2, outside 0..1"),
            std::string::npos)
      << e;
  o = {};
  o.actions_file =
      Write("a.json", R"({"actions": [{"steps": [{"action": "tap", "widget": {"text": "OK"}}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("actions[0].steps[0].action: unknown action \"tap\""), std::string::npos) << e;
  o.actions_file = Write("a.json", R"({"actions": [{"steps": [{"action": "click"}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("steps[0]: \"click\" acts on a widget"), std::string::npos) << e;
  o.actions_file = Write("a.json", R"({"actions": [{"name": 7, "steps": [{"action": "back"}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("actions[0].name: expected a string"), std::string::npos) << e;
  o.actions_file =
      Write("a.json", R"({"actions": [{"probability": 2, "steps": [{"action": "back"}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("actions[0].probability: expected a number in 0..1"), std::string::npos) << e;
  o.actions_file = Write(
      "a.json", R"({"actions": [{"steps": [{"action": "input_text", "widget": {"text": "x"}}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("\"input_text\" needs \"text\""), std::string::npos) << e;
  o.actions_file = Write("a.json", R"({"actions": [{"steps": [{"action": "broadcast"}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("\"broadcast\" needs \"text\""), std::string::npos) << e;
  o.actions_file =
      Write("a.json",
            R"({"actions": [{"steps": [{"action": "intent", "text": "-n .Detail --ei id"}]}]})");
  e = LoadError(o);
  EXPECT_NE(e.find("actions[0].steps[0].text: intent \"-n .Detail --ei id\": --ei without a value"),
            std::string::npos)
      << e;
}

TEST(HarnessFiles, StringsFileIsOneTextALine) {
  auto s = ParseStringsFile("alpha\r\n\nbeta gamma\n", "w.txt");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<std::string>{"alpha", "beta gamma"}));
  auto empty = ParseStringsFile("\n\n", "w.txt");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("w.txt: holds no strings"), std::string::npos);
}

TEST(HarnessFiles, TheShippedShopLoginScriptLoads) {
  HarnessOptions o;
  o.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
  auto c = LoadHarnessConfig(o);
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->scripts.size(), 1u);
  EXPECT_EQ(c->scripts[0].steps.size(), 3u);
}

TEST(HarnessFiles, WithHarnessWrapsOnlyWhenSomethingIsSet) {
  auto plain =
      WithHarness(std::unique_ptr<Strategy>(std::make_unique<FakeBase>()), HarnessOptions{});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(dynamic_cast<Harness*>(plain->get()), nullptr);
  HarnessOptions o;
  o.text_input = true;
  auto wrapped = WithHarness(std::unique_ptr<Strategy>(std::make_unique<FakeBase>()), o);
  ASSERT_TRUE(wrapped.ok());
  EXPECT_NE(dynamic_cast<Harness*>(wrapped->get()), nullptr);
  EXPECT_EQ((*wrapped)->Name(), "fake");
}

}  // namespace
}  // namespace roam::explore
