// Dumps over TCP: against an agent double on 127.0.0.1 that answers as JaCoCo's TcpConnection
// does, or is scripted to misbehave (split, closed, foreign, silent, too long, restarted), and
// against JaCoCo's own agent in tcpserver mode (skipped when java, javac, unzip or Debian's
// libjacoco-java are absent, as jacoco_real_test is).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/tcp_client.h"
#include "test_paths.h"

extern char** environ;

namespace roam::device::jacoco {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using android::Socket;

ExecData Sample() {
  ExecData d;
  d.sessions = {{"double", 1000, 2000}};
  EXPECT_TRUE(AddClass(d, {0x0123456789ABCDEF, "org/roam/Main", {true, false, true}}).ok());
  EXPECT_TRUE(AddClass(d, {42, "org/roam/Main$1", std::vector<bool>(20, true)}).ok());
  return d;
}

// Accepts connections one after another on 127.0.0.1 and runs the script on each (with its
// index, from 0). The destructor stops accepting and joins.
class AgentDouble {
 public:
  using Script = std::function<void(Socket&, int index)>;
  explicit AgentDouble(Script script) : script_(std::move(script)) {
    auto l = android::Listener::Listen("127.0.0.1", 0);
    EXPECT_TRUE(l.ok()) << l.status().ToString();
    if (!l.ok()) return;
    listener_ = std::move(*l);
    thread_ = std::thread([this] {
      for (int i = 0; !stop_;) {
        auto s = listener_.Accept(50, 5000);
        if (!s.ok()) continue;
        accepted_ = ++i;
        script_(*s, i - 1);
      }
    });
  }
  ~AgentDouble() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return listener_.port(); }
  int accepted() const { return accepted_; }

 private:
  Script script_;
  android::Listener listener_;
  std::atomic<bool> stop_ = false;
  std::atomic<int> accepted_ = 0;
  std::thread thread_;
};

// As JaCoCo's TcpConnection: the header on connect, then for each dump command the blocks and
// command ok; reset zeroes the probes. `chunk` > 0 writes the answer in pieces of that many
// bytes, a millisecond apart; `commands` > 0 closes after that many (the app went away).
AgentDouble::Script Agent(ExecData data, size_t chunk = 0, int commands = 0) {
  return [data, chunk, commands](Socket& s, int) mutable {
    if (!s.WriteAll(ExecHeader()).ok()) return;
    for (int n = 0; commands == 0 || n < commands; ++n) {
      Result<std::string> cmd = s.ReadExact(8);
      if (!cmd.ok()) return;
      Result<DumpRequest> req = ParseDumpCommand(*cmd);
      ASSERT_TRUE(req.ok()) << req.status().ToString();
      const std::string answer = WriteExecBlocks(data) + CmdOk();
      for (size_t at = 0; at < answer.size(); at += chunk == 0 ? answer.size() : chunk) {
        if (!s.WriteAll(answer.substr(at, chunk == 0 ? answer.size() : chunk)).ok()) return;
        if (chunk > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (req->reset) {
        for (auto& [id, c] : data.classes) c.probes.assign(c.probes.size(), false);
      }
    }
  };
}

// Reads the command, writes `bytes`, closes.
AgentDouble::Script Answers(std::string bytes) {
  return [bytes](Socket& s, int) {
    if (s.ReadExact(8).ok()) (void)s.WriteAll(bytes);
  };
}

TEST(JacocoTcpTest, DumpsAnAnswer) {
  AgentDouble agent(Agent(Sample()));
  Result<ExecData> d = DumpOverTcp("127.0.0.1", agent.port(), false, 5000);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(*d, Sample());
}

TEST(JacocoTcpTest, ReadsAnAnswerSplitIntoPieces) {
  AgentDouble agent(Agent(Sample(), /*chunk=*/3));
  Result<ExecData> d = DumpOverTcp("127.0.0.1", agent.port(), false, 5000);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(*d, Sample());
}

TEST(JacocoTcpTest, OneConnectionServesEveryDumpAndResetZeroesTheNext) {
  AgentDouble agent(Agent(Sample()));
  TcpDumper dumper("127.0.0.1", agent.port(), 5000);
  Result<ExecData> first = dumper.Dump(false);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  Result<ExecData> second = dumper.Dump(true);  // no header on this answer
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(*first, Sample());
  EXPECT_EQ(*second, Sample());
  Result<ExecData> third = dumper.Dump(false);
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(third->CoveredCount(), 0u);
  EXPECT_TRUE(third->classes.empty());  // JaCoCo's writer leaves out classes without a hit
  EXPECT_EQ(dumper.connects(), 1);
  EXPECT_EQ(agent.accepted(), 1);
}

TEST(JacocoTcpTest, ConnectsAgainOnceWhenTheAppRestarted) {
  AgentDouble agent(Agent(Sample(), 0, /*commands=*/1));  // every connection serves one dump
  TcpDumper dumper("127.0.0.1", agent.port(), 5000);
  for (int i = 0; i < 3; ++i) {
    Result<ExecData> d = dumper.Dump(false);
    ASSERT_TRUE(d.ok()) << "dump " << i << ": " << d.status().ToString();
    EXPECT_EQ(*d, Sample());
  }
  EXPECT_EQ(dumper.connects(), 3);
}

TEST(JacocoTcpTest, AnAnswerSentUnaskedComesWithTheNext) {
  // The first VM answers one dump, then exits: JaCoCo sends its dump on exit to the connected
  // client. The second VM answers as usual.
  ExecData on_exit;
  on_exit.sessions = {{"exit", 1000, 3000}};
  ASSERT_TRUE(AddClass(on_exit, {42, "org/roam/Main$1", std::vector<bool>(20, true)}).ok());
  ASSERT_TRUE(AddClass(on_exit, {7, "org/roam/Late", {true}}).ok());
  const AgentDouble::Script serve = Agent(Sample(), 0, 1);
  AgentDouble agent([&](Socket& s, int index) {
    serve(s, index);
    if (index == 0) (void)s.WriteAll(WriteExecBlocks(on_exit) + CmdOk());
  });
  TcpDumper dumper("127.0.0.1", agent.port(), 5000);
  ASSERT_TRUE(dumper.Dump(false).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the exit dump arrives
  Result<ExecData> d = dumper.Dump(false);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ExecData expected = on_exit;
  ASSERT_TRUE(Merge(expected, Sample()).ok());
  EXPECT_EQ(*d, expected);
  EXPECT_EQ(dumper.connects(), 2);
}

// Issue 60, row 6: an answer the agent wrote as the client connected, before the dump command,
// was taken for the dump's, and the dump's own answer dropped. The agent writes it a moment
// after accepting, as an app calling RT.getAgent().dump() would; whole, or its end late.
TEST(JacocoTcpTest, Issue60AnAnswerSentBeforeTheCommandIsNotTakenForTheDumps) {
  ExecData early;
  early.sessions = {{"early", 1, 2}};
  ASSERT_TRUE(AddClass(early, {7, "org/roam/Early", {true}}).ok());
  ExecData expected = early;
  ASSERT_TRUE(Merge(expected, Sample()).ok());
  const std::string early_blocks = WriteExecBlocks(early);
  const size_t session_end = 1 + 2 + 5 + 16;  // the session block of "early"
  for (bool split : {false, true}) {
    const AgentDouble::Script serve = Agent(Sample());
    AgentDouble agent([&](Socket& s, int index) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const std::string first = ExecHeader() + early_blocks + CmdOk();
      const size_t cut = split ? 5 + session_end : first.size();
      if (!s.WriteAll(first.substr(0, cut)).ok()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(split ? 100 : 0));
      if (!s.WriteAll(first.substr(cut)).ok()) return;
      serve(s, index);  // another header (RemoteControlWriter's), then the answers
    });
    TcpDumper dumper("127.0.0.1", agent.port(), 5000);
    Result<ExecData> d = dumper.Dump(false);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    EXPECT_EQ(*d, expected) << (split ? "split" : "whole");
    Result<ExecData> next = dumper.Dump(false);  // and nothing is left over for the next
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    EXPECT_EQ(*next, Sample());
  }
}

TEST(JacocoTcpTest, AFreshConnectionClosedBeforeAnsweringIsAnError) {
  // What an adb forward does when nothing listens on the phone: accept, then close.
  AgentDouble agent([](Socket& s, int) { s.Close(); });
  TcpDumper dumper("127.0.0.1", agent.port(), 5000);
  Result<ExecData> d = dumper.Dump(false);
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(d.status().IsUnavailable()) << d.status().ToString();
  EXPECT_NE(d.status().message().find(fmt::format("127.0.0.1:{}", agent.port())),
            std::string::npos);
  // Closed before the command went out or before the answer, as the race falls: either way
  // the message says what may be behind it.
  EXPECT_NE(d.status().message().find("nothing listens behind an adb forward"), std::string::npos)
      << d.status().message();
  EXPECT_EQ(dumper.connects(), 1);  // no second try on a connection just made
}

TEST(JacocoTcpTest, ClosedMidAnswer) {
  const std::string answer = ExecHeader() + WriteExecBlocks(Sample());
  AgentDouble agent(Answers(answer.substr(0, answer.size() - 4)));
  Result<ExecData> d = DumpOverTcp("127.0.0.1", agent.port(), false, 5000);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kIo) << d.status().ToString();
  EXPECT_NE(d.status().message().find("mid-answer"), std::string::npos) << d.status().message();
}

TEST(JacocoTcpTest, AForeignAnswerIsNotJacoco) {
  AgentDouble agent(Answers("HTTP/1.1 400 Bad Request\r\n\r\n"));
  Result<ExecData> d = DumpOverTcp("127.0.0.1", agent.port(), false, 5000);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kInvalidArgument) << d.status().ToString();
  EXPECT_NE(d.status().message().find("not JaCoCo exec data (it starts \"HTTP/1.1 400"),
            std::string::npos)
      << d.status().message();
  EXPECT_NE(d.status().message().find("byte 0"), std::string::npos);
}

TEST(JacocoTcpTest, AMalformedAnswerIsLocated) {
  AgentDouble agent(Answers(ExecHeader() + std::string(1, '\x7f')));
  Result<ExecData> d = DumpOverTcp("127.0.0.1", agent.port(), false, 5000);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kCorruption) << d.status().ToString();
  EXPECT_NE(d.status().message().find("byte 5: unknown block type 0x7f"), std::string::npos)
      << d.status().message();
}

TEST(JacocoTcpTest, ASilentServerTimesOutAndTheConnectionIsDropped) {
  AgentDouble agent([](Socket& s, int) { (void)s.ReadToEnd(); });  // until the client closes
  TcpDumper dumper("127.0.0.1", agent.port(), 300);
  const auto start = Clock::now();
  Result<ExecData> d = dumper.Dump(false);
  ASSERT_FALSE(d.ok());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_TRUE(d.status().IsUnavailable()) << d.status().ToString();
  EXPECT_NE(d.status().message().find("no answer within 300 ms"), std::string::npos)
      << d.status().message();
  EXPECT_FALSE(dumper.connected());  // a late answer must not pass for the next one's
}

TEST(JacocoTcpTest, AnAnswerBeyondTheCapIsRefused) {
  AgentDouble agent(Agent(Sample()));
  TcpDumper dumper("127.0.0.1", agent.port(), 5000, /*max_answer_bytes=*/40);
  Result<ExecData> d = dumper.Dump(false);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Status::Code::kCorruption) << d.status().ToString();
  EXPECT_NE(d.status().message().find("more than 40 bytes"), std::string::npos)
      << d.status().message();
}

TEST(JacocoTcpTest, RefusedNamesTheAddress) {
  auto l = android::Listener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(l.ok());
  const int port = l->port();
  l->Close();  // nothing listens there now
  Result<ExecData> d = DumpOverTcp("127.0.0.1", port, false, 2000);
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(d.status().IsUnavailable()) << d.status().ToString();
  EXPECT_EQ(d.status().message().rfind(fmt::format("JaCoCo agent at 127.0.0.1:{}: cannot connect: "
                                                   "Connection refused",
                                                   port),
                                       0),
            0u)
      << d.status().message();
}

// ---------------------------------------------------------------------------------------------
// JaCoCo's own agent.

// Runs classify over [0, 5), makes the ready file, waits (at most 30 s) for the stop file in
// Waiter, which the agent is told to leave out: after a reset nothing instrumented runs.
constexpr std::string_view kApp = R"(import java.io.File;
public class App {
  static int classify(int x) {
    if (x % 3 == 0) return 0;
    return x % 3 == 1 ? 1 : 2;
  }
  public static void main(String[] args) throws Exception {
    int sum = 0;
    for (int i = 0; i < 5; i++) sum += classify(i);
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

std::string Q(const fs::path& p) { return fmt::format("'{}'", p.string()); }

struct Java {
  std::string skip, fail;
  fs::path dir;  // App.class under app/, the agent as agent.jar
};

const Java& JavaOnce() {
  static const Java java = [] {
    Java j;
    const char* env = std::getenv("ROAM_JACOCO_JARS");
    const fs::path jar =
        fs::path(env != nullptr ? env : "/usr/share/java") / "org.jacoco.agent.jar";
    if (testing::RunCommand("command -v java && command -v javac && command -v unzip").code != 0) {
      j.skip = "java, javac or unzip is not installed";
    } else if (!fs::exists(jar)) {
      j.skip = "no " + jar.string() + " (apt-get install libjacoco-java)";
    }
    if (!j.skip.empty()) return j;
    j.dir = testing::TempDir("jacoco_tcp");
    if (Status s = WriteFileAtomic(j.dir / "App.java", std::string(kApp)); !s.ok()) {
      j.fail = s.ToString();
      return j;
    }
    for (const std::string& cmd :
         {fmt::format("timeout 120 javac --release 11 -d {} {}", Q(j.dir / "app"),
                      Q(j.dir / "App.java")),
          fmt::format("unzip -p {} jacocoagent.jar > {}", Q(jar), Q(j.dir / "agent.jar"))}) {
      testing::CommandRun r = testing::RunCommand(cmd + " 2>&1");
      if (r.code != 0) j.fail = cmd + " failed: " + r.out;
    }
    return j;
  }();
  return java;
}

// App under the agent (output=tcpserver on 127.0.0.1:port), until Stop() or the destructor.
class LiveApp {
 public:
  LiveApp(const Java& j, int port, const std::string& name) : stop_(j.dir / (name + ".stop")) {
    const fs::path ready = j.dir / (name + ".ready"), log = j.dir / (name + ".log");
    const std::string command = fmt::format(
        "exec timeout 60 java "
        "-javaagent:{}=output=tcpserver,port={},address=127.0.0.1,excludes=Waiter "
        "-cp {} App "
        "{} {} > {} 2>&1",
        Q(j.dir / "agent.jar"), port, Q(j.dir / "app"), Q(ready), Q(stop_), Q(log));
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    if (::posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0)
      pid_ = -1;
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (pid_ > 0 && !fs::exists(ready) && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!fs::exists(ready)) {
      Result<std::string> text = ReadFile(log);
      error_ = "App did not start: " + (text.ok() ? *text : text.status().ToString());
    }
  }
  ~LiveApp() { Stop(); }
  const std::string& error() const { return error_; }
  void Stop() {
    if (pid_ <= 0) return;
    std::ofstream(stop_.string()).flush();
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        ::kill(pid_, SIGTERM);
        ::waitpid(pid_, &status, 0);
        ADD_FAILURE() << "App still ran 30 s after it was told to stop";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
  }

 private:
  fs::path stop_;
  pid_t pid_ = -1;
  std::string error_;
};

class JacocoAgentTcpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!java.skip.empty()) GTEST_SKIP() << java.skip;
    ASSERT_EQ(java.fail, "");
    auto probe = android::Listener::Listen("127.0.0.1", 0);  // a free port for the agent
    ASSERT_TRUE(probe.ok()) << probe.status().ToString();
    port = probe->port();
  }
  const Java& java = JavaOnce();
  int port = 0;
};

TEST_F(JacocoAgentTcpTest, TwoDumpsOverOneConnectionMatch) {
  LiveApp app(java, port, "two");
  ASSERT_EQ(app.error(), "");
  TcpDumper dumper("127.0.0.1", port);
  Result<ExecData> first = dumper.Dump(false);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  Result<ExecData> second = dumper.Dump(false);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_EQ(first->classes.size(), 1u);  // App: the agent ran and recorded it
  EXPECT_EQ(first->classes.begin()->second.name, "App");
  EXPECT_GT(first->CoveredCount(), 0u);
  EXPECT_EQ(first->classes, second->classes);  // nothing ran between the two dumps
  EXPECT_EQ(first->sessions.size(), 1u);
  EXPECT_EQ(dumper.connects(), 1);
}

TEST_F(JacocoAgentTcpTest, ResetZeroesTheProbesOfTheNextDump) {
  LiveApp app(java, port, "reset");
  ASSERT_EQ(app.error(), "");
  TcpDumper dumper("127.0.0.1", port);
  Result<ExecData> before = dumper.Dump(true);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_GT(before->CoveredCount(), 0u);  // the reset comes after this answer
  Result<ExecData> after = dumper.Dump(false);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->CoveredCount(), 0u);
  EXPECT_EQ(after->sessions.size(), 1u);
  EXPECT_EQ(dumper.connects(), 1);
}

TEST_F(JacocoAgentTcpTest, ConnectsAgainAfterTheAppRestarts) {
  TcpDumper dumper("127.0.0.1", port);
  {
    LiveApp app(java, port, "restart1");
    ASSERT_EQ(app.error(), "");
    Result<ExecData> d = dumper.Dump(false);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
  }  // the JVM exits: its agent's server socket and our connection go
  LiveApp again(java, port, "restart2");
  ASSERT_EQ(again.error(), "");
  Result<ExecData> d = dumper.Dump(false);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_GT(d->CoveredCount(), 0u);
  EXPECT_EQ(dumper.connects(), 2);
  // The first VM's dump on exit, sent unasked on the old connection, comes with the answer.
  ASSERT_EQ(d->sessions.size(), 2u);
  EXPECT_NE(d->sessions[0].id, d->sessions[1].id);
}

}  // namespace
}  // namespace roam::device::jacoco
