// `roam sim stats`: the figures of one screen, of a small graph and of a small spec walked in the
// simulator, all with answers known by hand; the recording reader on ../shared/real.
#include "sim/stats.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sim/recording.h"
#include "sim/sim_app.h"
#include "test_paths.h"

namespace roam::sim {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

gui::Widget W(const std::string& cls, int parent, gui::Rect bounds) {
  gui::Widget w;
  w.cls = cls;
  w.package = "org.app";
  w.parent = parent;
  w.bounds = bounds;
  return w;
}

TEST(StatsTest, FigureQuantilesAreNearestRank) {
  Figure f;
  EXPECT_EQ(f.Median(), 0);
  for (double v : {5, 1, 4, 2, 3, 10, 6, 7, 8, 9}) f.Add(v);
  EXPECT_EQ(f.Median(), 5);
  EXPECT_EQ(f.P90(), 9);
  EXPECT_EQ(f.Quantile(1), 10);
  EXPECT_DOUBLE_EQ(f.Mean(), 5.5);
}

TEST(StatsTest, OneScreen) {
  gui::Screen s;
  s.package = "org.app";
  s.widgets.push_back(W("android.widget.FrameLayout", -1, {0, 0, 1080, 1920}));
  gui::Widget button = W("android.widget.Button", 0, {0, 0, 100, 100});
  button.clickable = true;
  s.widgets.push_back(button);
  gui::Widget edit = W("android.widget.EditText", 0, {0, 100, 100, 200});
  edit.editable = true;
  edit.clickable = true;
  s.widgets.push_back(edit);
  gui::Widget list = W("android.widget.ListView", 0, {0, 200, 1080, 1800});
  list.scrollable = true;
  s.widgets.push_back(list);
  for (int i = 0; i < 3; ++i) {
    gui::Widget row = W("android.widget.LinearLayout", 3, {0, 200 + i * 100, 1080, 300 + i * 100});
    row.clickable = true;
    s.widgets.push_back(row);
    s.widgets.push_back(W("android.widget.TextView", static_cast<int>(s.widgets.size()) - 1,
                          {0, 200 + i * 100, 500, 300 + i * 100}));
  }
  gui::Widget disabled = W("android.widget.Button", 0, {0, 1800, 100, 1900});
  disabled.clickable = true;
  disabled.enabled = false;
  s.widgets.push_back(disabled);
  s.Link();
  ScreenFigures f = MeasureScreen(s);
  EXPECT_EQ(f.actionable, 6);  // button, edit, list, three rows; not the disabled one
  EXPECT_EQ(f.text_fields, 1);
  ASSERT_EQ(f.list_lengths.size(), 1u);
  EXPECT_EQ(f.list_lengths[0], 3);  // rows, not their texts
  EXPECT_FALSE(f.dialog);
  s.widgets[1].resource_id = "android:id/button1";
  EXPECT_TRUE(MeasureScreen(s).dialog);
}

// launcher(0) -> A(1) -> B(2) -> browser(3); A -> A; B -> launcher; a kill by the tool.
TEST(StatsTest, AGraphWithKnownShares) {
  ExplorationGraph g;
  g.package = "org.app";
  g.states = {{"com.android.launcher3", ".Launcher", {}},
              {"org.app", ".A", {}},
              {"org.app", ".B", {}},
              {"com.android.chrome", ".Browser", {}},
              {"org.app", ".B", {}}};
  g.events = {{0, 1, true, true, false},  {1, 1, false, false, false}, {1, 2, false, true, false},
              {2, 3, false, true, false}, {2, 0, false, true, false},  {2, 4, false, true, false},
              {1, 0, true, true, false},  {1, 1, false, false, false}};
  AppStats st = StatsOfGraph(g, "g", "recording");
  EXPECT_EQ(st.states, 3u);
  EXPECT_EQ(st.activities, 2u);
  EXPECT_EQ(st.events, 6u);  // the launch and the kill are the tool's
  EXPECT_EQ(st.no_change, 2u);
  EXPECT_EQ(st.leave, 1u);
  EXPECT_EQ(st.to_launcher, 1u);
  EXPECT_EQ(st.activity_depth.values, (std::vector<double>{1, 2}));  // .A at 1, .B at 2
  EXPECT_EQ(st.fanout.values, (std::vector<double>{1, 3}));          // A: {B}; B: 3 targets
  EXPECT_EQ(st.screens_per_activity.values, (std::vector<double>{1, 2}));
  std::string table = FormatStatsTable({st});
  EXPECT_NE(table.find("33% (2/6)"), std::string::npos) << table;  // no change: 2 of 6
}

// Main: Go (to Second), Nothing (covers a unit only), Share (leaves the app).
// Second: one edit field and back.
const char* kSmallApp = R"({
  "app": "small", "package": "org.small", "start": "Main",
  "screens": [
    {"id": "Main", "activity": ".MainActivity", "widgets": [
      {"id": "go", "text": "Go", "on": {"click": [{"navigate": "Second"}]}},
      {"id": "nothing", "text": "Like", "on": {"click": [{"cover": ["Main.like"]}]}},
      {"id": "share", "text": "Share", "on": {"click": [{"leave": true}]}}]},
    {"id": "Second", "activity": ".SecondActivity", "widgets": [
      {"id": "name", "hint": "Name", "input": {"min": 1}}]}]
})";

TEST(StatsTest, AWalkOfASmallSpec) {
  auto spec = LoadSpecJson(json::parse(kSmallApp), "small");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ExplorationGraph g = WalkSpec(*spec, WalkOptions{});
  AppStats st = StatsOfGraph(g, "small", "spec");
  EXPECT_TRUE(st.notes.empty());
  EXPECT_EQ(st.activities, 2u);
  // Main and Second: what is typed is walked as states of their own, counted as one.
  EXPECT_EQ(st.states, 2u);
  EXPECT_EQ(st.activity_depth.values, (std::vector<double>{1, 2}));
  // Main: 3 clicks + back; Second x5: the field (click, 4 texts) ... ActionsFor gives the
  // field a click and an input_text, so 1 + 4 + back = 6 each.
  EXPECT_EQ(st.events, 4u + 5u * 6u);
  // Main: Like. Each Second: the click on the field, and typing the text it already holds.
  EXPECT_EQ(st.no_change, 1u + 5u + 4u);
  // Share and back on Main leave for the launcher (the simulator shows it for another app).
  EXPECT_EQ(st.to_launcher, 2u);
  EXPECT_EQ(st.leave, 0u);
  EXPECT_EQ(st.screens_measured, 2u);
  EXPECT_EQ(st.text_fields.Quantile(1), 1);
}

TEST(StatsTest, ShippedAppsWalkWithinTheirBounds) {
  auto stats = MeasurePath(roam::testing::SourceDir() / "apps" / "diary.json", WalkOptions{});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->kind, "spec");
  EXPECT_GT(stats->activities, 3u);
  EXPECT_GE(stats->actionable.Median(), 2);  // its lists fit their windows: no scroll
  EXPECT_GT(stats->events, stats->no_change);
}

TEST(StatsTest, UnreadableInputsSayWhere) {
  fs::path dir = roam::testing::TempDir("stats_bad");
  { std::ofstream(dir / "utg.js") << "var utg = \n{\n  \"nodes\": [,]\n}"; }
  auto rec = ReadRecording(dir);
  ASSERT_FALSE(rec.ok());
  EXPECT_NE(rec.status().message().find("utg.js"), std::string::npos) << rec.status().message();
  EXPECT_NE(rec.status().message().find("3:"), std::string::npos) << rec.status().message();
  std::ofstream(dir / "x.yaml") << "a: 1\n";
  auto yaml = MeasurePath(dir / "x.yaml", WalkOptions{});
  ASSERT_FALSE(yaml.ok());
  EXPECT_TRUE(yaml.status().IsUnsupported());
  EXPECT_FALSE(MeasurePath(dir / "missing.json", WalkOptions{}).ok());
}

TEST(StatsTest, RealRecordings) {
  fs::path real = roam::testing::RealDataDir();
  if (real.empty()) GTEST_SKIP() << "../shared/real is absent";
  fs::path kea = real / "models" / "kea" / "LiuGuanYi-1__G05_KeaProject";
  fs::path droidbot = real / "models" / "droidbot" / "ToolmanInside__DroidbotExp";
  if (!fs::exists(kea) || !fs::exists(droidbot)) GTEST_SKIP() << "the recordings moved";

  auto k = ReadRecording(kea);  // finds output/utg.js
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->package, "org.totschnig.myexpenses.debug");
  EXPECT_TRUE(k->events_from_files);
  EXPECT_EQ(k->events.size(), 15u);
  size_t with_views = 0;
  for (const auto& s : k->states) with_views += s.screen.has_value();
  EXPECT_EQ(with_views, 11u);  // 16 all_states/*.json files, 11 distinct states
  AppStats ks = StatsOfGraph(GraphOfRecording(*k), "kea", "recording");
  EXPECT_EQ(ks.activities, 3u);
  EXPECT_GT(ks.actionable.Median(), 3);

  auto d = ReadRecording(droidbot);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->package, "com.tencent.qqmusic");
  ASSERT_EQ(d->skipped.size(), 1u);  // one empty event file, left by a killed run
  EXPECT_NE(d->skipped[0].find("event_2021-11-23_105731.json"), std::string::npos);
  EXPECT_EQ(d->events.size(), 337u);
  AppStats ds = StatsOfGraph(GraphOfRecording(*d), "droidbot", "recording");
  EXPECT_GT(ds.no_change, 0u);
  EXPECT_GT(ds.leave, 0u);  // the camera, the permission dialog
  EXPECT_GE(ds.activity_depth.Quantile(1), 2);
}

TEST(StatsTest, RealDumps) {
  fs::path real = roam::testing::RealDataDir();
  if (real.empty()) GTEST_SKIP() << "../shared/real is absent";
  auto stats = MeasurePath(real / "dumps", WalkOptions{});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_GT(stats->screens_measured, 20u);
  EXPECT_GT(stats->actionable.Median(), 5);
}

}  // namespace
}  // namespace roam::sim
