// Acceptance tests of four apps of the benchmark suite (apps/bench/): tasks (Tasks.org), schedule
// (FOSDEM), shop (OpenShop behind a login wall) and wizard (a sign-up wizard). Every spec loads;
// scripted walks through the SimApp API prove each planted bug with it on and its absence with it
// off; every crash and ANR carries its bug id; the shop's login wall lets the credentials of
// apps/bench/config/shop.login.json through and nothing else.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gui/action.h"
#include "gui/screen.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "test_paths.h"
#include "walk.h"

namespace roam::sim {
namespace {

using gui::ActionKind;
using gui::Widget;

constexpr char kTasks[] = "apps/bench/tasks.json";
constexpr char kSchedule[] = "apps/bench/schedule.json";
constexpr char kShop[] = "apps/bench/shop.json";
constexpr char kWizard[] = "apps/bench/wizard.json";

// The walks here refuse moves on disabled widgets (a click on a dead button fails the move).
using testing_walk::AppPath;
using testing_walk::EnabledOnlyWalk;
using testing_walk::NoFault;
using testing_walk::OneFatalFault;

// ---- every app -------------------------------------------------------------------------------

TEST(BenchBAppsTest, EveryAppLoadsWithItsSizeAndDocumentedBugs) {
  struct Want {
    const char* rel;
    size_t min_activities, max_activities;
    std::vector<std::string> bugs;
  };
  const std::vector<Want> wants = {
      {kTasks,
       9,
       9,
       {"tasks-tag-shown-twice", "tasks-due-empty-title-npe", "tasks-drive-backup-anr"}},
      {kSchedule,
       10,
       10,
       {"schedule-drawer-button-gone", "schedule-map-anr", "schedule-calendar-anfe"}},
      {kShop, 12, 14, {"shop-empty-quantity-ise", "shop-express-cod-npe"}},
      {kWizard, 6, 6, {"wizard-age-zero-iae", "wizard-next-dead-after-decline"}}};
  for (const Want& want : wants) {
    SCOPED_TRACE(want.rel);
    auto spec = LoadSpec(AppPath(want.rel));
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    SimApp app(*spec, SimOptions{});
    app.Launch();
    EXPECT_GE(app.Activities().size(), want.min_activities);
    EXPECT_LE(app.Activities().size(), want.max_activities);
    std::vector<std::string> ids;
    for (const auto& b : (*spec)->bugs()) {
      ids.push_back(b.id);
      EXPECT_FALSE(b.summary.empty()) << b.id;
      EXPECT_FALSE(b.correct.empty()) << b.id;
    }
    EXPECT_EQ(ids, want.bugs);
    int actionable = 0;
    for (const Widget& w : app.screen().widgets)
      if (w.enabled && (w.clickable || w.editable || w.scrollable)) ++actionable;
    EXPECT_GE(actionable, 2);
    EXPECT_TRUE(app.DrainFaults().empty());
    // The description documents every planted bug.
    std::ifstream in(AppPath(want.rel));
    nlohmann::json doc = nlohmann::json::parse(in);
    std::string description = doc.value("description", "");
    for (const std::string& id : want.bugs)
      EXPECT_NE(description.find(id), std::string::npos) << id;
  }
}

// ---- tasks -----------------------------------------------------------------------------------

// New task "Team sync" with the tag Meeting, then two attachments (a photo and a file).
// Returns how many Meeting chips the editor shows after each step: {tag, 1st, 2nd}.
std::vector<int> TasksTagThenTwoAttachments(EnabledOnlyWalk& t) {
  std::vector<int> chips;
  EXPECT_TRUE(t.ClickDesc("Create new task"));
  EXPECT_TRUE(t.ActivityEndsWith(".TaskEditActivity"));
  EXPECT_TRUE(t.Type("title", "Team sync"));
  EXPECT_TRUE(t.Click("Tags"));
  EXPECT_TRUE(t.ActivityEndsWith(".tags.TagPickerActivity"));
  EXPECT_TRUE(t.ClickIn("recycler_view", "Meeting"));
  EXPECT_TRUE(t.ActivityEndsWith(".TaskEditActivity"));
  chips.push_back(t.Count("Meeting", "chip"));
  EXPECT_TRUE(t.Click("Add attachment"));
  EXPECT_TRUE(t.Click("Take a photo"));
  chips.push_back(t.Count("Meeting", "chip"));
  EXPECT_TRUE(t.Click("Add attachment"));
  EXPECT_TRUE(t.Click("Choose a file"));
  EXPECT_TRUE(t.ActivityEndsWith(".files.FilePickerActivity"));
  EXPECT_TRUE(t.ClickIn("file_list", "agenda.pdf"));
  EXPECT_TRUE(t.ActivityEndsWith(".TaskEditActivity"));
  EXPECT_TRUE(t.HasText("2 attachments")) << t.Dump();
  chips.push_back(t.Count("Meeting", "chip"));
  return chips;
}

TEST(BenchBTasksTest, TagShownTwiceAfterTwoAttachmentsWithTheBugOn) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(TasksTagThenTwoAttachments(t), (std::vector<int>{1, 1, 2}));
  ASSERT_TRUE(t.ClickDesc("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".MainActivity"));
  EXPECT_TRUE(t.HasText("Team sync"));
  EXPECT_EQ(t.Count("Meeting", "chip"), 2) << t.Dump();
}

TEST(BenchBTasksTest, TagShownOnceWithTheBugOff) {
  EnabledOnlyWalk t(kTasks, {"tasks-tag-shown-twice"});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(TasksTagThenTwoAttachments(t), (std::vector<int>{1, 1, 1}));
  ASSERT_TRUE(t.ClickDesc("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Team sync"));
  EXPECT_EQ(t.Count("Meeting", "chip"), 1) << t.Dump();
  EXPECT_TRUE(t.Covered("TaskDao.save"));
}

TEST(BenchBTasksTest, TwoAttachmentsWithoutATagShowNoChip) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickDesc("Create new task"));
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(t.Click("Add attachment"));
    ASSERT_TRUE(t.Click("Record audio"));
  }
  EXPECT_EQ(t.Count("Meeting", "chip"), 0);
  EXPECT_TRUE(t.HasText("2 attachments"));
}

void TasksSaveWithDueDateAndNoTitle(EnabledOnlyWalk& t) {
  ASSERT_TRUE(t.ClickDesc("Create new task"));
  ASSERT_TRUE(t.Click("Due date"));
  ASSERT_TRUE(t.Click("Tomorrow"));
  ASSERT_TRUE(t.HasText("Tomorrow")) << t.Dump();
  ASSERT_TRUE(t.ClickDesc("Save"));
}

TEST(BenchBTasksTest, DueDateAndEmptyTitleCrashWithTheBugOn) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(TasksSaveWithDueDateAndNoTitle(t));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "tasks-due-empty-title-npe",
                            "java.lang.NullPointerException"));
}

TEST(BenchBTasksTest, DueDateAndEmptyTitleAskForATitleWithTheBugOff) {
  EnabledOnlyWalk t(kTasks, {"tasks-due-empty-title-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(TasksSaveWithDueDateAndNoTitle(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".TaskEditActivity"));
  EXPECT_TRUE(t.HasText("Please enter a title"));
  ASSERT_TRUE(t.Type("title", "Renew passport"));
  ASSERT_TRUE(t.ClickDesc("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Renew passport"));
}

TEST(BenchBTasksTest, EmptyTitleWithoutDueDateNeverCrashes) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickDesc("Create new task"));
  ASSERT_TRUE(t.ClickDesc("Save"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Please enter a title"));
}

TEST(BenchBTasksTest, EditingATaskShowsItsTitleAndSavesChanges) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.ClickIn("recycler_view", "Buy milk"));
  EXPECT_EQ(t.TextOf("title"), "Buy milk");
  ASSERT_TRUE(t.Type("title", "Buy oat milk"));
  ASSERT_TRUE(t.ClickDesc("Save"));
  EXPECT_TRUE(t.HasText("Buy oat milk"));
  EXPECT_FALSE(t.HasText("Buy milk"));
}

void TasksDriveBackup(EnabledOnlyWalk& t) {
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("Backups"));
  ASSERT_TRUE(t.ActivityEndsWith(".preferences.BackupPreferences"));
  ASSERT_TRUE(t.Click("Google Drive backup"));
  ASSERT_TRUE(t.Click("Back up now"));
}

TEST(BenchBTasksTest, DriveBackupHangsWithTheBugOn) {
  EnabledOnlyWalk t(kTasks);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(TasksDriveBackup(t));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kAnr, "tasks-drive-backup-anr"));
}

TEST(BenchBTasksTest, DriveBackupCompletesWithTheBugOff) {
  EnabledOnlyWalk t(kTasks, {"tasks-drive-backup-anr"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(TasksDriveBackup(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Backup complete"));
}

// ---- schedule --------------------------------------------------------------------------------

constexpr char kDrawer[] = "Open navigation drawer";

void ScheduleSearchTwice(EnabledOnlyWalk& t) {
  ASSERT_TRUE(t.HasDesc(kDrawer));
  ASSERT_TRUE(t.MenuItem("Search events"));
  ASSERT_TRUE(t.ActivityEndsWith(".SearchResultActivity"));
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".MainActivity"));
  ASSERT_TRUE(t.HasDesc(kDrawer)) << "gone after one search";
  ASSERT_TRUE(t.MenuItem("Search events"));
  ASSERT_TRUE(t.ActivityEndsWith(".SearchResultActivity"));
  t.Back();
  ASSERT_TRUE(t.ActivityEndsWith(".MainActivity"));
}

TEST(BenchBScheduleTest, DrawerButtonDisappearsAfterSearchingTwiceWithTheBugOn) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleSearchTwice(t));
  EXPECT_FALSE(t.HasDesc(kDrawer)) << t.Dump();
  ASSERT_TRUE(t.Click("SUNDAY"));  // on the other tab too
  EXPECT_FALSE(t.HasDesc(kDrawer));
  EXPECT_TRUE(NoFault(t.app()));
}

TEST(BenchBScheduleTest, DrawerButtonStaysWithTheBugOff) {
  EnabledOnlyWalk t(kSchedule, {"schedule-drawer-button-gone"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleSearchTwice(t));
  EXPECT_TRUE(t.HasDesc(kDrawer)) << t.Dump();
  ASSERT_TRUE(t.ClickDesc(kDrawer));
  EXPECT_TRUE(t.HasText("Bookmarks"));
}

TEST(BenchBScheduleTest, SearchesNotInARowKeepTheDrawerButton) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Search events"));
  t.Back();
  ASSERT_TRUE(t.ClickIn("recycler_view", "Rust"));
  t.Back();
  ASSERT_TRUE(t.MenuItem("Search events"));
  t.Back();
  EXPECT_TRUE(t.HasDesc(kDrawer));
}

TEST(BenchBScheduleTest, SearchFindsTalksAndOpensThem) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.MenuItem("Search events"));
  ASSERT_TRUE(t.Type("search_src_text", "linux"));
  EXPECT_GE(t.FindTextWithin("results", "The state of the Linux scheduler"), 0) << t.Dump();
  EXPECT_GE(t.FindTextWithin("results", "Mainline Linux on phones"), 0);
  ASSERT_TRUE(t.ClickIn("results", "Mainline Linux on phones"));
  EXPECT_TRUE(t.ActivityEndsWith(".EventDetailsActivity"));
  EXPECT_TRUE(t.HasText("H.2215"));
  t.Back();
  ASSERT_TRUE(t.Type("search_src_text", "cobol"));
  EXPECT_TRUE(t.HasText("No results for \"cobol\""));
}

// Rust -> "Async Rust in the kernel" -> bookmark.
void ScheduleBookmarkRustTalk(EnabledOnlyWalk& t) {
  ASSERT_TRUE(t.ClickIn("recycler_view", "Rust"));
  ASSERT_TRUE(t.ActivityEndsWith(".TrackScheduleActivity"));
  ASSERT_TRUE(t.ClickIn("list_rust", "Async Rust in the kernel"));
  ASSERT_TRUE(t.ActivityEndsWith(".EventDetailsActivity"));
  ASSERT_TRUE(t.ClickDesc("Add to bookmarks"));
  ASSERT_TRUE(t.HasDesc("Remove from bookmarks"));
}

TEST(BenchBScheduleTest, BookmarksListTheBookmarkedTalk) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleBookmarkRustTalk(t));
  t.Back();
  t.Back();
  ASSERT_TRUE(t.ClickDesc(kDrawer));
  ASSERT_TRUE(t.Click("Bookmarks"));
  EXPECT_TRUE(t.HasText("1 bookmarked events"));
  ASSERT_TRUE(t.Click("Async Rust in the kernel"));
  ASSERT_TRUE(t.ClickDesc("Remove from bookmarks"));
  t.Back();
  EXPECT_TRUE(t.HasText("No bookmarks yet")) << t.Dump();
}

TEST(BenchBScheduleTest, CalendarOnABookmarkedTalkCrashesWithTheBugOn) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleBookmarkRustTalk(t));
  ASSERT_TRUE(t.MenuItem("Add to calendar"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "schedule-calendar-anfe",
                            "android.content.ActivityNotFoundException"));
}

TEST(BenchBScheduleTest, CalendarWorksWithTheBugOff) {
  EnabledOnlyWalk t(kSchedule, {"schedule-calendar-anfe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleBookmarkRustTalk(t));
  ASSERT_TRUE(t.MenuItem("Add to calendar"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Added to calendar"));
}

void ScheduleHiresMap(EnabledOnlyWalk& t) {
  ASSERT_TRUE(t.MenuItem("Settings"));
  ASSERT_TRUE(t.Click("High-resolution maps"));
  t.Back();
  ASSERT_TRUE(t.ClickDesc(kDrawer));
  ASSERT_TRUE(t.Click("Map"));
  ASSERT_TRUE(t.ActivityEndsWith(".MapActivity"));
  ASSERT_TRUE(t.ClickDesc("Campus map"));
}

TEST(BenchBScheduleTest, HiresMapHangsWithTheBugOn) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleHiresMap(t));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kAnr, "schedule-map-anr"));
}

TEST(BenchBScheduleTest, HiresMapLoadsWithTheBugOff) {
  EnabledOnlyWalk t(kSchedule, {"schedule-map-anr"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ScheduleHiresMap(t));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Map loaded"));
}

TEST(BenchBScheduleTest, DayTabsAndLiveTabsAreScreensOfOneActivity) {
  EnabledOnlyWalk t(kSchedule);
  ASSERT_TRUE(t.ok());
  std::string main = t.screen().activity;
  ASSERT_TRUE(t.Click("SUNDAY"));
  EXPECT_EQ(t.screen().activity, main);
  EXPECT_GE(t.FindTextWithin("recycler_view", "Security"), 0);
  ASSERT_TRUE(t.ClickDesc(kDrawer));
  ASSERT_TRUE(t.Click("Live"));
  std::string live = t.screen().activity;
  ASSERT_TRUE(t.Click("NEXT"));
  EXPECT_EQ(t.screen().activity, live);
  EXPECT_TRUE(t.HasText("Reproducible builds in 2026"));
}

// ---- shop ------------------------------------------------------------------------------------

struct Credentials {
  std::string email, password;
};

Credentials ConfiguredLogin() {
  std::ifstream in(AppPath("apps/bench/config/shop.login.json"));
  EXPECT_TRUE(in.good()) << "apps/bench/config/shop.login.json is missing";
  if (!in.good()) return {};
  nlohmann::json j = nlohmann::json::parse(in);
  return {j.value("email", ""), j.value("password", "")};
}

void ShopSignIn(EnabledOnlyWalk& t, const Credentials& c) {
  ASSERT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
  ASSERT_TRUE(t.Type("login_email", c.email));
  ASSERT_TRUE(t.Type("login_password", c.password));
  ASSERT_TRUE(t.Click("Sign in"));
}

TEST(BenchBShopTest, ConfiguredCredentialsPassTheLoginWall) {
  Credentials c = ConfiguredLogin();
  ASSERT_FALSE(c.email.empty());
  ASSERT_FALSE(c.password.empty());
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopSignIn(t, c));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ux.MainActivity")) << t.Dump();
  EXPECT_TRUE(t.HasText("Hi " + c.email));
  t.Back();  // the login page is not under the catalogue
  EXPECT_NE(t.screen().activity, "bf.io.openshop.ux.LoginActivity");
}

TEST(BenchBShopTest, WrongCredentialsStayAtTheWall) {
  Credentials good = ConfiguredLogin();
  for (const Credentials& c :
       {Credentials{good.email, good.password + "x"},
        Credentials{"someone@roam.test", good.password}, Credentials{good.email, "password1"}}) {
    SCOPED_TRACE(c.email + " / " + c.password);
    EnabledOnlyWalk t(kShop);
    ASSERT_TRUE(t.ok());
    ASSERT_NO_FATAL_FAILURE(ShopSignIn(t, c));
    EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
    EXPECT_TRUE(t.HasText("Wrong email or password")) << t.Dump();
  }
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopSignIn(t, {"not-an-address", good.password}));
  EXPECT_TRUE(t.HasText("Enter a valid email address"));
  EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
}

TEST(BenchBShopTest, WithoutLoginOnlyTheWallAndRegistrationAreReachable) {
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.Click("Create an account"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.RegisterActivity"));
  ASSERT_TRUE(t.Type("reg_name", "Ada Lovelace"));
  ASSERT_TRUE(t.Type("reg_email", "ada@roam.test"));
  ASSERT_TRUE(t.Type("reg_password", "analytical"));
  ASSERT_TRUE(t.Click("Register"));
  EXPECT_TRUE(t.HasText("Registration closed"));
  ASSERT_TRUE(t.Click("OK"));
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
  t.Global(ActionKind::kMenu);
  EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
}

TEST(BenchBShopTest, TheSessionSurvivesARestartAndSignOutRaisesTheWall) {
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopSignIn(t, ConfiguredLogin()));
  t.app().Stop();
  t.app().Launch();
  EXPECT_TRUE(t.ActivityEndsWith(".ux.MainActivity")) << t.Dump();
  ASSERT_TRUE(t.MenuItem("Profile"));
  ASSERT_TRUE(t.Click("Sign out"));
  ASSERT_TRUE(t.Click("Sign out"));  // the dialog's button
  EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity")) << t.Dump();
  t.Back();
  EXPECT_FALSE(t.ActivityEndsWith(".ux.MainActivity"));
  t.app().ClearData();
  t.app().Launch();
  EXPECT_TRUE(t.ActivityEndsWith(".ux.LoginActivity"));
}

// Signed in: Linen shirt with quantity `qty` ("" leaves the field empty) -> cart -> address ->
// `shipping` -> `payment` -> Continue on the payment page.
void ShopCheckoutToReview(EnabledOnlyWalk& t, const std::string& qty, const std::string& shipping,
                          const std::string& payment) {
  ASSERT_NO_FATAL_FAILURE(ShopSignIn(t, ConfiguredLogin()));
  ASSERT_TRUE(t.ClickIn("product_list", "Linen shirt"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.ProductActivity"));
  ASSERT_TRUE(t.Click("M"));
  if (!qty.empty()) {
    ASSERT_TRUE(t.Type("quantity", qty));
  }
  ASSERT_TRUE(t.Click("Add to cart"));
  ASSERT_TRUE(t.HasText("Added to cart")) << t.Dump();
  t.ResetSteps();
  ASSERT_TRUE(t.Click("Go to cart"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.CartActivity"));
  ASSERT_TRUE(t.Click("Checkout"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.checkout.AddressActivity"));
  ASSERT_FALSE(t.EnabledText("Continue"));
  ASSERT_TRUE(t.Type("full_name", "Ada Lovelace"));
  ASSERT_TRUE(t.Type("street", "Rue Haute 12"));
  ASSERT_TRUE(t.Type("zip", "1000"));
  ASSERT_FALSE(t.EnabledText("Continue")) << "a 4-digit ZIP passed";
  ASSERT_TRUE(t.Type("zip", "10115"));
  ASSERT_TRUE(t.Type("city", "Berlin"));
  ASSERT_TRUE(t.Click("Continue"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.checkout.ShippingActivity"));
  ASSERT_FALSE(t.EnabledText("Continue"));
  ASSERT_TRUE(t.Click(shipping));
  ASSERT_TRUE(t.Click("Continue"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.checkout.PaymentActivity"));
  ASSERT_TRUE(t.Click(payment));
  if (payment == "Credit card") {
    ASSERT_FALSE(t.EnabledText("Continue"));
    ASSERT_TRUE(t.Type("card_number", "4111111111111111"));
    ASSERT_TRUE(t.Type("expiry", "12/28"));
    ASSERT_TRUE(t.Type("cvv", "123"));
  }
  ASSERT_TRUE(t.Click("Continue"));
}

constexpr char kStandard[] = "Standard (free, 3-5 days)";
constexpr char kExpress[] = "Express (€9.90, next day)";

TEST(BenchBShopTest, PlacingAnOrderWithAnEmptyQuantityCrashesWithTheBugOn) {
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "", kStandard, "Credit card"));
  ASSERT_TRUE(t.ActivityEndsWith(".ux.checkout.ReviewActivity"));
  EXPECT_TRUE(t.HasText(" x Linen shirt")) << t.Dump();  // the empty quantity shows
  ASSERT_TRUE(t.Click("Place order"));
  EXPECT_GE(t.steps(), 14);  // a deep path: cart, checkout, 4 fields, ..., place order
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "shop-empty-quantity-ise",
                            "java.lang.IllegalStateException"));
}

TEST(BenchBShopTest, AnEmptyQuantityMeansOneWithTheBugOff) {
  EnabledOnlyWalk t(kShop, {"shop-empty-quantity-ise"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "", kStandard, "Credit card"));
  EXPECT_TRUE(t.HasText("1 x Linen shirt")) << t.Dump();
  ASSERT_TRUE(t.Click("Place order"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ux.checkout.OrderConfirmationActivity"));
  ASSERT_TRUE(t.Click("View my orders"));
  EXPECT_TRUE(t.ActivityEndsWith(".ux.OrdersActivity"));
  EXPECT_TRUE(t.HasText("Processing"));
  t.Back();
  EXPECT_TRUE(t.ActivityEndsWith(".ux.ProductActivity"));  // the checkout path is gone
}

TEST(BenchBShopTest, AGivenQuantityPlacesTheOrderWithTheBugOn) {
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "2", kStandard, "PayPal"));
  EXPECT_TRUE(t.HasText("2 x Linen shirt"));
  ASSERT_TRUE(t.Click("Place order"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Your order has been placed."));
  EXPECT_TRUE(t.Covered("OrderBuilder.build"));
}

TEST(BenchBShopTest, ExpressWithCashOnDeliveryCrashesWithTheBugOn) {
  EnabledOnlyWalk t(kShop);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "1", kExpress, "Cash on delivery"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "shop-express-cod-npe",
                            "java.lang.NullPointerException"));
}

TEST(BenchBShopTest, ExpressWithCashOnDeliveryShowsTheSurchargeWithTheBugOff) {
  EnabledOnlyWalk t(kShop, {"shop-express-cod-npe"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "1", kExpress, "Cash on delivery"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.ActivityEndsWith(".ux.checkout.ReviewActivity"));
  EXPECT_TRUE(t.HasText("Cash on delivery surcharge: €3.00"));
}

TEST(BenchBShopTest, OneOfTheTwoChoicesAloneDoesNotCrash) {
  for (auto [ship, pay] :
       {std::pair<const char*, const char*>{kExpress, "PayPal"}, {kStandard, "Cash on delivery"}}) {
    SCOPED_TRACE(std::string(ship) + " + " + pay);
    EnabledOnlyWalk t(kShop);
    ASSERT_TRUE(t.ok());
    ASSERT_NO_FATAL_FAILURE(ShopCheckoutToReview(t, "1", ship, pay));
    EXPECT_TRUE(NoFault(t.app()));
    EXPECT_TRUE(t.ActivityEndsWith(".ux.checkout.ReviewActivity"));
  }
}

// ---- wizard ----------------------------------------------------------------------------------

void WizardToAge(EnabledOnlyWalk& t, const std::string& age) {
  ASSERT_TRUE(t.Click("Create account"));
  ASSERT_TRUE(t.ActivityEndsWith(".form.FormWizardActivity"));
  ASSERT_FALSE(t.EnabledText("Next"));
  ASSERT_TRUE(t.Type("name", "R2D2"));
  ASSERT_TRUE(t.HasText("Letters only, please"));
  ASSERT_FALSE(t.EnabledText("Next"));
  ASSERT_TRUE(t.Type("name", "Ada Lovelace"));
  ASSERT_TRUE(t.Click("Next"));
  ASSERT_TRUE(t.HasText("Hello Ada Lovelace!")) << t.Dump();
  ASSERT_FALSE(t.EnabledText("Next"));
  ASSERT_TRUE(t.Type("age", "1234"));
  ASSERT_FALSE(t.EnabledText("Next"));
  ASSERT_TRUE(t.Type("age", age));
  ASSERT_TRUE(t.Click("Next"));
}

TEST(BenchBWizardTest, AgeZeroCrashesWithTheBugOn) {
  EnabledOnlyWalk t(kWizard);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardToAge(t, "0"));
  EXPECT_TRUE(OneFatalFault(t.app(), Fault::Kind::kCrash, "wizard-age-zero-iae",
                            "java.lang.IllegalArgumentException"));
}

TEST(BenchBWizardTest, AgeZeroIsRejectedWithTheBugOff) {
  EnabledOnlyWalk t(kWizard, {"wizard-age-zero-iae"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardToAge(t, "0"));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_TRUE(t.HasText("Enter an age between 1 and 130"));
  EXPECT_TRUE(t.HasText("Step 2 of 3: your age"));
}

// Name and age, then the email page: a valid email, and the terms dialog answered in order.
void WizardEmailAndTerms(EnabledOnlyWalk& t, const std::vector<std::string>& answers) {
  ASSERT_NO_FATAL_FAILURE(WizardToAge(t, "36"));
  ASSERT_TRUE(t.HasText("Step 3 of 3: email and terms")) << t.Dump();
  ASSERT_TRUE(t.Type("email", "ada@example"));
  ASSERT_TRUE(t.HasText("Enter a valid email address"));
  ASSERT_TRUE(t.Type("email", "ada@example.org"));
  ASSERT_FALSE(t.EnabledText("Next"));  // the terms are not accepted yet
  for (const std::string& answer : answers) {
    ASSERT_TRUE(t.Click("Read the terms of service"));
    ASSERT_TRUE(t.Click(answer));
  }
}

TEST(BenchBWizardTest, AcceptAfterDeclineLeavesNextDeadWithTheBugOn) {
  EnabledOnlyWalk t(kWizard);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardEmailAndTerms(t, {"Decline", "Accept"}));
  EXPECT_TRUE(NoFault(t.app()));
  EXPECT_FALSE(t.EnabledText("Next")) << t.Dump();
  EXPECT_TRUE(t.HasText("Please accept the terms"));
}

TEST(BenchBWizardTest, AcceptAfterDeclineEnablesNextWithTheBugOff) {
  EnabledOnlyWalk t(kWizard, {"wizard-next-dead-after-decline"});
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardEmailAndTerms(t, {"Decline", "Accept"}));
  EXPECT_TRUE(t.EnabledText("Next")) << t.Dump();
  ASSERT_TRUE(t.Click("Next"));
  EXPECT_TRUE(t.ActivityEndsWith(".form.SummaryActivity"));
}

TEST(BenchBWizardTest, AcceptingAtOnceCompletesTheSignUpWithTheBugOn) {
  EnabledOnlyWalk t(kWizard);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardEmailAndTerms(t, {"Accept"}));
  ASSERT_TRUE(t.EnabledText("Next"));
  ASSERT_TRUE(t.Click("Next"));
  ASSERT_TRUE(t.ActivityEndsWith(".form.SummaryActivity"));
  EXPECT_TRUE(t.HasText("Name: Ada Lovelace"));
  EXPECT_TRUE(t.HasText("Age: 36"));
  EXPECT_TRUE(t.HasText("Email: ada@example.org"));
  ASSERT_TRUE(t.Click("Create account"));
  EXPECT_TRUE(t.ActivityEndsWith(".WelcomeAboardActivity"));
  ASSERT_TRUE(t.Click("Get started"));
  EXPECT_TRUE(t.ActivityEndsWith(".MainActivity"));
  EXPECT_TRUE(t.HasText("Signed up as ada@example.org"));
  t.Back();
  EXPECT_FALSE(t.ActivityEndsWith(".form.FormWizardActivity"));  // the wizard is gone
  EXPECT_TRUE(NoFault(t.app()));
}

TEST(BenchBWizardTest, BackKeepsTheAnswersAndCancelDiscardsThem) {
  EnabledOnlyWalk t(kWizard);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(WizardToAge(t, "36"));
  ASSERT_TRUE(t.Click("Back"));
  ASSERT_TRUE(t.HasText("Step 2 of 3: your age"));
  EXPECT_EQ(t.TextOf("age"), "36");
  ASSERT_TRUE(t.Click("Back"));
  EXPECT_EQ(t.TextOf("name"), "Ada Lovelace");
  ASSERT_TRUE(t.Click("Next"));
  ASSERT_TRUE(t.Click("Cancel"));
  ASSERT_TRUE(t.HasText("Discard sign-up?"));
  ASSERT_TRUE(t.Click("Discard"));
  EXPECT_TRUE(t.ActivityEndsWith(".MainActivity")) << t.Dump();
  ASSERT_TRUE(t.Click("Create account"));
  EXPECT_EQ(t.TextOf("name"), "");
  EXPECT_TRUE(NoFault(t.app()));
}

}  // namespace
}  // namespace roam::sim
