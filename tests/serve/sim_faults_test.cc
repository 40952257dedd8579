// `roam sim serve --faults`: the spec's syntax, the clock that times each fault, and what each
// does to a served phone as an adb client sees it (issue 59 item 7). The served tests time their
// faults in requests served, so every step is deterministic: a fault timed `@Nr` happens just
// before the Nth request is served.
#include "serve/sim_faults.h"

#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/uia2_driver.h"
#include "device/android/uia2_protocol.h"
#include "serve/sim_adb_server.h"
#include "serve/sim_jacoco.h"
#include "serve/sim_uia2.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::serve {
using namespace ::roam::device::android;  // NOLINT: the protocol the faults are seen through
namespace {

constexpr int kTimeoutMs = 5000;

// The connection closed (or was reset) without an answer, and at once: not a read timed out.
::testing::AssertionResult NoAnswer(Socket& s) {
  auto got = s.ReadToEnd();
  if (got.ok() && got->empty()) return ::testing::AssertionSuccess();
  if (!got.ok() && !got.status().IsUnavailable()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << (got.ok() ? *got : got.status().message());
}

TEST(SimFaultSpec, ParsesEveryKindAndUnit) {
  auto f = ParseFaults(
      "offline@30s+40s, reboot@90s+20s,adb-restart@2m,adb-restart@5r+250ms,uia2-kill@1500ms,"
      "source500=1/200");
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_EQ(f->size(), 6u);
  EXPECT_EQ((*f)[0].kind, FaultKind::kOffline);
  EXPECT_EQ((*f)[0].at.value, 30000);
  EXPECT_EQ((*f)[0].lasting.value, 40000);
  EXPECT_EQ((*f)[1].kind, FaultKind::kReboot);
  EXPECT_EQ((*f)[2].kind, FaultKind::kAdbRestart);
  EXPECT_EQ((*f)[2].at.value, 120000);
  EXPECT_EQ((*f)[2].lasting.value, kAdbRestartRefusalMs) << "a restart refuses 1 s by default";
  EXPECT_TRUE((*f)[3].at.requests);
  EXPECT_EQ((*f)[3].at.value, 5);
  EXPECT_EQ((*f)[3].lasting.value, 250);
  EXPECT_EQ((*f)[4].kind, FaultKind::kUia2Kill);
  EXPECT_EQ((*f)[4].at.value, 1500);
  EXPECT_EQ((*f)[5].kind, FaultKind::kSource500);
  EXPECT_EQ((*f)[5].fail, 1);
  EXPECT_EQ((*f)[5].of, 200);
}

TEST(SimFaultSpec, RefusalsNameTheItemAndWhatIsWrong) {
  for (const auto& [spec, says] :
       std::vector<std::pair<std::string, std::string>>{{"offline@30s", "how long is missing"},
                                                        {"reboot@30+5s", "no unit"},
                                                        {"uia2-kill@3s+1s", "no duration"},
                                                        {"unplug@3s", "no fault 'unplug'"},
                                                        {"source500=3/2", "1 <= N <= M"},
                                                        {"source500=1", "N of every M"},
                                                        {"offline@-1s+2s", "no time"},
                                                        {"offline", "KIND@TIME"},
                                                        {",", "no fault"}}) {
    auto f = ParseFaults(spec);
    ASSERT_FALSE(f.ok()) << spec;
    EXPECT_NE(f.status().message().find(says), std::string::npos)
        << spec << ": " << f.status().message();
  }
}

TEST(SimFaultClock, BeginsAndEndsEachFaultOnceByTimeOrByRequests) {
  auto faults = ParseFaults("offline@100ms+50ms,uia2-kill@3r,reboot@2r+1000ms");
  ASSERT_TRUE(faults.ok());
  FaultClock clock(*faults);
  EXPECT_TRUE(clock.Take(99, 1).empty());
  auto due = clock.Take(100, 2);  // offline begins by time, the reboot by requests
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].fault, 0u);
  EXPECT_TRUE(due[0].begin);
  EXPECT_EQ(due[1].fault, 2u);
  EXPECT_TRUE(due[1].begin);
  EXPECT_TRUE(clock.Take(149, 2).empty()) << "each event once";
  due = clock.Take(150, 3);  // offline ends; the kill is a moment: it begins only
  ASSERT_EQ(due.size(), 2u);
  EXPECT_FALSE(due[0].begin);
  EXPECT_EQ(due[1].fault, 1u);
  EXPECT_TRUE(due[1].begin);
  EXPECT_TRUE(clock.Take(1099, 50).empty()) << "the reboot's span counts from its begin";
  due = clock.Take(1100, 50);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].fault, 2u);
  EXPECT_FALSE(due[0].begin);
  EXPECT_TRUE(clock.Take(100000, 100000).empty());
}

class SimFaultsServed : public ::testing::Test {
 protected:
  void Serve(const std::string& faults) {
    auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    ASSERT_TRUE(spec.ok());
    SimAdbServerOptions options;
    options.port = 0;
    auto parsed = ParseFaults(faults);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    options.faults = *parsed;
    server_ = std::make_unique<SimAdbServer>(*spec, options);
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }
  Result<std::string> Query(std::string_view service) {
    return HostQuery("127.0.0.1", port_, service, kTimeoutMs);
  }
  Result<std::string> Shell(const std::string& cmd) {  // two requests: transport, shell
    return RunDeviceService("127.0.0.1", port_, kSerial, ShellService(cmd), kTimeoutMs);
  }
  static constexpr const char* kSerial = "emulator-5554";
  std::unique_ptr<SimAdbServer> server_;
  int port_ = 0;
};

// adb's handle_offline: the transport is offline (transports FAIL "device offline", get-state
// says "offline"), its sockets are closed and its disconnects run, which remove its forwards.
TEST_F(SimFaultsServed, OfflineListsTheDeviceOfflineAndDropsItsForwards) {
  Serve("offline@3r+4r");
  ASSERT_TRUE(Forward("127.0.0.1", port_, kSerial, 0, kJacocoPort, kTimeoutMs).ok());  // 1
  EXPECT_NE(Query(kHostListForward)->find(kSerial), std::string::npos);                // 2
  EXPECT_EQ(*Query(kHostDevices), std::string(kSerial) + "\toffline\n");               // 3
  EXPECT_EQ(*Query(kHostListForward), "") << "the transport's disconnect removes its forwards";
  auto refused = Shell("echo hi");  // 5
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("device offline"), std::string::npos)
      << refused.status().message();
  EXPECT_EQ(*Query(HostSerialService(kSerial, "get-state")), "offline");  // 6
  EXPECT_EQ(*Query(kHostDevices), std::string(kSerial) + "\tdevice\n");   // 7: back
  EXPECT_EQ(*Shell("echo hi"), "hi\n");
  EXPECT_EQ(server_->FaultsHappened().at("offline"), 1);
  EXPECT_EQ(server_->FaultsReport()["log"][0]["serial"], kSerial);
}

// A reboot: the device leaves `adb devices` (a transport to it is "not found"), and comes back
// with its processes gone and an empty log, its installed packages kept.
TEST_F(SimFaultsServed, RebootHidesTheDeviceThenBringsItBackWithoutItsProcesses) {
  Serve("reboot@2r+2r");
  SimAndroidDevice& device = *server_->Device(kSerial);
  device.SetInstalledForTest({.package = "org.example.kept", .version_code = 3});
  device.RunShell("monkey -p de.rampro.activitydiary -c android.intent.category.LAUNCHER 1");
  ASSERT_TRUE(device.AppRunning());
  ASSERT_NE(device.RunShell("logcat -d").out, "");
  EXPECT_EQ(*Query(kHostDevices), std::string(kSerial) + "\tdevice\n");  // 1
  EXPECT_EQ(*Query(kHostDevices), "");                                   // 2: rebooting
  auto gone = Shell("echo hi");                                          // 3
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find("device 'emulator-5554' not found"), std::string::npos)
      << gone.status().message();
  EXPECT_EQ(*Query(kHostDevices), std::string(kSerial) + "\tdevice\n");  // 4: booted
  EXPECT_FALSE(device.AppRunning());
  EXPECT_EQ(*Shell("logcat -d"), "") << "the log buffers were in RAM";
  EXPECT_TRUE(device.Installed("org.example.kept").has_value());
  EXPECT_EQ(server_->FaultsHappened().at("reboot"), 1);
}

// `adb kill-server; adb start-server`: every connection closes at once, the forwards are gone,
// the port refuses, then a fresh server answers on the same port.
TEST_F(SimFaultsServed, AdbRestartClosesEveryConnectionAndRefusesForAWhile) {
  Serve("adb-restart@3r+300ms");
  auto local = Forward("127.0.0.1", port_, kSerial, 0, kJacocoPort, kTimeoutMs);  // 1
  ASSERT_TRUE(local.ok());
  auto stream = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE(Request(*stream, TransportService(kSerial)).ok());   // 2
  ASSERT_TRUE(SendRequest(*stream, ShellService("logcat")).ok());  // 3: the restart
  auto rest = stream->ReadToEnd();
  EXPECT_FALSE(rest.status().IsUnavailable()) << "closed, not timed out";
  EXPECT_FALSE(Socket::Connect("127.0.0.1", port_, 500).ok()) << "the port refuses";
  EXPECT_FALSE(Socket::Connect("127.0.0.1", *local, 500).ok()) << "the forward is gone";
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_EQ(*Query(kHostVersion), Hex4(kAdbServerVersion));
  EXPECT_EQ(*Query(kHostListForward), "");
  EXPECT_EQ(*Shell("echo back"), "back\n");
  EXPECT_EQ(server_->FaultsHappened().at("adb-restart"), 1);
}

// The low-memory killer takes the server's process: `am instrument -w` ends as the real one
// ends when ActivityManager finishes a crashed instrumentation, and its port refuses.
TEST_F(SimFaultsServed, Uia2KillEndsTheInstrumentationAsAProcessCrash) {
  auto apks = FindUia2Apks(DefaultUia2ApkDir());
  if (!apks.ok()) GTEST_SKIP() << apks.status().message();
  Serve("uia2-kill@4r");
  SimAndroidDevice& device = *server_->Device(kSerial);
  for (const std::string& apk : {apks->server, apks->test}) {
    auto bytes = ReadFile(apk);
    ASSERT_TRUE(bytes.ok());
    device.WriteFile("/data/local/tmp/x.apk", *bytes);
    ASSERT_EQ(device.RunShell("pm install -r /data/local/tmp/x.apk").out, "Success\n");
  }
  auto instrument = Socket::Connect("127.0.0.1", port_, kTimeoutMs);
  ASSERT_TRUE(instrument.ok());
  ASSERT_TRUE(Request(*instrument, TransportService(kSerial)).ok());              // 1
  ASSERT_TRUE(Request(*instrument, ShellService(Uia2InstrumentCommand())).ok());  // 2
  for (int i = 0; i < 100 && !device.Uia2Running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(device.Uia2Running());
  auto local = Forward("127.0.0.1", port_, kSerial, 0, kUia2DevicePort, kTimeoutMs);  // 3
  ASSERT_TRUE(local.ok());
  auto http = Socket::Connect("127.0.0.1", *local, kTimeoutMs);
  ASSERT_TRUE(http.ok());
  ASSERT_TRUE(http->WriteAll("GET /status HTTP/1.1\r\nHost: x\r\n\r\n").ok());  // 4: killed
  EXPECT_TRUE(NoAnswer(*http)) << "the server's process is gone";
  auto ended = instrument->ReadToEnd();
  ASSERT_TRUE(ended.ok());
  EXPECT_EQ(*ended, "INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n");
  EXPECT_FALSE(device.Uia2Running());
  auto again = Socket::Connect("127.0.0.1", *local, kTimeoutMs);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(again->WriteAll("GET /status HTTP/1.1\r\nHost: x\r\n\r\n").ok());
  EXPECT_TRUE(NoAnswer(*again)) << "nothing listens on the device port";
  EXPECT_EQ(server_->FaultsHappened().at("uia2-kill"), 1);
}

// AXWindowHelpers: no root of the active window within 10 s is 500 "unknown error"; on a
// phone's pace the answer takes those 10 s.
TEST(SimUia2Faults, EveryMthSourceAnswers500AfterTheRealWait) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  SimAndroidDevice device("emulator-5554", *spec, sim::SimOptions{}, 0);
  device.set_phone_pace(true);
  SimUia2Server server(device);
  server.FailSources(1, 3);
  HttpResponse session =
      server.Handle({.method = "POST", .path = "/session", .body = Uia2NewSessionBody()});
  const std::string sid = nlohmann::json::parse(session.body)["sessionId"].get<std::string>();
  std::vector<int> statuses;
  HttpResponse failed;
  for (int i = 0; i < 7; ++i) {
    HttpResponse r = server.Handle({.method = "GET", .path = "/session/" + sid + "/source"});
    statuses.push_back(r.status);
    if (r.status == 500) failed = r;
  }
  EXPECT_EQ(statuses, (std::vector<int>{200, 200, 500, 200, 200, 500, 200}));
  EXPECT_EQ(server.source_failures(), 2);
  auto body = nlohmann::json::parse(failed.body);
  EXPECT_EQ(body["sessionId"], sid);
  EXPECT_EQ(body["value"]["error"], "unknown error");
  EXPECT_TRUE(body["value"]["message"].get<std::string>().starts_with(
      "Timed out after 10000ms waiting for the root AccessibilityNodeInfo in the active window"));
  EXPECT_EQ(failed.delay_ms, 10000);
}

}  // namespace
}  // namespace roam::serve
