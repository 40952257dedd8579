// Intents over adb: the activities and filters `dumpsys package` lists and an APK's manifest
// declares, the `am start` command line of a gui::Intent, and what its answer says (device_text.h,
// apk.h). The dumpsys and am texts are real outputs, cut down; each says where it comes from.
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/android_device.h"
#include "device/android/apk.h"
#include "device/android/device_text.h"
#include "device/android/phone_pace.h"
#include "device/android/uia2_driver.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_shell.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

using gui::DeclaredActivity;
using gui::IntentFilter;
using O = StartAnswer::Outcome;

// `adb shell dumpsys package host.exp.exponent` on an Android 11 emulator, from expo/expo
// (packages/@expo/cli/src/start/platforms/android/__tests__/fixtures/adb-output.ts), cut down:
// one filter listed under each of its schemes (http, https), a host any subdomain takes (WILD),
// LITERAL, PREFIX and GLOB paths, an activity in the Schemes and the Non-Data Actions parts, two
// activities under one action. The Full MIME Types part (a filter with a Type, which `am start`
// without -t never matches) is written as AOSP's IntentFilter.dump prints it; the Receiver
// Resolver Table after it is the receivers', not the activities'.
constexpr std::string_view kExpoDumpsys = R"(Activity Resolver Table:
  Schemes:
      expauth:
        66dcbda host.exp.exponent/.experience.HomeActivity filter 779d6e8
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "expauth"
      stripesdk:
        ab22f39 host.exp.exponent/com.stripe.android.payments.StripeBrowserLauncherActivity filter 757a97e
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "stripesdk"
          Authority: "payment_return_url": -1
          Path: "PatternMatcher{LITERAL: /host.exp.exponent}"
      http:
        59241c9 host.exp.exponent/.LauncherActivity filter b9dfbef
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "https"
          Scheme: "http"
          Authority: "expo.io": -1
          Authority: "expo.io": -1
          Authority: "expo.dev": -1
          Path: "PatternMatcher{LITERAL: /expo-go}"
          Path: "PatternMatcher{LITERAL: /expo-go}"
          AutoVerify=true
        59241c9 host.exp.exponent/.LauncherActivity filter ee146fc
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "http"
          Scheme: "https"
          Authority: "exp.host": -1
          Authority: ".exp.direct": -1 WILD
          Path: "PatternMatcher{PREFIX: /@}"
          Path: "PatternMatcher{GLOB: .*}"
      https:
        59241c9 host.exp.exponent/.LauncherActivity filter b9dfbef
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "https"
          Scheme: "http"
          Authority: "expo.io": -1
          Authority: "expo.io": -1
          Authority: "expo.dev": -1
          Path: "PatternMatcher{LITERAL: /expo-go}"
          Path: "PatternMatcher{LITERAL: /expo-go}"
          AutoVerify=true
        59241c9 host.exp.exponent/.LauncherActivity filter ee146fc
          Action: "android.intent.action.VIEW"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
          Scheme: "http"
          Scheme: "https"
          Authority: "exp.host": -1
          Authority: ".exp.direct": -1 WILD
          Path: "PatternMatcher{PREFIX: /@}"
          Path: "PatternMatcher{GLOB: .*}"

  Full MIME Types:
      text/plain:
        3c2d1e0 host.exp.exponent/.ShareActivity filter 5f4e3d2
          Action: "android.intent.action.SEND"
          Category: "android.intent.category.DEFAULT"
          Type: "text/plain"

  Non-Data Actions:
      expo.modules.notifications.OPEN_APP_ACTION:
        59241c9 host.exp.exponent/.LauncherActivity filter c743185
          Action: "expo.modules.notifications.OPEN_APP_ACTION"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.BROWSABLE"
      android.intent.action.MAIN:
        66dcbda host.exp.exponent/.experience.HomeActivity filter 578680b
          Action: "android.intent.action.MAIN"
          Category: "android.intent.category.DEFAULT"
          Category: "android.intent.category.LAUNCHER"
        eeccba6 host.exp.exponent/.experience.TvActivity filter 94379e7
          Action: "android.intent.action.MAIN"
          Category: "android.intent.category.LEANBACK_LAUNCHER"

Receiver Resolver Table:
  Non-Data Actions:
      com.android.vending.INSTALL_REFERRER:
        b6bbedf host.exp.exponent/.referrer.InstallReferrerReceiver filter 82672c
          Action: "com.android.vending.INSTALL_REFERRER"
)";

const DeclaredActivity* Find(const std::vector<DeclaredActivity>& all, const std::string& name) {
  for (const auto& a : all)
    if (a.name == name) return &a;
  return nullptr;
}

TEST(DeviceIntents, TheActivityResolverTableGivesEachActivityItsFiltersOnce) {
  const auto all = ParseActivityResolver(kExpoDumpsys);
  std::vector<std::string> names;
  for (const auto& a : all) names.push_back(a.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "com.stripe.android.payments.StripeBrowserLauncherActivity",
                "host.exp.exponent.LauncherActivity", "host.exp.exponent.experience.HomeActivity",
                "host.exp.exponent.experience.TvActivity"}));  // no ShareActivity: typed
  for (const auto& a : all) EXPECT_TRUE(a.exported) << a.name << ": dumpsys does not say";

  const DeclaredActivity* launcher = Find(all, "host.exp.exponent.LauncherActivity");
  ASSERT_NE(launcher, nullptr);
  const std::vector<std::string> view = {"android.intent.action.VIEW"};
  const std::vector<std::string> browsable = {"android.intent.category.DEFAULT",
                                              "android.intent.category.BROWSABLE"};
  EXPECT_EQ(
      launcher->filters,
      (std::vector<IntentFilter>{
          {.actions = view,
           .categories = browsable,
           .schemes = {"https", "http"},
           .hosts = {"expo.io", "expo.dev"},
           .paths = {"/expo-go"}},
          {.actions = view,
           .categories = browsable,
           .schemes = {"http", "https"},
           .hosts = {"exp.host", "www.exp.direct"},
           .paths = {"/@", ""}},
          {.actions = {"expo.modules.notifications.OPEN_APP_ACTION"}, .categories = browsable},
      }));
  const DeclaredActivity* home = Find(all, "host.exp.exponent.experience.HomeActivity");
  ASSERT_NE(home, nullptr);
  ASSERT_EQ(home->filters.size(), 2u);
  EXPECT_EQ(home->filters[0].schemes, std::vector<std::string>{"expauth"});
  EXPECT_EQ(home->filters[1].actions, std::vector<std::string>{"android.intent.action.MAIN"});
  const DeclaredActivity* stripe =
      Find(all, "com.stripe.android.payments.StripeBrowserLauncherActivity");
  ASSERT_NE(stripe, nullptr);
  ASSERT_EQ(stripe->filters.size(), 1u);
  EXPECT_EQ(stripe->filters[0].hosts, std::vector<std::string>{"payment_return_url"});
  EXPECT_EQ(stripe->filters[0].paths, std::vector<std::string>{"/host.exp.exponent"});

  // The deep links gui builds from them are ones Android's own matching takes.
  const auto intents = gui::CandidateIntents(*launcher);
  ASSERT_GE(intents.size(), 3u);
  EXPECT_EQ(intents[1].data, "https://expo.io/expo-go");
  EXPECT_EQ(intents[2].data, "http://exp.host/@");
  EXPECT_TRUE(gui::FilterTakes(launcher->filters[1],
                               {.action = view[0], .data = "https://www.exp.direct/@me/app"}));

  // Android 13's static types and MIME groups need a type as much as `Type:` does.
  for (std::string_view typed : {"StaticType: \"image/*\"", "MimeGroup: \"shared\""})
    EXPECT_TRUE(
        ParseActivityResolver(fmt::format("Activity Resolver Table:\n  Non-Data Actions:\n"
                                          "      android.intent.action.SEND:\n"
                                          "        1a2b org.app/.Share filter 3c4d\n"
                                          "          Action: \"android.intent.action.SEND\"\n"
                                          "          {}\n",
                                          typed))
            .empty())
        << typed;
  EXPECT_TRUE(ParseActivityResolver("Unable to find package: org.app\n").empty());
  EXPECT_TRUE(ParseActivityResolver("Receiver Resolver Table:\n  Non-Data Actions:\n").empty());
}

TEST(DeviceIntents, HostsAndPathPatternsBecomeWhatAUriCarries) {
  EXPECT_EQ(FilterHost("example.com", -1), "example.com");
  EXPECT_EQ(FilterHost("example.com", 8080), "example.com:8080");
  EXPECT_EQ(FilterHost("*.example.com", -1), "www.example.com");
  EXPECT_EQ(FilterHost("*", -1), "localhost");
  EXPECT_EQ(FilterPathPrefix("LITERAL", "/a.b"), "/a.b");
  EXPECT_EQ(FilterPathPrefix("PREFIX", "/item"), "/item");
  EXPECT_EQ(FilterPathPrefix("GLOB", "/item/.*"), "/item/");
  EXPECT_EQ(FilterPathPrefix("GLOB", "/items*"), "/item");  // "s*": no s at all will do
  EXPECT_EQ(FilterPathPrefix("GLOB", "/a\\.b/.*"), "/a.b/");
  EXPECT_EQ(FilterPathPrefix("ADVANCED_GLOB", "/v[0-9]+/x"), "/v");
  EXPECT_EQ(FilterPathPrefix("SUFFIX", ".pdf"), "/.pdf");
}

// Each command of `line` as the device's sh splits it (sim_shell.h: sh's quoting rules).
std::vector<std::vector<std::string>> Words(const std::string& line) {
  auto words = serve::SplitShellWords(line);
  EXPECT_TRUE(words.ok()) << line << ": " << words.status().message();
  return words.ok() ? *words : std::vector<std::vector<std::string>>{};
}

TEST(DeviceIntents, AmStartQuotesEveryValueSoTheShellRunsNoneOfIt) {
  const std::string hostile = "it's; reboot $(reboot) `id` \"q\" && rm -rf / | x > y #z";
  const gui::Intent component{
      .component = "org.app.Detail",
      .extras = {{.key = "na me", .value = hostile},
                 {.key = "$(id)", .type = gui::ExtraType::kInt, .value = "3"},
                 {.key = "flag", .type = gui::ExtraType::kBool, .value = "true"},
                 {.key = "empty", .value = ""}}};
  const std::string line = StartCommand(component, "org.app");
  EXPECT_EQ(line.rfind("am start -W -n 'org.app/org.app.Detail' --es 'na me' 'it'\\''s; ", 0), 0u)
      << line;
  EXPECT_EQ(Words(line),
            (std::vector<std::vector<std::string>>{
                {"am", "start", "-W", "-n", "org.app/org.app.Detail", "--es", "na me", hostile,
                 "--ei", "$(id)", "3", "--ez", "flag", "true", "--es", "empty", ""}}));

  // A deep link: resolved inside the app (-p), its URI one word whatever it holds.
  const gui::Intent link{.action = "android.intent.action.VIEW", .data = "app://x/y?a=1&b=$(id);c"};
  EXPECT_EQ(
      StartCommand(link, "org.app"),
      "am start -W -a 'android.intent.action.VIEW' -d 'app://x/y?a=1&b=$(id);c' -p 'org.app'");
  EXPECT_EQ(Words(StartCommand(link, "org.app")),
            (std::vector<std::vector<std::string>>{{"am", "start", "-W", "-a",
                                                    "android.intent.action.VIEW", "-d",
                                                    "app://x/y?a=1&b=$(id);c", "-p", "org.app"}}));
}

TEST(DeviceIntents, AnIntentActionIsSentThroughTheShellAsAmStart) {
  const gui::Intent intent{.component = "org.app.Detail",
                           .extras = {{.key = "id", .type = gui::ExtraType::kInt, .value = "7"},
                                      {.key = "q", .value = "a b;c"}}};
  const gui::Action action = gui::MakeGlobalAction(gui::ActionKind::kIntent, intent.ToText());
  auto input = PlanAction(action, 1080, 1920, 0, InputSettings{});
  ASSERT_TRUE(input.ok()) << input.status().message();  // no longer Unsupported
  EXPECT_EQ(input->kind, DeviceInput::Kind::kIntent);
  EXPECT_EQ(input->intent, intent);
  EXPECT_TRUE(ShellOnly(*input));  // the UiAutomator2 server has no endpoint for it
  auto lines = ActionCommand(action, 1080, 1920, 0, "org.app", InputSettings{});
  ASSERT_TRUE(lines.ok()) << lines.status().message();
  EXPECT_EQ(*lines, std::vector<std::string>{
                        "am start -W -n 'org.app/org.app.Detail' --ei 'id' '7' --es 'q' 'a b;c'"});
  // A phone charges it as the launch it is, whichever driver runs.
  for (DriverKind driver : {DriverKind::kUia2, DriverKind::kUiautomator}) {
    const PhoneCalls calls{.driver = driver, .package = "org.app"};
    EXPECT_EQ(calls.PerformMs(*input), 1400);
  }

  EXPECT_FALSE(PlanAction(gui::MakeGlobalAction(gui::ActionKind::kIntent, "--bogus x"), 1080, 1920,
                          0, InputSettings{})
                   .ok());
  const gui::Intent huge{.component = "org.app.Detail",
                         .extras = {{.key = "k", .value = std::string(kMaxCommandLine, 'x')}}};
  EXPECT_FALSE(
      InputCommands(DeviceInput{.kind = DeviceInput::Kind::kIntent, .intent = huge}, "org.app")
          .ok());
}

TEST(DeviceIntents, AmStartAnswersAreStartedOrRefusedWithTheReason) {
  const gui::Intent secret{.component = "org.app.Secret"};
  // Started, as `am start -W` prints it (AOSP ActivityManagerShellCommand.runStartActivity).
  StartAnswer ok = ParseStartAnswer(
      "Starting: Intent { cmp=org.app/.Secret }\nStatus: ok\nLaunchState: COLD\n"
      "Activity: org.app/.Secret\nTotalTime: 412\nWaitTime: 415\nComplete\n");
  EXPECT_EQ(ok.outcome, O::kStarted);
  EXPECT_TRUE(StartStatus(ok, secret).ok());
  EXPECT_EQ(ParseStartAnswer("Starting: Intent { cmp=org.app/.Main }\nWarning: Activity not "
                             "started, its current task has been brought to the front\nStatus: "
                             "ok\nLaunchState: UNKNOWN (0)\nActivity: org.app/.Main\nComplete\n")
                .outcome,
            O::kStarted);
  EXPECT_EQ(ParseStartAnswer("Starting: Intent { cmp=org.app/.ExceptionActivity }\nStatus: ok\n"
                             "Activity: org.app/.ExceptionActivity\nComplete\n")
                .outcome,
            O::kStarted);
  // An intent's own text ("Starting:") says nothing about how it went.
  EXPECT_EQ(ParseStartAnswer("Starting: Intent { act=android.intent.action.VIEW dat=app://"
                             "Permission Denial Error: x }\nStatus: ok\nComplete\n")
                .outcome,
            O::kStarted);

  // Not exported, as Android 12 and later print it (appium/appium#19281).
  StartAnswer a12 = ParseStartAnswer(
      "Starting: Intent { cmp=org.app/.Secret }\n\nException occurred while executing 'start':\n"
      "java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 "
      "cmp=org.app/.Secret } from null (pid=6446, uid=2000) not exported from uid 10002\n"
      "\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission("
      "ActivityTaskSupervisor.java:1172)\n");
  EXPECT_EQ(a12.outcome, O::kNotExported);
  EXPECT_EQ(a12.activity, "org.app.Secret");
  Status refused = StartStatus(a12, secret);
  EXPECT_TRUE(refused.IsRefused());
  EXPECT_EQ(refused.message(), "intent not exported: org.app.Secret");
  // Android 8 (appium/appium#11307) and Android 4 (pankajdhomkar/shelves#35).
  StartAnswer a8 = ParseStartAnswer(
      "Starting: Intent { cmp=com.kingnet.fiveline/.ui.main.MainActivity }\nSecurity exception: "
      "Permission Denial: starting Intent { flg=0x10000000 "
      "cmp=com.kingnet.fiveline/.ui.main.MainActivity } from null (pid=19537, uid=2000) not "
      "exported from uid 10246\n\njava.lang.SecurityException: Permission Denial: starting Intent "
      "{ flg=0x10000000 cmp=com.kingnet.fiveline/.ui.main.MainActivity } from null (pid=19537, "
      "uid=2000) not exported from uid 10246\n");
  EXPECT_EQ(a8.outcome, O::kNotExported);
  EXPECT_EQ(a8.activity, "com.kingnet.fiveline.ui.main.MainActivity");
  StartAnswer a4 = ParseStartAnswer(
      "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
      "cmp=org.curiouscreature.android.shelves/.activity.AddBookActivity }\n"
      "java.lang.SecurityException: Permission Denial: starting Intent { "
      "act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10000000 "
      "cmp=org.curiouscreature.android.shelves/.activity.AddBookActivity } from null (pid=5493, "
      "uid=2000) not exported from uid 10171\n\tat "
      "android.os.Parcel.readException(Parcel.java:1431)\n");
  EXPECT_EQ(a4.outcome, O::kNotExported);
  EXPECT_EQ(a4.activity, "org.curiouscreature.android.shelves.activity.AddBookActivity");

  // Behind a permission (ActivityTaskSupervisor.checkStartAnyActivityPermission's third text).
  StartAnswer perm = ParseStartAnswer(
      "java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 "
      "cmp=org.app/.Admin } from null (pid=812, uid=2000) requires org.app.permission.ADMIN\n");
  EXPECT_EQ(perm.outcome, O::kNeedsPermission);
  EXPECT_EQ(StartStatus(perm, {.component = "org.app.Admin"}).message(),
            "intent needs a permission: org.app.Admin");

  // Nothing takes the deep link; a class that is not there (NO_CLASS_ERROR_CODE first).
  const gui::Intent link{.action = "android.intent.action.VIEW", .data = "app://x/y"};
  StartAnswer unresolved = ParseStartAnswer(
      "Starting: Intent { act=android.intent.action.VIEW dat=app://x/... pkg=org.app }\n"
      "Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW "
      "dat=app://x/... flg=0x10000000 pkg=org.app }\n");
  EXPECT_EQ(unresolved.outcome, O::kUnresolved);
  EXPECT_EQ(StartStatus(unresolved, link).message(), "intent not resolved: app://x/y");
  StartAnswer missing = ParseStartAnswer(
      "Starting: Intent { cmp=org.app/.Gone }\nError type 3\n"
      "Error: Activity class {org.app/org.app.Gone} does not exist.\n");
  EXPECT_EQ(missing.outcome, O::kNoSuchClass);
  EXPECT_EQ(missing.activity, "org.app.Gone");
  EXPECT_EQ(StartStatus(missing, {.component = "org.app.Gone"}).message(),
            "intent class not found: org.app.Gone");

  // An extra `am` cannot read: nothing started, and nothing to conclude about the activity.
  StartAnswer bad = ParseStartAnswer(
      "Exception occurred while executing 'start':\njava.lang.NumberFormatException: For input "
      "string: \"x\"\n\tat java.lang.Integer.parseInt(Integer.java:615)\n");
  EXPECT_EQ(bad.outcome, O::kFailed);
  EXPECT_TRUE(StartStatus(bad, secret).IsRefused());
  EXPECT_EQ(StartStatus(bad, secret).message().rfind("intent not started: ", 0), 0u);
}

TEST(DeviceIntents, ARefusalTakesWhatItTellsOutOfTheActivities) {
  const IntentFilter links{
      .actions = {"android.intent.action.VIEW"}, .schemes = {"app"}, .hosts = {"x"}};
  const IntentFilter main{.actions = {"android.intent.action.MAIN"}};
  std::vector<DeclaredActivity> all = {
      {.name = "org.app.Gone", .exported = true},
      {.name = "org.app.Links", .exported = true, .filters = {links, main}},
      {.name = "org.app.Secret", .exported = true, .filters = {main}},
  };
  auto answer = [](O outcome, std::string activity = "") {
    return StartAnswer{.outcome = outcome, .activity = std::move(activity), .line = "x"};
  };
  // Not exported: kept (it is declared) but offered no more; said once is the caller's.
  EXPECT_TRUE(ForgetRefused(all, {.component = "org.app.Secret"}, answer(O::kNotExported)));
  EXPECT_FALSE(all[2].exported);
  EXPECT_TRUE(gui::CandidateIntents(all[2]).empty());
  EXPECT_FALSE(ForgetRefused(all, {.component = "org.app.Secret"}, answer(O::kNotExported)));
  // A deep link that resolved to an activity not exported names it (cmp=).
  all[2].exported = true;
  EXPECT_TRUE(ForgetRefused(all, {.action = "android.intent.action.VIEW", .data = "app://z"},
                            answer(O::kNotExported, "org.app.Secret")));
  EXPECT_FALSE(all[2].exported);
  // A deep link nothing took: the filters that seemed to take it go, the others stay.
  EXPECT_TRUE(ForgetRefused(all, {.action = "android.intent.action.VIEW", .data = "app://x/p"},
                            answer(O::kUnresolved)));
  EXPECT_EQ(all[1].filters, std::vector<IntentFilter>{main});
  EXPECT_TRUE(all[1].exported);
  // A class that does not exist is gone; a failure that is the intent's own changes nothing.
  EXPECT_TRUE(ForgetRefused(all, {.component = "org.app.Gone"}, answer(O::kNoSuchClass)));
  EXPECT_EQ(all.size(), 2u);
  EXPECT_FALSE(ForgetRefused(all, {.component = "org.app.Links"}, answer(O::kFailed)));
  EXPECT_FALSE(ForgetRefused(all, {.component = "org.app.Links"}, answer(O::kStarted)));
  EXPECT_EQ(all.size(), 2u);
}

// tests/device/fixtures/links.apk: AndroidManifest.xml beside it, compiled by aapt2 (`aapt2 link
// -o links.apk -I framework-res.apk --manifest AndroidManifest.xml`), a real binary manifest.
TEST(Apk, TheManifestListsActivitiesExportedAndTheirFilters) {
  auto bytes = ReadFile((testing::SourceDir() / "tests/device/fixtures/links.apk").string());
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto m = ReadApkManifest(*bytes);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->package, "org.roam.links");
  EXPECT_EQ(m->version_code, 3);
  EXPECT_EQ(m->version_name, "1.2");
  const std::vector<std::string> view = {"android.intent.action.VIEW"};
  const std::vector<DeclaredActivity> expected = {
      {.name = "org.roam.links.Main",
       .exported = true,
       .filters = {{.actions = {"android.intent.action.MAIN"},
                    .categories = {"android.intent.category.LAUNCHER"}}}},
      {.name = "org.roam.links.ui.Detail", .exported = true},
      {.name = "org.roam.links.Secret", .exported = false},  // no filter, no android:exported
      {.name = "org.roam.links.Links",
       .exported = true,
       .filters = {{.actions = view,
                    .categories = {"android.intent.category.DEFAULT",
                                   "android.intent.category.BROWSABLE"},
                    .schemes = {"https"},
                    .hosts = {"example.com"},
                    .paths = {"/item"}},
                   {.actions = view,
                    .schemes = {"roam"},
                    .hosts = {"www.links.org:8080"},
                    .paths = {"/a/", "/open"}}}},
      // A filter, so exported by default; the filter takes a MIME type: not for `am start`.
      {.name = "org.roam.links.Share", .exported = true},
      {.name = "org.roam.links.Alias", .exported = false},
  };
  EXPECT_EQ(m->activities, expected);
  const auto intents = gui::CandidateIntents(m->activities[3]);
  ASSERT_EQ(intents.size(), 3u);
  EXPECT_EQ(intents[1].data, "https://example.com/item");
  EXPECT_EQ(intents[2].data, "roam://www.links.org:8080/a/");
}

TEST(Apk, TheServerApkDeclaresItsActivities) {
  auto apks = FindUia2Apks(DefaultUia2ApkDir());
  if (!apks.ok()) GTEST_SKIP() << "no UiAutomator2 server APKs (setup.sh fetches them)";
  auto bytes = ReadFile(apks->server);
  ASSERT_TRUE(bytes.ok());
  auto m = ReadApkManifest(*bytes);
  ASSERT_TRUE(m.ok()) << m.status().message();
  // androidx.test's three invoker activities, exported, each with a LAUNCHER category only.
  ASSERT_EQ(m->activities.size(), 3u);
  for (const auto& a : m->activities) {
    EXPECT_TRUE(a.name.starts_with("androidx.test.core.app.InstrumentationActivityInvoker$"))
        << a.name;
    EXPECT_TRUE(a.exported) << a.name;
    EXPECT_EQ(a.filters,
              (std::vector<IntentFilter>{{.categories = {"android.intent.category.LAUNCHER"}}}));
  }
  bytes = ReadFile(apks->test);
  ASSERT_TRUE(bytes.ok());
  auto test = ReadApkManifest(*bytes);
  ASSERT_TRUE(test.ok()) << test.status().message();
  EXPECT_TRUE(test->activities.empty());
}

// AndroidDevice sends an intent through `roam sim serve`'s shell, whichever driver runs, and
// turns a refusal into Status::Refused, said once.
TEST(ServedIntents, AnIntentStartsOrIsRefusedWithItsReasonSaidOnce) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  serve::SimAdbServerOptions so;
  so.port = 0;
  serve::SimAdbServer server(*spec, so);
  ASSERT_TRUE(server.Start().ok());
  AndroidDeviceOptions o;
  o.port = server.port();
  o.serial = "emulator-5554";
  o.package = "org.roam.crashy";
  o.io_timeout_ms = 5000;
  o.driver = DriverKind::kUia2;
  std::string notes;
  o.log = [&notes](const std::string& note) { notes += note + "\n"; };
  auto device = AndroidDevice::Open(o);
  ASSERT_TRUE(device.ok()) << device.status().message();
  AndroidDevice& d = **device;
  ASSERT_TRUE(d.ClearData().ok());

  const gui::Intent main{.component = "org.roam.crashy.MainActivity"};
  ASSERT_TRUE(d.Perform(gui::MakeGlobalAction(gui::ActionKind::kIntent, main.ToText())).ok())
      << notes;
  gui::Screen screen;
  ASSERT_TRUE(d.Observe(screen).ok());
  EXPECT_EQ(screen.activity, "org.roam.crashy.MainActivity");

  const gui::Intent link{.action = "android.intent.action.VIEW", .data = "nowhere://x/y"};
  const gui::Action open = gui::MakeGlobalAction(gui::ActionKind::kIntent, link.ToText());
  for (int i = 0; i < 2; ++i) {
    Status refused = d.Perform(open);
    EXPECT_TRUE(refused.IsRefused()) << refused.message();
    EXPECT_EQ(refused.message(), "intent not resolved: nowhere://x/y");
  }
  const std::string said = "Android refused to open the deep link nowhere://x/y";
  ASSERT_NE(notes.find(said), std::string::npos) << notes;
  EXPECT_EQ(notes.find(said), notes.rfind(said)) << notes;  // once
}

}  // namespace
}  // namespace roam::device::android
