// Acceptance tests of the first half of the benchmark suite (apps/bench/notes, tube, radio,
// settings, news): every spec loads, documents its ground truth, and scripted walks through the
// SimApp API prove each planted bug with it on and its absence with it off; crashes and ANRs carry
// their bug id; a random walk with every bug off raises nothing.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "test_paths.h"
#include "walk.h"

namespace roam::sim {
namespace {

namespace fs = std::filesystem;
using gui::ActionKind;
using gui::Screen;
using gui::Widget;

constexpr char kNotes[] = "apps/bench/notes.json";
constexpr char kTube[] = "apps/bench/tube.json";
constexpr char kRadio[] = "apps/bench/radio.json";
constexpr char kSettings[] = "apps/bench/settings.json";
constexpr char kNews[] = "apps/bench/news.json";

using testing_walk::AllBugIds;
using testing_walk::AppPath;
using testing_walk::Load;
using testing_walk::NoFault;
using testing_walk::OneFatalFault;
using testing_walk::Walk;

// ---- the whole half-suite ----------------------------------------------------------------

struct AppSize {
  const char* rel;
  size_t activities;
};
constexpr AppSize kApps[] = {{kNotes, 8}, {kTube, 10}, {kRadio, 8}, {kSettings, 60}, {kNews, 12}};

TEST(BenchAAppsTest, EveryAppLoadsAndDocumentsItsGroundTruth) {
  for (const AppSize& a : kApps) {
    SCOPED_TRACE(a.rel);
    auto spec = Load(a.rel);
    ASSERT_TRUE(spec);
    SimApp app(spec, SimOptions{});
    app.Launch();
    EXPECT_EQ(app.Activities().size(), a.activities);
    int actionable = 0;
    for (const Widget& w : app.screen().widgets)
      if (w.enabled && (w.clickable || w.long_clickable || w.editable || w.scrollable))
        ++actionable;
    EXPECT_GE(actionable, 2);
    EXPECT_TRUE(app.DrainFaults().empty());
    ASSERT_FALSE(spec->bugs().empty());

    std::ifstream in(AppPath(a.rel));
    nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_TRUE(doc.contains("description"));
    std::string description = doc["description"].get<std::string>();
    for (const BugSpec& b : spec->bugs()) {
      EXPECT_NE(description.find(b.id), std::string::npos) << b.id << " is not described";
      EXPECT_FALSE(b.summary.empty()) << b.id;
      EXPECT_FALSE(b.correct.empty()) << b.id;
    }
  }
}

TEST(BenchAAppsTest, CoreAppsAreLinkedIntoTheSuite) {
  for (const char* name : {"diary.json", "lockpattern.json", "nectroid.json"}) {
    fs::path link = AppPath(std::string("apps/bench/") + name);
    EXPECT_TRUE(fs::is_symlink(link)) << link;
    EXPECT_TRUE(Load(std::string("apps/bench/") + name)) << link;
  }
}

// A random walk (clicks, long clicks, scrolls, typing, swipes, back, menu; relaunch after a
// fault or when the app was left) returns the faults it raised.
std::vector<Fault> RandomWalk(const std::string& rel, std::set<std::string> bugs_off, int events,
                              uint64_t seed) {
  std::vector<Fault> out;
  auto spec = Load(rel);
  if (!spec) return out;
  SimApp app(spec, SimOptions{seed, std::move(bugs_off)});
  app.Launch();
  Rng rng(seed);
  const char* texts[] = {"", "0", "[", "Shopping list", "hello world", "192.168.1.50", "24", "abc"};
  for (int e = 0; e < events; ++e) {
    if (!app.running() || app.screen().package != app.package()) app.Launch();
    const Screen& s = app.screen();
    std::vector<int> targets;
    for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i) {
      const Widget& w = s.widgets[i];
      if (w.enabled && (w.clickable || w.long_clickable || w.editable || w.scrollable))
        targets.push_back(i);
    }
    int roll = static_cast<int>(rng.Below(20));
    if (targets.empty() || roll == 0) {
      app.Perform(gui::MakeGlobalAction(ActionKind::kBack));
    } else if (roll == 1) {
      app.Perform(gui::MakeGlobalAction(ActionKind::kMenu));
    } else if (roll == 2) {
      app.Perform(
          gui::MakeGlobalAction(rng.Below(2) ? ActionKind::kSwipeRight : ActionKind::kSwipeDown));
    } else {
      int i = targets[rng.Below(targets.size())];
      const Widget& w = s.widgets[i];
      ActionKind kind = w.editable     ? ActionKind::kInputText
                        : w.scrollable ? ActionKind::kScrollDown
                        : (w.long_clickable && (!w.clickable || rng.Below(3) == 0))
                            ? ActionKind::kLongClick
                            : ActionKind::kClick;
      gui::Action a = gui::MakeWidgetAction(kind, s, i);
      if (kind == ActionKind::kInputText) a.text = texts[rng.Below(std::size(texts))];
      app.Perform(a);
    }
    for (Fault& f : app.DrainFaults()) out.push_back(std::move(f));
  }
  return out;
}

TEST(BenchAAppsTest, RandomWalksRaiseOnlyPlantedBugs) {
  for (const AppSize& a : kApps) {
    SCOPED_TRACE(a.rel);
    auto spec = Load(a.rel);
    ASSERT_TRUE(spec);
    std::set<std::string> ids = AllBugIds(*spec);
    for (uint64_t seed : {1, 2}) {
      for (const Fault& f : RandomWalk(a.rel, {}, 2000, seed))
        EXPECT_TRUE(ids.count(f.bug_id)) << "unplanted fault " << f.exception << " " << f.message;
      auto off = RandomWalk(a.rel, ids, 2000, seed);
      EXPECT_TRUE(off.empty()) << off.size() << " faults with every bug off, first "
                               << off[0].bug_id;
    }
  }
}

// ---- notes (Markor) ----------------------------------------------------------------------

// Notebook -> '+' -> name -> OK, then back from the editor to the notebook.
void NewNote(Walk& t, const std::string& name) {
  ASSERT_TRUE(t.ClickDesc("Create a new file"));
  ASSERT_TRUE(t.HasText("Create new file")) << t.Dump();
  ASSERT_TRUE(t.Type("new_file_dialog__name", name));
  ASSERT_TRUE(t.Click("OK"));
  ASSERT_TRUE(t.ActivityEndsWith(".activity.DocumentActivity")) << t.Dump();
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".activity.MainActivity"));
}

TEST(BenchANotesTest, NewNoteWithAnExistingTitleOverwritesItWithTheBugOn) {
  Walk t(kNotes);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.HasText("- milk - eggs - bread"));
  ASSERT_NO_FATAL_FAILURE(NewNote(t, "Shopping list"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_EQ(t.Count("Shopping list.md"), 1);
  EXPECT_FALSE(t.HasText("- milk - eggs - bread")) << "the old content is lost";
  EXPECT_TRUE(t.HasText("# Shopping list"));
  EXPECT_FALSE(t.HasText("Shopping list (1).md"));
}

TEST(BenchANotesTest, NewNoteWithAnExistingTitleIsRenamedWithTheBugOff) {
  Walk t(kNotes, {"notes-overwrite-existing"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NewNote(t, "Shopping list"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_EQ(t.Count("Shopping list.md"), 1);
  EXPECT_TRUE(t.HasText("- milk - eggs - bread"));
  EXPECT_TRUE(t.HasText("Shopping list (1).md"));
}

// A note created in this session, edited, then created again.
std::vector<std::string> RecreateEditedNote(std::set<std::string> bugs_off) {
  Walk t(kNotes, std::move(bugs_off));
  if (!t.ok()) return {};
  NewNote(t, "Groceries");
  EXPECT_TRUE(t.HasText("Groceries.md"));
  EXPECT_TRUE(t.ClickIn("ui__filesystem_dialog__list", "Groceries.md"));
  EXPECT_TRUE(t.Type("document__fragment__edit__highlighting_editor", "apples and pears"));
  t.Back();
  EXPECT_TRUE(t.HasText("apples and pears"));
  NewNote(t, "Groceries");
  EXPECT_TRUE(NoFault(t.app()));
  return t.Texts();
}

TEST(BenchANotesTest, RecreatingANewNoteAlsoOverwritesItWithTheBugOn) {
  auto texts = RecreateEditedNote({});
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "apples and pears"), 0);
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "Groceries (1).md"), 0);
}

TEST(BenchANotesTest, RecreatingANewNoteKeepsItWithTheBugOff) {
  auto texts = RecreateEditedNote({"notes-overwrite-existing"});
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "apples and pears"), 1);
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "Groceries (1).md"), 1);
}

TEST(BenchANotesTest, ANewNameJustAddsANote) {
  Walk t(kNotes);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NewNote(t, "Travel"));
  EXPECT_TRUE(t.HasText("Travel.md"));
  EXPECT_TRUE(t.HasText("- milk - eggs - bread"));
  EXPECT_TRUE(t.Covered("NewFileDialog.createFile"));
}

void SearchInvalidRegex(Walk& t, bool regex) {
  ASSERT_TRUE(t.Click("More"));
  ASSERT_TRUE(t.Click("Search"));
  ASSERT_TRUE(t.ActivityEndsWith(".frontend.filesearch.FileSearchActivity"));
  if (regex) {
    ASSERT_TRUE(t.Click("Regular expression"));
  }
  ASSERT_TRUE(t.Type("search_query", "["));
  ASSERT_TRUE(t.ClickId("search_start"));
}

TEST(BenchANotesTest, AnInvalidRegexCrashesWithTheBugOn) {
  Walk t(kNotes);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SearchInvalidRegex(t, true));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "notes-search-regex-crash",
                            "java.util.regex.PatternSyntaxException"));
}

TEST(BenchANotesTest, AnInvalidRegexIsReportedWithTheBugOff) {
  Walk t(kNotes, {"notes-search-regex-crash"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SearchInvalidRegex(t, true));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Invalid regular expression"));
}

TEST(BenchANotesTest, APlainSearchForABracketWorks) {
  Walk t(kNotes);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SearchInvalidRegex(t, false));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("2 matches"));
}

// ---- tube (SkyTube) ----------------------------------------------------------------------

// Opens the first video; autoplay starts it.
void OpenMoonVideo(Walk& t) {
  ASSERT_TRUE(t.ClickIn("grid_view", "What if the Moon disappeared?"));
  ASSERT_TRUE(t.ActivityEndsWith(".gui.activities.YouTubePlayerActivity")) << t.Dump();
  ASSERT_TRUE(t.HasText("Playing"));
}

TEST(BenchATubeTest, PlayAndPauseToggle) {
  Walk t(kTube);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(OpenMoonVideo(t));
  ASSERT_TRUE(t.ClickDesc("Pause"));
  EXPECT_TRUE(t.HasText("Paused"));
  ASSERT_TRUE(t.ClickDesc("Play"));
  EXPECT_TRUE(t.HasText("Playing"));
}

// Video -> Open in browser -> Chrome -> back -> Play; returns the player state shown.
std::string PlayAfterBrowser(std::set<std::string> bugs_off) {
  Walk t(kTube, std::move(bugs_off));
  if (!t.ok()) return "<no app>";
  OpenMoonVideo(t);
  EXPECT_TRUE(t.MenuItem("Open in browser"));
  EXPECT_TRUE(t.Click("Chrome"));
  EXPECT_TRUE(t.ActivityEndsWith("org.chromium.chrome.browser.customtabs.CustomTabActivity"))
      << t.Dump();
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".gui.activities.YouTubePlayerActivity"));
  EXPECT_TRUE(t.HasText("Paused"));
  EXPECT_TRUE(t.ClickDesc("Play"));
  EXPECT_TRUE(NoFault(t.app()));
  return t.HasText("Playing") ? "Playing" : t.HasText("Paused") ? "Paused" : "<none>";
}

TEST(BenchATubeTest, PlayIsDeadAfterOpenInBrowserWithTheBugOn) {
  EXPECT_EQ(PlayAfterBrowser({}), "Paused");
}

TEST(BenchATubeTest, PlayWorksAfterOpenInBrowserWithTheBugOff) {
  EXPECT_EQ(PlayAfterBrowser({"tube-play-dead-after-browser"}), "Playing");
}

TEST(BenchATubeTest, TheFeedIsEndless) {
  Walk t(kTube);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t.HasText("How Small Is An Atom? (part 1)"));
  ASSERT_TRUE(t.ScrollDown("grid_view"));
  ASSERT_TRUE(t.ScrollDown("grid_view"));
  EXPECT_TRUE(t.HasText("How Small Is An Atom? (part 1)")) << t.Dump();
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(t.ScrollDown("grid_view"));
  // 32 loads of five; the rows shown are those from index 4 * 32 - 1.
  EXPECT_GE(t.FindTextWithin("grid_view", "How Small Is An Atom? (part 25)"), 0) << t.Dump();
  EXPECT_TRUE(NoFault(t.app()));
}

TEST(BenchATubeTest, TheAdBannerChangesOnItsOwn) {
  Walk t(kTube);
  ASSERT_TRUE(t.ok());
  std::set<std::string> seen{t.TextOf("ad_banner")};
  for (int i = 0; i < 40; ++i) {
    t.Global(ActionKind::kSwipeUp);
    seen.insert(t.TextOf("ad_banner"));
  }
  EXPECT_GE(seen.size(), 2u);
}

// Subscribe to Numberphile (a third channel), then Refresh the subscriptions.
void SubscribeThirdThenRefresh(Walk& t) {
  ASSERT_TRUE(t.ClickIn("grid_view", "The Fibonacci Clock"));
  ASSERT_TRUE(t.Click("Numberphile"));
  ASSERT_TRUE(t.ActivityEndsWith(".gui.activities.ChannelBrowserActivity"));
  ASSERT_TRUE(t.Click("Subscribe"));
  ASSERT_TRUE(t.HasText("Subscribed"));
  t.Back();
  t.Back();
  ASSERT_TRUE(t.MenuItem("Subscriptions"));
  ASSERT_TRUE(t.HasText("Numberphile"));
  ASSERT_TRUE(t.Click("Refresh"));
}

TEST(BenchATubeTest, RefreshingThreeSubscriptionsHangsWithTheBugOn) {
  Walk t(kTube);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SubscribeThirdThenRefresh(t));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kAnr, "tube-subs-refresh-anr"));
}

TEST(BenchATubeTest, RefreshingThreeSubscriptionsWorksWithTheBugOff) {
  Walk t(kTube, {"tube-subs-refresh-anr"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SubscribeThirdThenRefresh(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Feed refreshed"));
}

TEST(BenchATubeTest, RefreshingTwoSubscriptionsWorks) {
  Walk t(kTube);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Subscriptions"));
  ASSERT_TRUE(t.Click("Refresh"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Feed refreshed"));
}

// ---- radio (Transistor / RadioDroid) -----------------------------------------------------

// Play Radio Paradise; optionally rename it while it plays; pause. Returns whether a 'Playing'
// indicator is still shown in the list.
bool IndicatorAfterPause(std::set<std::string> bugs_off, bool rename) {
  Walk t(kRadio, std::move(bugs_off));
  if (!t.ok()) return false;
  EXPECT_FALSE(t.HasDesc("Playing"));
  EXPECT_TRUE(t.ClickDesc("Play Radio Paradise"));
  EXPECT_TRUE(t.HasDesc("Playing"));
  if (rename) {
    EXPECT_TRUE(t.LongClickIn("station_list", "Radio Paradise"));
    EXPECT_TRUE(t.Click("Rename"));
    EXPECT_TRUE(t.HasText("Rename station")) << t.Dump();
    EXPECT_TRUE(t.Type("rename_input", "RP Main Mix"));
    EXPECT_TRUE(t.Click("Rename"));
    EXPECT_GE(t.FindTextWithin("station_list", "RP Main Mix"), 0) << t.Dump();
    EXPECT_TRUE(t.HasDesc("Playing"));
  }
  EXPECT_TRUE(t.ClickDesc("Pause"));
  EXPECT_TRUE(t.HasDesc("Play")) << "the player bar shows paused";
  EXPECT_TRUE(NoFault(t.app()));
  return t.HasDesc("Playing");
}

TEST(BenchARadioTest, PauseClearsTheIndicatorWithoutARename) {
  EXPECT_FALSE(IndicatorAfterPause({}, false));
}

TEST(BenchARadioTest, IndicatorSurvivesRenameThenPauseWithTheBugOn) {
  EXPECT_TRUE(IndicatorAfterPause({}, true));
}

TEST(BenchARadioTest, IndicatorDisappearsAfterRenameThenPauseWithTheBugOff) {
  EXPECT_FALSE(IndicatorAfterPause({"radio-indicator-survives-rename"}, true));
}

// Nothing plays after the app was stopped, so no station may say it does (the rows are kept,
// the playback is not).
TEST(BenchARadioTest, NoStationShowsPlayingAfterARestart) {
  Walk t(kRadio);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickDesc("Play Radio Paradise"));
  ASSERT_TRUE(t.HasDesc("Playing"));
  t.app().Stop();
  t.app().Launch();
  EXPECT_FALSE(t.HasDesc("Playing")) << t.Dump();
  ASSERT_TRUE(t.ClickDesc("Play FIP"));
  ASSERT_TRUE(t.ClickDesc("Pause"));
  EXPECT_FALSE(t.HasDesc("Playing")) << "pausing FIP leaves no station marked playing";
}

// Play Radio Paradise, then open History; returns whether the song is listed there.
bool HistoryShowsTheSong(std::set<std::string> bugs_off) {
  Walk t(kRadio, std::move(bugs_off));
  if (!t.ok()) return false;
  EXPECT_TRUE(t.ClickDesc("Play Radio Paradise"));
  EXPECT_TRUE(t.MenuItem("Track history"));
  EXPECT_TRUE(t.HasText("Pink Floyd - Time")) << "track history always has the song";
  t.Back();
  EXPECT_TRUE(t.MenuItem("History"));
  EXPECT_TRUE(t.ActivityEndsWith(".HistoryActivity"));
  EXPECT_GE(t.FindTextWithin("history_list", "Radio Paradise"), 0) << t.Dump();
  EXPECT_TRUE(NoFault(t.app()));
  return t.FindTextWithin("history_list", "Pink Floyd - Time") >= 0;
}

TEST(BenchARadioTest, HistoryMissesTracksWithTheBugOn) { EXPECT_FALSE(HistoryShowsTheSong({})); }

TEST(BenchARadioTest, HistoryShowsTracksWithTheBugOff) {
  EXPECT_TRUE(HistoryShowsTheSong({"radio-history-misses-tracks"}));
}

void SleepTimer(Walk& t, const std::string& minutes) {
  ASSERT_TRUE(t.ClickDesc("Play Radio Paradise"));
  ASSERT_TRUE(t.ClickId("player_station_name"));
  ASSERT_TRUE(t.ActivityEndsWith(".PlayerActivity"));
  ASSERT_TRUE(t.Click("Sleep timer"));
  ASSERT_TRUE(t.Type("android:id/edit", minutes));
  ASSERT_TRUE(t.Click("Start"));
}

TEST(BenchARadioTest, ASleepTimerOfZeroCrashesWithTheBugOn) {
  Walk t(kRadio);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SleepTimer(t, "0"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "radio-sleep-timer-zero",
                            "java.lang.ArithmeticException"));
}

TEST(BenchARadioTest, ASleepTimerOfZeroIsRejectedWithTheBugOff) {
  Walk t(kRadio, {"radio-sleep-timer-zero"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SleepTimer(t, "0"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Enter 1 to 999 minutes"));
}

TEST(BenchARadioTest, ASleepTimerOfFifteenMinutesStarts) {
  Walk t(kRadio);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SleepTimer(t, "15"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Sleep timer: 15 min"));
}

// ---- settings ----------------------------------------------------------------------------

// Homepage -> ... -> IP settings -> Static -> fill -> Save.
void StaticIp(Walk& t, const std::string& prefix) {
  t.ResetSteps();
  ASSERT_TRUE(t.Click("Network & internet"));
  ASSERT_TRUE(t.Click("Wi-Fi"));
  ASSERT_TRUE(t.Click("Saved networks"));
  ASSERT_TRUE(t.ClickIn("saved_list", "HomeNet-5G"));
  ASSERT_TRUE(t.ActivityEndsWith(".wifi.details.WifiNetworkDetailsActivity"));
  ASSERT_TRUE(t.Click("Advanced"));
  ASSERT_TRUE(t.Click("IP settings"));
  ASSERT_TRUE(t.ActivityEndsWith(".wifi.details.WifiIpSettingsActivity"));
  ASSERT_EQ(t.steps(), 6) << "six pages deep";
  ASSERT_TRUE(t.Click("Static"));
  ASSERT_TRUE(t.Type("ipaddress", "192.168.1.50"));
  ASSERT_TRUE(t.Type("gateway", "192.168.1.1"));
  if (!prefix.empty()) {
    ASSERT_TRUE(t.Type("network_prefix_length", prefix));
  }
  ASSERT_TRUE(t.Click("Save"));
}

TEST(BenchASettingsTest, IsTheSixtyActivitySizePoint) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.app().Activities().size(), 60u);
  EXPECT_GT(t.app().units_total(), 400u);
}

TEST(BenchASettingsTest, StaticIpWithoutPrefixCrashesWithTheBugOn) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(StaticIp(t, ""));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "settings-static-ip-empty-prefix",
                            "java.lang.NumberFormatException"));
}

TEST(BenchASettingsTest, StaticIpWithoutPrefixIsRejectedWithTheBugOff) {
  Walk t(kSettings, {"settings-static-ip-empty-prefix"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(StaticIp(t, ""));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Type a network prefix length between 0 and 32."));
}

TEST(BenchASettingsTest, AFullStaticIpIsSaved) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(StaticIp(t, "24"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Current: Static")) << t.Dump();
  EXPECT_TRUE(t.Covered("WifiConfigController.saveStaticIp"));
}

void SwitchOnAlwaysOnDisplay(Walk& t) {
  ASSERT_TRUE(t.Click("Display"));
  ASSERT_TRUE(t.Click("Lock screen"));
  ASSERT_TRUE(t.ActivityEndsWith("Settings$LockScreenSettingsActivity"));
  ASSERT_TRUE(t.Click("Always show time and info"));
  t.Back();
  t.Back();
}

void SwitchOnBatterySaver(Walk& t) {
  ASSERT_TRUE(t.Click("Battery"));
  ASSERT_TRUE(t.Click("Battery Saver"));
  ASSERT_TRUE(t.Click("Use Battery Saver"));
  t.Back();
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".homepage.SettingsHomepageActivity"));
}

TEST(BenchASettingsTest, AlwaysOnDisplayWithBatterySaverCrashesWithTheBugOn) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SwitchOnAlwaysOnDisplay(t));
  ASSERT_NO_FATAL_FAILURE(SwitchOnBatterySaver(t));
  EXPECT_TRUE(NoFault(t.app()));
  ASSERT_TRUE(t.Click("Display"));
  ASSERT_TRUE(t.Click("Lock screen"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "settings-aod-battery-saver-crash",
                            "java.lang.IllegalStateException"));
}

TEST(BenchASettingsTest, BatterySaverFirstThenAlwaysOnDisplayAlsoCrashes) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SwitchOnBatterySaver(t));
  ASSERT_NO_FATAL_FAILURE(SwitchOnAlwaysOnDisplay(t));
  EXPECT_TRUE(NoFault(t.app()));
  ASSERT_TRUE(t.Click("Display"));
  ASSERT_TRUE(t.Click("Lock screen"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "settings-aod-battery-saver-crash"));
}

TEST(BenchASettingsTest, AlwaysOnDisplayWithBatterySaverIsDisabledWithTheBugOff) {
  Walk t(kSettings, {"settings-aod-battery-saver-crash"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SwitchOnAlwaysOnDisplay(t));
  ASSERT_NO_FATAL_FAILURE(SwitchOnBatterySaver(t));
  ASSERT_TRUE(t.Click("Display"));
  ASSERT_TRUE(t.Click("Lock screen"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith("Settings$LockScreenSettingsActivity"));
  EXPECT_TRUE(t.HasText("Unavailable because Battery Saver is on"));
}

TEST(BenchASettingsTest, BatterySaverAloneIsHarmless) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(SwitchOnBatterySaver(t));
  ASSERT_TRUE(t.Click("Display"));
  ASSERT_TRUE(t.Click("Lock screen"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith("Settings$LockScreenSettingsActivity"));
}

TEST(BenchASettingsTest, BuildNumberSevenTimesUnlocksDeveloperOptions) {
  Walk t(kSettings);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.Click("System"));
  EXPECT_FALSE(t.HasText("Developer options"));
  t.Back();
  ASSERT_TRUE(t.Click("About phone"));
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(t.Click("Build number"));
  EXPECT_TRUE(t.HasText("You are now a developer!"));
  t.Back();
  ASSERT_TRUE(t.Click("System"));
  ASSERT_TRUE(t.Click("Developer options"));
  EXPECT_TRUE(t.ActivityEndsWith("Settings$DevelopmentSettingsDashboardActivity"));
}

// ---- news (Materialistic) ----------------------------------------------------------------

void ReportComment(Walk& t, const std::string& reason) {
  t.ResetSteps();
  ASSERT_TRUE(t.ClickIn("recycler_view", "Why SQLite is so fast"));
  ASSERT_TRUE(t.ActivityEndsWith(".ItemActivity"));
  ASSERT_TRUE(t.Click("Comments"));
  ASSERT_TRUE(t.ClickDesc("More options for the comment by spammer99"));
  ASSERT_TRUE(t.Click("Report"));
  ASSERT_TRUE(t.ActivityEndsWith(".ReportActivity"));
  ASSERT_TRUE(t.Click(reason));
  ASSERT_TRUE(t.Click("Submit"));
  ASSERT_TRUE(t.HasText("Send report?")) << t.Dump();
  ASSERT_TRUE(t.Click("Send"));
  EXPECT_EQ(t.steps(), 7);
}

TEST(BenchANewsTest, ReportingWithOtherAndNoDetailsCrashesWithTheBugOn) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ReportComment(t, "Other"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "news-report-other-npe",
                            "java.lang.NullPointerException"));
}

TEST(BenchANewsTest, ReportingWithOtherAndNoDetailsAsksForThemWithTheBugOff) {
  Walk t(kNews, {"news-report-other-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ReportComment(t, "Other"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ReportActivity"));
  EXPECT_TRUE(t.HasText("Please describe the problem"));
}

TEST(BenchANewsTest, ReportingSpamIsSent) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ReportComment(t, "Spam"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.Covered("UserServicesClient.report"));
  EXPECT_TRUE(t.ActivityEndsWith(".ItemActivity"));
}

void GoOfflineThenRefresh(Walk& t) {
  t.Global(ActionKind::kSwipeRight);
  ASSERT_TRUE(t.HasText("Jobs")) << "the drawer is open: " << t.Dump();
  ASSERT_TRUE(t.Click("Settings"));
  ASSERT_TRUE(t.Click("Offline mode (saved stories only)"));
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".ListActivity"));
  t.Global(ActionKind::kSwipeDown);
}

TEST(BenchANewsTest, RefreshingOfflineHangsWithTheBugOn) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(GoOfflineThenRefresh(t));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kAnr, "news-offline-refresh-anr"));
}

TEST(BenchANewsTest, RefreshingOfflineSaysSoWithTheBugOff) {
  Walk t(kNews, {"news-offline-refresh-anr"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(GoOfflineThenRefresh(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("You are offline. Showing saved stories."));
}

TEST(BenchANewsTest, RefreshingOnlineUpdates) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Refresh"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Stories updated"));
}

TEST(BenchANewsTest, CommentFormValidatesAndAsksForALogin) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickIn("recycler_view", "Why SQLite is so fast"));
  ASSERT_TRUE(t.Click("Comments"));
  ASSERT_TRUE(t.ClickDesc("Comment"));
  ASSERT_TRUE(t.ActivityEndsWith(".ComposeActivity"));
  ASSERT_TRUE(t.Type("edittext_body", "ok"));
  ASSERT_TRUE(t.Click("Send"));
  EXPECT_TRUE(t.HasText("Comment must be at least 3 characters"));
  ASSERT_TRUE(t.Type("edittext_body", "Great write-up"));
  ASSERT_TRUE(t.Click("Send"));
  ASSERT_TRUE(t.ActivityEndsWith(".LoginActivity"));
  ASSERT_TRUE(t.Type("edittext_username", "roam"));
  ASSERT_TRUE(t.Type("edittext_password", "short"));
  ASSERT_TRUE(t.ClickId("login_button"));
  EXPECT_TRUE(t.HasText("Invalid username or password"));
  ASSERT_TRUE(t.Type("edittext_password", "correct horse"));
  ASSERT_TRUE(t.ClickId("login_button"));
  ASSERT_TRUE(t.ActivityEndsWith(".ComposeActivity"));
  ASSERT_TRUE(t.Click("Send"));
  EXPECT_TRUE(t.ActivityEndsWith(".ItemActivity"));
  EXPECT_TRUE(t.HasText("6 comments")) << t.Dump();
  ASSERT_TRUE(t.ScrollDown("comment_list"));
  EXPECT_TRUE(t.HasText("Great write-up")) << t.Dump();
  EXPECT_TRUE(NoFault(t.app()));
}

TEST(BenchANewsTest, TabsShareTheListActivity) {
  Walk t(kNews);
  ASSERT_TRUE(t.ok());
  std::string top = t.screen().activity;
  ASSERT_TRUE(t.Click("Ask HN"));
  EXPECT_EQ(t.screen().activity, top);
  EXPECT_TRUE(t.HasText("Ask HN: What are you working on?"));
  ASSERT_TRUE(t.Click("Show HN"));
  EXPECT_EQ(t.screen().activity, top);
  ASSERT_TRUE(t.Click("Top stories"));
  EXPECT_TRUE(t.HasText("Why SQLite is so fast"));
  t.Back();
  EXPECT_NE(t.screen().package, t.app().package()) << "Top is the root: back leaves the app";
}

}  // namespace
}  // namespace roam::sim
