// Acceptance tests of the hand-written apps (apps/*.json) and the tiny end-to-end apps
// (tests/apps/*.json): every spec loads and starts on an actionable screen, and scripted walks
// through the SimApp API prove each planted bug: it shows with the bug on and not with it off.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/rng.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "sim/sim_app.h"
#include "test_paths.h"
#include "walk.h"

namespace roam::sim {
namespace {

namespace fs = std::filesystem;
using gui::ActionKind;
using gui::Screen;
using gui::Widget;

// ---- helpers ---------------------------------------------------------------------------------

using testing_walk::AppPath;
using testing_walk::Load;
using testing_walk::NoFault;
using testing_walk::OneFault;
using testing_walk::Walk;

std::vector<std::string> AllApps() {
  std::vector<std::string> out;
  for (const char* dir : {"apps", "tests/apps"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(AppPath(dir), ec))
      if (e.path().extension() == ".json")
        out.push_back(std::string(dir) + "/" + e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- every app -------------------------------------------------------------------------------

TEST(AppsTest, EveryAppLoadsAndStartsOnAnActionableScreen) {
  auto apps = AllApps();
  for (const char* want :
       {"apps/diary.json", "apps/lockpattern.json", "apps/nectroid.json", "tests/apps/crashy.json"})
    EXPECT_NE(std::find(apps.begin(), apps.end(), want), apps.end()) << want;
  for (const std::string& rel : apps) {
    SCOPED_TRACE(rel);
    auto spec = LoadSpec(AppPath(rel));
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    SimApp app(*spec, SimOptions{});
    app.Launch();
    const Screen& s = app.screen();
    EXPECT_EQ(s.package, app.package());
    EXPECT_FALSE(s.activity.empty());
    int actionable = 0;
    for (const Widget& w : s.widgets)
      if (w.enabled && (w.clickable || w.long_clickable || w.editable || w.scrollable))
        ++actionable;
    EXPECT_GE(actionable, 2);
    EXPECT_FALSE(app.Activities().empty());
    EXPECT_GT(app.units_total(), app.units_covered());
    EXPECT_TRUE(app.DrainFaults().empty());
  }
}

TEST(AppsTest, ShippedAppsHaveSeveralActivitiesAndBugs) {
  for (const char* rel : {"apps/diary.json", "apps/lockpattern.json", "apps/nectroid.json"}) {
    SCOPED_TRACE(rel);
    auto spec = Load(rel);
    ASSERT_TRUE(spec);
    SimApp app(spec, SimOptions{});
    EXPECT_GE(app.Activities().size(), 2u);
  }
  Walk diary("apps/diary.json");
  ASSERT_TRUE(diary.ok());
  EXPECT_GE(diary.app().Activities().size(), 5u);
}

// ---- crashy ----------------------------------------------------------------------------------

TEST(AppsCrashyTest, ShareCrashesWithTheBugOn) {
  Walk t("tests/apps/crashy.json");
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.Click("Shopping list"));
  EXPECT_TRUE(t.ActivityEndsWith(".DetailsActivity"));
  ASSERT_TRUE(t.Click("Share"));
  EXPECT_TRUE(
      OneFault(t.app(), Fault::Kind::kCrash, "crashy-npe", "java.lang.NullPointerException"));
  EXPECT_FALSE(t.app().running());
}

TEST(AppsCrashyTest, ShareWorksWithTheBugOff) {
  Walk t("tests/apps/crashy.json", {"crashy-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.Click("Shopping list"));
  ASSERT_TRUE(t.Click("Share"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Shared"));
  EXPECT_TRUE(t.Covered("ShareHelper.share"));
}

// A plain random walk (clicks on clickable widgets, some backs, relaunch after a crash) finds the
// crash well within 2,000 events, and finds nothing with the bug off.
int RandomWalkFaults(std::set<std::string> bugs_off, int events, uint64_t seed) {
  auto spec = Load("tests/apps/crashy.json");
  if (!spec) return -1;
  SimApp app(spec, SimOptions{seed, std::move(bugs_off)});
  app.Launch();
  Rng rng(seed);
  int faults = 0;
  for (int e = 0; e < events; ++e) {
    if (!app.running()) app.Launch();
    const Screen& s = app.screen();
    std::vector<int> clickable;
    for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
      if (s.widgets[i].clickable && s.widgets[i].enabled) clickable.push_back(i);
    if (clickable.empty() || rng.Below(5) == 0) {
      app.Perform(gui::MakeGlobalAction(ActionKind::kBack));
    } else {
      int i = clickable[rng.Below(clickable.size())];
      app.Perform(gui::MakeWidgetAction(ActionKind::kClick, s, i));
    }
    faults += static_cast<int>(app.DrainFaults().size());
    if (app.screen().package != app.package()) app.Launch();  // left the app: come back
  }
  return faults;
}

TEST(AppsCrashyTest, RandomWalkFindsTheCrashOnlyWithTheBugOn) {
  for (uint64_t seed : {1, 2, 3}) {
    EXPECT_GT(RandomWalkFaults({}, 2000, seed), 0) << "seed " << seed;
    EXPECT_EQ(RandomWalkFaults({"crashy-npe"}, 2000, seed), 0) << "seed " << seed;
  }
}

// ---- diary -----------------------------------------------------------------------------------

constexpr char kDiary[] = "apps/diary.json";
constexpr char kCinemaPhoto[] = "IMG_20240512_1830_Cinema.jpg";
constexpr char kCleaningPhoto[] = "IMG_20240513_0915_Cleaning.jpg";

// Flow A of the Genie document: Cinema, camera; with `add_cleaning` the mutant, flow B, which
// adds a Cleaning entry with a photo before going to the diary. Ends on the diary page.
void DiaryPhotos(Walk& t, bool add_cleaning) {
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  ASSERT_TRUE(t.HasText("Cinema"));  // the current activity
  ASSERT_TRUE(t.ClickDesc("Attach picture"));
  ASSERT_TRUE(t.HasText(kCinemaPhoto));
  if (add_cleaning) {
    ASSERT_TRUE(t.ClickIn("select_recycler", "Cleaning"));
    ASSERT_TRUE(t.ClickDesc("Attach picture"));
    ASSERT_TRUE(t.HasText(kCleaningPhoto));
  }
  ASSERT_TRUE(t.Click("Diary"));
  ASSERT_TRUE(t.ActivityEndsWith(".ui.history.HistoryActivity"));
  ASSERT_TRUE(t.HasText(kCinemaPhoto)) << t.Dump();
  if (add_cleaning) {
    ASSERT_TRUE(t.HasText(kCleaningPhoto)) << t.Dump();
  }
}

// On the diary page: click Cinema's photo and confirm "Delete photo?".
void DeleteCinemaPhoto(Walk& t) {
  ASSERT_TRUE(t.ClickInRow("Cinema", "entry_photo"));
  ASSERT_TRUE(t.HasText("Delete photo?")) << t.Dump();
  ASSERT_TRUE(t.Click("OK"));
  ASSERT_FALSE(t.HasText("Delete photo?"));
  ASSERT_TRUE(t.ActivityEndsWith(".ui.history.HistoryActivity"));
}

TEST(AppsDiaryTest, FlowADeletesTheCinemaPhotoEvenWithTheBugOn) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryPhotos(t, false));
  ASSERT_NO_FATAL_FAILURE(DeleteCinemaPhoto(t));
  EXPECT_TRUE(t.HasText("Cinema"));
  EXPECT_FALSE(t.HasText(kCinemaPhoto));
  EXPECT_TRUE(t.Covered("HistoryActivity.deletePhoto"));
  EXPECT_TRUE(NoFault(t.app()));
}

TEST(AppsDiaryTest, FlowBDeletesTheWrongPhotoWithTheBugOn) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryPhotos(t, true));
  ASSERT_NO_FATAL_FAILURE(DeleteCinemaPhoto(t));
  EXPECT_TRUE(t.HasText("Cinema"));
  EXPECT_TRUE(t.HasText("Cleaning"));
  EXPECT_TRUE(t.HasText(kCinemaPhoto)) << "the clicked photo survives";
  EXPECT_FALSE(t.HasText(kCleaningPhoto)) << "the other entry's photo is gone";
  EXPECT_GE(t.FindInRow("Cinema", "entry_photo"), 0);
  EXPECT_LT(t.FindInRow("Cleaning", "entry_photo"), 0);
}

TEST(AppsDiaryTest, FlowBDeletesTheRightPhotoWithTheBugOff) {
  Walk t(kDiary, {"diary-wrong-photo-deleted"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryPhotos(t, true));
  ASSERT_NO_FATAL_FAILURE(DeleteCinemaPhoto(t));
  EXPECT_TRUE(t.HasText("Cinema"));
  EXPECT_TRUE(t.HasText("Cleaning"));
  EXPECT_FALSE(t.HasText(kCinemaPhoto));
  EXPECT_TRUE(t.HasText(kCleaningPhoto));
  EXPECT_LT(t.FindInRow("Cinema", "entry_photo"), 0);
  EXPECT_GE(t.FindInRow("Cleaning", "entry_photo"), 0);
}

TEST(AppsDiaryTest, CancelKeepsThePhoto) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryPhotos(t, true));
  ASSERT_TRUE(t.ClickInRow("Cinema", "entry_photo"));
  ASSERT_TRUE(t.Click("Cancel"));
  EXPECT_TRUE(t.HasText(kCinemaPhoto));
  EXPECT_TRUE(t.HasText(kCleaningPhoto));
}

// RQ4 of the Genie document: rename Officework to Shopping, start a new activity Gardening and
// leave it unsaved; long-clicking Shopping then opens Gardening's editor.
std::string DiaryRenameThenOpen(std::set<std::string> bugs_off) {
  Walk t(kDiary, std::move(bugs_off));
  if (!t.ok()) return "<no app>";
  EXPECT_TRUE(t.LongClickIn("select_recycler", "Officework"));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.generic.EditActivity"));
  EXPECT_TRUE(t.HasText("Officework"));
  EXPECT_TRUE(t.Type("edit_activity_name", "Shopping"));
  EXPECT_TRUE(t.Click("Save"));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.main.MainActivity"));
  EXPECT_GE(t.FindTextWithin("select_recycler", "Shopping"), 0);
  EXPECT_LT(t.FindTextWithin("select_recycler", "Officework"), 0);
  EXPECT_TRUE(t.MenuItem("Add activity"));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.generic.EditActivity"));
  EXPECT_TRUE(t.Type("edit_activity_name", "Gardening"));
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".ui.main.MainActivity"));
  EXPECT_LT(t.FindTextWithin("select_recycler", "Gardening"), 0) << "it was not saved";
  EXPECT_TRUE(t.LongClickIn("select_recycler", "Shopping"));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.generic.EditActivity"));
  EXPECT_TRUE(NoFault(t.app()));
  int shown = t.FindById("edit_activity_current");
  return shown < 0 ? "<none>" : t.screen().widgets[shown].text;
}

TEST(AppsDiaryTest, RenamedActivityOpensTheUnsavedOneWithTheBugOn) {
  EXPECT_EQ(DiaryRenameThenOpen({}), "Gardening");
}

TEST(AppsDiaryTest, RenamedActivityOpensItselfWithTheBugOff) {
  EXPECT_EQ(DiaryRenameThenOpen({"diary-renamed-opens-other"}), "Shopping");
}

// Cinema -> Diary -> the Cinema entry -> Save with an empty title.
void DiarySaveEmptyTitle(Walk& t) {
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  ASSERT_TRUE(t.Click("Diary"));
  ASSERT_TRUE(t.ClickInRow("Cinema", "entry_title"));
  ASSERT_TRUE(t.ActivityEndsWith(".ui.history.HistoryDetailActivity"));
  ASSERT_TRUE(t.Type("edit_entry_note", "popcorn"));
  ASSERT_TRUE(t.Click("Save"));
}

TEST(AppsDiaryTest, SavingAnEmptyTitleCrashesWithTheBugOn) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiarySaveEmptyTitle(t));
  EXPECT_TRUE(OneFault(t.app(), Fault::Kind::kCrash, "diary-empty-title-npe",
                       "java.lang.NullPointerException"));
  EXPECT_FALSE(t.app().running());
}

TEST(AppsDiaryTest, SavingAnEmptyTitleKeepsTheTitleWithTheBugOff) {
  Walk t(kDiary, {"diary-empty-title-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiarySaveEmptyTitle(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.history.HistoryActivity"));
  EXPECT_TRUE(t.HasText("Cinema"));
  EXPECT_TRUE(t.HasText("popcorn"));
  EXPECT_TRUE(t.Covered("HistoryDetailActivity.saveEntry"));
}

TEST(AppsDiaryTest, SavingWithoutANoteOrTitleDoesNotCrash) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  ASSERT_TRUE(t.Click("Diary"));
  ASSERT_TRUE(t.ClickInRow("Cinema", "entry_title"));
  ASSERT_TRUE(t.Click("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ui.history.HistoryActivity"));
}

TEST(AppsDiaryTest, SavingATitleRenamesTheEntry) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  ASSERT_TRUE(t.Click("Diary"));
  ASSERT_TRUE(t.ClickInRow("Cinema", "entry_title"));
  ASSERT_TRUE(t.Type("edit_title", "Movie night"));
  ASSERT_TRUE(t.Click("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Movie night"));
}

// Two entries, then Statistics -> All time.
void DiaryAllTimeStats(Walk& t) {
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  ASSERT_TRUE(t.ClickIn("select_recycler", "Sleeping"));
  ASSERT_TRUE(t.MenuItem("Statistics"));
  ASSERT_TRUE(t.ActivityEndsWith(".ui.statistics.StatisticsActivity"));
  ASSERT_TRUE(t.HasText("2 entries"));
  ASSERT_TRUE(t.Click("All time"));
}

TEST(AppsDiaryTest, AllTimeStatisticsHangWithTheBugOn) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryAllTimeStats(t));
  EXPECT_TRUE(OneFault(t.app(), Fault::Kind::kAnr, "diary-stats-anr"));
  EXPECT_FALSE(t.app().running());
}

TEST(AppsDiaryTest, AllTimeStatisticsShowWithTheBugOff) {
  Walk t(kDiary, {"diary-stats-anr"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(DiaryAllTimeStats(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Range: All time"));
}

TEST(AppsDiaryTest, EntriesSurviveARestartButTheCurrentActivityDoesNot) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickIn("select_recycler", "Cinema"));
  t.app().Stop();
  t.app().Launch();
  EXPECT_TRUE(t.HasText("No activity selected"));
  ASSERT_TRUE(t.Click("Diary"));
  EXPECT_TRUE(t.HasText("1 entries"));
}

TEST(AppsDiaryTest, StatusClockAdvancesOnItsOwn) {
  Walk t(kDiary);
  ASSERT_TRUE(t.ok());
  int clock = t.FindById("status_clock");
  ASSERT_GE(clock, 0);
  std::string before = t.screen().widgets[clock].text;
  for (int i = 0; i < 30; ++i) t.Global(ActionKind::kSwipeUp);
  clock = t.FindById("status_clock");
  ASSERT_GE(clock, 0);
  EXPECT_NE(t.screen().widgets[clock].text, before);
}

// ---- lockpattern -----------------------------------------------------------------------------

constexpr char kLock[] = "apps/lockpattern.json";

void OpenMinLength(Walk& t) {
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.ActivityEndsWith(".PreferencesActivity"));
  ASSERT_TRUE(t.Click("Minimum length"));
  ASSERT_GE(t.FindById("android:id/edit"), 0) << t.Dump();
  ASSERT_TRUE(t.HasText("OK"));
  ASSERT_TRUE(t.HasText("Cancel"));
}

int MinSummary(Walk& t) { return t.FindInRow("Minimum length", "android:id/summary"); }

TEST(AppsLockPatternTest, OkWithAValidNumberSavesIt) {
  Walk t(kLock);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(OpenMinLength(t));
  ASSERT_TRUE(t.Type("android:id/edit", "6"));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_TRUE(NoFault(t.app()));
  ASSERT_GE(MinSummary(t), 0) << t.Dump();
  EXPECT_EQ(t.screen().widgets[MinSummary(t)].text, "6");
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".MainActivity"));
  EXPECT_TRUE(t.HasText("Pattern #0 on a 3x3 grid, 6 to 9 points")) << t.Dump();
}

TEST(AppsLockPatternTest, CancelDismisses) {
  Walk t(kLock);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(OpenMinLength(t));
  ASSERT_TRUE(t.Type("android:id/edit", "7"));
  ASSERT_TRUE(t.Click("Cancel"));
  EXPECT_TRUE(NoFault(t.app()));
  ASSERT_GE(MinSummary(t), 0) << t.Dump();
  EXPECT_EQ(t.screen().widgets[MinSummary(t)].text, "4");
}

TEST(AppsLockPatternTest, OkWithAnEmptyFieldCrashesWithTheBugOn) {
  Walk t(kLock);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(OpenMinLength(t));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_TRUE(OneFault(t.app(), Fault::Kind::kCrash, "lockpattern-min-nfe",
                       "java.lang.NumberFormatException"));
  EXPECT_FALSE(t.app().running());
}

TEST(AppsLockPatternTest, OkWithAnEmptyFieldKeepsTheValueWithTheBugOff) {
  Walk t(kLock, {"lockpattern-min-nfe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(OpenMinLength(t));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_TRUE(NoFault(t.app()));
  ASSERT_GE(MinSummary(t), 0) << t.Dump();
  EXPECT_EQ(t.screen().widgets[MinSummary(t)].text, "4");
}

std::string GridSummaryAfterChoosing4x4(std::set<std::string> bugs_off) {
  Walk t(kLock, std::move(bugs_off));
  if (!t.ok()) return "<no app>";
  EXPECT_TRUE(t.MenuItem("Settings"));
  EXPECT_TRUE(t.Click("Grid size"));
  EXPECT_TRUE(t.Click("4 x 4"));
  EXPECT_TRUE(NoFault(t.app()));
  int summary = t.FindInRow("Grid size", "android:id/summary");
  std::string text = summary < 0 ? "<none>" : t.screen().widgets[summary].text;
  t.Back();
  EXPECT_TRUE(t.HasText("Pattern #0 on a 4x4 grid, 4 to 9 points")) << t.Dump();
  return text;
}

TEST(AppsLockPatternTest, GridSummaryIsStaleWithTheBugOn) {
  EXPECT_EQ(GridSummaryAfterChoosing4x4({}), "3 x 3");
}

TEST(AppsLockPatternTest, GridSummaryFollowsWithTheBugOff) {
  EXPECT_EQ(GridSummaryAfterChoosing4x4({"lockpattern-grid-summary"}), "4 x 4");
}

// ---- nectroid --------------------------------------------------------------------------------

constexpr char kNectroid[] = "apps/nectroid.json";

// launched page -> menu -> settings -> select a site -> new site -> fill the fields -> OK.
void NectroidAddSite(Walk& t, const std::string& name, const std::string& url) {
  t.ResetSteps();
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.ActivityEndsWith(".NectroidPreferenceActivity"));
  ASSERT_TRUE(t.Click("Select a site"));
  ASSERT_TRUE(t.ActivityEndsWith(".SiteListActivity"));
  ASSERT_TRUE(t.Click("New site"));
  ASSERT_TRUE(t.ActivityEndsWith(".NewSiteActivity"));
  ASSERT_TRUE(t.Type("site_name_edit", name));
  ASSERT_TRUE(t.Type("site_url_edit", url));
  ASSERT_FALSE(t.Covered("SiteManager.addSite"));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_EQ(t.steps(), 7);  // menu, settings, select a site, new site, name, URL, OK
}

// launched page -> menu -> settings -> select a site -> long click Nectarine -> delete -> OK.
void NectroidDeleteNectarine(Walk& t) {
  t.ResetSteps();
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("Select a site"));
  ASSERT_TRUE(t.LongClickIn("site_list", "Nectarine"));
  ASSERT_TRUE(t.HasText("Delete")) << t.Dump();
  ASSERT_TRUE(t.Click("Delete"));
  ASSERT_TRUE(t.HasText("Delete site?")) << t.Dump();
  ASSERT_FALSE(t.Covered("SiteManager.deleteSite"));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_EQ(t.steps(), 6);  // menu, settings, select a site, long click, delete, OK
}

TEST(AppsNectroidTest, AddASiteInSevenStepsCoversAddSite) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidAddSite(t, "Kohina", "http://kohina.net/stream"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.Covered("SiteManager.addSite"));
  EXPECT_TRUE(t.ActivityEndsWith(".SiteListActivity"));
  EXPECT_GE(t.FindTextWithin("site_list", "Kohina"), 0) << t.Dump();
  EXPECT_GE(t.FindTextWithin("site_list", "http://kohina.net/stream"), 0);
}

TEST(AppsNectroidTest, DeleteASiteInSixStepsCoversDeleteSite) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidDeleteNectarine(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.Covered("SiteManager.deleteSite"));
  EXPECT_FALSE(t.Covered("SiteManager.addSite"));
  EXPECT_TRUE(t.ActivityEndsWith(".SiteListActivity"));
  EXPECT_LT(t.FindTextWithin("site_list", "Nectarine"), 0) << t.Dump();
  EXPECT_GE(t.FindTextWithin("site_list", "CVGM"), 0);
}

TEST(AppsNectroidTest, CancelOnTheDeleteDialogKeepsTheSite) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("Select a site"));
  ASSERT_TRUE(t.LongClickIn("site_list", "Nectarine"));
  ASSERT_TRUE(t.Click("Delete"));
  ASSERT_TRUE(t.Click("Cancel"));
  EXPECT_FALSE(t.Covered("SiteManager.deleteSite"));
  EXPECT_GE(t.FindTextWithin("site_list", "Nectarine"), 0);
}

TEST(AppsNectroidTest, SelectingASiteShowsItOnTheMainPage) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("Select a site"));
  ASSERT_TRUE(t.ClickIn("site_list", "CVGM"));
  EXPECT_TRUE(t.ActivityEndsWith(".NectroidPreferenceActivity"));
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".NectroidActivity"));
  EXPECT_TRUE(t.HasText("CVGM"));
}

TEST(AppsNectroidTest, AnInvalidUrlCrashesWithTheBugOn) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidAddSite(t, "Kohina", "kohina.net"));
  EXPECT_TRUE(
      OneFault(t.app(), Fault::Kind::kCrash, "nectroid-bad-url", "java.net.MalformedURLException"));
  EXPECT_FALSE(t.app().running());
  EXPECT_FALSE(t.Covered("SiteManager.addSite"));
}

TEST(AppsNectroidTest, AnInvalidUrlIsRejectedWithTheBugOff) {
  Walk t(kNectroid, {"nectroid-bad-url"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidAddSite(t, "Kohina", "kohina.net"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".NewSiteActivity"));
  EXPECT_TRUE(t.HasText("Invalid URL"));
  EXPECT_FALSE(t.Covered("SiteManager.addSite"));
}

TEST(AppsNectroidTest, AnEmptyFormAsksForAName) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("Select a site"));
  ASSERT_TRUE(t.Click("New site"));
  ASSERT_TRUE(t.Click("OK"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Please enter a name"));
}

// Delete the selected site, go back to the main page, Refresh.
void NectroidRefreshWithoutSite(Walk& t) {
  ASSERT_NO_FATAL_FAILURE(NectroidDeleteNectarine(t));
  t.Back();
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".NectroidActivity"));
  ASSERT_TRUE(t.HasText("No site selected")) << t.Dump();
  ASSERT_TRUE(t.MenuItem("Refresh"));
}

TEST(AppsNectroidTest, RefreshWithoutASiteCrashesWithTheBugOn) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidRefreshWithoutSite(t));
  EXPECT_TRUE(OneFault(t.app(), Fault::Kind::kCrash, "nectroid-no-site-npe",
                       "java.lang.NullPointerException"));
}

TEST(AppsNectroidTest, RefreshWithoutASiteDoesNothingWithTheBugOff) {
  Walk t(kNectroid, {"nectroid-no-site-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(NectroidRefreshWithoutSite(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("No site selected"));
  EXPECT_FALSE(t.Covered("PlaylistManager.refresh"));
}

TEST(AppsNectroidTest, RefreshWithASiteCovers) {
  Walk t(kNectroid);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Refresh"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.Covered("PlaylistManager.refresh"));
}

}  // namespace
}  // namespace roam::sim
