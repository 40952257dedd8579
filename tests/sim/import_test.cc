// sim/import: a recording as an app spec, faithful to it: the launch leads where the recording's
// did, a recorded action does what it did, an action never recorded does nothing, and every
// handler is a code unit. On a recording written here, and on the real ones in ../shared/real.
#include "sim/import.h"

#include <fstream>

#include <gtest/gtest.h>

#include "gui/action.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::sim {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json View(int id, int parent, std::vector<int> children, std::vector<int> b, const std::string& cls,
          const std::string& text, bool clickable) {
  return {{"temp_id", id},        {"parent", parent},
          {"children", children}, {"bounds", {{b[0], b[1]}, {b[2], b[3]}}},
          {"class", cls},         {"resource_id", text.empty() ? "" : "org.rec:id/" + text},
          {"text", text},         {"content_description", nullptr},
          {"package", "org.rec"}, {"clickable", clickable},
          {"enabled", true}};
}

// A recording of org.rec: the launch shows Home (buttons Open and Stay); Open leads to Detail;
// Stay changes nothing; Share leaves for the launcher; back on Detail returns Home; a scroll down
// on Home's frame changes nothing.
fs::path WriteRecording() {
  const fs::path dir = testing::TempDir("import_rec");
  fs::create_directories(dir / "states");
  fs::create_directories(dir / "events");
  std::ofstream(dir / "utg.js")
      << "var utg = \n"
      << json{{"app_package", "org.rec"},
              {"nodes",
               {{{"id", "home"}, {"package", "org.rec"}, {"activity", ".Home"}},
                {{"id", "detail"}, {"package", "org.rec"}, {"activity", ".Detail"}},
                {{"id", "launcher"},
                 {"package", "com.android.launcher3"},
                 {"activity", ".Launcher"}}}},
              {"edges", json::array()}}
             .dump();
  const json root =
      View(0, -1, {1, 2, 3}, {0, 0, 1080, 1920}, "android.widget.FrameLayout", "", false);
  const json open = View(1, 0, {}, {0, 300, 1080, 420}, "android.widget.Button", "Open", true);
  const json stay = View(2, 0, {}, {0, 500, 1080, 620}, "android.widget.Button", "Stay", true);
  const json share = View(3, 0, {}, {0, 700, 1080, 820}, "android.widget.Button", "Share", true);
  std::ofstream(dir / "states/state_1.json") << json{
      {"state_str", "home"},
      {"foreground_activity", "org.rec/.Home"},
      {"views", {root, open, stay, share}}}.dump();
  std::ofstream(dir / "states/state_2.json") << json{
      {"state_str", "detail"},
      {"foreground_activity", "org.rec/.Detail"},
      {"views",
       {View(0, -1, {1}, {0, 0, 1080, 1920}, "android.widget.FrameLayout", "", false),
        View(1, 0, {}, {0, 300, 1080, 420}, "android.widget.TextView", "Details",
             false)}}}.dump();
  auto event = [&](const std::string& name, const std::string& from, const std::string& to,
                   json e) {
    std::ofstream(dir / "events" / name)
        << json{{"start_state", from}, {"stop_state", to}, {"event", e}}.dump();
  };
  event("event_1.json", "launcher", "home", {{"event_type", "intent"}});
  event("event_2.json", "home", "detail", {{"event_type", "touch"}, {"view", open}});
  event("event_3.json", "detail", "home", {{"event_type", "key"}, {"name", "BACK"}});
  event("event_4.json", "home", "home", {{"event_type", "touch"}, {"view", stay}});
  event("event_5.json", "home", "home",
        {{"event_type", "scroll"}, {"view", root}, {"direction", "DOWN"}});
  event("event_6.json", "home", "launcher", {{"event_type", "touch"}, {"view", share}});
  return dir;
}

// The index of the widget showing `text`.
int Find(const gui::Screen& screen, const std::string& text) {
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i)
    if (screen.widgets[i].text == text) return i;
  return -1;
}

// Issue 60, row 10: a 133 MB state file took 2.3 GB (its JSON tree). One past
// kMaxStateFileBytes is skipped, named with its size, before it is parsed.
TEST(ImportTest, Issue60AStateFilePastTheCapIsSkippedUnparsed) {
  const fs::path dir = WriteRecording();
  const json root = View(0, -1, {}, {0, 0, 1080, 1920}, "android.widget.TextView",
                         std::string(kMaxStateFileBytes, 'x'), false);
  std::ofstream(dir / "states/state_3.json") << json{
      {"state_str", "huge"},
      {"foreground_activity", "org.rec/.Huge"},
      {"views", {root}}}.dump();
  auto rec = ReadRecording(dir);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  ASSERT_EQ(rec->skipped.size(), 1u);
  EXPECT_NE(rec->skipped[0].find("state_3.json: "), std::string::npos) << rec->skipped[0];
  EXPECT_NE(rec->skipped[0].find(fmt::format("more than the {}", kMaxStateFileBytes)),
            std::string::npos)
      << rec->skipped[0];
  for (const auto& st : rec->states) EXPECT_NE(st.id, "huge");
  EXPECT_EQ(rec->states.size(), 3u);  // the utg's home, detail and launcher
}

TEST(ImportTest, ARecordingBecomesAnAppThatDoesWhatItRecorded) {
  auto rec = ReadRecording(WriteRecording());
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ImportStats stats;
  auto doc = ImportRecording(*rec, "rec", stats);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(stats.screens, 2u);
  // Open's, Stay's and Share's clicks, Detail's back and the frame's scroll; the intent is the
  // tool's, not a user's.
  EXPECT_EQ(stats.handlers, 5u);
  EXPECT_EQ(stats.events_mapped, 5u);
  EXPECT_EQ(stats.events_unmapped, 0u);
  auto spec = LoadSpecJson(*doc, "imported");
  ASSERT_TRUE(spec.ok()) << spec.status().message();

  SimApp app(*spec, {});
  app.Launch();
  EXPECT_EQ(app.screen().activity, "org.rec.Home");
  const size_t units_before = app.units_covered();
  // Never recorded: a long click on Open does nothing.
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kLongClick, app.screen(), Find(app.screen(), "Open")));
  EXPECT_EQ(app.screen().activity, "org.rec.Home");
  EXPECT_EQ(app.units_covered(), units_before);
  // Stay: covered, stays.
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kClick, app.screen(), Find(app.screen(), "Stay")));
  EXPECT_EQ(app.screen().activity, "org.rec.Home");
  EXPECT_EQ(app.units_covered(), units_before + 1);
  // Open: to Detail, as recorded (its handler and Detail:create covered); its widgets as
  // recorded, at their bounds.
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kClick, app.screen(), Find(app.screen(), "Open")));
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
  const int details = Find(app.screen(), "Details");
  ASSERT_GE(details, 0);
  EXPECT_EQ(app.screen().widgets[details].bounds, (gui::Rect{0, 300, 1080, 420}));
  EXPECT_EQ(app.units_covered(), units_before + 3);
  // Share left the app for the launcher in the recording: here too.
  app.Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
  ASSERT_EQ(app.screen().activity, "org.rec.Home");
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kClick, app.screen(), Find(app.screen(), "Share")));
  EXPECT_NE(app.screen().package, "org.rec");
}

// Kea records a rotation with a null event_type and the event in event_str; on My Expenses
// (../shared/real/models/kea) the screens after it were out of every strategy's reach.
TEST(ImportTest, ARecordedRotationIsTheScreensRotateHandler) {
  const fs::path dir = WriteRecording();
  std::ofstream(dir / "events/event_7.json") << json{
      {"start_state", "home"},
      {"stop_state", "detail"},
      {"event", {{"event_type", nullptr}, {"log_lines", nullptr}}},
      {"event_str",
       "RotateDeviceToLandscapeEvent()"}}.dump();
  auto rec = ReadRecording(dir);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ImportStats stats;
  auto doc = ImportRecording(*rec, "rec", stats);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(stats.handlers, 6u);  // as above, and Home's rotation
  EXPECT_EQ(stats.events_unmapped, 0u);
  auto spec = LoadSpecJson(*doc, "imported");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimApp app(*spec, {});
  app.Launch();
  const size_t units_before = app.units_covered();
  app.Perform(gui::MakeGlobalAction(gui::ActionKind::kRotate));
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
  EXPECT_GT(app.units_covered(), units_before);
}

// A recorded key is the screen's handler of that key, a scroll the scrolled view's handler of
// its direction (a swipe of the screen when no view is named), and the simulator offers both: a
// scroll handler makes its widget scrollable. DroidBot's and Kea's recordings go back and scroll
// on the way to screens that nothing else leads to.
TEST(ImportTest, ARecordedKeyOrScrollIsAHandlerThatDoesWhatItDid) {
  const fs::path dir = WriteRecording();
  std::ofstream(dir / "events/event_7.json")
      << json{{"start_state", "home"},
              {"stop_state", "detail"},
              {"event", {{"event_type", "scroll"}, {"direction", "LEFT"}}}}
             .dump();
  std::ofstream(dir / "events/event_8.json") << json{
      {"start_state", "home"},
      {"stop_state", "home"},
      {"event",
       {{"event_type", "scroll"},
        {"view", View(2, 0, {}, {0, 500, 1080, 620}, "android.widget.Button", "Stay",
                      true)}}}}.dump();
  auto rec = ReadRecording(dir);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ImportStats stats;
  auto doc = ImportRecording(*rec, "rec", stats);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(stats.handlers, 6u);         // the five of the recording above, and Home's swipe
  EXPECT_EQ(stats.events_unmapped, 1u);  // a scroll without its direction
  auto spec = LoadSpecJson(*doc, "imported");
  ASSERT_TRUE(spec.ok()) << spec.status().message();

  SimApp app(*spec, {});
  app.Launch();
  size_t units = app.units_covered();
  // The frame scrolls down (it says so), covering its handler, and stays.
  const gui::Screen home = app.screen();
  int frame = -1;
  for (int i = 0; i < static_cast<int>(home.widgets.size()); ++i)
    if (home.widgets[i].scrollable) frame = i;
  ASSERT_GE(frame, 0);
  EXPECT_EQ(home.widgets[frame].cls, "android.widget.FrameLayout");
  app.Perform(gui::MakeWidgetAction(gui::ActionKind::kScrollDown, home, frame));
  EXPECT_EQ(app.screen().activity, "org.rec.Home");
  EXPECT_EQ(app.units_covered(), ++units);
  // The swipe left of the whole screen went to Detail.
  app.Perform(gui::MakeGlobalAction(gui::ActionKind::kSwipeLeft));
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
  units = app.units_covered();
  // Back on Detail is Detail's recorded back: Home, covered.
  app.Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
  EXPECT_EQ(app.screen().activity, "org.rec.Home");
  EXPECT_EQ(app.units_covered(), units + 1);
}

// Where an action led is where the recording's next event began when the stop state it recorded
// was taken too early: the app was still starting (the launcher), its views were not recorded,
// or nothing had changed yet. DroidBot's QQ Music recording (../shared/real) launched into the
// launcher's state and reached its first screens so; the launch then fell on a later `am start`
// that resumed a screen deep in the app, and every strategy covered the same 14 of 38 units.
TEST(ImportTest, AnActionLeadsWhereTheRecordingsNextEventBegan) {
  const fs::path dir = WriteRecording();
  fs::remove_all(dir / "events");
  fs::create_directories(dir / "events");
  auto event = [&](const std::string& name, const std::string& from, const std::string& to,
                   json e) {
    std::ofstream(dir / "events" / name)
        << json{{"start_state", from}, {"stop_state", to}, {"event", e}}.dump();
  };
  auto view = [](int id, const std::string& text, int top) {
    return View(id, 0, {}, {0, top, 1080, top + 120}, "android.widget.Button", text, true);
  };
  event("event_1.json", "launcher", "launcher", {{"event_type", "intent"}});
  event("event_2.json", "home", "loading",
        {{"event_type", "touch"}, {"view", view(1, "Open", 300)}});
  event("event_3.json", "detail", "home", {{"event_type", "key"}, {"name", "BACK"}});
  event("event_4.json", "home", "home", {{"event_type", "touch"}, {"view", view(2, "Stay", 500)}});
  event("event_5.json", "detail", "detail", {{"event_type", "intent"}});
  event("event_6.json", "detail", "launcher", {{"event_type", "key"}, {"name", "HOME"}});
  auto rec = ReadRecording(dir);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ImportStats stats;
  auto doc = ImportRecording(*rec, "rec", stats);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  auto spec = LoadSpecJson(*doc, "imported");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimApp app(*spec, {});
  app.Launch();
  ASSERT_EQ(app.screen().activity, "org.rec.Home");  // not the launcher, nor the later intent's
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kClick, app.screen(), Find(app.screen(), "Open")));
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
  app.Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
  ASSERT_EQ(app.screen().activity, "org.rec.Home");
  app.Perform(
      gui::MakeWidgetAction(gui::ActionKind::kClick, app.screen(), Find(app.screen(), "Stay")));
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
}

// Issue 64: a recorded `am start` of an activity that reached the app says it is exported (a
// shell cannot start one that is not); one the recording never shows is said, not invented.
TEST(ImportTest, AnActivityTheRecordingStartedFromOutsideIsExported) {
  const fs::path dir = WriteRecording();
  auto event = [&](const std::string& name, const std::string& from, const std::string& to,
                   json e) {
    std::ofstream(dir / "events" / name)
        << json{{"start_state", from}, {"stop_state", to}, {"event", e}}.dump();
  };
  event("event_1.json", "launcher", "home",
        {{"event_type", "intent"}, {"intent", "am start org.rec/.Splash"}});
  event("event_7.json", "launcher", "detail",
        {{"event_type", "intent"}, {"intent", "am start -n org.rec/org.rec.Detail"}});
  event("event_8.json", "detail", "launcher",
        {{"event_type", "intent"}, {"intent", "am force-stop org.rec"}});
  auto rec = ReadRecording(dir);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ImportStats stats;
  auto doc = ImportRecording(*rec, "rec", stats);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  for (const json& screen : (*doc)["screens"])
    EXPECT_EQ(screen.contains("exported"), screen["activity"] == ".Detail") << screen["activity"];
  bool said = false;
  for (const auto& note : stats.notes) said |= note.find("org.rec.Splash") != std::string::npos;
  EXPECT_TRUE(said);
  auto spec = LoadSpecJson(*doc, "imported");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  SimApp app(*spec, {});
  EXPECT_EQ(app.StartIntent({.component = "org.rec.Detail"}), IntentOutcome::kStarted);
  EXPECT_EQ(app.screen().activity, "org.rec.Detail");
  EXPECT_EQ(app.StartIntent({.component = "org.rec.Home"}), IntentOutcome::kNotExported);
}

TEST(ImportTest, RealRecordingsImportAndLoad) {
  const fs::path real = testing::RealDataDir();
  if (real.empty()) GTEST_SKIP() << "../shared/real is absent";
  int imported = 0;
  for (const auto& entry : fs::recursive_directory_iterator(real / "models")) {
    if (entry.path().filename() != "utg.js") continue;
    auto rec = ReadRecording(entry.path());
    ASSERT_TRUE(rec.ok()) << rec.status().message();
    ImportStats stats;
    auto doc = ImportRecording(*rec, "real", stats);
    if (!doc.ok()) {  // a recording without state files: said so, not invented
      EXPECT_NE(doc.status().message().find("has its views"), std::string::npos);
      continue;
    }
    auto spec = LoadSpecJson(*doc, entry.path().string());
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    EXPECT_GT(stats.handlers, 0u) << entry.path();
    EXPECT_LE(stats.handlers, stats.events_mapped);
    // Every handler is a code unit of the app.
    EXPECT_GE((*spec)->units().size(), stats.handlers);
    ++imported;
  }
  EXPECT_GE(imported, 1);
}

}  // namespace
}  // namespace roam::sim
