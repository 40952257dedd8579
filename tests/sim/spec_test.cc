#include "sim/spec.h"

#include <fstream>

#include <gtest/gtest.h>

#include "test_paths.h"

namespace roam::sim {
namespace {

using nlohmann::json;

json Base() {
  return json::parse(R"({
    "app": "t", "package": "org.t", "start": "Main",
    "vars": {"n": 0, "flag": false},
    "lists": {"items": [{"title": "a"}]},
    "bugs": [{"id": "b1", "kind": "crash"}],
    "screens": [
      {"id": "Main", "activity": ".Main", "title": "Main",
       "widgets": [{"id": "go", "text": "Go", "on": {"click": [{"navigate": "Edit"}]}},
                   {"id": "boom", "text": "Boom", "on": {"click": [{"crash": {"exception": "E"}, "bug": "b1"}]}}]},
      {"id": "Edit", "activity": ".Edit", "widgets": [{"id": "name", "input": {"max": 5}}]}
    ],
    "dialogs": [{"id": "ask", "title": "Sure?", "widgets": []}]
  })");
}

// "path: message" of every error, for compact assertions.
std::vector<std::string> Errors(const json& doc) {
  std::vector<std::string> out;
  for (const SpecError& e : CheckSpec(doc)) out.push_back(e.path + ": " + e.message);
  return out;
}

::testing::AssertionResult HasError(const json& doc, const std::string& path,
                                    const std::string& part) {
  auto errors = Errors(doc);
  for (const auto& e : errors)
    if (e.rfind(path + ": ", 0) == 0 && e.find(part) != std::string::npos)
      return ::testing::AssertionSuccess();
  std::string all;
  for (const auto& e : errors) all += "\n  " + e;
  return ::testing::AssertionFailure()
         << "no error at " << path << " containing \"" << part << "\"; got:" << all;
}

TEST(CheckSpec, BaseIsValid) { EXPECT_TRUE(Errors(Base()).empty()) << Errors(Base())[0]; }

TEST(CheckSpec, ABroadcastHandlerNamesAnIntentActionOnAScreen) {
  json d = Base();
  d["screens"][0]["on"]["broadcast:android.intent.action.BATTERY_LOW"] = json::array();
  EXPECT_TRUE(Errors(d).empty()) << Errors(d)[0];
  d["screens"][0]["on"]["broadcast:"] = json::array();
  d["screens"][0]["on"]["broadcast:battery low"] = json::array();
  EXPECT_TRUE(HasError(d, "/screens/0/on/broadcast:", "a broadcast's intent action"));
  EXPECT_TRUE(HasError(d, "/screens/0/on/broadcast:battery low", "without spaces"));
  // A dialog registers no receiver: its activity does.
  json e = Base();
  e["dialogs"][0]["on"]["broadcast:android.intent.action.BATTERY_LOW"] = json::array();
  EXPECT_TRUE(HasError(e, "/dialogs/0/on/broadcast:android.intent.action.BATTERY_LOW",
                       "unknown screen event"));
}

// Issue 59: "orientation": "portrait" locks a screen's activity; nothing else is modelled.
TEST(CheckSpec, AScreenMayBeLockedToPortraitOnly) {
  json d = Base();
  d["screens"][0]["orientation"] = "portrait";
  EXPECT_TRUE(Errors(d).empty()) << Errors(d)[0];
  d["screens"][1]["orientation"] = "landscape";
  EXPECT_TRUE(HasError(d, "/screens/1/orientation", "the simulator models \"portrait\""));
  json e = Base();
  e["dialogs"][0]["orientation"] = "portrait";  // a dialog has its activity's
  EXPECT_TRUE(HasError(e, "/dialogs/0/orientation", "unknown key"));
}

// Issue 64: a screen's activity as its manifest declares it, and the extras it reads.
json WithIntents() {
  json d = Base();
  d["screens"][1]["exported"] = true;
  d["screens"][1]["intent_filters"] = json::parse(R"([{"actions": ["android.intent.action.VIEW"],
      "categories": ["android.intent.category.BROWSABLE"],
      "data": [{"scheme": "https", "host": "t.example", "path_prefix": "/edit"}]}])");
  d["screens"][1]["extras"] = json::parse(R"([
      {"key": "name", "type": "string", "value": "Ann", "missing": "default",
       "wrong_type": {"crash": {"exception": "java.lang.ClassCastException",
                                "message": "java.lang.Integer cannot be cast to java.lang.String"},
                      "bug": "b1"}},
      {"key": "n", "type": "int", "value": 3}])");
  d["screens"][1]["widgets"].push_back({{"id", "shown"}, {"text", "{extra.name} {extra.n}"}});
  return d;
}

TEST(CheckSpec, IntentFiltersAndExtrasOfAScreenAreValid) {
  EXPECT_TRUE(Errors(WithIntents()).empty()) << Errors(WithIntents())[0];
}

TEST(CheckSpec, AScreenWithIntentFiltersMustBeExportedAsAndroid12Requires) {
  json d = WithIntents();
  d["screens"][1].erase("exported");
  EXPECT_TRUE(HasError(d, "/screens/1/intent_filters", "Android 12 refuses to install"));
  d["screens"][1]["exported"] = false;
  EXPECT_TRUE(HasError(d, "/screens/1/intent_filters", "not exported"));
  d["screens"][1]["exported"] = "yes";
  EXPECT_TRUE(HasError(d, "/screens/1/exported", "expected a boolean"));
  // A dialog is no activity.
  json e = Base();
  e["dialogs"][0]["exported"] = true;
  EXPECT_TRUE(HasError(e, "/dialogs/0/exported", "unknown key"));
}

TEST(CheckSpec, AnIntentFilterNeedsAnActionAndWellFormedData) {
  json d = WithIntents();
  json& f = d["screens"][1]["intent_filters"][0];
  f["actions"] = json::array();
  f["data"][0]["path_prefix"] = "edit";
  f["data"].push_back({{"host", "t.example"}});
  f["data"].push_back({{"scheme", "https"}, {"port", 443}});
  f["categorys"] = json::array();
  const std::string p = "/screens/1/intent_filters/0";
  EXPECT_TRUE(HasError(d, p + "/actions", "at least one action"));
  EXPECT_TRUE(HasError(d, p + "/data/0/path_prefix", "starts with '/'"));
  EXPECT_TRUE(HasError(d, p + "/data/1", "missing required field \"scheme\""));
  EXPECT_TRUE(HasError(d, p + "/data/2/port", "unknown key"));
  EXPECT_TRUE(HasError(d, p + "/categorys", "did you mean \"categories\""));
}

TEST(CheckSpec, ExtrasSayTheirTypeAValueOfItAndBehaviours) {
  json d = WithIntents();
  json& x = d["screens"][1]["extras"];
  x[1]["type"] = "strng";
  x.push_back({{"key", "k"}, {"type", "int"}, {"value", "3"}});
  x.push_back({{"key", "b"}, {"type", "bool"}, {"value", true}, {"missing", "defualt"}});
  x.push_back(
      {{"key", "c"}, {"type", "bool"}, {"value", true}, {"wrong_type", {{"navigate", "Main"}}}});
  x.push_back({{"key", "d"},
               {"type", "string"},
               {"value", ""},
               {"missing", {{"crash", {{"exception", "E"}}}, {"bug", "b2"}}}});
  x.push_back({{"key", "n"}, {"type", "int"}, {"value", 1}});
  x.push_back({{"key", "e"}, {"type", "int"}});
  const std::string p = "/screens/1/extras";
  EXPECT_TRUE(HasError(d, p + "/1/type", "did you mean \"string\""));
  EXPECT_TRUE(HasError(d, p + "/2/value", "expected an integer"));
  EXPECT_TRUE(HasError(d, p + "/3/missing", "did you mean \"default\""));
  EXPECT_TRUE(HasError(d, p + "/4/wrong_type", "a crash"));
  EXPECT_TRUE(HasError(d, p + "/5/missing/bug", "unknown bug \"b2\""));
  EXPECT_TRUE(HasError(d, p + "/6/key", "duplicate extra \"n\""));
  EXPECT_TRUE(HasError(d, p + "/7", "missing required field \"value\""));
}

TEST(CheckSpec, ExtraReferencesNameAnExtraOfTheirScreen) {
  json d = WithIntents();
  d["screens"][1]["widgets"].push_back({{"id", "typo"}, {"text", "{extra.nmae}"}});
  EXPECT_TRUE(HasError(d, "/screens/1/widgets/2/text", "did you mean \"name\""));
  json e = WithIntents();
  e["screens"][0]["widgets"][0]["text"] = "{extra.name}";  // Main reads no extras
  EXPECT_TRUE(HasError(e, "/screens/0/widgets/0/text", "unknown extra \"name\""));
  json g = WithIntents();
  g["dialogs"][0]["title"] = "{extra.name}";
  EXPECT_TRUE(HasError(g, "/dialogs/0/title", "a dialog has none"));
}

TEST(CheckSpec, OneScreenOfAnActivityDeclaresIt) {
  json d = WithIntents();
  d["screens"].push_back({{"id", "EditTab"}, {"activity", ".Edit"}, {"exported", true}});
  EXPECT_TRUE(HasError(d, "/screens/2/exported", "declared by /screens/1 already"));
  d["screens"][2].erase("exported");
  EXPECT_TRUE(Errors(d).empty()) << Errors(d)[0];  // a tab of the activity that says nothing
}

TEST(CheckSpec, UnknownScreenWithSuggestion) {
  json d = Base();
  d["screens"][0]["widgets"][0]["on"]["click"][0]["navigate"] = "Edti";
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/0/navigate",
                       "unknown screen \"Edti\" (did you mean \"Edit\"?)"));
}

TEST(CheckSpec, UnknownKeysAtEveryLevel) {
  json d = Base();
  d["stat"] = "Main";
  d["screens"][1]["widgets"][0]["inptu"] = 1;
  d["screens"][0]["widgets"][0]["on"]["clik"] = json::array();
  EXPECT_TRUE(HasError(d, "/stat", "unknown key \"stat\" (did you mean \"start\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/1/widgets/0/inptu", "did you mean \"input\""));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/clik", "unknown widget event \"clik\""));
  EXPECT_EQ(Errors(d).size(), 3u);  // every error, not just the first
}

TEST(CheckSpec, MissingRequiredAndWrongTypes) {
  json d = Base();
  d.erase("package");
  d["screens"][0].erase("activity");
  d["screens"][0]["title"] = 3;
  EXPECT_TRUE(HasError(d, "/", "missing required field \"package\""));
  EXPECT_TRUE(HasError(d, "/screens/0", "missing required field \"activity\""));
  EXPECT_TRUE(HasError(d, "/screens/0/title", "expected a string, got an integer"));
}

TEST(CheckSpec, DuplicateIds) {
  json d = Base();
  d["screens"][1]["id"] = "Main";
  d["screens"][0]["widgets"][1]["id"] = "go";
  d["bugs"].push_back({{"id", "b1"}, {"kind", "crash"}});
  EXPECT_TRUE(HasError(d, "/screens/1/id", "duplicate id \"Main\""));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/1/id", "duplicate id \"go\""));
  EXPECT_TRUE(HasError(d, "/bugs/1/id", "duplicate id \"b1\""));
}

TEST(CheckSpec, UnknownReferences) {
  json d = Base();
  auto& on = d["screens"][0]["widgets"][0]["on"]["click"];
  on.push_back({{"dialog", "aks"}});
  on.push_back({{"inc", "m"}});
  on.push_back({{"add_item", "itmes"}, {"item", json::object()}});
  on.push_back({{"set", "n"}, {"to", "$var.nn"}});
  on.push_back({{"set", "n"}, {"to", "$input.name"}});  // an edit field of another screen
  on.push_back({{"back", true}, {"bug", "b2"}});
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/1/dialog",
                       "unknown dialog \"aks\" (did you mean \"ask\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/2/inc", "unknown var \"m\""));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/3/add_item",
                       "unknown list \"itmes\" (did you mean \"items\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/4/to",
                       "unknown var \"nn\" (did you mean \"n\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/5/to", "unknown edit field \"name\""));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/6/bug",
                       "unknown bug \"b2\" (did you mean \"b1\"?)"));
}

TEST(CheckSpec, UnknownRowField) {
  json d = Base();
  d["screens"][0]["widgets"].push_back({{"list", "items"}, {"row", {{{"text", "{row.titel}"}}}}});
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/2/row/0/text",
                       "unknown list item field \"titel\" (did you mean \"title\"?)"));
}

TEST(CheckSpec, EffectsWithZeroOrTwoVerbs) {
  json d = Base();
  auto& on = d["screens"][0]["widgets"][0]["on"]["click"];
  on.push_back({{"if", {{"truthy", "$var.flag"}}}});
  on.push_back({{"back", true}, {"finish", true}});
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/1", "an effect needs one verb"));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/2", "this one has 2: back, finish"));
}

TEST(CheckSpec, BugsDeclaredButUnusedAndTypeMismatches) {
  json d = Base();
  d["bugs"].push_back({{"id", "b2"}, {"kind", "data_los"}});
  auto& on = d["screens"][0]["widgets"][0]["on"]["click"];
  on.push_back({{"toggle", "n"}});
  EXPECT_TRUE(
      HasError(d, "/bugs/1/id", "bug \"b2\" is declared but no effect has \"bug\": \"b2\""));
  EXPECT_TRUE(
      HasError(d, "/bugs/1/kind", "unknown bug kind \"data_los\" (did you mean \"data_loss\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/0/on/click/1/toggle", "needs a boolean variable"));
}

// Which oracle a bug is for: by default from its kind; a spec may say another one of three.
TEST(CheckSpec, ABugsOracleComesFromItsKindUnlessTheSpecSaysAndMustBeKnown) {
  EXPECT_EQ(DefaultSeenBy("crash"), "crash");
  EXPECT_EQ(DefaultSeenBy("anr"), "crash");
  EXPECT_EQ(DefaultSeenBy("data_loss"), "gui_effect");
  EXPECT_EQ(DefaultSeenBy("function_stops"), "gui_effect");
  EXPECT_EQ(DefaultSeenBy("wrong_behaviour"), "gui_effect");
  EXPECT_EQ(DefaultSeenBy("design"), "other");
  json d = Base();
  d["bugs"][0]["seen_by"] = "gui_efect";
  EXPECT_TRUE(HasError(d, "/bugs/0/seen_by", "unknown bug seen_by \"gui_efect\""));
  d["bugs"][0]["seen_by"] = "other";
  auto spec = LoadSpecJson(d, "inline");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ((*spec)->bugs()[0].seen_by, "other");
  d["bugs"][0].erase("seen_by");
  spec = LoadSpecJson(d, "inline");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ((*spec)->bugs()[0].seen_by, "crash");
  // The key's former name still loads; both at once is an error.
  d["bugs"][0]["oracle"] = "other";
  spec = LoadSpecJson(d, "inline");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ((*spec)->bugs()[0].seen_by, "other");
  d["bugs"][0]["seen_by"] = "other";
  EXPECT_TRUE(HasError(d, "/bugs/0/oracle", "give \"seen_by\" only"));
}

TEST(CheckSpec, BadRegexConditionsAndStart) {
  json d = Base();
  d["start"] = "Mian";
  d["screens"][1]["widgets"][0]["input"]["pattern"] = "[a-";
  d["screens"][0]["widgets"][0]["enabled_if"] = {{"eqq", {1, 2}}};
  d["screens"][0]["widgets"][1]["visible_if"] = {{"eq", {1}}};
  EXPECT_TRUE(HasError(d, "/start", "unknown screen \"Mian\" (did you mean \"Main\"?)"));
  EXPECT_TRUE(HasError(d, "/screens/1/widgets/0/input/pattern", "bad regex \"[a-\""));
  EXPECT_TRUE(
      HasError(d, "/screens/0/widgets/0/enabled_if/eqq", "unknown condition operator \"eqq\""));
  EXPECT_TRUE(HasError(d, "/screens/0/widgets/1/visible_if/eq", "expected [value, value]"));
}

TEST(CheckSpec, NotAnObject) { EXPECT_TRUE(HasError(json::array(), "/", "expected an object")); }

TEST(LoadSpec, MalformedJsonGivesLineAndColumn) {
  auto dir = roam::testing::TempDir("spec_malformed");
  auto path = dir / "bad.json";
  std::ofstream(path) << "{\n  \"app\": \"x\",\n  \"package\" \"y\"\n}\n";
  auto spec = LoadSpec(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("bad.json:3:"), std::string::npos)
      << spec.status().message();
}

TEST(LoadSpec, ListsEveryErrorOnePerLine) {
  json d = Base();
  d["start"] = "Nowhere";
  d["stat"] = 1;
  auto spec = LoadSpecJson(d, "app.json");
  ASSERT_FALSE(spec.ok());
  const std::string& m = spec.status().message();
  EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 1) << m;
  EXPECT_NE(m.find("app.json: /start: unknown screen \"Nowhere\""), std::string::npos) << m;
}

TEST(LoadSpec, ValidSpecCompiles) {
  auto spec = LoadSpecJson(Base(), "app.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ((*spec)->package(), "org.t");
  EXPECT_EQ((*spec)->screens()[1].activity, "org.t.Edit");
  EXPECT_EQ((*spec)->source(), "app.json");
}

}  // namespace
}  // namespace roam::sim
