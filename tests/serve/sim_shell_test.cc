// sim_shell: sh-like parsing (text an app shows must come through as literal argv, never run)
// and the device's answers.
#include "serve/sim_shell.h"

#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gui/uiautomator.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::serve {
namespace {

using Argvs = std::vector<std::vector<std::string>>;

Argvs Split(std::string_view line) {
  auto r = SplitShellWords(line);
  EXPECT_TRUE(r.ok()) << line << ": " << r.status().ToString();
  return r.ok() ? *r : Argvs{};
}

TEST(ShellParseTest, QuotesAndEscapes) {
  EXPECT_EQ(Split("input text 'a b'"), (Argvs{{"input", "text", "a b"}}));
  EXPECT_EQ(Split(R"(echo "a \"b\" \$x \\ c" d\ e)"), (Argvs{{"echo", "a \"b\" $x \\ c", "d e"}}));
  EXPECT_EQ(Split("echo 'it'\\''s'"), (Argvs{{"echo", "it's"}}));
  EXPECT_EQ(Split("echo '' \"\""), (Argvs{{"echo", "", ""}}));
  EXPECT_EQ(Split("echo 'é中文🙂'"), (Argvs{{"echo", "é中文🙂"}}));
  EXPECT_EQ(Split("echo 'a\nb'"), (Argvs{{"echo", "a\nb"}}));
}

TEST(ShellParseTest, SeparatorsSplitCommands) {
  EXPECT_EQ(Split("a 1; b 2 && c || d\ne | f"),
            (Argvs{{"a", "1"}, {"b", "2"}, {"c"}, {"d"}, {"e"}, {"f"}}));
  EXPECT_EQ(Split("echo 'a;b&&c|d'"), (Argvs{{"echo", "a;b&&c|d"}}));
}

TEST(ShellParseTest, SyntaxErrors) {
  EXPECT_FALSE(ParseShellScript("echo 'open").ok());
  EXPECT_FALSE(ParseShellScript("echo \"open").ok());
  EXPECT_FALSE(ParseShellScript("echo $(open").ok());
  EXPECT_FALSE(ParseShellScript("a &&").ok());
  EXPECT_FALSE(SplitShellWords("echo $(id)").ok());  // not literal
}

class SimShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    dev_ = std::make_unique<SimAndroidDevice>("emulator-5554", *spec, sim::SimOptions{}, 0);
  }
  std::string Out(const std::string& cmd) { return dev_->RunShell(cmd).out; }
  // Taps the centre of the widget showing `text`.
  void TapText(const std::string& text) {
    auto screen = gui::ParseDump(Out("uiautomator dump /dev/tty"));
    ASSERT_TRUE(screen.ok()) << screen.status().ToString();
    for (const auto& w : screen->widgets) {
      if (w.text == text) {
        dev_->RunShell(fmt::format("input tap {} {}", w.bounds.center_x(), w.bounds.center_y()));
        return;
      }
    }
    FAIL() << "no widget shows " << text;
  }
  std::unique_ptr<SimAndroidDevice> dev_;
};

// A screen that settles (settle_ms) slides in: page sources read meanwhile show its views off their
// rest, each a moment later further on, and an action taken on such a read is counted; a dump
// waits for the screen to settle, as uiautomator waits for the UI to idle.
TEST(SimShellSettle, AScreenSlidesInUntilItSettlesAndADumpWaitsForIt) {
  auto spec = sim::LoadSpec(testing::DiaryWithEveryScreen("settle_ms", 600, "settle_shell"));
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  SimAndroidDevice dev("emulator-5554", *spec, sim::SimOptions{}, 0);
  dev.RunShell("monkey -p " + (*spec)->package() + " -c android.intent.category.LAUNCHER 1");
  auto first = gui::ParseDump(dev.PageSource());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  auto second = gui::ParseDump(dev.PageSource());
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_EQ(first->widgets.size(), second->widgets.size());
  ASSERT_GE(first->widgets.size(), 2u);
  EXPECT_NE(first->widgets[1].bounds, second->widgets[1].bounds);
  EXPECT_EQ(dev.Stats().unsettled_reads, 2);
  EXPECT_EQ(dev.Stats().acted_on_unsettled, 0);

  ShellResult dumped = dev.RunShell("uiautomator dump /dev/tty");
  EXPECT_GT(dumped.pace_ms, 100) << "the dump did not wait for the rest of the 600 ms";
  auto waited = gui::ParseDump(dumped.out);
  ASSERT_TRUE(waited.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(dumped.pace_ms + 20));
  auto rest = gui::ParseDump(dev.PageSource());
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->widgets.size(), waited->widgets.size());
  for (size_t i = 0; i < rest->widgets.size(); ++i)
    EXPECT_EQ(rest->widgets[i].bounds, waited->widgets[i].bounds) << i;
  EXPECT_EQ(dev.Stats().unsettled_reads, 2);  // neither the dump nor the read at rest

  // The UiAutomator2 server's page source with a waitForIdleTimeout answers as the screen is once
  // idle: after the slide and 500 ms without an input.
  ASSERT_TRUE(dev.PressKeyCode(4));  // back: out of the app, the launcher
  dev.RunShell("monkey -p " + (*spec)->package() + " -c android.intent.category.LAUNCHER 1");
  int64_t idle_ms = 0;
  auto idle = gui::ParseDump(dev.PageSource(5000, &idle_ms));
  ASSERT_TRUE(idle.ok());
  EXPECT_GE(idle_ms, 500);
  EXPECT_LE(idle_ms, 600);
  ASSERT_EQ(idle->widgets.size(), rest->widgets.size());
  for (size_t i = 0; i < rest->widgets.size(); ++i)
    EXPECT_EQ(idle->widgets[i].bounds, rest->widgets[i].bounds) << i;

  // An action on a screen read while it slid in: the state the client saw never was.
  dev.RunShell("am force-stop " + (*spec)->package());
  dev.RunShell("monkey -p " + (*spec)->package() + " -c android.intent.category.LAUNCHER 1");
  (void)dev.PageSource();
  ASSERT_TRUE(dev.PressKeyCode(4));  // back
  EXPECT_EQ(dev.Stats().acted_on_unsettled, 1);
}

TEST_F(SimShellTest, QuotedTextIsNeverExecuted) {
  const std::string evil = "a;reboot && rm -rf / | x $(reboot) `reboot` \"q\" 'q' \n é";
  // Quoted as a careful client would: single quotes, ' as '\''.
  std::string quoted = "'";
  for (char c : evil) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  ShellResult r = dev_->RunShell("echo " + quoted);
  EXPECT_EQ(r.out, evil + "\n");
  auto history = dev_->History();
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0], (std::vector<std::string>{"echo", evil}));
}

TEST_F(SimShellTest, UnquotedTextIsExecutedAsOnADevice) {
  ShellResult r = dev_->RunShell("echo a;reboot");
  EXPECT_EQ(r.out, "a\n");
  EXPECT_EQ(r.err, "/system/bin/sh: reboot: inaccessible or not found\n");
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(Out("echo \"$(echo hi) `echo there`\""), "hi there\n");
  EXPECT_EQ(Out("foo 2>/dev/null || echo failed $?"), "failed 127\n");
}

TEST_F(SimShellTest, AdbLogcatCommandLine) {
  ShellResult r = dev_->RunShell("export ANDROID_LOG_TAGS=\"''\"; exec logcat '-d'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--------- beginning of main"), std::string::npos);
  EXPECT_FALSE(r.stream_log);
  EXPECT_TRUE(dev_->RunShell("exec logcat -v threadtime").stream_log);
}

TEST_F(SimShellTest, LaunchDumpAndFocus) {
  EXPECT_NE(Out("monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1")
                .find("Events injected: 1"),
            std::string::npos);
  std::string dump = Out("uiautomator dump /dev/tty");
  EXPECT_NE(dump.find("UI hierchary dumped to: /dev/tty"), std::string::npos);
  EXPECT_TRUE(gui::ParseDump(dump).ok());
  EXPECT_NE(Out("dumpsys window windows").find("mCurrentFocus=Window{"), std::string::npos);
  EXPECT_NE(Out("dumpsys window").find(" u0 org.roam.crashy/org.roam.crashy.MainActivity}"),
            std::string::npos);
  EXPECT_NE(Out("dumpsys activity activities").find("mResumedActivity: ActivityRecord{"),
            std::string::npos);
  EXPECT_EQ(Out("wm size"), "Physical size: 1080x1920\n");
  EXPECT_EQ(Out("getprop ro.build.version.sdk"), "30\n");
  EXPECT_EQ(Out("uiautomator dump /sdcard/w.xml"), "UI hierchary dumped to: /sdcard/w.xml\n");
  EXPECT_TRUE(gui::ParseDump(Out("cat /sdcard/w.xml")).ok());
  EXPECT_TRUE(dev_->ReadFile("/sdcard/w.xml").ok());
  EXPECT_EQ(dev_->RunShell("rm /sdcard/w.xml; cat /sdcard/w.xml").exit_code, 1);
  // An empty path is no folder (the shell fuzzer found `ls ""` read before the string).
  ShellResult empty = dev_->RunShell("ls ''");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_EQ(empty.err, "ls: : No such file or directory\n");
}

// A phone names a component by the application id that owns it, whatever the class's Java
// package: org.tasks/com.todoroo.astrid.activity.MainActivity. Naming it by the Java package
// made Roam's own driver wait ~5.5 s per launch for a package that never came.
TEST(SimShellComponents, AnActivityOutsideTheJavaPackageIsNamedByTheApplicationId) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/bench/tasks.json");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  SimAndroidDevice dev("emulator-5554", *spec, sim::SimOptions{}, 0);
  dev.RunShell("monkey -p org.tasks -c android.intent.category.LAUNCHER 1");
  std::string window = dev.RunShell("dumpsys window").out;
  EXPECT_NE(window.find("mCurrentFocus=Window{"), std::string::npos) << window;
  EXPECT_NE(window.find(" u0 org.tasks/com.todoroo.astrid.activity."), std::string::npos) << window;
  EXPECT_EQ(window.find(" u0 com.todoroo.astrid.activity/"), std::string::npos) << window;
}

TEST_F(SimShellTest, TapNavigatesAndCrashLogsAFatalExceptionBlock) {
  dev_->RunShell("am start -n org.roam.crashy/.MainActivity");
  TapText("Shopping list");
  EXPECT_NE(Out("dumpsys window").find("org.roam.crashy/.DetailsActivity"), std::string::npos);
  TapText("Share");
  std::string log = Out("logcat -d");
  EXPECT_NE(log.find(" E AndroidRuntime: FATAL EXCEPTION: main\n"), std::string::npos) << log;
  EXPECT_NE(log.find("E AndroidRuntime: Process: org.roam.crashy, PID: "), std::string::npos);
  EXPECT_NE(log.find("E AndroidRuntime: java.lang.NullPointerException: Attempt to invoke"),
            std::string::npos);
  EXPECT_NE(
      log.find("E AndroidRuntime: \tat org.roam.crashy.ShareHelper.share(ShareHelper.java:42)"),
      std::string::npos);
  auto stats = dev_->Stats();
  ASSERT_EQ(stats.faults.size(), 1u);
  EXPECT_EQ(stats.faults[0].second.bug_id, "crashy-npe");
  EXPECT_EQ(stats.input_events, 2);
  dev_->RunShell("logcat -c");
  EXPECT_EQ(Out("logcat -d"), "");
}

TEST_F(SimShellTest, KeysAndSnapshots) {
  dev_->RunShell("monkey -p org.roam.crashy 1");
  TapText("Shopping list");
  EXPECT_EQ(dev_->Console("avd snapshot save s1"), "OK\r\n");
  dev_->RunShell("input keyevent KEYCODE_BACK");
  EXPECT_NE(Out("dumpsys window").find(".MainActivity"), std::string::npos);
  EXPECT_EQ(dev_->Console("avd snapshot load s1"), "OK\r\n");
  EXPECT_NE(Out("dumpsys window").find(".DetailsActivity"), std::string::npos);
  EXPECT_EQ(dev_->Console("avd snapshot load nope").rfind("KO:", 0), 0u);
  EXPECT_EQ(Out("pm clear org.roam.crashy"), "Success\n");
  auto shot = dev_->RunShell("screencap -p");
  EXPECT_EQ(shot.exit_code, 0);
  EXPECT_EQ(shot.out.substr(0, 4), "\x89PNG");
  EXPECT_NE(dev_->RunShell("screencap").exit_code, 0);  // the raw format is not drawn
  EXPECT_NE(dev_->RunShell("screencap -x").exit_code, 0);
}

// Fuzz.shell found `input tap 10888888888888888881 0` cast a double outside int's range to int
// (undefined). Such a coordinate is refused like any other that is not a number.
TEST_F(SimShellTest, CoordinatesOutsideIntAreRefused) {
  dev_->RunShell("monkey -p org.roam.crashy 1");
  for (const char* cmd : {"input tap 10888888888888888881 0", "input tap 0 -1e300",
                          "input tap nan 0", "input swipe 0 0 1e20 0"}) {
    EXPECT_NE(dev_->RunShell(cmd).exit_code, 0) << cmd;
  }
  EXPECT_NE(Out("dumpsys window").find(".MainActivity"), std::string::npos);
}

}  // namespace
}  // namespace roam::serve

namespace roam::serve {
namespace {

// `echo $(...10,000 levels...)` overflowed the parser's stack and killed `roam sim serve`; a
// phone's shell answers with an error, and so does ours, at any depth.
TEST(SimShellParse, NestedSubstitutionsAreBoundedNotRecursedWithoutLimit) {
  std::string deep = "echo ";
  for (int i = 0; i < 10000; ++i) deep += "$(";
  for (int i = 0; i < 10000; ++i) deep += ")";
  auto r = ParseShellScript(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nested too deep"), std::string::npos);
  // Shallow nesting still works.
  EXPECT_TRUE(ParseShellScript("echo $(echo $(echo hi))").ok());
}

}  // namespace
}  // namespace roam::serve
