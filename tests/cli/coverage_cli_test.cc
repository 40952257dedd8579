// `roam coverage merge|show|dump` as a user runs them: exec files written with WriteExec merged
// and shown (text and --json), refusals of a bad or clobbered file, and dumps from JaCoCo's own
// agent in tcpserver mode (skipped when java, javac, unzip or Debian's libjacoco-java are
// absent) and from an address where nothing listens.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"
#include "test_paths.h"

extern char** environ;

namespace roam::device::jacoco {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::RunRoam;

std::string Q(const fs::path& p) { return fmt::format("'{}'", p.string()); }

ExecData Exec(std::string session, std::vector<ClassData> classes) {
  ExecData d;
  d.sessions = {{std::move(session), 1000, 2000}};
  for (ClassData& c : classes) EXPECT_TRUE(AddClass(d, std::move(c)).ok());
  return d;
}

// Two runs of one app: Main's probes differ, Helper ran in the first only, Other in the second.
struct TwoRuns {
  fs::path dir = testing::TempDir("coverage_cli");
  ExecData a =
      Exec("run-a", {{0x10, "com/x/Main", {true, false, false}}, {0x20, "com/x/Helper", {true}}});
  ExecData b = Exec(
      "run-b", {{0x10, "com/x/Main", {false, true, false}}, {0x30, "com/x/Other", {true, true}}});
  fs::path a_path = dir / "a.exec", b_path = dir / "b.exec";
  TwoRuns() {
    EXPECT_TRUE(WriteFileAtomic(a_path, WriteExec(a)).ok());
    EXPECT_TRUE(WriteFileAtomic(b_path, WriteExec(b)).ok());
  }
};

TEST(CoverageCli, MergeThenShowRoundTrip) {
  TwoRuns runs;
  const fs::path out = runs.dir / "ab.exec";
  auto merged =
      RunRoam(fmt::format("coverage merge {} {} --out {}", Q(runs.a_path), Q(runs.b_path), Q(out)));
  ASSERT_EQ(merged.code, 0) << merged.out;
  EXPECT_NE(merged.out.find("2 files merged into"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("3 classes, 5 of 6 probes covered"), std::string::npos) << merged.out;
  ExecData expected = runs.a;
  ASSERT_TRUE(Merge(expected, runs.b).ok());
  Result<std::string> bytes = ReadFile(out);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, WriteExec(expected));  // byte for byte what JaCoCo's writer would write

  auto shown = RunRoam("coverage show " + Q(out));
  ASSERT_EQ(shown.code, 0) << shown.out;
  EXPECT_NE(shown.out.find("2 sessions, 3 classes, 5 of 6 probes covered (83.3%)"),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("session run-a"), std::string::npos) << shown.out;
  const size_t helper = shown.out.find("1/1 "), main = shown.out.find("2/3 "),
               other = shown.out.find("2/2 ");
  ASSERT_NE(helper, std::string::npos) << shown.out;
  ASSERT_NE(main, std::string::npos) << shown.out;
  ASSERT_NE(other, std::string::npos) << shown.out;
  EXPECT_LT(helper, main);  // by name: Helper, Main, Other
  EXPECT_LT(main, other);
  EXPECT_NE(shown.out.find("com/x/Main\n"), std::string::npos) << shown.out;
}

TEST(CoverageCli, ShowJsonParses) {
  TwoRuns runs;
  auto r = testing::RunCommand(testing::RoamBinary() + " coverage show --json " + Q(runs.a_path));
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["classes"], 2);
  EXPECT_EQ(j["probes"], 4);
  EXPECT_EQ(j["covered"], 2);
  ASSERT_EQ(j["per_class"].size(), 2u);
  EXPECT_EQ(j["per_class"][0]["name"], "com/x/Helper");
  EXPECT_EQ(j["per_class"][0]["id"], "0000000000000020");
  EXPECT_EQ(j["per_class"][0]["probes"], 1);
  EXPECT_EQ(j["per_class"][1]["name"], "com/x/Main");
  EXPECT_EQ(j["per_class"][1]["covered"], 1);
  EXPECT_EQ(j["sessions"][0]["id"], "run-a");
}

TEST(CoverageCli, MergeRefusesToWriteOverAnInput) {
  TwoRuns runs;
  auto r = RunRoam(
      fmt::format("coverage merge {} {} --out {}", Q(runs.a_path), Q(runs.b_path), Q(runs.b_path)));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("is one of this command's inputs"), std::string::npos) << r.out;
  EXPECT_EQ(*ReadFile(runs.b_path), WriteExec(runs.b));
}

TEST(CoverageCli, MergeRefusesAnotherBuildOfAClass) {
  TwoRuns runs;
  const fs::path other = runs.dir / "other_build.exec";
  ASSERT_TRUE(
      WriteFileAtomic(other, WriteExec(Exec("c", {{0x10, "com/x/Main", {true, true}}}))).ok());
  auto r = RunRoam(fmt::format("coverage merge {} {} --out {}", Q(runs.a_path), Q(other),
                               Q(runs.dir / "no.exec")));
  EXPECT_EQ(r.code, 2) << r.out;
  // Located to the class's block in the file (the merge reads each file straight in).
  EXPECT_NE(r.out.find(other.string() + ": byte 25: Incompatible execution data for class "
                                        "com/x/Main"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(runs.dir / "no.exec"));
}

TEST(CoverageCli, ATruncatedFileIsALocatedErrorNotASignal) {
  TwoRuns runs;
  const std::string whole = WriteExec(runs.a);
  const fs::path cut = runs.dir / "cut.exec";
  ASSERT_TRUE(WriteFileAtomic(cut, whole.substr(0, whole.size() - 1)).ok());
  for (const std::string& args : {"coverage show " + Q(cut), "coverage show --json " + Q(cut),
                                  fmt::format("coverage merge {} {} --out {}", Q(runs.a_path),
                                              Q(cut), Q(runs.dir / "no.exec"))}) {
    auto r = RunRoam(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;  // -1 would be a signal
    EXPECT_NE(r.out.find(cut.string() + ": byte "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the data ends in the probes of class com/x/Helper"), std::string::npos)
        << r.out;
  }
  EXPECT_FALSE(fs::exists(runs.dir / "no.exec"));
  auto missing = RunRoam("coverage show " + Q(runs.dir / "absent.exec"));
  EXPECT_EQ(missing.code, 2) << missing.out;
}

// --serial: the adb server forwards a port to the app's agent for the one dump, and the forward
// goes with the command. Here the adb server is `roam sim serve`'s, in-process.
TEST(CoverageCli, DumpsFromADeviceThroughAnAdbForward) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServer server(*spec, {.port = 0});
  ASSERT_TRUE(server.Start().ok());
  const std::string serial = "emulator-5554";
  ASSERT_TRUE(android::RunDeviceService("127.0.0.1", server.port(), serial,
                                        android::ShellService("monkey -p " + (*spec)->package() +
                                                              " -c android.intent.category."
                                                              "LAUNCHER 1"))
                  .ok());
  const fs::path out = testing::TempDir("coverage_cli_serial") / "d.exec";
  auto r = RunRoam(fmt::format("coverage dump --serial {} --adb-port {} --out {}", serial,
                               server.port(), Q(out)));
  ASSERT_EQ(r.code, 0) << r.out;
  auto data = ParseExec(*ReadFile(out));
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->CoveredCount(), server.Device(serial)->Stats().covered_units.size());
  EXPECT_GT(data->CoveredCount(), 0u);
  auto forwards = android::HostQuery("127.0.0.1", server.port(), android::kHostListForward);
  ASSERT_TRUE(forwards.ok());
  EXPECT_EQ(*forwards, "");
  server.Stop();
}

TEST(CoverageCli, DumpWhereNothingListensIsAClearError) {
  auto l = android::Listener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(l.ok());
  const int port = l->port();
  l->Close();
  const fs::path out = testing::TempDir("coverage_cli_refused") / "d.exec";
  auto r = RunRoam(fmt::format("coverage dump --address 127.0.0.1:{} --out {}", port, Q(out)));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(fmt::format("JaCoCo agent at 127.0.0.1:{}: cannot connect", port)),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out));
  auto bad = RunRoam("coverage dump --address 127.0.0.1 --out " + Q(out));
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("expected HOST:PORT"), std::string::npos) << bad.out;
  auto serial = RunRoam(
      fmt::format("coverage dump --serial emulator-5554 --adb-port {} --out {}", port, Q(out)));
  EXPECT_EQ(serial.code, 1) << serial.out;
  EXPECT_NE(serial.out.find(fmt::format("forwarding the agent's port: connect 127.0.0.1:{}", port)),
            std::string::npos)
      << serial.out;
}

// Issue 61 as a user meets it: a run whose coverage never comes stops before exploring with
// --coverage-required (exit 2, the reason on the terminal); a run with jacoco-tcp leaves no
// forward behind on the adb server.
TEST(CoverageCli, ARequiredLinkThatFailsStopsTheRunAndAForwardGoesWithTheRun) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServer server(*spec, {.port = 0});
  ASSERT_TRUE(server.Start().ok());
  const std::string pkg = (*spec)->package();
  const std::string device =
      fmt::format("explore --serial emulator-5554 --adb-port {} --package {} --events 20 -q",
                  server.port(), pkg);
  const fs::path dir = testing::TempDir("coverage_cli_required");
  auto stopped =
      RunRoam(fmt::format("{} --out {} --coverage jacoco-file:/data/data/{}/files/coverage.ec "
                          "--coverage-trigger 'am broadcast -n {}/.Elsewhere' --coverage-required",
                          device, Q(dir / "stopped"), pkg, pkg));
  EXPECT_EQ(stopped.code, 2) << stopped.out;
  EXPECT_NE(stopped.out.find("does not work (--coverage-required): "), std::string::npos)
      << stopped.out;
  EXPECT_NE(stopped.out.find("the broadcast reached no receiver"), std::string::npos)
      << stopped.out;
  auto ran = RunRoam(
      fmt::format("{} --out {} --coverage jacoco-tcp --coverage-required", device, Q(dir / "ran")));
  EXPECT_EQ(ran.code, 0) << ran.out;
  auto forwards = android::HostQuery("127.0.0.1", server.port(), android::kHostListForward);
  ASSERT_TRUE(forwards.ok());
  EXPECT_EQ(*forwards, "");
  server.Stop();
}

// ---------------------------------------------------------------------------------------------
// JaCoCo's own agent: App runs classify, then waits in Waiter (left out of the agent's
// instrumentation, so nothing recorded runs after a reset) until the stop file appears.
constexpr std::string_view kApp = R"(import java.io.File;
public class App {
  static int classify(int x) { return x % 3 == 0 ? 0 : 1; }
  public static void main(String[] args) throws Exception {
    int sum = 0;
    for (int i = 0; i < 4; i++) sum += classify(i);
    System.out.println(sum);
    Waiter.await(args[0], args[1]);
  }
}
class Waiter {
  static void await(String ready, String stop) throws Exception {
    new File(ready).createNewFile();
    long deadline = System.currentTimeMillis() + 30000;
    while (!new File(stop).exists() && System.currentTimeMillis() < deadline) Thread.sleep(10);
  }
}
)";

TEST(CoverageCli, DumpsFromJacocosAgent) {
  const char* env = std::getenv("ROAM_JACOCO_JARS");
  const fs::path jar = fs::path(env != nullptr ? env : "/usr/share/java") / "org.jacoco.agent.jar";
  if (testing::RunCommand("command -v java && command -v javac && command -v unzip").code != 0) {
    GTEST_SKIP() << "java, javac or unzip is not installed";
  }
  if (!fs::exists(jar)) GTEST_SKIP() << "no " << jar << " (apt-get install libjacoco-java)";
  const fs::path dir = testing::TempDir("coverage_cli_agent");
  ASSERT_TRUE(WriteFileAtomic(dir / "App.java", std::string(kApp)).ok());
  for (const std::string& cmd :
       {fmt::format("timeout 120 javac --release 11 -d {} {}", Q(dir / "app"), Q(dir / "App.java")),
        fmt::format("unzip -p {} jacocoagent.jar > {}", Q(jar), Q(dir / "agent.jar"))}) {
    auto r = testing::RunCommand(cmd + " 2>&1");
    ASSERT_EQ(r.code, 0) << cmd << ": " << r.out;
  }
  auto probe = android::Listener::Listen("127.0.0.1", 0);  // a free port for the agent
  ASSERT_TRUE(probe.ok());
  const int port = probe->port();
  probe->Close();
  const std::string command = fmt::format(
      "exec timeout 60 java -javaagent:{}=output=tcpserver,port={},address=127.0.0.1,"
      "excludes=Waiter -cp {} App {} {} > {} 2>&1",
      Q(dir / "agent.jar"), port, Q(dir / "app"), Q(dir / "ready"), Q(dir / "stop"),
      Q(dir / "app.log"));
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  ASSERT_EQ(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ), 0);
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (!fs::exists(dir / "ready") && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool started = fs::exists(dir / "ready");

  const std::string address = fmt::format("--address 127.0.0.1:{}", port);
  auto first =
      RunRoam(fmt::format("coverage dump {} --reset --out {}", address, Q(dir / "1.exec")));
  auto second = RunRoam(fmt::format("coverage dump {} --out {}", address, Q(dir / "2.exec")));
  std::ofstream((dir / "stop").string()).flush();
  int status = 0;
  ::waitpid(pid, &status, 0);  // App ends within 30 s by itself; timeout(1) bounds it too
  ASSERT_TRUE(started) << *ReadFile(dir / "app.log");

  ASSERT_EQ(first.code, 0) << first.out;
  EXPECT_NE(first.out.find("the agent's probes are reset"), std::string::npos) << first.out;
  Result<std::string> bytes = ReadFile(dir / "1.exec");
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  Result<ExecData> d = ParseExec(*bytes);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_EQ(d->classes.size(), 1u);  // App: the agent recorded it
  EXPECT_EQ(d->classes.begin()->second.name, "App");
  EXPECT_GT(d->CoveredCount(), 0u);
  auto shown = RunRoam("coverage show " + Q(dir / "1.exec"));
  EXPECT_EQ(shown.code, 0) << shown.out;
  EXPECT_NE(shown.out.find(fmt::format("1 class, {} of {} probes covered", d->CoveredCount(),
                                       d->ProbeCount())),
            std::string::npos)
      << shown.out;
  // After the reset nothing recorded ran: JaCoCo sends the session and no class.
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("0 classes, 0 of 0 probes covered"), std::string::npos) << second.out;
}

}  // namespace
}  // namespace roam::device::jacoco
