// The incremental logcat parser: hand-made logs in every line format, chunking at every byte,
// and every real crash log in ../shared/real/logcat (skipped when absent).
#include <filesystem>

#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/logcat.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

constexpr char kThreadtime[] =
    "05-24 02:25:40.100  1234  1234 I ActivityManager: Start proc 28120:org.app/u0a1\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: FATAL EXCEPTION: main\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: Process: org.app, PID: 28120\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: java.lang.RuntimeException: Unable to start"
    " activity: java.lang.NullPointerException\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: \tat "
    "android.app.ActivityThread.a(ActivityThread.java:1)\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: Caused by: java.lang.NullPointerException: "
    "x\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: \tat org.app.Main.onCreate(Main.java:12)\n"
    "05-24 02:25:40.578 28120 28120 E AndroidRuntime: \t... 9 more\n"
    "05-24 02:25:40.580 28120 28120 I Process : Sending signal. PID: 28120 SIG: 9\n";

TEST(LogcatLine, Formats) {
  auto l = ParseLogLine("05-24 02:25:40.578 28120 28121 E AndroidRuntime: FATAL EXCEPTION: main");
  EXPECT_EQ(l.level, 'E');
  EXPECT_EQ(l.tag, "AndroidRuntime");
  EXPECT_EQ(l.pid, 28120);
  EXPECT_EQ(l.message, "FATAL EXCEPTION: main");
  l = ParseLogLine("05-24 02:25:40.578 E/AndroidRuntime(28120): Process: org.app, PID: 1");
  EXPECT_EQ(l.tag, "AndroidRuntime");
  EXPECT_EQ(l.pid, 28120);
  EXPECT_EQ(l.message, "Process: org.app, PID: 1");
  l = ParseLogLine("E/AndroidRuntime(  812): boom");
  EXPECT_EQ(l.pid, 812);
  EXPECT_EQ(l.message, "boom");
  l = ParseLogLine("E ACRA    : ACRA caught a X for org.app");
  EXPECT_EQ(l.tag, "ACRA");
  EXPECT_EQ(l.message, "ACRA caught a X for org.app");
  l = ParseLogLine("2022-05-29 14:09:44.580 9180-9180/com.amaze E/Tag: msg");
  EXPECT_EQ(l.pid, 9180);
  EXPECT_EQ(l.tag, "Tag");
  EXPECT_EQ(l.message, "msg");
  l = ParseLogLine("\tat org.app.Main.onCreate(Main.java:12)");
  EXPECT_EQ(l.level, 0);
  EXPECT_EQ(l.message, "\tat org.app.Main.onCreate(Main.java:12)");
}

TEST(Logcat, ThreadtimeCrashWithCause) {
  auto events = ParseLogcat(kThreadtime, {.package = "org.app"});
  ASSERT_EQ(events.size(), 1u);
  const Event& e = events[0];
  EXPECT_EQ(e.kind, Event::Kind::kCrash);
  EXPECT_EQ(e.package, "org.app");
  EXPECT_EQ(e.exception, "java.lang.RuntimeException");
  EXPECT_EQ(e.message, "Unable to start activity: java.lang.NullPointerException");
  ASSERT_EQ(e.frames.size(), 2u);
  EXPECT_EQ(e.frames[0], "android.app.ActivityThread.a(ActivityThread.java:1)");
  EXPECT_EQ(e.frames[1], "org.app.Main.onCreate(Main.java:12)");
  EXPECT_NE(e.raw.find("Caused by: java.lang.NullPointerException"), std::string::npos);
  EXPECT_EQ(e.raw.find("Sending signal"), std::string::npos);
}

TEST(Logcat, OtherPackagesAreFilteredOut) {
  EXPECT_TRUE(ParseLogcat(kThreadtime, {.package = "org.other"}).empty());
  EXPECT_EQ(ParseLogcat(kThreadtime, {.package = ""}).size(), 1u);
}

TEST(Logcat, EveryChunkingGivesTheSameEvents) {
  std::string text = kThreadtime;
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    LogcatParser p({.package = "org.app"});
    std::vector<Event> out;
    p.Feed(std::string_view(text).substr(0, cut), out);
    p.Feed(std::string_view(text).substr(cut), out);
    p.Finish(out);
    ASSERT_EQ(out.size(), 1u) << "cut at " << cut;
    EXPECT_EQ(out[0].frames.size(), 2u) << "cut at " << cut;
  }
  // Byte by byte.
  LogcatParser p({.package = "org.app"});
  std::vector<Event> out;
  for (char c : text) p.Feed(std::string_view(&c, 1), out);
  p.Finish(out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(Logcat, FlushEndsABlockWhoseLastLineWasRead) {
  std::string text = kThreadtime;
  text.resize(text.find("05-24 02:25:40.580"));  // no line after the block yet
  LogcatParser p({.package = "org.app"});
  std::vector<Event> out;
  p.Feed(text, out);
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(p.InBlock());
  p.Flush(out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(p.InBlock());
}

TEST(Logcat, TimeBriefAndBareFormats) {
  const char* time_fmt =
      "03-27 10:49:03.495 E/AndroidRuntime(7838): FATAL EXCEPTION: main\n"
      "03-27 10:49:03.495 E/AndroidRuntime(7838): Process: org.app, PID: 7838\n"
      "03-27 10:49:03.495 E/AndroidRuntime(7838): java.lang.IllegalStateException\n"
      "03-27 10:49:03.495 E/AndroidRuntime(7838): \tat org.app.A.b(A.java:3)\n";
  auto e = ParseLogcat(time_fmt, {.package = "org.app"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].exception, "java.lang.IllegalStateException");
  EXPECT_EQ(e[0].message, "");
  const char* brief =
      "E/AndroidRuntime( 7838): FATAL EXCEPTION: main\n"
      "E/AndroidRuntime( 7838): Process: org.app, PID: 7838\n"
      "E/AndroidRuntime( 7838): java.lang.Error: m\n"
      "E/AndroidRuntime( 7838): \tat org.app.A.b(A.java:3)\n";
  EXPECT_EQ(ParseLogcat(brief, {.package = "org.app"}).size(), 1u);
  const char* bare =
      "FATAL EXCEPTION: main\n    Process: org.app, PID: 1\n"
      "    java.lang.Error: m\n        at org.app.A.b(A.java:3)\n";
  EXPECT_EQ(ParseLogcat(bare, {.package = "org.app"}).size(), 1u);
  // A caught exception printed to System.err is not a crash on a live device...
  const char* caught =
      "W System.err: java.io.IOException: x\nW System.err: \tat org.app.A.b(A.java:3)\n";
  EXPECT_TRUE(ParseLogcat(caught, {.package = "org.app"}).empty());
  // ...but counts when reading crash reports.
  EXPECT_EQ(ParseLogcat(caught, {.package = "org.app", .bare_stacks = true}).size(), 1u);
}

TEST(Logcat, Anr) {
  const char* log =
      "05-24 02:25:40.578  1000  1020 E ActivityManager: ANR in org.app (org.app/.MainActivity)\n"
      "05-24 02:25:40.578  1000  1020 E ActivityManager: PID: 4242\n"
      "05-24 02:25:40.578  1000  1020 E ActivityManager: Reason: Input dispatching timed out\n"
      "05-24 02:25:40.578  1000  1020 E ActivityManager: Load: 1.0 / 0.5 / 0.2\n";
  auto e = ParseLogcat(log, {.package = "org.app"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].kind, Event::Kind::kAnr);
  EXPECT_EQ(e[0].package, "org.app");
  EXPECT_EQ(e[0].message, "Input dispatching timed out");
  // The simulator's own shape (FormatEventAsLog) without prefixes.
  e = ParseLogcat("ANR in org.app\nReason: stuck\n", {.package = "org.app"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].message, "stuck");
}

TEST(Logcat, NativeTombstone) {
  const char* log =
      "05-24 02:25:40.578  6000  6000 F libc    : Fatal signal 11 (SIGSEGV), code 1\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** ***\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   : Build fingerprint: 'google/x:13/abc'\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   : pid: 6000, tid: 6000, name: org.app  >>> org.app "
      "<<<\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   : signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault "
      "addr 0x0\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   : backtrace:\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   :       #00 pc 000000000001a2b4  "
      "/data/app/org.app/lib/arm64/libfoo.so (crash+20)\n"
      "05-24 02:25:40.600  6100  6100 F DEBUG   :       #01 pc 0000000000001000  "
      "/system/lib64/libc.so\n"
      "05-24 02:25:40.700  1000  1000 I ActivityManager: Process org.app (pid 6000) has died\n";
  auto e = ParseLogcat(log, {.package = "org.app"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].kind, Event::Kind::kNativeCrash);
  EXPECT_EQ(e[0].package, "org.app");
  EXPECT_EQ(e[0].exception, "SIGSEGV");
  ASSERT_EQ(e[0].frames.size(), 2u);
  EXPECT_EQ(e[0].frames[0], "libfoo.so:crash");
  EXPECT_EQ(e[0].frames[1], "libc.so+0x1000");
}

// Every crash report of the Themis benchmark yields a crash with an exception and frames.
TEST(LogcatReal, ThemisCrashStacks) {
  auto dir = testing::RealDataDir();
  if (dir.empty() || !std::filesystem::is_directory(dir / "logcat/themis"))
    GTEST_SKIP() << "no ../shared/real/logcat";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "logcat/themis")) {
    const std::string name = entry.path().filename().string();
    // A React Native (JavaScript) error with a component stack: no Java stack to find.
    if (name == "WordPress__crash_stack__10876.txt") continue;
    auto text = ReadFile(entry.path());
    ASSERT_TRUE(text.ok()) << name;
    auto events = ParseLogcat(*text, {.bare_stacks = true});
    ++files;
    ASSERT_GE(events.size(), 1u) << name;
    bool good = false;
    for (const auto& e : events) good |= !e.exception.empty() && !e.frames.empty();
    EXPECT_TRUE(good) << name << ": " << events[0].exception;
  }
  EXPECT_GT(files, 50u);
}

TEST(LogcatReal, WholeLogcatsOnlyTheirFatalExceptions) {
  auto dir = testing::RealDataDir();
  auto file = dir / "logcat/full/DeepEyeCrypto__DeepEyeMusic/logcat_filtered.txt";
  if (dir.empty() || !std::filesystem::exists(file)) GTEST_SKIP() << "no ../shared/real/logcat";
  auto text = ReadFile(file);
  ASSERT_TRUE(text.ok());
  auto events = ParseLogcat(*text, {.package = "com.deepeye.musicpro.debug"});
  ASSERT_EQ(events.size(), 2u);  // the file's two FATAL EXCEPTIONs
  for (const auto& e : events) {
    EXPECT_FALSE(e.exception.empty());
    EXPECT_FALSE(e.frames.empty());
  }
  // Read in small chunks, as from a socket.
  LogcatParser p({.package = "com.deepeye.musicpro.debug"});
  std::vector<Event> out;
  for (size_t i = 0; i < text->size(); i += 37) p.Feed(std::string_view(*text).substr(i, 37), out);
  p.Finish(out);
  EXPECT_EQ(out.size(), 2u);
  auto crash_log = ReadFile(dir / "logcat/full/DeepEyeCrypto__DeepEyeMusic/crash_log.txt");
  ASSERT_TRUE(crash_log.ok());
  auto all = ParseLogcat(*crash_log);
  EXPECT_GE(all.size(), 2u);
  for (const auto& e : all) EXPECT_FALSE(e.frames.empty()) << e.exception;
}

}  // namespace
}  // namespace roam::device::android
