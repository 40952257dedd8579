// Intents from outside the app (issue 64 item 1): SimApp::StartIntent by component and by deep
// link, refused for an activity that is not exported, unresolved for one the app lacks; the
// extras a screen reads, with their behaviours when missing or of another type (a crash with
// its bug id, fine with the bug off); Perform of a kIntent action; DeclaredActivities.
#include "gui/intent.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "sim/sim_test_util.h"

namespace roam::sim {
namespace {

using gui::ActionKind;
using gui::ExtraType;
using gui::Intent;
using testing::Click;
using testing::Global;
using testing::Has;
using testing::MustCompile;
using testing::TextOf;

constexpr const char* kLinks = R"json({
  "app": "links", "package": "org.links", "start": "Main",
  "vars": {"entered": 0},
  "bugs": [{"id": "detail-npe", "kind": "crash"}, {"id": "detail-cce", "kind": "crash"}],
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Main",
     "widgets": [{"id": "go", "text": "Settings", "on": {"click": [{"navigate": "Settings"}]}},
                 {"id": "open", "text": "Open detail", "on": {"click": [{"navigate": "Detail"}]}}]},
    {"id": "Settings", "activity": ".SettingsActivity", "title": "Settings",
     "widgets": [{"id": "s", "text": "Settings page"}]},
    {"id": "Detail", "activity": ".DetailActivity", "title": "Detail", "exported": true,
     "extras": [
       {"key": "title", "type": "string", "value": "Groceries",
        "missing": {"crash": {"exception": "java.lang.NullPointerException",
                              "message": "Attempt to invoke virtual method 'int java.lang.String.length()' on a null object reference",
                              "frames": ["org.links.DetailActivity.onCreate(DetailActivity.java:31)"]},
                    "bug": "detail-npe"},
        "wrong_type": "default"},
       {"key": "id", "type": "int", "value": 7, "missing": "default",
        "wrong_type": {"crash": {"exception": "java.lang.ClassCastException",
                                 "message": "java.lang.String cannot be cast to java.lang.Integer"},
                       "bug": "detail-cce"}},
       {"key": "notify", "type": "bool", "value": true}],
     "widgets": [{"id": "shown", "text": "{extra.title} #{extra.id}"},
                 {"id": "entered", "text": "entered {var.entered}"},
                 {"id": "quiet", "text": "Quiet", "visible_if": {"not": {"truthy": "$extra.notify"}}}],
     "on": {"enter": [{"inc": "entered"}]}},
    {"id": "Link", "activity": ".LinkActivity", "title": "Link", "exported": true,
     "intent_filters": [{"actions": ["android.intent.action.VIEW"],
                         "categories": ["android.intent.category.BROWSABLE"],
                         "data": [{"scheme": "https", "host": "links.example", "path_prefix": "/item"}]}],
     "widgets": [{"id": "l", "text": "Opened a link"}]}
  ]
})json";

Intent Detail(std::vector<gui::IntentExtra> extras) {
  return {.component = "org.links.DetailActivity", .extras = std::move(extras)};
}
const gui::IntentExtra kTitle{"title", ExtraType::kString, "Milk"};
const gui::IntentExtra kId{"id", ExtraType::kInt, "3"};

std::string Top(SimApp& app) {
  const int top = app.TopScreen();
  return top < 0 ? "(none)" : app.spec().screens()[top].id;
}

bool Covered(const SimApp& app, const std::string& unit) {
  const auto units = app.CoveredUnits();
  return std::find(units.begin(), units.end(), unit) != units.end();
}

TEST(SimIntent, AComponentStartsItsScreenAloneInAStoppedAppWithTheExtrasSent) {
  SimApp app(MustCompile(kLinks), {});
  ASSERT_FALSE(app.running());
  EXPECT_EQ(app.StartIntent(Detail({kTitle, kId})), IntentOutcome::kStarted);
  EXPECT_TRUE(app.running());
  EXPECT_EQ(Top(app), "Detail");
  EXPECT_EQ(TextOf(app, "shown"), "Milk #3");
  EXPECT_EQ(TextOf(app, "entered"), "entered 1");  // its enter ran
  EXPECT_TRUE(Has(app, "Quiet"));                  // notify: missing, fine: false
  EXPECT_TRUE(Covered(app, "Detail:intent"));
  EXPECT_FALSE(Covered(app, "Main:create"));  // Android creates the started activity only
  EXPECT_TRUE(app.DrainFaults().empty());
  Global(app, ActionKind::kBack);  // the only screen: back leaves the app
  EXPECT_EQ(app.TopScreen(), -1);
}

TEST(SimIntent, OnARunningAppTheScreenIsPushedOnTopAndTheAppComesToTheFront) {
  SimApp app(MustCompile(kLinks), {});
  app.Launch();
  Click(app, "Settings");
  Global(app, ActionKind::kKey, "HOME");
  ASSERT_EQ(app.TopScreen(), -1);
  // Through Perform, as a strategy sends it: the action's text is the intent's.
  Global(app, ActionKind::kIntent, Detail({kTitle, kId}).ToText());
  EXPECT_EQ(Top(app), "Detail");
  Global(app, ActionKind::kBack);
  EXPECT_EQ(Top(app), "Settings");
  // Started by the app's own GUI, a screen reads the declared values.
  Global(app, ActionKind::kBack);
  Click(app, "Open detail");
  EXPECT_EQ(TextOf(app, "shown"), "Groceries #7");
  EXPECT_FALSE(Has(app, "Quiet"));  // notify: true as declared
}

TEST(SimIntent, ComponentsResolveQualifiedRelativeOrWithTheirPackage) {
  for (const char* name : {"org.links.DetailActivity", ".DetailActivity",
                           "org.links/.DetailActivity", "org.links/org.links.DetailActivity"}) {
    SimApp app(MustCompile(kLinks), {});
    Intent intent = Detail({kTitle});
    intent.component = name;
    EXPECT_EQ(app.StartIntent(intent), IntentOutcome::kStarted) << name;
    EXPECT_EQ(Top(app), "Detail") << name;
  }
}

TEST(SimIntent, NotExportedIsRefusedAndAnUnknownActivityUnresolvedLeavingTheAppAsItWas) {
  SimApp app(MustCompile(kLinks), {});
  app.Launch();
  const uint64_t before = app.LogicHash();
  EXPECT_EQ(app.StartIntent({.component = "org.links.SettingsActivity"}),
            IntentOutcome::kNotExported);
  EXPECT_EQ(app.StartIntent({.component = "org.links.MainActivity"}), IntentOutcome::kNotExported);
  EXPECT_EQ(app.StartIntent({.component = "org.links.NoSuchActivity"}), IntentOutcome::kUnresolved);
  EXPECT_EQ(app.StartIntent({.component = "org.other/.DetailActivity"}),
            IntentOutcome::kUnresolved);
  EXPECT_EQ(app.LogicHash(), before);
  EXPECT_EQ(Top(app), "Main");
  SimApp stopped(MustCompile(kLinks), {});
  EXPECT_EQ(stopped.StartIntent({.component = "org.links.SettingsActivity"}),
            IntentOutcome::kNotExported);
  EXPECT_FALSE(stopped.running());
}

TEST(SimIntent, ADeepLinkResolvesThroughTheExportedScreensFilters) {
  SimApp app(MustCompile(kLinks), {});
  const Intent link{.action = "android.intent.action.VIEW", .data = "https://links.example/item/5"};
  EXPECT_EQ(app.StartIntent(link), IntentOutcome::kStarted);
  EXPECT_EQ(Top(app), "Link");
  EXPECT_TRUE(Covered(app, "Link:intent"));
  for (const char* uri : {"https://links.example/other", "https://else.example/item/5",
                          "app://links.example/item/5"}) {
    EXPECT_EQ(app.StartIntent({.action = "android.intent.action.VIEW", .data = uri}),
              IntentOutcome::kUnresolved)
        << uri;
  }
  EXPECT_EQ(app.StartIntent({.action = "android.intent.action.SEND", .data = link.data}),
            IntentOutcome::kUnresolved);
  EXPECT_EQ(Top(app), "Link");
}

TEST(SimIntent, AMissingExtraCrashesWithItsBugAndIsFineWithTheBugOff) {
  SimApp app(MustCompile(kLinks), {});
  EXPECT_EQ(app.StartIntent(Detail({kId})), IntentOutcome::kStarted);
  auto faults = app.DrainFaults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].kind, Fault::Kind::kCrash);
  EXPECT_EQ(faults[0].exception, "java.lang.NullPointerException");
  EXPECT_EQ(faults[0].message,
            "Attempt to invoke virtual method 'int java.lang.String.length()' on a null object "
            "reference");
  EXPECT_EQ(faults[0].bug_id, "detail-npe");
  EXPECT_EQ(faults[0].frames,
            std::vector<std::string>{"org.links.DetailActivity.onCreate(DetailActivity.java:31)"});
  EXPECT_FALSE(app.running());
  app.Launch();
  EXPECT_EQ(Top(app), "Main");

  SimOptions off;
  off.bugs_off = {"detail-npe"};
  SimApp fixed(MustCompile(kLinks), off);
  EXPECT_EQ(fixed.StartIntent(Detail({kId})), IntentOutcome::kStarted);
  EXPECT_TRUE(fixed.DrainFaults().empty());
  EXPECT_EQ(TextOf(fixed, "shown"), " #3");  // fine: the title reads as Android's null, shown ""
  EXPECT_EQ(TextOf(fixed, "entered"), "entered 1");
}

TEST(SimIntent, AWrongTypedExtraCrashesWithItsBugOrShowsTheDefault) {
  SimApp app(MustCompile(kLinks), {});
  const gui::IntentExtra id_as_text{"id", ExtraType::kString, "3"};
  EXPECT_EQ(app.StartIntent(Detail({kTitle, id_as_text})), IntentOutcome::kStarted);
  auto faults = app.DrainFaults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].exception, "java.lang.ClassCastException");
  EXPECT_EQ(faults[0].message, "java.lang.String cannot be cast to java.lang.Integer");
  EXPECT_EQ(faults[0].bug_id, "detail-cce");
  ASSERT_EQ(faults[0].frames.size(), 1u);  // none given: the activity's onCreate
  EXPECT_EQ(faults[0].frames[0], "org.links.DetailActivity.onCreate(DetailActivity.java)");
  // An int that is not a number is of another type too (am start would refuse it).
  EXPECT_EQ(app.StartIntent(Detail({kTitle, {"id", ExtraType::kInt, "x"}})),
            IntentOutcome::kStarted);
  EXPECT_EQ(app.DrainFaults().size(), 1u);
  // The title as an int: "default", the declared value; the id missing: "default" too.
  EXPECT_EQ(app.StartIntent(Detail({{"title", ExtraType::kInt, "5"}})), IntentOutcome::kStarted);
  EXPECT_TRUE(app.DrainFaults().empty());
  EXPECT_EQ(TextOf(app, "shown"), "Groceries #7");

  SimOptions off;
  off.bugs_off = {"detail-cce"};
  SimApp fixed(MustCompile(kLinks), off);
  EXPECT_EQ(fixed.StartIntent(Detail({kTitle, id_as_text})), IntentOutcome::kStarted);
  EXPECT_TRUE(fixed.DrainFaults().empty());
  EXPECT_EQ(TextOf(fixed, "shown"), "Milk #0");
}

TEST(SimIntent, DeclaredActivitiesListEveryActivityWithFiltersAndExtras) {
  SimApp app(MustCompile(kLinks), {});
  const auto declared = app.DeclaredActivities();
  ASSERT_EQ(declared.size(), 4u);
  EXPECT_EQ(declared[0].name, "org.links.MainActivity");
  EXPECT_FALSE(declared[0].exported);
  EXPECT_FALSE(declared[1].exported);
  EXPECT_EQ(declared[2].name, "org.links.DetailActivity");
  EXPECT_TRUE(declared[2].exported);
  EXPECT_EQ(declared[2].extras,
            (std::vector<gui::IntentExtra>{{"title", ExtraType::kString, "Groceries"},
                                           {"id", ExtraType::kInt, "7"},
                                           {"notify", ExtraType::kBool, "true"}}));
  ASSERT_EQ(declared[3].filters.size(), 1u);
  EXPECT_EQ(declared[3].filters[0].schemes, std::vector<std::string>{"https"});
  EXPECT_EQ(declared[3].filters[0].hosts, std::vector<std::string>{"links.example"});
  EXPECT_EQ(declared[3].filters[0].paths, std::vector<std::string>{"/item"});
  // Every candidate a strategy would send starts its screen; the crashes are the planted ones.
  std::set<std::string> bugs;
  for (const auto& activity : declared)
    for (const Intent& intent : gui::CandidateIntents(activity)) {
      SimApp fresh(MustCompile(kLinks), {});
      EXPECT_EQ(fresh.StartIntent(intent), IntentOutcome::kStarted) << intent.ToText();
      for (const Fault& f : fresh.DrainFaults()) bugs.insert(f.bug_id);
    }
  EXPECT_EQ(bugs, (std::set<std::string>{"detail-npe", "detail-cce"}));
  // An app that declares nothing exported: no candidates at all.
  for (const auto& activity : testing::MustApp(R"({"app": "a", "package": "p", "start": "M",
      "screens": [{"id": "M", "activity": ".M"}]})")
                                  ->DeclaredActivities())
    EXPECT_TRUE(gui::CandidateIntents(activity).empty());
}

}  // namespace
}  // namespace roam::sim
