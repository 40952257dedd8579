// The uia2 driver: the APK manifest reader on the real npm package's APKs (skipped when
// setup.sh has not fetched them), the resume lines of the events buffer, and AndroidDevice with
// --driver uia2 end to end against `roam sim serve`'s UiAutomator2 server (SimAdbServer in
// process): the same screens as uiautomator, no process start a step, a server that dies
// restarted, one that cannot start leaving the run on uiautomator.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/android_device.h"
#include "device/android/apk.h"
#include "device/android/logcat.h"
#include "device/android/uia2_driver.h"
#include "device/android/uia2_protocol.h"
#include "gui/actions.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_shell.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

namespace fs = std::filesystem;

// The npm package's APKs, or a skip.
#define REQUIRE_UIA2_APKS()                      \
  auto apks = FindUia2Apks(DefaultUia2ApkDir()); \
  if (!apks.ok())                                \
  GTEST_SKIP() << "no UiAutomator2 server APKs (setup.sh fetches them): " << apks.status().message()

TEST(Apk, ReadsTheManifestsOfTheRealServerApks) {
  REQUIRE_UIA2_APKS();
  EXPECT_EQ(apks->manifest.package, kUia2ServerPackage);
  EXPECT_GT(apks->manifest.version_code, 0);
  EXPECT_FALSE(apks->manifest.version_name.empty());
  EXPECT_TRUE(fs::path(apks->server).filename().string().find(apks->manifest.version_name) !=
              std::string::npos);
  auto bytes = ReadFile(apks->test);
  ASSERT_TRUE(bytes.ok());
  auto test = ReadApkManifest(*bytes);
  ASSERT_TRUE(test.ok()) << test.status().message();
  EXPECT_EQ(test->package, kUia2TestPackage);
  EXPECT_EQ(test->instrumentation_runner, kUia2Runner);
  EXPECT_EQ(test->instrumentation_target, kUia2ServerPackage);
}

TEST(Apk, DamagedApksAreErrorsThatSayWhere) {
  for (std::string bad :
       {std::string(), std::string("PK\x03\x04 not a zip"), std::string(200, '\0')}) {
    auto m = ReadApkManifest(bad);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find("byte"), std::string::npos) << m.status().message();
  }
  REQUIRE_UIA2_APKS();
  auto bytes = ReadFile(apks->test);
  ASSERT_TRUE(bytes.ok());
  // Cut off the end of central directory, then flip the manifest's deflated bytes.
  auto cut = ReadApkManifest(std::string_view(*bytes).substr(0, bytes->size() - 30));
  EXPECT_FALSE(cut.ok());
  std::string flipped = *bytes;
  size_t at = flipped.find("AndroidManifest.xml");
  ASSERT_NE(at, std::string::npos);
  for (size_t k = at + 19; k < at + 200 && k < flipped.size(); ++k) flipped[k] ^= 0x5a;
  auto broken = ReadApkManifest(flipped);
  EXPECT_FALSE(broken.ok());
}

TEST(Uia2, InstalledVersionComesFromDumpsysPackage) {
  ApkManifest none = InstalledVersion("Unable to find package: io.appium.uiautomator2.server\n");
  EXPECT_TRUE(none.package.empty());
  EXPECT_EQ(none.version_code, -1);
  ApkManifest m = InstalledVersion(
      "Packages:\n  Package [io.appium.uiautomator2.server] (c0ffee):\n    userId=10234\n"
      "    versionCode=278 minSdk=26 targetSdk=34\n    versionName=10.6.6\n    flags=[ DEBUGGABLE "
      "]\n");
  EXPECT_EQ(m.package, kUia2ServerPackage);
  EXPECT_EQ(m.version_code, 278);
  EXPECT_EQ(m.version_name, "10.6.6");
}

TEST(Uia2, ErrorAnswersBecomeStatusesThatNameTheRoute) {
  auto value = Uia2Value("GET /source", 200, R"({"sessionId":"s","value":"<hierarchy/>"})");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, "<hierarchy/>");
  auto gone = Uia2Value("GET /source", 404, Uia2ErrorBody("invalid session id", "not known"));
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(gone.status().IsUnavailable());
  EXPECT_NE(gone.status().message().find("GET /source"), std::string::npos);
  auto missing = Uia2Value("POST /keys", 404, Uia2ErrorBody("no such element", "none focused"));
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  auto junk = Uia2Value("GET /status", 502, "<html>bad gateway</html>");
  EXPECT_EQ(junk.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(Uia2ErrorStatus("unknown command"), 404);
  EXPECT_EQ(Uia2ErrorStatus("invalid argument"), 400);
  EXPECT_EQ(Uia2ErrorStatus("unknown error"), 500);
}

// Issue 59, rows 1-3: what the real server answers an action it turns down (a rotation on a
// screen locked to portrait: 400 "invalid element state" from CustomUiDevice.setRotationSync;
// /keys into a view that takes no text) is that action's refusal, reason first; GET /source's
// 500 "unknown error" (no window root within 10 s) is a server that failed, to be asked again.
TEST(Uia2, ARefusedActionAndAFailedServerAreToldApart) {
  const std::string locked =
      Uia2ErrorBody("invalid element state",
                    "Screen rotation cannot be changed to ROTATION_90 after 2000ms. Is it locked?");
  auto rotate = Uia2Value("POST /orientation", 400, locked, /*action=*/true);
  ASSERT_TRUE(rotate.status().IsRefused()) << rotate.status().ToString();
  EXPECT_TRUE(rotate.status().message().starts_with(
      "invalid element state (POST /orientation): HTTP 400: Screen rotation"))
      << rotate.status().message();
  // Not an action (a session's settings): a 400 is a request Roam got wrong, said as such.
  EXPECT_EQ(Uia2Value("POST /appium/settings", 400, locked).status().code(),
            Status::Code::kInvalidArgument);
  auto source = Uia2Value("GET /source", 500,
                          Uia2ErrorBody("unknown error", "Could not find the active window"));
  EXPECT_TRUE(source.status().IsUnavailable()) << source.status().ToString();
  auto stale = Uia2Value("POST /orientation", 404, Uia2ErrorBody("invalid session id", "gone"),
                         /*action=*/true);
  EXPECT_TRUE(stale.status().IsUnavailable());
}

TEST(Uia2, ResumeLinesOfEveryShapeNameTheActivity) {
  EXPECT_EQ(ResumedActivity("11-27 10:00:00.000  4321  4321 I wm_on_resume_called: "
                            "[211812906,org.app.ui.MainActivity,RESUME_ACTIVITY]"),
            "org.app.ui.MainActivity");
  EXPECT_EQ(ResumedActivity("I/am_on_resume_called( 2077): [0,com.android.settings.Settings]"),
            "com.android.settings.Settings");
  EXPECT_EQ(ResumedActivity("I am_on_resume_called: [0,org.app.Main,LIFECYCLER_RESUME_ACTIVITY]"),
            "org.app.Main");
  EXPECT_EQ(ResumedActivity("I wm_on_resume_called: [1,org.app/.Main,RESUME_ACTIVITY,12]"),
            "org.app.Main");
  EXPECT_FALSE(ResumedActivity("I wm_on_paused_called: [1,org.app.Main,PAUSE]"));
  EXPECT_FALSE(ResumedActivity("I wm_on_resume_called: [1,2,3]"));
  EXPECT_FALSE(ResumedActivity("I wm_on_resume_called: [1,org.app.Main"));
}

// Every resume line in the real events logs of tests/fixtures/android (API 10 to 34, plain and
// descriptive) names an activity that appears on its line.
TEST(Uia2, ResumeLinesFromRealDevicesOfManyApiLevels) {
  int lines = 0, files = 0;
  for (const auto& entry :
       fs::directory_iterator(testing::SourceDir() / "tests/fixtures/android")) {
    if (!entry.path().filename().string().starts_with("events_")) continue;
    auto text = ReadFile(entry.path());
    ASSERT_TRUE(text.ok());
    bool any = false;
    for (size_t start = 0, nl; start < text->size(); start = nl + 1) {
      nl = text->find('\n', start);
      if (nl == std::string::npos) nl = text->size();
      std::string_view line = std::string_view(*text).substr(start, nl - start);
      bool resume = line.find("_on_resume_called") != std::string_view::npos;
      auto activity = ResumedActivity(line);
      EXPECT_EQ(activity.has_value(), resume) << entry.path().filename() << ": " << line;
      if (!activity) continue;
      EXPECT_NE(line.find(*activity), std::string_view::npos) << line;
      EXPECT_NE(activity->find('.'), std::string::npos) << line;
      ++lines;
      any = true;
    }
    files += any;
  }
  EXPECT_GE(files, 9);
  EXPECT_GE(lines, 20);
}

class Uia2Served : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    ASSERT_TRUE(spec.ok());
    serve::SimAdbServerOptions so;
    so.port = 0;
    server_ = std::make_unique<serve::SimAdbServer>(*spec, so);
    ASSERT_TRUE(server_->Start().ok());
    package_ = (*spec)->package();
  }
  AndroidDeviceOptions Options(std::optional<DriverKind> driver) {
    AndroidDeviceOptions o;
    o.port = server_->port();
    o.serial = "emulator-5554";
    o.package = package_;
    o.io_timeout_ms = 5000;
    o.offline_timeout_ms = 40;
    o.offline_wait_ms = 20;
    o.driver = driver;
    o.log = [this](const std::string& m) { notes_ += m + "\n"; };
    return o;
  }
  serve::SimAndroidDevice* sim() { return server_->Device("emulator-5554"); }
  int64_t ProcessStarts() {
    int64_t n = 0;
    for (const auto& [name, count] : sim()->Stats().process_starts) n += count;
    return n;
  }
  std::unique_ptr<serve::SimAdbServer> server_;
  std::string package_;
  std::string notes_;
};

TEST_F(Uia2Served, InstallsStartsAndStepsWithoutAProcessStartAStep) {
  REQUIRE_UIA2_APKS();
  auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason() << "\n" << notes_;
  EXPECT_NE(notes_.find("installed the UiAutomator2 server"), std::string::npos) << notes_;
  auto installed = sim()->Installed(std::string(kUia2ServerPackage));
  ASSERT_TRUE(installed.has_value());
  EXPECT_EQ(installed->version_name, apks->manifest.version_name);
  ASSERT_TRUE((*d)->Launch().ok());
  const int64_t before = ProcessStarts();
  const int64_t inputs_before = sim()->Stats().input_events;
  gui::Screen screen;
  int performed = 0;
  for (int step = 0; step < 40; ++step) {
    ASSERT_TRUE((*d)->Observe(screen).ok()) << step;
    ASSERT_FALSE(screen.widgets.empty());
    EXPECT_FALSE(screen.activity.empty()) << step;
    std::vector<gui::Action> actions;
    gui::ActionsFor(screen, actions);
    ASSERT_FALSE(actions.empty());
    const gui::Action& a = actions[step * 7 % actions.size()];
    if (a.kind == gui::ActionKind::kRestart) continue;
    ASSERT_TRUE((*d)->Perform(a).ok()) << a.Describe();
    ++performed;
  }
  EXPECT_EQ(ProcessStarts(), before) << "process starts by command during the steps";
  EXPECT_GE(sim()->Stats().input_events - inputs_before, performed);
  EXPECT_EQ((*d)->driver_restarts(), 0);
}

TEST_F(Uia2Served, SeesTheScreenTheUiautomatorDriverSees) {
  REQUIRE_UIA2_APKS();
  gui::Screen via_dump, via_source;
  {
    auto d = AndroidDevice::Open(Options(DriverKind::kUiautomator));
    ASSERT_TRUE(d.ok());
    ASSERT_TRUE((*d)->Launch().ok());
    ASSERT_TRUE((*d)->Observe(via_dump).ok());
  }
  auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
  ASSERT_TRUE(d.ok());
  ASSERT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason();
  ASSERT_TRUE((*d)->Observe(via_source).ok());
  EXPECT_EQ(via_source.package, via_dump.package);
  EXPECT_EQ(via_source.activity, via_dump.activity);
  EXPECT_EQ(via_source.width, via_dump.width);
  EXPECT_EQ(via_source.height, via_dump.height);
  ASSERT_EQ(via_source.widgets.size(), via_dump.widgets.size());
  for (size_t i = 0; i < via_dump.widgets.size(); ++i)
    EXPECT_EQ(via_source.widgets[i], via_dump.widgets[i]) << i;
}

TEST_F(Uia2Served, AServerThatDiesIsStartedAgainAndTheStepGoesOn) {
  REQUIRE_UIA2_APKS();
  auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
  ASSERT_TRUE(d.ok());
  ASSERT_EQ((*d)->driver_name(), "uia2");
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE((*d)->Observe(screen).ok());
  // The server's process is killed (another tool's cleanup, the low-memory killer).
  sim()->RunShell("am force-stop io.appium.uiautomator2.server");
  EXPECT_FALSE(sim()->Uia2Running());
  ASSERT_TRUE((*d)->Observe(screen).ok()) << notes_;
  EXPECT_FALSE(screen.widgets.empty());
  EXPECT_EQ((*d)->driver_restarts(), 1);
  EXPECT_EQ((*d)->driver_name(), "uia2");
  EXPECT_NE(notes_.find("starting it again"), std::string::npos) << notes_;
}

// A phone that reboots takes the server with it: when the device comes back the server is started
// again, and that is not one of the deaths that send a run to uiautomator (none are allowed here).
TEST_F(Uia2Served, AServerLostWithTheDeviceIsStartedAgainWhenItComesBack) {
  REQUIRE_UIA2_APKS();
  AndroidDeviceOptions o = Options(DriverKind::kUia2);
  o.uia2.restarts = 0;
  o.offline_timeout_ms = 10000;
  auto d = AndroidDevice::Open(o);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ((*d)->driver_name(), "uia2");
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE((*d)->Observe(screen).ok());
  for (int spell = 1; spell <= 2; ++spell) {
    sim()->RunShell("am force-stop io.appium.uiautomator2.server");
    server_->SetOffline("emulator-5554", true);
    std::thread back([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      server_->SetOffline("emulator-5554", false);
    });
    Status s = (*d)->Observe(screen);
    back.join();
    ASSERT_TRUE(s.ok()) << s.message() << "\n" << notes_;
    EXPECT_FALSE(screen.widgets.empty());
    EXPECT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason();
    EXPECT_EQ((*d)->driver_restarts(), spell);
    EXPECT_EQ((*d)->Life().away, spell);
  }
  EXPECT_NE(notes_.find("the device came back"), std::string::npos) << notes_;
}

// A page source answered 500 (no window root within the server's 10 s) is asked again, and what
// the device lived through counts it.
TEST(Uia2Faults, APageSourceAnswered500IsAskedAgainAndCounted) {
  REQUIRE_UIA2_APKS();
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServerOptions so;
  so.port = 0;
  auto faults = serve::ParseFaults("source500=1/2");
  ASSERT_TRUE(faults.ok()) << faults.status().message();
  so.faults = *faults;
  serve::SimAdbServer server(*spec, so);
  ASSERT_TRUE(server.Start().ok());
  AndroidDeviceOptions o;
  o.port = server.port();
  o.serial = "emulator-5554";
  o.package = (*spec)->package();
  o.driver = DriverKind::kUia2;
  o.uia2.retry_ms = 10;
  auto d = AndroidDevice::Open(o);
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason();
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  for (int k = 0; k < 4; ++k) ASSERT_TRUE((*d)->Observe(screen).ok());
  EXPECT_GE((*d)->Life().driver_retries, 2);
  EXPECT_EQ((*d)->Life().driver_restarts, 0);
}

// As Appium's driver starts the server: the runner awaited in `pm list instrumentation`, the
// hidden-API policy relaxed for the session (the served phone is API 30) and put back after it.
TEST_F(Uia2Served, TheHiddenApiPolicyIsRelaxedForTheSessionAndPutBack) {
  REQUIRE_UIA2_APKS();
  const std::string policy = "settings get global hidden_api_policy";
  {
    auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
    ASSERT_TRUE(d.ok());
    ASSERT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason();
    EXPECT_EQ(sim()->RunShell(policy).out, "1\n");
    const std::vector<std::string> list = {"pm", "list", "instrumentation"};
    const auto history = sim()->History();
    EXPECT_NE(std::find(history.begin(), history.end(), list), history.end());
  }
  EXPECT_EQ(sim()->RunShell(policy).out, "null\n");
}

// A launch waits for the app's resume on the events stream, but not for one that cannot come:
// an app already in front resumes nothing new.
TEST_F(Uia2Served, ALaunchOfTheAppInFrontDoesNotWaitForAResume) {
  REQUIRE_UIA2_APKS();
  AndroidDeviceOptions o = Options(DriverKind::kUia2);
  o.launch_timeout_ms = 4000;
  auto d = AndroidDevice::Open(o);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ((*d)->driver_name(), "uia2");
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE((*d)->Observe(screen).ok());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE((*d)->Launch().ok());
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(waited, 2.0) << "the launch waited for a resume that does not come";
}

TEST_F(Uia2Served, AServerThatCannotStartLeavesTheRunOnUiautomatorAndSaysWhy) {
  const fs::path empty = testing::TempDir("uia2-no-apks");
  AndroidDeviceOptions o = Options(std::nullopt);
  o.uia2.apk_dir = empty.string();
  auto d = AndroidDevice::Open(o);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ((*d)->driver_name(), "uiautomator");
  EXPECT_NE((*d)->driver_reason().find("could not start"), std::string::npos)
      << (*d)->driver_reason();
  EXPECT_NE((*d)->driver_reason().find(empty.string()), std::string::npos);
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE((*d)->Observe(screen).ok());
  EXPECT_FALSE(screen.widgets.empty());
}

// Issue 59, row 6: a phone that ran a newer Appium has a newer server, which refuses `pm install
// -r` of an older one (INSTALL_FAILED_VERSION_DOWNGRADE): both packages are uninstalled first.
TEST_F(Uia2Served, ANewerServerInstalledIsReplacedNotAStartThatFails) {
  REQUIRE_UIA2_APKS();
  ApkManifest newer = apks->manifest;
  newer.version_code += 100;
  newer.version_name = "99.0.0";
  sim()->SetInstalledForTest(newer);
  auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ((*d)->driver_name(), "uia2") << (*d)->driver_reason() << "\n" << notes_;
  auto installed = sim()->Installed(std::string(kUia2ServerPackage));
  ASSERT_TRUE(installed.has_value());
  EXPECT_EQ(installed->version_code, apks->manifest.version_code);
}

// Issue 59, row 5: the server held the device's UiAutomation connection after Roam was done with
// it, so `uiautomator dump` failed on a phone after a run or a fall-back. Closing the device
// deletes the session and force-stops both packages, as Appium's deleteSession does; and a server
// another tool left running is stopped when a dump finds it holding the connection.
TEST_F(Uia2Served, TheServerIsReleasedAtTheEndAndALeftoverOneWhenADumpMeetsIt) {
  REQUIRE_UIA2_APKS();
  {
    auto d = AndroidDevice::Open(Options(DriverKind::kUia2));
    ASSERT_TRUE(d.ok());
    ASSERT_EQ((*d)->driver_name(), "uia2");
    ASSERT_TRUE((*d)->Launch().ok());
    gui::Screen screen;
    ASSERT_TRUE((*d)->Observe(screen).ok());
    ASSERT_TRUE(sim()->Uia2Running());
  }
  EXPECT_FALSE(sim()->Uia2Running());
  EXPECT_EQ(sim()->RunShell("uiautomator dump /dev/tty").exit_code, 0);
  // Another tool's server, left running: the uiautomator driver stops it and dumps.
  ASSERT_EQ(sim()->RunShell(Uia2InstrumentCommand()).exit_code, 0);
  ASSERT_TRUE(sim()->Uia2Running());
  auto d = AndroidDevice::Open(Options(DriverKind::kUiautomator));
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE((*d)->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE((*d)->Observe(screen).ok()) << notes_;
  EXPECT_FALSE(screen.widgets.empty());
  EXPECT_FALSE(sim()->Uia2Running());
  EXPECT_NE(notes_.find("holds the device's UiAutomation connection"), std::string::npos) << notes_;
}

}  // namespace
}  // namespace roam::device::android
