// Properties a user writes (oracle/property.h): each postcondition kind judged on screens before
// and after, the PropertyOracle playing an interaction and checking it, invariants, and bad
// property files refused with the place of the mistake.
#include "oracle/property.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "gui/actions.h"
#include "gui/uiautomator.h"
#include "test_paths.h"

namespace roam::oracle {
namespace {

using nlohmann::json;

// A note list: a title, an "Add" button, and one row per text in `rows`.
gui::Screen NoteList(const std::vector<std::string>& rows, const std::string& activity = "") {
  std::string xml = R"(<hierarchy rotation="0">
<node index="0" class="android.widget.FrameLayout" package="org.notes" bounds="[0,0][1000,2000]">
  <node index="0" class="android.widget.TextView" resource-id="org.notes:id/title" text="Notes" package="org.notes" bounds="[0,0][1000,200]"/>
  <node index="1" class="android.widget.Button" resource-id="org.notes:id/add" text="Add" package="org.notes" clickable="true" bounds="[0,200][1000,400]"/>)";
  for (size_t i = 0; i < rows.size(); ++i)
    xml += "\n  <node index=\"" + std::to_string(i + 2) +
           R"(" class="android.widget.TextView" resource-id="org.notes:id/row" text=")" + rows[i] +
           R"(" package="org.notes" clickable="true" bounds="[0,)" + std::to_string(400 + 100 * i) +
           "][1000," + std::to_string(500 + 100 * i) + "]\"/>";
  xml += "\n</node></hierarchy>";
  auto s = gui::ParseDump(xml);
  EXPECT_TRUE(s.ok()) << s.status().message();
  s->activity = activity.empty() ? "org.notes.ListActivity" : activity;
  return *s;
}

Property Parse(const std::string& text) {
  auto p = ParseProperty(json::parse(text), "p");
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : Property{};
}

std::string Refusal(const std::string& text) {
  auto p = ParseProperties(json::parse(text), "p.json");
  return p.ok() ? "accepted" : p.status().message();
}

TEST(Property, EachPostconditionJudgesTheScreensBeforeAndAfter) {
  const gui::Screen two = NoteList({"milk", "eggs"}), three = NoteList({"milk", "eggs", "bread"});
  const gui::Screen renamed = NoteList({"milk", "oats"}), none = NoteList({});
  auto judge = [](const std::string& q, const gui::Screen& before, const gui::Screen& after) {
    return Parse(R"({"name": "n", "postcondition": [)" + q + "]}").Violation(before, after);
  };
  EXPECT_EQ(judge(R"({"count": {"resource_id": "row"}, "changed_by": 1})", two, three), "");
  EXPECT_EQ(judge(R"({"count": {"resource_id": "row"}, "changed_by": 1})", two, two),
            R"({"changed_by":1,"count":{"resource_id":"row"}}: 2 selected before and 2 after: )"
            "changed by 0, not 1");
  EXPECT_EQ(judge(R"({"count": {"text": "milk"}, "at_most": 1})", two, two), "");
  EXPECT_NE(judge(R"({"count": {"resource_id": "row"}, "equals": 3})", two, two), "");
  EXPECT_EQ(judge(R"({"kept": {"resource_id": "row"}})", two, three), "");
  EXPECT_EQ(judge(R"({"kept": {"resource_id": "row"}})", two, renamed),
            R"({"kept":{"resource_id":"row"}}: "eggs" was shown before and is not after )"
            R"((after: "milk", "oats"))");
  // A text shown before in one place and after in another (a song playing, then in History).
  EXPECT_EQ(judge(R"({"kept": {"text": "Notes"}, "in": {"resource_id": "row"}})", two,
                  NoteList({"Notes"})),
            "");
  EXPECT_NE(judge(R"({"kept": {"text": "Notes"}, "in": {"resource_id": "row"}})", two, two), "");
  EXPECT_EQ(judge(R"({"gone": {"text": "eggs"}})", two, renamed), "");
  EXPECT_NE(judge(R"({"gone": {"text": "eggs"}})", two, two), "");
  EXPECT_NE(judge(R"({"gone": {"text": "eggs"}})", none, none), "") << "nothing to be gone";
  EXPECT_EQ(judge(R"({"present": {"text": "Add"}})", two, none), "");
  EXPECT_NE(judge(R"({"absent": {"text": "Add"}})", two, none), "");
  EXPECT_EQ(judge(R"({"activity": "ListActivity"})", two, two), "");
  EXPECT_EQ(judge(R"({"activity": "EditActivity"})", two, two),
            R"({"activity":"EditActivity"}: the screen after is org.notes.ListActivity)");
}

TEST(Property, TheOraclePlaysTheInteractionWhereThePreconditionHoldsAndChecksTheScreenAfter) {
  auto set = ParseProperties(json::parse(R"({"properties": [{
      "name": "adding a note adds a row",
      "precondition": {"activity": "ListActivity", "present": [{"text": "Add"}]},
      "probability": 1,
      "interaction": [{"action": "click", "widget": {"text": "Add"}}],
      "postcondition": [{"count": {"resource_id": "row"}, "changed_by": 1},
                        {"kept": {"resource_id": "row"}}]}]})"),
                             "p.json");
  ASSERT_TRUE(set.ok()) << set.status().message();
  Rng rng(1);
  // Step `n` on `screen` after `last` (null: a launch); what the oracle asks and finds.
  auto step = [&](PropertyOracle& oracle, int64_t n, const gui::Screen& screen,
                  const gui::Action* last, std::vector<Finding>& found) {
    std::vector<gui::Action> actions;
    gui::ActionsFor(screen, actions);
    return oracle.See({.step = n, .screen = &screen, .actions = &actions, .last_action = last}, rng,
                      found);
  };
  const gui::Screen before = NoteList({"milk"});
  {  // The app adds the row: the property holds.
    PropertyOracle oracle(std::make_shared<PropertySet>(*set));
    std::vector<Finding> found;
    auto click = step(oracle, 0, before, nullptr, found);
    ASSERT_TRUE(click.has_value());
    EXPECT_EQ(click->kind, gui::ActionKind::kClick);
    EXPECT_TRUE(oracle.Busy());
    // The screen after: checked, and the strategy has it next (the property does not start again
    // at once).
    EXPECT_FALSE(step(oracle, 1, NoteList({"milk", "eggs"}), &*click, found).has_value());
    EXPECT_TRUE(found.empty());
    EXPECT_FALSE(oracle.Busy());
    EXPECT_EQ(oracle.stats()[0].checked, 1);
    EXPECT_EQ(oracle.stats()[0].violated, 0);
  }
  {  // The app replaces the note instead: a finding, with the step the interaction began at.
    PropertyOracle oracle(std::make_shared<PropertySet>(*set));
    std::vector<Finding> found;
    auto click = step(oracle, 0, before, nullptr, found);
    ASSERT_TRUE(click.has_value());
    step(oracle, 1, NoteList({"eggs"}), &*click, found);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].kind, "property");
    EXPECT_EQ(found[0].name, "adding a note adds a row");
    EXPECT_EQ(found[0].first_step, 0);
    EXPECT_EQ(found[0].last_step, 1);
    EXPECT_EQ(
        found[0].signature,
        R"(property adding a note adds a row: {"changed_by":1,"count":{"resource_id":"row"}})");
  }
  {  // A relaunch on the way (no last action): no verdict.
    PropertyOracle oracle(std::make_shared<PropertySet>(*set));
    std::vector<Finding> found;
    step(oracle, 0, before, nullptr, found);
    step(oracle, 1, NoteList({"eggs"}), nullptr, found);
    EXPECT_TRUE(found.empty());
    EXPECT_EQ(oracle.stats()[0].abandoned, 1);
  }
  {  // Elsewhere the precondition does not hold: nothing starts, and the summary says so.
    PropertyOracle oracle(std::make_shared<PropertySet>(*set));
    std::vector<Finding> found;
    EXPECT_FALSE(step(oracle, 0, NoteList({"milk"}, "org.notes.EditActivity"), nullptr, found));
    EXPECT_EQ(oracle.Figures()["precondition_never_held"],
              json::array({"adding a note adds a row"}));
  }
}

TEST(Property, AnInvariantIsCheckedOnEveryScreenWhereItsPreconditionHolds) {
  auto set = ParseProperties(json::parse(R"({"properties": [{
      "name": "a row is shown once",
      "precondition": {"activity": "ListActivity"},
      "postcondition": [{"count": {"text": "milk"}, "at_most": 1}]}]})"),
                             "p.json");
  ASSERT_TRUE(set.ok()) << set.status().message();
  PropertyOracle oracle(std::make_shared<PropertySet>(*set));
  Rng rng(1);
  std::vector<Finding> found;
  for (const auto& screen : {NoteList({"milk"}), NoteList({"milk", "milk"})}) {
    std::vector<gui::Action> actions;
    gui::ActionsFor(screen, actions);
    EXPECT_FALSE(oracle.See({.screen = &screen, .actions = &actions}, rng, found).has_value());
  }
  EXPECT_EQ(oracle.stats()[0].checked, 2);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].words,
            R"(a row is shown once: {"at_most":1,"count":{"text":"milk"}}: 2 selected after, )"
            "more than 1");
}

TEST(Property, ABadFileIsRefusedWithThePlaceOfTheMistake) {
  EXPECT_EQ(Refusal(R"({"properties": []})"), "p.json: needs \"properties\": a non-empty array");
  EXPECT_EQ(Refusal(R"({"properties": [{"name": "a", "postcondition": []}]})"),
            "p.json: properties[0]: needs \"postcondition\": a non-empty array of checks of the "
            "screen after");
  EXPECT_EQ(
      Refusal(R"({"properties": [{"name": "a", "postcondition": [{"cont": {"text": "x"}}]}]})"),
      "p.json: properties[0].postcondition[0]: unknown key \"cont\" (did you mean \"count\"?); "
      "known: present, absent, activity, kept, in, gone, count, equals, at_most, changed_by");
  EXPECT_EQ(
      Refusal(R"({"properties": [{"name": "a", "postcondition": [{"count": {"text": "x"}}]}]})"),
      "p.json: properties[0].postcondition[0]: \"count\" needs exactly one of \"equals\", "
      "\"at_most\", \"changed_by\"");
  EXPECT_EQ(Refusal(R"({"properties": [{"name": "a", "probability": 2,
                       "postcondition": [{"present": {"text": "x"}}]}]})"),
            "p.json: properties[0].probability: expected a number in (0, 1], got 2");
  EXPECT_NE(Refusal(R"({"properties": [{"name": "a", "interaction": [{"action": "tap"}],
                       "postcondition": [{"present": {"text": "x"}}]}]})")
                .find("p.json: properties[0].interaction[0].action: unknown action \"tap\""),
            std::string::npos);
  EXPECT_EQ(Refusal(R"({"properties": [
                       {"name": "a", "postcondition": [{"present": {"text": "x"}}]},
                       {"name": "a", "postcondition": [{"absent": {"text": "x"}}]}]})"),
            "p.json: properties[1]: the name \"a\" is taken by another property");
}

// Every property file shipped with the bench apps (apps/bench/config) reads.
TEST(Property, TheShippedPropertyFilesRead) {
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::SourceDir() / "apps/bench/config")) {
    if (!entry.path().string().ends_with(".properties.json")) continue;
    ++files;
    auto set = LoadProperties(entry.path());
    EXPECT_TRUE(set.ok()) << set.status().message();
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace roam::oracle
