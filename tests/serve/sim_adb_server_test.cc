// SimAdbServer on an ephemeral loopback port, driven through adb_protocol and through Debian's
// real `adb` client (skipped when /usr/bin/adb is absent). Every adb call names the server's
// port (-P), so the client never forks a server of its own; all sockets have timeouts.
#include "serve/sim_adb_server.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/device_text.h"
#include "device/android/http_client.h"
#include "device/android/shell_escape.h"
#include "device/android/uia2_driver.h"
#include "device/android/uia2_protocol.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/tcp_client.h"
#include "draw/draw.h"
#include "gui/intent.h"
#include "gui/uiautomator.h"
#include "test_paths.h"

namespace roam::serve {
using namespace ::roam::device::android;  // NOLINT: the protocol under test
namespace {

constexpr int kTimeoutMs = 5000;

class SimAdbServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    SimAdbServerOptions options;
    options.port = 0;
    options.devices = 2;
    server_ = std::make_unique<SimAdbServer>(*spec, options);
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
  }
  void TearDown() override { server_->Stop(); }

  Result<std::string> Shell(const std::string& serial, const std::string& cmd) {
    return RunDeviceService("127.0.0.1", port_, serial, ShellService(cmd), kTimeoutMs);
  }
  // Taps the centre of the widget showing `text` on emulator-5554.
  void TapText(const std::string& text) {
    auto dump = Shell("emulator-5554", "uiautomator dump /dev/tty");
    ASSERT_TRUE(dump.ok());
    auto screen = gui::ParseDump(*dump);
    ASSERT_TRUE(screen.ok()) << screen.status().ToString();
    for (const auto& w : screen->widgets) {
      if (w.text == text) {
        ASSERT_TRUE(Shell("emulator-5554",
                          fmt::format("input tap {} {}", w.bounds.center_x(), w.bounds.center_y()))
                        .ok());
        return;
      }
    }
    FAIL() << "no widget shows " << text;
  }

  std::unique_ptr<SimAdbServer> server_;
  int port_ = 0;
};

TEST_F(SimAdbServerTest, HostQueries) {
  EXPECT_EQ(*HostQuery("127.0.0.1", port_, kHostVersion), "0029");
  EXPECT_EQ(*HostQuery("127.0.0.1", port_, kHostDevices),
            "emulator-5554\tdevice\nemulator-5556\tdevice\n");
  EXPECT_NE(
      HostQuery("127.0.0.1", port_, kHostDevicesLong)
          ->find(
              "emulator-5556\tdevice product:roam_sim model:Roam_Sim device:roam transport_id:2"),
      std::string::npos);
  EXPECT_EQ(*HostQuery("127.0.0.1", port_, HostSerialService("emulator-5554", "features")),
            "shell_v2");
  auto bad = HostQuery("127.0.0.1", port_, "host:nonsense");
  EXPECT_FALSE(bad.ok());
}

TEST_F(SimAdbServerTest, TransportFailures) {
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(s.ok());
  std::string msg;
  EXPECT_FALSE(Request(*s, TransportService("nope"), &msg).ok());
  EXPECT_EQ(msg, "device 'nope' not found");
  s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  EXPECT_FALSE(Request(*s, kHostTransportAny, &msg).ok());
  EXPECT_EQ(msg, "more than one device/emulator");
}

TEST_F(SimAdbServerTest, TportAnswersTheTransportId) {
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TportService("emulator-5556")).ok());
  EXPECT_EQ(*ReadTransportId(*s), 2u);
  ASSERT_TRUE(Request(*s, ShellService("echo hi")).ok());
  EXPECT_EQ(*s->ReadToEnd(), "hi\n");
}

TEST_F(SimAdbServerTest, DumpTapAndCrashThroughTheProtocol) {
  ASSERT_TRUE(
      Shell("emulator-5554", "monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1")
          .ok());
  TapText("Shopping list");
  EXPECT_NE(Shell("emulator-5554", "dumpsys window")->find("mFocusedApp=ActivityRecord{"),
            std::string::npos);
  EXPECT_NE(Shell("emulator-5554", "dumpsys window")->find("org.roam.crashy/.DetailsActivity"),
            std::string::npos);
  // The other device is independent.
  EXPECT_EQ(Shell("emulator-5556", "dumpsys window")->find("crashy"), std::string::npos);
  TapText("Share");
  auto log = Shell("emulator-5554", "logcat -d");
  ASSERT_TRUE(log.ok());
  EXPECT_NE(log->find("E AndroidRuntime: FATAL EXCEPTION: main"), std::string::npos) << *log;
  EXPECT_NE(log->find("E AndroidRuntime: java.lang.NullPointerException"), std::string::npos);
}

TEST_F(SimAdbServerTest, ShellV2CarriesTheExitCode) {
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(*s, ShellV2Service("echo out; nothere")).ok());
  auto r = ReadShellV2(*s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "/system/bin/sh: nothere: inaccessible or not found\n");
  EXPECT_EQ(r->exit_code, 127);
}

TEST_F(SimAdbServerTest, SyncPullsAndPushes) {
  ASSERT_TRUE(Shell("emulator-5554", "uiautomator dump /sdcard/d.xml").ok());
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(*s, kSyncService).ok());
  auto st = SyncStatFile(*s, "/sdcard/d.xml");
  ASSERT_TRUE(st.ok());
  EXPECT_NE(st->mode, 0u);
  auto xml = SyncPull(*s, "/sdcard/d.xml");
  ASSERT_TRUE(xml.ok()) << xml.status().ToString();
  EXPECT_TRUE(gui::ParseDump(*xml).ok());
  EXPECT_TRUE(SyncPull(*s, "/sdcard/none").status().IsNotFound());
  EXPECT_TRUE(SyncPush(*s, "/sdcard/p.txt", std::string(100000, 'x')).ok());
  EXPECT_EQ(SyncStatFile(*s, "/sdcard/p.txt")->size, 100000u);
  EXPECT_TRUE(SyncQuit(*s).ok());
}

// Issue 42, item 5: each command that starts a process of its own on a phone is counted by name;
// shell builtins (echo) and the stream of one logcat are not.
TEST_F(SimAdbServerTest, ProcessStartsAreCountedByCommand) {
  ASSERT_TRUE(Shell("emulator-5554", "uiautomator dump /dev/tty; dumpsys window").ok());
  ASSERT_TRUE(Shell("emulator-5554", "input tap 1 1; echo done").ok());
  const auto starts = server_->Device("emulator-5554")->Stats().process_starts;
  EXPECT_EQ(starts,
            (std::map<std::string, int64_t>{{"dumpsys", 1}, {"input", 1}, {"uiautomator", 1}}));
}

// Issue 44, row 15: a sync LIST path reached the simulated shell unquoted.
TEST_F(SimAdbServerTest, ASyncListPathIsDataNotShell) {
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(*s, kSyncService).ok());
  const std::string path = "/sdcard';echo INJECTED;echo '";
  ASSERT_TRUE(
      s->WriteAll(EncodeSyncHeader("LIST", static_cast<uint32_t>(path.size())) + path).ok());
  std::string listing;
  while (true) {  // DENT entries until DONE: 4-byte id, then mode, size, time, name length
    auto head = s->ReadExact(20);
    ASSERT_TRUE(head.ok()) << head.status().message();
    if (head->substr(0, 4) == "DONE") break;
    ASSERT_EQ(head->substr(0, 4), "DENT");
    const uint32_t n = static_cast<uint8_t>((*head)[16]) | static_cast<uint8_t>((*head)[17]) << 8;
    auto name = s->ReadExact(n);
    ASSERT_TRUE(name.ok());
    listing += *name + "\n";
  }
  EXPECT_EQ(listing.find("INJECTED\n"), std::string::npos) << listing;
}

TEST_F(SimAdbServerTest, LogcatStreamsNewLines) {
  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(*s, ShellService("logcat")).ok());
  ASSERT_TRUE(Shell("emulator-5554", "monkey -p org.roam.crashy 1").ok());
  std::string got;
  char buf[4096];
  for (int k = 0; k < 50 && got.find("Displayed org.roam.crashy") == std::string::npos; ++k) {
    auto n = s->ReadSome(buf, sizeof buf);
    ASSERT_TRUE(n.ok());
    got.append(buf, *n);
  }
  EXPECT_NE(got.find("Displayed org.roam.crashy/.MainActivity"), std::string::npos);
  s->Close();  // the server's streaming thread notices and ends
}

TEST_F(SimAdbServerTest, OfflineAndDroppedConnections) {
  server_->SetOffline("emulator-5556", true);
  EXPECT_NE(HostQuery("127.0.0.1", port_, kHostDevices)->find("emulator-5556\toffline"),
            std::string::npos);
  auto r = Shell("emulator-5556", "echo hi");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("device offline"), std::string::npos);
  server_->SetOffline("emulator-5556", false);
  EXPECT_EQ(*Shell("emulator-5556", "echo hi"), "hi\n");

  auto s = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(Request(*s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(*s, ShellService("logcat")).ok());
  server_->DropConnections();
  // The stream ends (EOF or a reset), not a read that waited out its timeout.
  auto rest = s->ReadToEnd();
  EXPECT_FALSE(rest.status().IsUnavailable()) << rest.status().message();
  // The device itself is still there for new connections.
  EXPECT_EQ(*Shell("emulator-5554", "echo back"), "back\n");
}

TEST_F(SimAdbServerTest, EmuSnapshotService) {
  auto r = RunDeviceService("127.0.0.1", port_, "emulator-5554", EmuService("avd snapshot save a"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "OK\r\n");
  EXPECT_EQ(
      *HostQuery("127.0.0.1", port_, HostSerialService("emulator-5554", "emu:avd snapshot load a")),
      "OK\r\n");
}

// --- Debian's adb client ------------------------------------------------------------------------

constexpr char kAdb[] = "/usr/bin/adb";

// Runs adb against the test server with a hard time limit; stdout only (stderr to /dev/null,
// except when merged by the caller).
testing::CommandRun Adb(int port, const std::string& args) {
  return testing::RunCommand(
      fmt::format("env -u ADB_SERVER_SOCKET -u ANDROID_SERIAL ANDROID_ADB_SERVER_PORT={0} "
                  "timeout 20 {1} -P {0} {2} 2>/dev/null </dev/null",
                  port, kAdb, args));
}

class RealAdbTest : public SimAdbServerTest {
 protected:
  void SetUp() override {
    if (access(kAdb, X_OK) != 0) GTEST_SKIP() << kAdb << " is not installed";
    SimAdbServerTest::SetUp();
  }
  void TearDown() override {
    if (server_) SimAdbServerTest::TearDown();
  }
};

// Issues 42 and 43: Debian's `adb forward` through sim serve reaches a device port, here the
// served app's JaCoCo agent, which answers with the units the app ran; --list and --remove work.
TEST_F(RealAdbTest, ForwardReachesTheAppsJacocoAgent) {
  const std::string s = "-s emulator-5554 ";
  ASSERT_EQ(
      Adb(port_, s + "shell monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1").code,
      0);
  TapText("Shopping list");
  testing::CommandRun fwd = Adb(port_, s + "forward tcp:0 tcp:6300");
  ASSERT_EQ(fwd.code, 0) << fwd.out;
  const int local = std::atoi(fwd.out.c_str());
  ASSERT_GT(local, 0) << fwd.out;
  testing::CommandRun list = Adb(port_, "forward --list");
  EXPECT_NE(list.out.find(fmt::format("emulator-5554 tcp:{} tcp:6300", local)), std::string::npos)
      << list.out;
  auto dump = device::jacoco::DumpOverTcp("127.0.0.1", local, /*reset=*/false, kTimeoutMs);
  ASSERT_TRUE(dump.ok()) << dump.status().message();
  const auto stats = server_->Device("emulator-5554")->Stats();
  EXPECT_GT(dump->CoveredCount(), 0u);
  EXPECT_EQ(dump->CoveredCount(), stats.covered_units.size());
  EXPECT_LE(dump->ProbeCount(), stats.units_total);  // classes without a hit are not sent
  EXPECT_EQ(Adb(port_, fmt::format("{}forward --remove tcp:{}", s, local)).code, 0);
  EXPECT_EQ(Adb(port_, "forward --list").out.find("tcp:6300"), std::string::npos);
  EXPECT_FALSE(device::jacoco::DumpOverTcp("127.0.0.1", local, false, 1000).ok());
}

// Issue 61: the coverage file where AndroidJUnitRunner and TimeMachine's receiver put it, read as
// AGP reads it. Android's rules hold on the served phone: the app's private folder is shut to
// adb's shell and its sync protocol, `run-as` opens it for the (debuggable) app and for no other
// package, only the receiver the broadcast names writes the file, and exec-out carries run-as's
// complaints in its one stream.
TEST_F(RealAdbTest, TheCoverageFileIsPrivateAndRunAsReadsIt) {
  const std::string s = "-s emulator-5554 ";
  const std::string pkg = "org.roam.crashy", file = "/data/data/" + pkg + "/files/coverage.ec";
  auto dir = testing::TempDir("real_adb_coverage_file");
  ASSERT_EQ(
      Adb(port_, s + "shell monkey -p " + pkg + " -c android.intent.category.LAUNCHER 1").code, 0);
  // A broadcast no receiver takes is "completed" all the same, and writes nothing.
  for (const std::string& to : {"-n " + pkg + "/.Elsewhere", "-a " + pkg + ".DUMP_COVERAGE"}) {
    testing::CommandRun sent = Adb(port_, s + "shell am broadcast " + to);
    EXPECT_NE(sent.out.find("Broadcast completed: result=0"), std::string::npos) << sent.out;
    EXPECT_NE(Adb(port_, s + "exec-out run-as " + pkg + " cat " + file)
                  .out.find("No such file or directory"),
              std::string::npos)
        << to;
  }
  EXPECT_EQ(Adb(port_, s + "shell am broadcast -n " + pkg + "/.CoverageReceiver").code, 0);
  // The shell and sync may not read it; run-as for another package may not either.
  testing::CommandRun cat = testing::RunCommand(fmt::format(
      "env -u ADB_SERVER_SOCKET ANDROID_ADB_SERVER_PORT={0} timeout 20 {1} -P {0} {2}shell cat {3} "
      "2>&1 </dev/null",
      port_, kAdb, s, file));
  EXPECT_NE(cat.out.find("cat: " + file + ": Permission denied"), std::string::npos) << cat.out;
  EXPECT_NE(Adb(port_, s + "pull " + file + " " + (dir / "pulled.ec").string()).code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "pulled.ec"));
  EXPECT_NE(Adb(port_, s + "exec-out run-as org.other.app cat " + file)
                .out.find("run-as: unknown package: org.other.app"),
            std::string::npos);
  // AGP's way: exec-out keeps the bytes.
  testing::CommandRun read = Adb(port_, s + "exec-out run-as " + pkg + " cat " + file + " > " +
                                            (dir / "coverage.ec").string());
  ASSERT_EQ(read.code, 0);
  auto bytes = ReadFile(dir / "coverage.ec");
  ASSERT_TRUE(bytes.ok());
  auto data = device::jacoco::ParseExec(*bytes);
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->CoveredCount(), server_->Device("emulator-5554")->Stats().covered_units.size());
  EXPECT_EQ(Adb(port_, s + "shell run-as " + pkg + " rm " + file).code, 0);
  EXPECT_NE(Adb(port_, s + "exec-out run-as " + pkg + " cat " + file)
                .out.find("No such file or directory"),
            std::string::npos);
}

// Issue 42: Debian's `adb install` puts Appium's UiAutomator2 server on the served device (its
// manifests read as a phone reads them), and `adb forward` reaches the server's HTTP API once
// its instrumentation runs.
TEST_F(RealAdbTest, InstallAndForwardReachTheUiAutomator2Server) {
  auto apks = device::android::FindUia2Apks(device::android::DefaultUia2ApkDir());
  if (!apks.ok()) GTEST_SKIP() << apks.status().message();
  const std::string s = "-s emulator-5554 ";
  for (const std::string& apk : {apks->server, apks->test}) {
    testing::CommandRun install = Adb(port_, s + "install -r " + apk);
    ASSERT_EQ(install.code, 0) << install.out;
    EXPECT_NE(install.out.find("Success"), std::string::npos) << install.out;
  }
  EXPECT_NE(Adb(port_, s + "shell pm list instrumentation").out.find("io.appium.uiautomator2"),
            std::string::npos);
  auto* dev = server_->Device("emulator-5554");
  // The instrumentation as the uia2 driver runs it: a shell held open for the server's life.
  auto shell = device::android::Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(shell.ok());
  ASSERT_TRUE(
      device::android::Request(*shell, device::android::TransportService("emulator-5554")).ok());
  ASSERT_TRUE(device::android::Request(
                  *shell, device::android::ShellService(device::android::Uia2InstrumentCommand()))
                  .ok());
  for (int k = 0; k < 100 && !dev->Uia2Running(); ++k) usleep(10000);
  ASSERT_TRUE(dev->Uia2Running());
  testing::CommandRun fwd = Adb(port_, s + "forward tcp:0 tcp:6790");
  ASSERT_EQ(fwd.code, 0) << fwd.out;
  device::android::HttpClient http(fmt::format("http://127.0.0.1:{}", std::atoi(fwd.out.c_str())),
                                   kTimeoutMs);
  auto status = http.Get("/status");
  ASSERT_TRUE(status.ok()) << status.status().message();
  EXPECT_EQ(status->status, 200);
  EXPECT_NE(status->body.find(apks->manifest.version_name), std::string::npos) << status->body;
  shell->Close();  // the instrumentation's shell closes: the server stops
  for (int k = 0; k < 100 && dev->Uia2Running(); ++k) usleep(10000);
  EXPECT_FALSE(dev->Uia2Running());
  EXPECT_FALSE(http.Get("/status").ok() && http.Get("/status")->status == 200);
}

TEST_F(RealAdbTest, DevicesDumpTapLogcat) {
  testing::CommandRun devices = Adb(port_, "devices");
  EXPECT_EQ(devices.code, 0);
  EXPECT_NE(devices.out.find("emulator-5554\tdevice"), std::string::npos) << devices.out;
  EXPECT_NE(devices.out.find("emulator-5556\tdevice"), std::string::npos);

  const std::string s = "-s emulator-5554 ";
  EXPECT_NE(Adb(port_, s + "shell monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1")
                .out.find("Events injected: 1"),
            std::string::npos);
  testing::CommandRun dump = Adb(port_, s + "shell uiautomator dump /dev/tty");
  EXPECT_EQ(dump.code, 0);
  EXPECT_NE(dump.out.find("UI hierchary dumped to: /dev/tty"), std::string::npos);
  auto screen = gui::ParseDump(dump.out);
  ASSERT_TRUE(screen.ok()) << screen.status().ToString();
  const gui::Widget* target = nullptr;
  for (const auto& w : screen->widgets)
    if (w.text == "Shopping list") target = &w;
  ASSERT_NE(target, nullptr);
  testing::CommandRun tap =
      Adb(port_, fmt::format("{}shell input tap {} {}", s, target->bounds.center_x(),
                             target->bounds.center_y()));
  EXPECT_EQ(tap.code, 0);
  EXPECT_NE(Adb(port_, s + "shell dumpsys window").out.find("org.roam.crashy/.DetailsActivity"),
            std::string::npos);
  // The exit code comes through shell v2.
  EXPECT_EQ(Adb(port_, s + "shell nothere").code, 127);

  testing::CommandRun log = Adb(port_, s + "logcat -d");
  EXPECT_EQ(log.code, 0);
  EXPECT_NE(log.out.find("ActivityTaskManager: Displayed org.roam.crashy/.MainActivity"),
            std::string::npos)
      << log.out;

  auto dir = testing::TempDir("real_adb_pull");
  EXPECT_EQ(Adb(port_, s + "shell uiautomator dump /sdcard/w.xml").code, 0);
  EXPECT_EQ(Adb(port_, s + "pull /sdcard/w.xml " + (dir / "w.xml").string()).code, 0);
  EXPECT_TRUE(std::filesystem::exists(dir / "w.xml"));
}

TEST_F(RealAdbTest, ScreencapIsAPngOfTheScreen) {
  const std::string s = "-s emulator-5554 ";
  ASSERT_NE(Adb(port_, s + "shell monkey -p org.roam.crashy -c android.intent.category.LAUNCHER 1")
                .out.find("Events injected: 1"),
            std::string::npos);
  auto dir = testing::TempDir("real_adb_screencap");
  const std::string file = (dir / "x.png").string();
  EXPECT_EQ(Adb(port_, s + "exec-out screencap -p > " + file).code, 0);
  auto png = ReadFile(file);
  ASSERT_TRUE(png.ok());
  auto size = draw::ReadPngSize(*png);
  ASSERT_TRUE(size.has_value()) << png->substr(0, 100);
  EXPECT_EQ(size->width, 1080);
  EXPECT_EQ(size->height, 1920);
  // Into a file on the device, then pulled; and without -p it says what it cannot do.
  EXPECT_EQ(Adb(port_, s + "shell screencap -p /sdcard/s.png").code, 0);
  EXPECT_EQ(Adb(port_, s + "pull /sdcard/s.png " + (dir / "s.png").string()).code, 0);
  auto pulled = ReadFile(dir / "s.png");
  ASSERT_TRUE(pulled.ok());
  EXPECT_EQ(*pulled, *png);  // the same screen, the same bytes
  EXPECT_EQ(Adb(port_, s + "shell screencap").code, 1);
}

// Issue 48: Debian's adb reads the receivers of tests/fixtures/apps/receivers.json from `dumpsys
// package` and sends its broadcasts with `am broadcast`; Android's protected ones only from a
// root shell (`roam sim serve --root`), as on a phone and on an emulator after `adb root`.
TEST(RealAdbBroadcast, ReceiversAreListedAndProtectedBroadcastsNeedARootShell) {
  if (access(kAdb, X_OK) != 0) GTEST_SKIP() << kAdb << " is not installed";
  auto spec = sim::LoadSpec(testing::SourceDir() / "tests/fixtures/apps/receivers.json");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  for (bool root : {false, true}) {
    SimAdbServerOptions options;
    options.port = 0;
    options.root = root;
    SimAdbServer server(*spec, options);
    ASSERT_TRUE(server.Start().ok());
    const int port = server.port();
    const std::string s = "-s emulator-5554 ";
    EXPECT_EQ(ParseReceiverActions(Adb(port, s + "shell dumpsys package org.roam.receivers").out),
              (std::vector<std::string>{"android.intent.action.BATTERY_LOW",
                                        "org.roam.receivers.REFRESH"}));
    ASSERT_EQ(Adb(port, s + "shell " + LaunchCommand("org.roam.receivers")).code, 0);
    testing::CommandRun refresh =
        Adb(port, s + "shell am broadcast -a org.roam.receivers.REFRESH -p org.roam.receivers");
    EXPECT_EQ(refresh.code, 0) << refresh.out;
    EXPECT_NE(Adb(port, s + "shell uiautomator dump /dev/tty").out.find("Refreshed 1 times"),
              std::string::npos);
    const auto screen = gui::ParseDump(Adb(port, s + "shell uiautomator dump /dev/tty").out);
    ASSERT_TRUE(screen.ok());
    for (const auto& w : screen->widgets)
      if (w.text == "Player")
        Adb(port,
            fmt::format("{}shell input tap {} {}", s, w.bounds.center_x(), w.bounds.center_y()));
    testing::CommandRun battery = Adb(port, s + "shell 'am broadcast -a "
                                                "android.intent.action.BATTERY_LOW -p "
                                                "org.roam.receivers 2>&1'");
    const std::string log = Adb(port, s + "logcat -d").out;
    if (root) {
      EXPECT_EQ(battery.code, 0) << battery.out;
      EXPECT_NE(log.find("the player's view is null"), std::string::npos) << log;
    } else {
      EXPECT_EQ(battery.code, 255);
      EXPECT_TRUE(BroadcastRefused(battery.out)) << battery.out;
      EXPECT_EQ(log.find("FATAL EXCEPTION"), std::string::npos) << log;
    }
    server.Stop();
  }
}

// Issue 64: Debian's adb reads tests/fixtures/apps/intents.json's intent filters from `dumpsys
// package` and starts its activities with `am start`, which answers as a phone's does: started,
// refused (not exported), unresolved, and a crash in logcat for an extra the activity needs.
TEST(RealAdbIntent, FiltersAreListedAndAmStartAnswersAsAPhone) {
  if (access(kAdb, X_OK) != 0) GTEST_SKIP() << kAdb << " is not installed";
  auto spec = sim::LoadSpec(testing::SourceDir() / "tests/fixtures/apps/intents.json");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  SimAdbServerOptions options;
  options.port = 0;
  SimAdbServer server(*spec, options);
  ASSERT_TRUE(server.Start().ok());
  const int port = server.port();
  const std::string s = "-s emulator-5554 ";
  const std::string pkg = "org.roam.intents";
  // The launcher's filter and the deep link's; ShareActivity has no filter, so it is not listed.
  const auto declared = ParseActivityResolver(Adb(port, s + "shell dumpsys package " + pkg).out);
  ASSERT_EQ(declared.size(), 2u);
  EXPECT_EQ(declared[0].name, "org.roam.intents.DetailActivity");
  ASSERT_EQ(declared[0].filters.size(), 1u);
  EXPECT_EQ(declared[0].filters[0].schemes, std::vector<std::string>{"notes"});
  EXPECT_EQ(declared[0].filters[0].hosts, std::vector<std::string>{"detail"});
  EXPECT_EQ(declared[0].filters[0].paths, std::vector<std::string>{"/show"});
  EXPECT_EQ(declared[1].name, "org.roam.intents.MainActivity");
  EXPECT_EQ(declared[1].filters[0].categories,
            std::vector<std::string>{"android.intent.category.LAUNCHER"});
  auto start = [&](const gui::Intent& intent) {
    // 2>&1: Roam's shell service (v1) gets both streams in one, as Debian's adb (v2) does not.
    return ParseStartAnswer(
        Adb(port, s + "shell " + ShellQuote(StartCommand(intent, pkg) + " 2>&1")).out);
  };
  using O = StartAnswer::Outcome;
  const gui::Intent share{.component = "org.roam.intents.ShareActivity",
                          .extras = {{"text", gui::ExtraType::kString, "it's; $(rm -rf /)"}}};
  EXPECT_EQ(start(share).outcome, O::kStarted);
  EXPECT_NE(Adb(port, s + "shell uiautomator dump /dev/tty").out.find("s; $(rm -rf /)"),
            std::string::npos);
  const StartAnswer notes = start({.component = "org.roam.intents.NotesActivity"});
  EXPECT_EQ(notes.outcome, O::kNotExported) << notes.line;
  EXPECT_EQ(notes.activity, "org.roam.intents.NotesActivity");
  EXPECT_EQ(start({.component = "org.roam.intents.GoneActivity"}).outcome, O::kNoSuchClass);
  EXPECT_EQ(start({.action = "android.intent.action.VIEW", .data = "notes://elsewhere/x"}).outcome,
            O::kUnresolved);
  // Typed by hand without -p, a deep link resolves among the phone's apps, as on a phone.
  EXPECT_EQ(ParseStartAnswer(Adb(port, s + "shell 'am start -W -a android.intent.action.VIEW -d "
                                           "notes://detail/show/1 --ei note_id 4 2>&1'")
                                 .out)
                .outcome,
            O::kStarted);
  EXPECT_NE(Adb(port, s + "shell uiautomator dump /dev/tty").out.find("Note 4"), std::string::npos);
  EXPECT_EQ(Adb(port, s + "logcat -d").out.find("FATAL EXCEPTION"), std::string::npos);
  // The deep link starts DetailActivity without its note_id: it dies creating itself.
  EXPECT_EQ(
      start({.action = "android.intent.action.VIEW", .data = "notes://detail/show/7"}).outcome,
      O::kStarted);
  const std::string log = Adb(port, s + "logcat -d").out;
  EXPECT_NE(log.find("FATAL EXCEPTION"), std::string::npos) << log;
  EXPECT_NE(log.find("java.lang.NullPointerException"), std::string::npos) << log;
  server.Stop();
}

TEST_F(RealAdbTest, KillServerStopsAccepting) {
  EXPECT_EQ(Adb(port_, "kill-server").code, 0);
  for (int k = 0; k < 50 && !server_->kill_requested(); ++k) usleep(10000);
  EXPECT_TRUE(server_->kill_requested());
}

}  // namespace
}  // namespace roam::serve

namespace roam::serve {
namespace {

using namespace ::roam::device::android;  // NOLINT: the protocol under test

class SimAdbServerLimitsTest : public ::testing::Test {
 protected:
  void Start(SimAdbServerOptions options) {
    auto spec = sim::LoadSpec(testing::SourceDir() / "tests/apps/crashy.json");
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    options.port = 0;
    server_ = std::make_unique<SimAdbServer>(*spec, options);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }
  Socket Connect() {
    auto s = Socket::Connect("127.0.0.1", server_->port(), 5000);
    EXPECT_TRUE(s.ok());
    return std::move(*s);
  }
  // Waits up to 5 s for the server to hold `n` open connections.
  bool OpenConnectionsBecome(size_t n) {
    for (int k = 0; k < 500; ++k) {
      if (server_->OpenConnections() == n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  std::unique_ptr<SimAdbServer> server_;
};

// One sync header announcing 4 GiB of DATA made the server allocate it before reading: DATA is
// capped at adb's 64 KiB, and a bigger announcement closes the connection at once.
TEST_F(SimAdbServerLimitsTest, AnOversizedSyncDataHeaderClosesTheConnection) {
  Start({});
  for (const char* where : {"top", "send"}) {
    Socket s = Connect();
    ASSERT_TRUE(Request(s, TransportService("emulator-5554")).ok());
    ASSERT_TRUE(Request(s, kSyncService).ok());
    if (std::string(where) == "send") {
      ASSERT_TRUE(s.WriteAll(EncodeSyncHeader("SEND", 16) + "/sdcard/x.t,0644").ok());
    }
    ASSERT_TRUE(s.WriteAll(EncodeSyncHeader("DATA", 0xFFFFFFFFu)).ok());
    // The server closes: end of stream, not a read that waits out its timeout.
    auto rest = s.ReadToEnd();
    EXPECT_FALSE(rest.status().IsUnavailable()) << where << ": " << rest.status().message();
  }
}

// Issue 44, row 16: 64 idle connections refused host:devices to everyone else. At the cap the
// connection idle longest makes room; only connections all busy (streams) refuse a newcomer.
TEST_F(SimAdbServerLimitsTest, IdleConnectionsMakeRoomAtTheCapBusyOnesDoNot) {
  Start({.max_connections = 3});
  std::vector<Socket> idle;
  for (int i = 0; i < 3; ++i) {
    idle.push_back(Connect());
    ASSERT_TRUE(idle.back().WriteAll("00").ok());  // half a request
  }
  ASSERT_TRUE(OpenConnectionsBecome(3));
  auto devices = HostQuery("127.0.0.1", server_->port(), kHostDevices);
  ASSERT_TRUE(devices.ok()) << devices.status().message();
  EXPECT_NE(devices->find("emulator-5554"), std::string::npos);
  idle.clear();
  ASSERT_TRUE(OpenConnectionsBecome(0));
  std::vector<Socket> streams;
  for (int i = 0; i < 3; ++i) {
    streams.push_back(Connect());
    ASSERT_TRUE(Request(streams.back(), TransportService("emulator-5554")).ok());
    ASSERT_TRUE(Request(streams.back(), ShellService("logcat")).ok());
  }
  Socket extra = Connect();
  std::string fail;
  EXPECT_FALSE(ReadStatus(extra, &fail).ok());
  EXPECT_EQ(fail, "too many connections");
  streams.clear();  // once they close, clients are served again
  ASSERT_TRUE(OpenConnectionsBecome(0));
  EXPECT_TRUE(HostQuery("127.0.0.1", server_->port(), kHostVersion).ok());
}

TEST_F(SimAdbServerLimitsTest, AnIdleHalfRequestIsClosedAfterTheIdleTimeout) {
  Start({.idle_timeout_ms = 100});
  Socket s = Connect();
  ASSERT_TRUE(s.WriteAll("00").ok());
  ASSERT_TRUE(OpenConnectionsBecome(0));
  // A stream may idle: a logcat connection outlives the timeout.
  Socket logcat = Connect();
  ASSERT_TRUE(Request(logcat, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(logcat, ShellService("logcat")).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(server_->OpenConnections(), 1u);
}

TEST_F(SimAdbServerLimitsTest, AnInteractiveShellLineHasALimit) {
  Start({.max_line_bytes = 4096});
  Socket s = Connect();
  ASSERT_TRUE(Request(s, TransportService("emulator-5554")).ok());
  ASSERT_TRUE(Request(s, ShellService("")).ok());
  ASSERT_TRUE(s.WriteAll("echo hi\n").ok());
  ASSERT_TRUE(s.WriteAll(std::string(4100, 'x')).ok());  // all read: no reset
  auto out = s.ReadToEnd();
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_NE(out->find("hi\n"), std::string::npos);
  EXPECT_NE(out->find("line too long"), std::string::npos) << *out;
}

}  // namespace
}  // namespace roam::serve
