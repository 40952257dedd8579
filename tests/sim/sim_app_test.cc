#include "sim/sim_app.h"

#include <gtest/gtest.h>

#include "sim/interpreter.h"
#include "sim_test_util.h"
#include "test_paths.h"

namespace roam::sim {
namespace {

using gui::ActionKind;
using namespace roam::sim::testing;

// A small notes app: a list bound to data, an editor with validation, a dialog, a menu, bugs.
const char* kNotes = R"json({
  "app": "notes", "package": "org.roam.notes", "label": "Notes", "start": "Main",
  "vars": {"count": 0, "dark": false, "saved": ""},
  "lists": {"notes": [{"title": "Cinema"}, {"title": "Beach"}]},
  "persist": ["notes"],
  "bugs": [{"id": "notes-crash", "kind": "crash", "summary": "crashes on empty title"},
           {"id": "notes-wrong-delete", "kind": "wrong_behaviour", "summary": "deletes the first"}],
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "title": "Notes ({len.notes})",
     "widgets": [
       {"id": "add", "text": "Add", "on": {"click": [{"navigate": "Edit"}]}},
       {"id": "counter", "text": "Count {var.count}"},
       {"id": "inc", "text": "Inc", "on": {"click": [{"inc": "count", "by": 2}, {"cover": ["Main.inc"]}]}},
       {"id": "dark", "text": "Dark", "checked": "$var.dark"},
       {"id": "only_dark", "text": "Dark on", "visible_if": {"truthy": "$var.dark"}},
       {"id": "clear", "text": "Clear", "enabled_if": {"gt": ["$len.notes", 0]},
        "on": {"click": [{"clear_list": "notes"}]}},
       {"id": "list", "list": "notes", "visible_rows": 3,
        "row": [{"id": "title", "text": "{row.title}",
                 "on": {"click": [{"dialog": "confirm"}],
                        "long_click": [{"update_item": "notes", "at": "$row", "set": {"title": "Edited"}}]}}]}
     ],
     "menu": [{"id": "settings", "text": "Settings", "on": {"click": [{"navigate": "Settings"}]}}],
     "on": {"swipe_left": [{"set": "saved", "to": "swiped"}]}},
    {"id": "Edit", "activity": ".EditActivity", "title": "New note",
     "widgets": [
       {"id": "field", "hint": "Title", "input": {"min": 1, "max": 10, "pattern": "[A-Za-z ]*"}},
       {"id": "save", "text": "Save", "on": {"click": [
         {"crash": {"exception": "java.lang.IllegalStateException", "message": "empty title",
                    "frames": ["org.roam.notes.EditActivity.save(EditActivity.java:42)"]},
          "if": {"eq": ["$input.field", ""]}, "bug": "notes-crash"},
         {"stop": true, "if": {"not": {"valid": "field"}}},
         {"add_item": "notes", "item": {"title": "$input.field"}},
         {"set": "saved", "to": "saved {input.field}"},
         {"back": true}]}},
       {"id": "hang", "text": "Hang", "on": {"click": [{"hang": {"message": "busy"}}]}}
     ]},
    {"id": "Settings", "activity": ".SettingsActivity", "title": "Settings",
     "widgets": [{"id": "done", "text": "Done", "on": {"click": [{"finish": true}]}}]}
  ],
  "dialogs": [
    {"id": "confirm", "title": "Delete {row.title}?",
     "widgets": [
       {"id": "ok", "text": "OK", "on": {"click": [
         {"remove_item": "notes", "at": "$row", "fix": "notes-wrong-delete"},
         {"remove_item": "notes", "at": 0, "bug": "notes-wrong-delete"},
         {"dismiss": true}]}},
       {"id": "cancel", "text": "Cancel", "on": {"click": [{"dismiss": true}]}}]}
  ]
})json";

TEST(SimApp, LaunchShowsStartScreenWithToolbarTitleAndActivity) {
  auto app = MustApp(kNotes);
  const gui::Screen& s = app->screen();
  EXPECT_EQ(s.package, "org.roam.notes");
  EXPECT_EQ(s.activity, "org.roam.notes.MainActivity");
  EXPECT_TRUE(Has(*app, "Notes (2)"));
  EXPECT_TRUE(Has(*app, "More options"));
  EXPECT_EQ(TextOf(*app, "add"), "Add");
  EXPECT_EQ(app->screen().widgets[Find(app->screen(), "add")].resource_id, "org.roam.notes:id/add");
  EXPECT_EQ(app->screen().widgets[Find(app->screen(), "add")].cls, "android.widget.Button");
}

TEST(SimApp, NavigateAndBack) {
  auto app = MustApp(kNotes);
  Click(*app, "add");
  EXPECT_EQ(app->screen().activity, "org.roam.notes.EditActivity");
  Global(*app, ActionKind::kBack);
  EXPECT_EQ(app->screen().activity, "org.roam.notes.MainActivity");
}

TEST(SimApp, IncSetTemplatesAndCover) {
  auto app = MustApp(kNotes);
  Click(*app, "inc");
  Click(*app, "inc");
  EXPECT_EQ(TextOf(*app, "counter"), "Count 4");
  auto units = app->CoveredUnits();
  EXPECT_NE(std::find(units.begin(), units.end(), "Main.inc"), units.end());
  EXPECT_NE(std::find(units.begin(), units.end(), "Main/inc:click"), units.end());
  Global(*app, ActionKind::kSwipeLeft);
  units = app->CoveredUnits();
  EXPECT_NE(std::find(units.begin(), units.end(), "Main:swipe_left"), units.end());
}

TEST(SimApp, CheckboxTogglesVarAndVisibleIf) {
  auto app = MustApp(kNotes);
  EXPECT_FALSE(Has(*app, "only_dark"));
  int i = Find(app->screen(), "dark");
  EXPECT_TRUE(app->screen().widgets[i].checkable);
  EXPECT_FALSE(app->screen().widgets[i].checked);
  Click(*app, "dark");
  EXPECT_TRUE(app->screen().widgets[Find(app->screen(), "dark")].checked);
  EXPECT_TRUE(Has(*app, "only_dark"));
}

TEST(SimApp, ListRowsDialogAndRowIndex) {
  SimOptions fixed;
  fixed.bugs_off = {"notes-wrong-delete"};
  auto app = MustApp(kNotes, fixed);
  EXPECT_TRUE(Has(*app, "Cinema"));
  EXPECT_TRUE(Has(*app, "Beach"));
  Click(*app, "Beach");
  EXPECT_TRUE(Has(*app, "Delete Beach?"));
  EXPECT_FALSE(Has(*app, "add"));  // modal: only the dialog is shown
  Click(*app, "OK");
  EXPECT_TRUE(Has(*app, "Cinema"));
  EXPECT_FALSE(Has(*app, "Beach"));
  Act(*app, ActionKind::kLongClick, "Cinema");
  EXPECT_TRUE(Has(*app, "Edited"));
}

TEST(SimApp, BugOnDeletesWrongRowBugOffDeletesRight) {
  SimOptions on;
  auto app = MustApp(kNotes, on);
  Click(*app, "Beach");
  Click(*app, "OK");
  EXPECT_TRUE(Has(*app, "Beach"));  // the bug removed item 0
  SimOptions off;
  off.bugs_off = {"notes-wrong-delete"};
  auto fixed = MustApp(kNotes, off);
  Click(*fixed, "Beach");
  Click(*fixed, "OK");
  EXPECT_TRUE(Has(*fixed, "Cinema"));
  EXPECT_FALSE(Has(*fixed, "Beach"));
  EXPECT_FALSE(Has(*app, "Cinema"));
}

TEST(SimApp, ClearListAndEnabledIf) {
  auto app = MustApp(kNotes);
  EXPECT_TRUE(app->screen().widgets[Find(app->screen(), "clear")].enabled);
  Click(*app, "clear");
  EXPECT_FALSE(Has(*app, "Cinema"));
  EXPECT_EQ(TextOf(*app, "Notes (0)"), "Notes (0)");
  EXPECT_FALSE(app->screen().widgets[Find(app->screen(), "clear")].enabled);
}

TEST(SimApp, EditFieldValidationAndAddItem) {
  auto app = MustApp(kNotes);
  Click(*app, "add");
  int f = Find(app->screen(), "field");
  EXPECT_TRUE(app->screen().widgets[f].editable);
  EXPECT_EQ(app->screen().widgets[f].hint, "Title");
  Type(*app, "field", "bad123");  // fails the pattern: save does nothing
  EXPECT_EQ(TextOf(*app, "field"), "bad123");
  Click(*app, "save");
  EXPECT_EQ(app->screen().activity, "org.roam.notes.EditActivity");
  Type(*app, "field", "Park");
  Click(*app, "save");
  EXPECT_EQ(app->screen().activity, "org.roam.notes.MainActivity");
  EXPECT_TRUE(Has(*app, "Notes (3)"));
  Click(*app, "list");  // lists are scrollable, a click is a no-op
  Act(*app, ActionKind::kScrollDown, "list");
  EXPECT_TRUE(Has(*app, "Park"));
}

TEST(SimApp, CrashFaultCarriesFramesAndBugIdAndShowsLauncher) {
  auto app = MustApp(kNotes);
  Click(*app, "add");
  Click(*app, "save");
  auto faults = app->DrainFaults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].kind, Fault::Kind::kCrash);
  EXPECT_EQ(faults[0].exception, "java.lang.IllegalStateException");
  EXPECT_EQ(faults[0].message, "empty title");
  EXPECT_EQ(faults[0].bug_id, "notes-crash");
  ASSERT_EQ(faults[0].frames.size(), 1u);
  EXPECT_EQ(faults[0].frames[0], "org.roam.notes.EditActivity.save(EditActivity.java:42)");
  EXPECT_FALSE(app->running());
  EXPECT_EQ(app->screen().package, "com.android.launcher3");
  EXPECT_TRUE(app->DrainFaults().empty());
  Click(*app, "Notes");  // the launcher icon
  EXPECT_TRUE(app->running());
  EXPECT_EQ(app->screen().activity, "org.roam.notes.MainActivity");
}

TEST(SimApp, CrashBugOffDoesNotCrash) {
  SimOptions off;
  off.bugs_off = {"notes-crash"};
  auto app = MustApp(kNotes, off);
  Click(*app, "add");
  Click(*app, "save");
  EXPECT_TRUE(app->DrainFaults().empty());
  EXPECT_TRUE(app->running());
}

TEST(SimApp, HangIsAnAnrAndKillsTheProcess) {
  auto app = MustApp(kNotes);
  Click(*app, "add");
  Click(*app, "hang");
  auto faults = app->DrainFaults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].kind, Fault::Kind::kAnr);
  EXPECT_EQ(faults[0].message, "busy");
  EXPECT_EQ(faults[0].bug_id, "");
  ASSERT_EQ(faults[0].frames.size(), 1u);
  EXPECT_EQ(faults[0].frames[0], "org.roam.notes.Edit.onClick(Edit.java)");
  EXPECT_FALSE(app->running());
}

TEST(SimApp, BackFromLastScreenLeavesAndLaunchResumes) {
  auto app = MustApp(kNotes);
  Click(*app, "inc");
  Global(*app, ActionKind::kBack);
  EXPECT_EQ(app->screen().package, "com.android.launcher3");
  EXPECT_TRUE(app->running());
  Global(*app, ActionKind::kBack);  // no-op on the launcher
  app->Launch();
  EXPECT_EQ(TextOf(*app, "counter"), "Count 2");
}

// `leave`: a Share button opens another app; the launcher shows (the simulator draws no
// other app), the app stays alive and resumes on its screen, the rest of the handler runs.
TEST(SimApp, LeaveSendsTheAppToTheBackgroundAndLaunchResumes) {
  auto app = MustApp(R"({"app": "s", "package": "org.s", "start": "Main",
    "screens": [
      {"id": "Main", "activity": ".Main", "widgets": [
        {"id": "go", "text": "Go", "on": {"click": [{"navigate": "Detail"}]}}]},
      {"id": "Detail", "activity": ".Detail", "widgets": [
        {"id": "share", "text": "Share", "on": {"click": [{"leave": true}, {"cover": ["shared"]}]}}]}]})");
  Click(*app, "go");
  size_t before = app->units_covered();
  Click(*app, "share");
  EXPECT_EQ(app->screen().package, "com.android.launcher3");
  EXPECT_TRUE(app->running());
  EXPECT_EQ(app->units_covered(), before + 2);  // the handler and "shared"
  app->Launch();
  EXPECT_TRUE(Has(*app, "share"));  // resumed on Detail, not restarted at Main
}

TEST(SimApp, StopResetsNonPersistentData) {
  auto app = MustApp(kNotes);
  Click(*app, "inc");
  Click(*app, "Beach");
  Click(*app, "OK");  // the planted bug removes Cinema
  Global(*app, ActionKind::kRestart);
  EXPECT_EQ(TextOf(*app, "counter"), "Count 0");  // vars reset
  EXPECT_FALSE(Has(*app, "Cinema"));              // the list persists
  app->ClearData();
  app->Launch();
  EXPECT_TRUE(Has(*app, "Cinema"));
}

TEST(SimApp, MenuByKeyAndOverflowButton) {
  auto app = MustApp(kNotes);
  Global(*app, ActionKind::kMenu);
  EXPECT_TRUE(Has(*app, "Settings"));
  EXPECT_FALSE(Has(*app, "add"));
  Global(*app, ActionKind::kBack);
  EXPECT_TRUE(Has(*app, "add"));
  Click(*app, "More options");
  Click(*app, "Settings");
  EXPECT_EQ(app->screen().activity, "org.roam.notes.SettingsActivity");
  Click(*app, "done");
  EXPECT_EQ(app->screen().activity, "org.roam.notes.MainActivity");
}

// A widget with a scroll handler says it scrolls, as a seek bar on a phone takes a swipe:
// before, only lists did, and no strategy could reach apps/bench settings' volume and
// brightness handlers (nor an imported recording's scrolls).
TEST(SimApp, AWidgetWithAScrollHandlerScrolls) {
  auto app = MustApp(R"({"app": "seek", "package": "org.seek", "start": "Main",
    "screens": [{"id": "Main", "activity": ".Main", "widgets": [
      {"id": "volume", "class": "android.widget.SeekBar", "desc": "Volume",
       "on": {"scroll_right": [{"cover": ["Volume.onProgressChanged"]}]}},
      {"id": "label", "text": "Volume"}]}]})");
  ASSERT_TRUE(app);
  const int volume = Find(app->screen(), "Volume");
  ASSERT_GE(volume, 0);
  EXPECT_TRUE(app->screen().widgets[volume].scrollable);
  EXPECT_FALSE(app->screen().widgets[Find(app->screen(), "label")].scrollable);
  const size_t units = app->units_covered();
  app->Perform(gui::MakeWidgetAction(ActionKind::kScrollRight, app->screen(), volume));
  EXPECT_GT(app->units_covered(), units);
}

TEST(SimApp, UnknownTargetsAndUnhandledKeysAreNoOps) {
  auto app = MustApp(kNotes);
  auto before = app->Save();
  gui::Action a = gui::MakeWidgetAction(ActionKind::kClick, app->screen(), 0);
  a.target->path = "0/99/3";
  a.widget = -1;
  app->Perform(a);
  Global(*app, ActionKind::kKey, "VOLUME_UP");
  Global(*app, ActionKind::kSwipeUp);
  auto after = app->Save();
  after->step = before->step;
  EXPECT_TRUE(*before == *after);
}

TEST(SimApp, ItsLogicHashIsThatOfItsSavedStateAndFollowsWhatDecidesBehaviour) {
  auto app = MustApp(kNotes);
  const uint64_t start = app->LogicHash();
  EXPECT_EQ(start, LogicHash(*app->Save()));
  Click(*app, "inc");
  EXPECT_NE(app->LogicHash(), start) << "a variable changed";
  EXPECT_EQ(app->LogicHash(), LogicHash(*app->Save()));
}

TEST(SimApp, StaleWidgetIndexFallsBackToPath) {
  auto app = MustApp(kNotes);
  const gui::Screen& s = app->screen();
  gui::Action a = gui::MakeWidgetAction(ActionKind::kClick, s, Find(s, "inc"));
  a.widget = Find(s, "add");  // a wrong hint: the path wins
  app->Perform(a);
  EXPECT_EQ(TextOf(*app, "counter"), "Count 2");
}

TEST(SimApp, CoverageCountsHandlersScreensAndCoverNames) {
  auto app = MustApp(kNotes);
  // handlers: Main/add, Main/inc, Main/clear, Main/title:click, Main/title:long_click,
  // Main/settings, Main:swipe_left, Edit/save, Edit/hang, Settings/done, confirm/ok, confirm/cancel
  // = 12; creates: Main, Edit, Settings, confirm = 4; cover: Main.inc = 1.
  EXPECT_EQ(app->units_total(), 17u);
  EXPECT_EQ(app->units_covered(), 1u);  // Main:create
  Click(*app, "inc");
  EXPECT_EQ(app->units_covered(), 3u);
  Click(*app, "inc");
  EXPECT_EQ(app->units_covered(), 3u);
  Click(*app, "add");
  EXPECT_EQ(app->units_covered(), 5u);  // Main/add:click, Edit:create
}

TEST(SimApp, ActivitiesAreFullyQualifiedInSpecOrder) {
  auto app = MustApp(kNotes);
  EXPECT_EQ(app->Activities(),
            (std::vector<std::string>{"org.roam.notes.MainActivity", "org.roam.notes.EditActivity",
                                      "org.roam.notes.SettingsActivity"}));
}

TEST(SimApp, ABroadcastReachesTheReceiverOfTheScreenInFrontOnly) {
  auto spec = LoadSpec(roam::testing::SourceDir() / "tests/fixtures/apps/receivers.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimApp app(*spec, {});
  app.Launch();
  EXPECT_EQ(app.Broadcasts(), (std::vector<std::string>{"android.intent.action.BATTERY_LOW",
                                                        "org.roam.receivers.REFRESH"}));
  const std::string battery = "android.intent.action.BATTERY_LOW";
  Global(app, ActionKind::kBroadcast, battery);  // Main takes none of it
  EXPECT_TRUE(app.DrainFaults().empty());
  Global(app, ActionKind::kBroadcast, "org.roam.receivers.REFRESH");
  EXPECT_TRUE(Has(app, "Refreshed 1 times"));
  Click(app, "Player");
  Global(app, ActionKind::kBroadcast, "org.roam.receivers.REFRESH");  // Main's, not in front
  Global(app, ActionKind::kBroadcast, battery);
  auto faults = app.DrainFaults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].bug_id, "receivers-battery-npe");
  EXPECT_FALSE(app.running());
  app.Launch();
  EXPECT_TRUE(Has(app, "Refreshed 0 times"));  // a var, lost with the process

  SimOptions off;
  off.bugs_off = {"receivers-battery-npe"};
  SimApp fixed(*spec, off);
  fixed.Launch();
  Click(fixed, "Player");
  Global(fixed, ActionKind::kBroadcast, battery);
  EXPECT_TRUE(fixed.DrainFaults().empty());
  EXPECT_TRUE(Has(fixed, "Battery low: playback paused"));
  EXPECT_EQ(MustApp(kNotes)->Broadcasts(), std::vector<std::string>{});
}

}  // namespace
}  // namespace roam::sim
