// AndroidDevice against the simulator served over the adb protocol (in-process SimAdbServer on
// an ephemeral loopback port), and the pure text helpers it uses (device_text.h).
#include "device/android/android_device.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "device/android/shell_escape.h"
#include "draw/draw.h"
#include "gui/actions.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_shell.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

TEST(DeviceText, FocusDumpAndSize) {
  EXPECT_EQ(NormaliseActivity("org.app/.Main"), "org.app.Main");
  EXPECT_EQ(NormaliseActivity("org.app/org.other.Main"), "org.other.Main");
  EXPECT_EQ(NormaliseActivity("org.app.Main"), "org.app.Main");
  Focus f = ParseFocus(
      "WINDOW MANAGER WINDOWS\n  mCurrentFocus=Window{a1b2 u0 org.app/org.app.ui.Edit}\n"
      "  mFocusedApp=ActivityRecord{9f u0 org.app/.ui.Edit t12}\n");
  EXPECT_EQ(f.package, "org.app");
  EXPECT_EQ(f.activity, "org.app.ui.Edit");
  // A popup has the focus: the focused app says which activity.
  f = ParseFocus(
      "  mCurrentFocus=Window{a1b2 u0 PopupWindow:1234}\n"
      "  mFocusedApp=AppWindowToken{x token=Token{y ActivityRecord{z u0 org.app/.Main t3}}}\n");
  EXPECT_EQ(f.activity, "org.app.Main");
  f = ParseFocus("    mResumedActivity: ActivityRecord{5 u0 org.app/.Main t9}\n");
  EXPECT_EQ(f.activity, "org.app.Main");
  EXPECT_TRUE(ParseFocus("nothing here").package.empty());

  std::string out =
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
      "<node index=\"0\" /></hierarchy>UI hierchary dumped to: /dev/tty\nmCurrentFocus=x";
  auto xml = ExtractDump(out);
  ASSERT_TRUE(xml.has_value());
  EXPECT_EQ(xml->substr(xml->size() - 12), "</hierarchy>");
  EXPECT_FALSE(ExtractDump("ERROR: could not get idle state.\n").has_value());
  EXPECT_TRUE(DumpWorthRetrying("ERROR: could not get idle state.\n"));
  EXPECT_EQ(ParseWmSize("Physical size: 1080x2340\n"), (std::pair{1080, 2340}));
  EXPECT_EQ(ParseWmSize("Physical size: 1080x2340\nOverride size: 720x1560\n"),
            (std::pair{720, 1560}));
  EXPECT_EQ(StripCarriageReturns("a\r\nb\r"), "a\nb\r");
}

// The one command line of an action.
std::string One(const Result<std::vector<std::string>>& lines) {
  EXPECT_TRUE(lines.ok()) << lines.status().message();
  if (!lines.ok()) return "";
  EXPECT_EQ(lines->size(), 1u);
  return lines->front();
}

TEST(DeviceText, ActionCommands) {
  gui::Action click;
  click.kind = gui::ActionKind::kClick;
  click.target = gui::WidgetRef{"0/1", {100, 200, 300, 400}};
  InputSettings s;
  EXPECT_EQ(One(ActionCommand(click, 1080, 1920, 0, "org.app", s)), "input tap 200 300");
  // Clamped inside the screen when the widget sticks out.
  click.target->bounds = {1000, 1900, 1200, 2100};
  EXPECT_EQ(One(ActionCommand(click, 1080, 1920, 0, "org.app", s)), "input tap 1079 1919");
  gui::Action lc = click;
  lc.kind = gui::ActionKind::kLongClick;
  lc.target->bounds = {0, 0, 100, 100};
  EXPECT_EQ(One(ActionCommand(lc, 1080, 1920, 0, "org.app", s)), "input swipe 50 50 50 50 800");
  gui::Action text = lc;
  text.kind = gui::ActionKind::kInputText;
  text.text = "a'b; reboot";
  EXPECT_EQ(One(ActionCommand(text, 1080, 1920, 0, "org.app", s)),
            "input tap 50 50;input text 'a'\\''b;%sreboot'");
  EXPECT_EQ(
      One(ActionCommand(gui::MakeGlobalAction(gui::ActionKind::kBack), 1080, 1920, 0, "p", s)),
      "input keyevent 4");
  EXPECT_EQ(One(ActionCommand(gui::MakeGlobalAction(gui::ActionKind::kKey, "VOLUME_UP"), 1080, 1920,
                              0, "p", s)),
            "input keyevent 24");
  EXPECT_EQ(
      One(ActionCommand(gui::MakeGlobalAction(gui::ActionKind::kSwipeUp), 1000, 2000, 0, "p", s)),
      "input swipe 500 1500 500 500 300");
  EXPECT_EQ(One(ActionCommand(gui::MakeGlobalAction(gui::ActionKind::kRestart), 1000, 2000, 0,
                              "org.app", s)),
            "am force-stop 'org.app';monkey -p 'org.app' -c android.intent.category.LAUNCHER 1");
  gui::Action no_target;
  no_target.kind = gui::ActionKind::kClick;
  EXPECT_FALSE(ActionCommand(no_target, 1080, 1920, 0, "p", s).ok());
}

// A strings line of 20,000 quotes outgrew adb's 64 KiB request once quoted and stopped the run
// as a device error. Long text is typed by several commands in lines of bounded length, and
// the device types all of it.
TEST(DeviceText, LongTextIsTypedInBoundedLines) {
  gui::Action text;
  text.kind = gui::ActionKind::kInputText;
  text.target = gui::WidgetRef{"0/1", {0, 0, 100, 100}};
  text.text = std::string(20000, '\'');
  auto lines = ActionCommand(text, 1080, 1920, 0, "org.app", InputSettings{});
  ASSERT_TRUE(lines.ok()) << lines.status().message();
  EXPECT_GT(lines->size(), 1u);
  std::string typed;
  for (const auto& line : *lines) {
    EXPECT_LE(line.size(), kMaxCommandLine);
    auto argv = serve::SplitShellWords(line);
    ASSERT_TRUE(argv.ok()) << argv.status().message();
    for (const auto& cmd : *argv)
      if (cmd.size() == 3 && cmd[0] == "input" && cmd[1] == "text") typed += cmd[2];
  }
  EXPECT_EQ(typed, text.text);
}

// The device shell's own parser (sim_shell.h, sh's quoting rules) sees each untrusted text as
// one literal word: `input text` gets it whole and nothing else runs.
TEST(ShellEscapeOnDeviceShell, TextStaysOneLiteralWord) {
  for (std::string s : {"it's", "a;reboot", "$(reboot)", "`reboot`", "$HOME", "a && b | c > d",
                        "\"q\"", "back\\slash", "'\\''", "${IFS}x", "#c", "*"}) {
    auto argv = serve::SplitShellWords("echo " + ShellQuote(s));
    ASSERT_TRUE(argv.ok()) << s << ": " << argv.status().message();
    ASSERT_EQ(argv->size(), 1u) << s;
    ASSERT_EQ((*argv)[0].size(), 2u) << s;
    EXPECT_EQ((*argv)[0][1], s);
    auto plan = PlanInputText(s);
    auto input = serve::SplitShellWords(plan.command);
    ASSERT_TRUE(input.ok()) << plan.command;
    for (const auto& cmd : *input) {
      ASSERT_GE(cmd.size(), 2u);
      EXPECT_EQ(cmd[0], "input") << plan.command;
    }
  }
}

// Serves the spec at `spec_file` (under the source tree) over the adb protocol on a free
// loopback port as emulator-5554, and opens AndroidDevice on it with `o` (port, serial and a 5 s
// timeout set here). In a fixture's SetUp, under ASSERT_NO_FATAL_FAILURE.
void ServeAndOpen(const std::string& spec_file, serve::SimAdbServerOptions so,
                  AndroidDeviceOptions o, std::unique_ptr<serve::SimAdbServer>& server,
                  std::unique_ptr<AndroidDevice>& device) {
  auto spec = sim::LoadSpec(testing::SourceDir() / spec_file);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  so.port = 0;
  server = std::make_unique<serve::SimAdbServer>(*spec, so);
  ASSERT_TRUE(server->Start().ok());
  o.port = server->port();
  o.serial = "emulator-5554";
  o.io_timeout_ms = 5000;
  auto d = AndroidDevice::Open(o);
  ASSERT_TRUE(d.ok()) << d.status().message();
  device = std::move(*d);
}

class ServedDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    AndroidDeviceOptions o;
    o.package = "org.roam.crashy";
    o.offline_timeout_ms = 60;
    o.offline_wait_ms = 20;
    ASSERT_NO_FATAL_FAILURE(ServeAndOpen("tests/apps/crashy.json", {}, o, server_, device_));
  }
  std::unique_ptr<serve::SimAdbServer> server_;
  std::unique_ptr<AndroidDevice> device_;
};

TEST_F(ServedDevice, LaunchObserveClick) {
  ASSERT_TRUE(device_->ClearData().ok());
  ASSERT_TRUE(device_->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE(device_->Observe(screen).ok());
  EXPECT_EQ(screen.package, "org.roam.crashy");
  EXPECT_EQ(screen.activity, "org.roam.crashy.MainActivity");
  EXPECT_FALSE(screen.widgets.empty());
  std::vector<gui::Action> actions;
  gui::ActionsFor(screen, actions);
  ASSERT_FALSE(actions.empty());
  ASSERT_TRUE(device_->Perform(actions[0]).ok());
  std::vector<Event> events;
  device_->DrainEvents(events);
  EXPECT_TRUE(events.empty());
}

TEST_F(ServedDevice, TypedTextNeverRunsOnTheDevice) {
  ASSERT_TRUE(device_->Launch().ok());
  gui::Action a;
  a.kind = gui::ActionKind::kInputText;
  a.target = gui::WidgetRef{"0", {0, 0, 100, 100}};
  a.text = "x; rm -rf /sdcard $(reboot) `id` 'q' \"d\"";
  ASSERT_TRUE(device_->Perform(a).ok());
  for (const auto& argv : server_->Device("emulator-5554")->History()) {
    ASSERT_FALSE(argv.empty());
    EXPECT_NE(argv[0], "rm");
    EXPECT_NE(argv[0], "reboot");
    EXPECT_NE(argv[0], "id");
  }
}

TEST_F(ServedDevice, CapabilitiesSayWhatTheyCannotDo) {
  EXPECT_TRUE(device_->CanSnapshot());  // an emulator-* serial
  Status saved = device_->Snapshot("s1");
  EXPECT_TRUE(saved.ok()) << saved.message();
  Status loaded = device_->Restore("s1");
  EXPECT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_FALSE(device_->Snapshot("bad name; rm").ok());
}

TEST_F(ServedDevice, ScreenshotIsThePngTheSimulatorDraws) {
  ASSERT_TRUE(device_->Launch().ok());
  auto png = device_->Screenshot(std::nullopt);  // exec-out screencap -p over the adb protocol
  ASSERT_TRUE(png.ok()) << png.status().message();
  auto size = draw::ReadPngSize(*png);
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(size->width, 1080);
  EXPECT_EQ(size->height, 1920);
  // A phone's picture gets the outline drawn over it.
  auto outlined = device_->Screenshot(gui::Rect{100, 300, 500, 400});
  ASSERT_TRUE(outlined.ok()) << outlined.status().message();
  EXPECT_NE(*outlined, *png);
  EXPECT_TRUE(draw::ReadPngSize(*outlined).has_value());
}

TEST_F(ServedDevice, OfflineObserveFailsInsteadOfReturningAStaleScreen) {
  ASSERT_TRUE(device_->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE(device_->Observe(screen).ok());
  server_->SetOffline("emulator-5554", true);
  Status s = device_->Observe(screen);
  EXPECT_TRUE(s.IsUnavailable());
  EXPECT_NE(s.message().find("device offline"), std::string::npos) << s.message();
  EXPECT_TRUE(screen.widgets.empty());
  server_->SetOffline("emulator-5554", false);
  EXPECT_TRUE(device_->Observe(screen).ok());
}

// A phone that reboots, or whose cable is pulled, is away for a minute or two: the wait is by
// time, not by a count of tries, and the spell is counted in what the device lived through.
TEST(AndroidDeviceAway, ADeviceAwayForLongerThanTenTriesIsWaitedForAndCounted) {
  std::unique_ptr<serve::SimAdbServer> server;
  std::unique_ptr<AndroidDevice> device;
  AndroidDeviceOptions o;
  o.package = "org.roam.crashy";
  o.offline_wait_ms = 20;
  o.offline_timeout_ms = 10000;
  ASSERT_NO_FATAL_FAILURE(ServeAndOpen("tests/apps/crashy.json", {}, o, server, device));
  ASSERT_TRUE(device->Launch().ok());
  gui::Screen screen;
  ASSERT_TRUE(device->Observe(screen).ok());
  EXPECT_TRUE(device->Life().empty());
  server->SetOffline("emulator-5554", true);
  std::thread back([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(800));  // 40 tries of 20 ms
    server->SetOffline("emulator-5554", false);
  });
  Status s = device->Observe(screen);
  back.join();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(screen.widgets.empty());
  EXPECT_EQ(device->Life().away, 1);
  EXPECT_GE(device->Life().away_seconds, 0.7);
}

// Ctrl-C while a device is away ends the wait at once, not after offline_timeout_ms.
TEST(AndroidDeviceAway, AStopEndsTheWaitForADeviceThatIsAway) {
  std::unique_ptr<serve::SimAdbServer> server;
  std::unique_ptr<AndroidDevice> device;
  std::atomic<bool> stop = false;
  AndroidDeviceOptions o;
  o.package = "org.roam.crashy";
  o.offline_wait_ms = 20;
  o.offline_timeout_ms = 60000;
  o.stop = &stop;
  ASSERT_NO_FATAL_FAILURE(ServeAndOpen("tests/apps/crashy.json", {}, o, server, device));
  ASSERT_TRUE(device->Launch().ok());
  server->SetOffline("emulator-5554", true);
  std::thread ctrl_c([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  gui::Screen screen;
  Status s = device->Observe(screen);
  ctrl_c.join();
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(s.IsUnavailable()) << s.message();
  EXPECT_NE(s.message().find("device offline"), std::string::npos) << s.message();
  EXPECT_LT(took, 5.0);
}

// `dumpsys package` as Android 13 prints it, cut down: receivers with data (Schemes) take no
// bare `am broadcast -a`, and the tables after the receivers' are not theirs.
constexpr std::string_view kDumpsysPackage = R"(Activity Resolver Table:
  Non-Data Actions:
      android.intent.action.MAIN:
        3b1c2d0 org.app/.Main filter 9e8f7a1
          Action: "android.intent.action.MAIN"

Receiver Resolver Table:
  Schemes:
      package:
        cb99a50 org.app/.PackageReceiver filter 951564d
          Action: "android.intent.action.PACKAGE_ADDED"
          Scheme: "package"

  Non-Data Actions:
      android.intent.action.BOOT_COMPLETED:
        970814e org.app/.SyncReceiver filter c7b6502
          Action: "android.intent.action.BOOT_COMPLETED"
          Action: "android.net.conn.CONNECTIVITY_CHANGE"
          mPriority=0, mOrder=0, mHasStaticPartialTypes=false
      android.net.conn.CONNECTIVITY_CHANGE:
        970814e org.app/.SyncReceiver filter c7b6502
          Action: "android.intent.action.BOOT_COMPLETED"
          Action: "android.net.conn.CONNECTIVITY_CHANGE"
      org.app.action.REFRESH:
        1eb4449 org.app/.RefreshReceiver filter adcce13
          Action: "org.app.action.REFRESH"

Service Resolver Table:
  Non-Data Actions:
      org.app.action.SERVICE:
        5d4c3b2 org.app/.Worker filter 1a2b3c4
          Action: "org.app.action.SERVICE"
)";

TEST(DeviceText, TheReceiversActionsAreTheNonDataActionsOfTheReceiverTable) {
  EXPECT_EQ(
      ParseReceiverActions(kDumpsysPackage),
      (std::vector<std::string>{"android.intent.action.BOOT_COMPLETED",
                                "android.net.conn.CONNECTIVITY_CHANGE", "org.app.action.REFRESH"}));
  EXPECT_TRUE(ParseReceiverActions("Unable to find package: org.app\n").empty());
  EXPECT_EQ(One(ActionCommand(
                gui::MakeGlobalAction(gui::ActionKind::kBroadcast, "org.app.action.REFRESH"), 1080,
                1920, 0, "org.app", InputSettings{})),
            "am broadcast -a 'org.app.action.REFRESH' -p 'org.app'");
  EXPECT_FALSE(ActionCommand(gui::MakeGlobalAction(gui::ActionKind::kBroadcast), 1080, 1920, 0,
                             "org.app", InputSettings{})
                   .ok());
  EXPECT_TRUE(BroadcastRefused(
      "Broadcasting: Intent { act=android.intent.action.BOOT_COMPLETED flg=0x400000 }\n"
      "Exception occurred while executing 'broadcast':\n"
      "java.lang.SecurityException: Permission Denial: not allowed to send broadcast "
      "android.intent.action.BOOT_COMPLETED from pid=7186, uid=2000\n"));
  EXPECT_FALSE(BroadcastRefused("Broadcasting: Intent { act=x }\nBroadcast completed: result=0\n"));
}

// The served device runs tests/fixtures/apps/receivers.json: Main takes the app's own REFRESH,
// Player crashes on BATTERY_LOW (protected: a phone's shell may not send it; a root shell may).
class ServedReceivers : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    serve::SimAdbServerOptions so;
    so.root = GetParam();
    AndroidDeviceOptions o;
    o.package = "org.roam.receivers";
    o.log = [this](const std::string& note) { notes_ += note + "\n"; };
    ASSERT_NO_FATAL_FAILURE(
        ServeAndOpen("tests/fixtures/apps/receivers.json", so, o, server_, device_));
  }
  // Performs `action` and returns the crashes it brought.
  std::vector<Event> Do(const gui::Action& action) {
    EXPECT_TRUE(device_->Perform(action).ok());
    std::vector<Event> events;
    for (int i = 0; i < 50 && events.empty(); ++i) {  // logcat's stream comes on its own thread
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      gui::Screen screen;
      EXPECT_TRUE(device_->Observe(screen).ok());
      device_->DrainEvents(events);
      if (!events.empty() || action.kind != gui::ActionKind::kBroadcast) break;
    }
    return events;
  }
  std::unique_ptr<serve::SimAdbServer> server_;
  std::unique_ptr<AndroidDevice> device_;
  std::string notes_;
};

TEST_P(ServedReceivers, BroadcastsGoToTheAppAsTheDeviceAllows) {
  const bool root = GetParam();
  const std::string battery = "android.intent.action.BATTERY_LOW";
  EXPECT_EQ(device_->DeclaredBroadcasts(),
            (std::vector<std::string>{battery, "org.roam.receivers.REFRESH"}));
  ASSERT_TRUE(device_->Launch().ok());
  EXPECT_TRUE(
      Do(gui::MakeGlobalAction(gui::ActionKind::kBroadcast, "org.roam.receivers.REFRESH")).empty());
  gui::Screen screen;
  ASSERT_TRUE(device_->Observe(screen).ok());
  auto shown = [&](const std::string& text) {
    return std::any_of(screen.widgets.begin(), screen.widgets.end(),
                       [&](const gui::Widget& w) { return w.text == text; });
  };
  EXPECT_TRUE(shown("Refreshed 1 times"));
  const auto player = std::find_if(screen.widgets.begin(), screen.widgets.end(),
                                   [](const gui::Widget& w) { return w.text == "Player"; });
  ASSERT_NE(player, screen.widgets.end());
  Do(gui::MakeWidgetAction(gui::ActionKind::kClick, screen,
                           static_cast<int>(player - screen.widgets.begin())));
  std::vector<Event> events = Do(gui::MakeGlobalAction(gui::ActionKind::kBroadcast, battery));
  if (root) {
    ASSERT_EQ(events.size(), 1u) << notes_;
    EXPECT_EQ(events[0].exception, "java.lang.NullPointerException");
    EXPECT_EQ(device_->DeclaredBroadcasts().size(), 2u);
  } else {
    // Refused: the step stands, nothing came, the user is told once, and it is offered no more.
    EXPECT_TRUE(events.empty());
    EXPECT_NE(notes_.find("Android refused to send " + battery), std::string::npos) << notes_;
    EXPECT_EQ(device_->DeclaredBroadcasts(),
              std::vector<std::string>{"org.roam.receivers.REFRESH"});
  }
}

INSTANTIATE_TEST_SUITE_P(RootShell, ServedReceivers, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Root" : "Phone"; });

TEST(AndroidDeviceOpen, NoServerIsAClearError) {
  AndroidDeviceOptions o;
  o.port = 1;  // nothing listens there
  o.package = "org.app";
  o.io_timeout_ms = 1000;
  auto d = AndroidDevice::Open(o);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("cannot reach"), std::string::npos) << d.status().message();
}

}  // namespace
}  // namespace roam::device::android
