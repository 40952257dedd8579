// Roam's exec data against JaCoCo itself: a tiny Java program runs under JaCoCo's agent (file
// mode, and TCP server mode dumped over 127.0.0.1 with Roam's DumpCommand), and a few lines of
// Java compiled here print what JaCoCo's own readers (ExecFileLoader, RemoteControlReader) make
// of the bytes; Roam's parse must say the same, and JaCoCo must read a file Roam wrote. Skipped
// when java, javac, timeout or Debian's libjacoco-java (or ROAM_JACOCO_JARS) are absent.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "test_paths.h"

extern char** environ;

namespace roam::device::jacoco {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Prints what JaCoCo read: sessions (getInfos: by dump time), then classes by id, unsigned.
constexpr std::string_view kTool = R"(import java.io.*;
import java.util.*;
import org.jacoco.core.data.*;
import org.jacoco.core.runtime.RemoteControlReader;
import org.jacoco.core.tools.ExecFileLoader;
public class JacocoTool {
  public static void main(String[] args) throws Exception {
    if (args[0].equals("extract")) { org.jacoco.agent.AgentJar.extractTo(new File(args[1])); return; }
    ExecFileLoader loader = new ExecFileLoader();
    if (args[0].equals("file")) {
      loader.load(new File(args[1]));
    } else {  // a TCP stream, read as ExecDumpClient reads it, through every command-ok
      try (InputStream in = new BufferedInputStream(new FileInputStream(args[1]))) {
        RemoteControlReader reader = new RemoteControlReader(in);
        reader.setSessionInfoVisitor(loader.getSessionInfoStore());
        reader.setExecutionDataVisitor(loader.getExecutionDataStore());
        while (reader.read()) {}
      }
    }
    for (SessionInfo s : loader.getSessionInfoStore().getInfos())
      System.out.printf("session %s %d %d%n", s.getId(), s.getStartTimeStamp(), s.getDumpTimeStamp());
    List<ExecutionData> all = new ArrayList<>(loader.getExecutionDataStore().getContents());
    all.sort((a, b) -> Long.compareUnsigned(a.getId(), b.getId()));
    for (ExecutionData c : all) {
      StringBuilder bits = new StringBuilder();
      int covered = 0;
      for (boolean p : c.getProbes()) { bits.append(p ? '1' : '0'); covered += p ? 1 : 0; }
      System.out.printf("class %016x %s %d/%d %s%n", c.getId(), c.getName(), covered,
                        c.getProbes().length, bits);
    }
  }
}
)";

// Runs i in [from, to); with two more arguments it then makes the first file and waits (at most
// 30 s) for the second, so a test can dump it over TCP while it lives. The wait's loop runs once
// before the first file exists: its probes have all fired by then, so no probe changes while the
// test dumps (the loop's first pass could fall between two dumps).
constexpr std::string_view kApp = R"(import java.io.File;
public class App {
  static int classify(int x) {
    if (x % 3 == 0) return 0;
    if (x % 3 == 1) return 1;
    return 2;
  }
  static void waitFor(File f, long ms) throws Exception {
    long deadline = System.currentTimeMillis() + ms;
    while (!f.exists() && System.currentTimeMillis() < deadline) Thread.sleep(10);
  }
  public static void main(String[] args) throws Exception {
    int sum = 0;
    for (int i = Integer.parseInt(args[0]); i < Integer.parseInt(args[1]); i++)
      sum += classify(i) + Helper.twice(i);
    System.out.println(sum);
    if (args.length < 4) return;
    File stop = new File(args[3]);
    waitFor(stop, 30);
    new File(args[2]).createNewFile();
    waitFor(stop, 30000);
  }
}
class Helper {
  static int twice(int x) { return x > 1 ? 2 * x : x; }
}
)";

struct Jacoco {
  std::string skip;  // why the tests skip; "" when ready
  std::string fail;  // set-up went wrong although everything was there
  fs::path dir;      // the compiled tool and app, and the extracted agent.jar
  std::string classpath;
};

std::string TextOf(const fs::path& p) {
  Result<std::string> text = ReadFile(p);
  return text.ok() ? *text : text.status().ToString();
}

std::string Q(const fs::path& p) { return "'" + p.string() + "'"; }

// Compiles the tool and the app and extracts the agent, once for every test.
const Jacoco& JacocoOnce() {
  static const Jacoco jacoco = [] {
    Jacoco j;
    if (testing::RunCommand("command -v java && command -v javac && command -v timeout").code !=
        0) {
      j.skip = "java, javac or timeout is not installed";
      return j;
    }
    const char* env = std::getenv("ROAM_JACOCO_JARS");
    fs::path jars = env != nullptr ? env : "/usr/share/java";
    fs::path core = jars / "org.jacoco.core.jar", agent = jars / "org.jacoco.agent.jar";
    if (!fs::exists(core) || !fs::exists(agent)) {
      j.skip =
          "no " + core.string() + " and " + agent.string() + " (apt-get install libjacoco-java)";
      return j;
    }
    j.dir = testing::TempDir("jacoco_real");
    j.classpath = Q(j.dir / "tool") + ":" + Q(core) + ":" + Q(agent);
    Status s = WriteFileAtomic(j.dir / "JacocoTool.java", std::string(kTool));
    if (s.ok()) s = WriteFileAtomic(j.dir / "App.java", std::string(kApp));
    if (!s.ok()) {
      j.fail = s.ToString();
      return j;
    }
    // --release 11: class files older JaCoCo agents instrument as well as newer ones.
    for (const std::string& cmd : {fmt::format("timeout 120 javac -cp {} -d {} {}", j.classpath,
                                               Q(j.dir / "tool"), Q(j.dir / "JacocoTool.java")),
                                   fmt::format("timeout 120 javac --release 11 -d {} {}",
                                               Q(j.dir / "app"), Q(j.dir / "App.java")),
                                   fmt::format("timeout 60 java -cp {} JacocoTool extract {}",
                                               j.classpath, Q(j.dir / "agent.jar"))}) {
      testing::CommandRun r = testing::RunCommand(cmd + " 2>&1");
      if (r.code != 0) {
        j.fail = cmd + " failed: " + r.out;
        return j;
      }
    }
    return j;
  }();
  return jacoco;
}

class JacocoRealTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!jacoco.skip.empty()) GTEST_SKIP() << jacoco.skip;
    ASSERT_EQ(jacoco.fail, "");
  }
  const Jacoco& jacoco = JacocoOnce();
};

// What JaCoCo's readers print, from Roam's parse.
std::string Describe(const ExecData& d) {
  std::vector<SessionInfo> sessions = d.sessions;
  std::stable_sort(sessions.begin(), sessions.end(),
                   [](const auto& a, const auto& b) { return a.dump_ms < b.dump_ms; });
  std::string out;
  for (const SessionInfo& s : sessions) {
    out += fmt::format("session {} {} {}\n", s.id, s.start_ms, s.dump_ms);
  }
  for (const auto& [id, c] : d.classes) {
    std::string bits;
    for (bool p : c.probes) bits += p ? '1' : '0';
    out += fmt::format("class {:016x} {} {}/{} {}\n", id, c.name, c.CoveredCount(), c.probes.size(),
                       bits);
  }
  return out;
}

std::string JacocoReads(const Jacoco& j, std::string_view mode, const fs::path& file) {
  testing::CommandRun r = testing::RunCommand(
      fmt::format("timeout 60 java -cp {} JacocoTool {} {} 2>&1", j.classpath, mode, Q(file)));
  EXPECT_EQ(r.code, 0) << r.out;
  return r.out;
}

std::string AgentOption(const Jacoco& j, const std::string& options) {
  return "-javaagent:" + (j.dir / "agent.jar").string() + "=" + options;
}

// Runs App over [from, to) under the agent in file mode and reads the exec file it leaves.
Result<ExecData> RunToFile(const Jacoco& j, int from, int to, fs::path exec) {
  testing::CommandRun r = testing::RunCommand(
      fmt::format("timeout 60 java {} -cp {} App {} {} 2>&1",
                  Q(AgentOption(j, "destfile=" + exec.string())), Q(j.dir / "app"), from, to));
  if (r.code != 0) return Status::Io("App under the agent: " + r.out);
  Result<std::string> bytes = ReadFile(exec);
  if (!bytes.ok()) return bytes.status();
  return ParseExec(*bytes);
}

TEST_F(JacocoRealTest, FileModeReadsAsExecFileLoaderReadsIt) {
  fs::path exec = jacoco.dir / "file_mode.exec";
  Result<ExecData> d = RunToFile(jacoco, 0, 1, exec);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(Describe(*d), JacocoReads(jacoco, "file", exec));
  ASSERT_EQ(d->classes.size(), 2u) << Describe(*d);  // App and Helper: the agent ran
  EXPECT_EQ(d->sessions.size(), 1u);
  EXPECT_GT(d->CoveredCount(), 0u);
  EXPECT_LT(d->CoveredCount(), d->ProbeCount());  // one input leaves branches untaken
  EXPECT_EQ(WriteExec(*d), TextOf(exec));         // byte for byte as the agent wrote it
}

// App under the agent in TCP server mode, spawned through sh; Stop() (or the destructor) makes
// the file it waits for and waits at most 30 s for it to end.
class LiveApp {
 public:
  LiveApp(std::string command, fs::path stop) : command_(std::move(command)), stop_(stop) {
    const char* argv[] = {"sh", "-c", command_.c_str(), nullptr};
    if (::posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
      pid_ = -1;
    }
  }
  ~LiveApp() { Stop(); }
  bool started() const { return pid_ > 0; }
  // The exit code; -1 when it did not exit by itself.
  int Stop() {
    if (pid_ <= 0) return code_;
    std::ofstream(stop_.string()).flush();
    auto deadline = Clock::now() + std::chrono::seconds(30);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        ADD_FAILURE() << command_ << ": still running 30 s after it was told to stop";
        ::kill(pid_, SIGTERM);  // timeout(1) passes it on to java
        ::waitpid(pid_, &status, 0);
        status = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    code_ = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return code_;
  }

 private:
  std::string command_;
  fs::path stop_;
  pid_t pid_ = -1;
  int code_ = -1;
};

// Reads from `s` until the reader has a whole answer (or 10 s pass); appends the bytes to `raw`.
Status ReadAnswer(android::Socket& s, ExecReader& reader, std::string& raw) {
  auto deadline = Clock::now() + std::chrono::seconds(10);
  char buf[4096];
  while (!reader.answered()) {
    if (Clock::now() > deadline) return Status::Unavailable("no command-ok within 10 s");
    Result<size_t> n = s.ReadSome(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) return Status::Io("the agent closed the connection");
    raw.append(buf, *n);
    ROAM_RETURN_IF_ERROR(reader.Feed(std::string_view(buf, *n)));
  }
  return Status::Ok();
}

TEST_F(JacocoRealTest, TcpDumpReadsAsRemoteControlReaderReadsIt) {
  auto probe = android::Listener::Listen("127.0.0.1", 0);  // a free port for the agent
  ASSERT_TRUE(probe.ok()) << probe.status().ToString();
  const int port = probe->port();
  probe->Close();
  const fs::path ready = jacoco.dir / "tcp.ready", stop = jacoco.dir / "tcp.stop";
  const std::string command = fmt::format(
      "exec timeout 60 java {} -cp {} App 2 6 {} {} > {} 2>&1",
      Q(AgentOption(jacoco, fmt::format("output=tcpserver,port={},address=127.0.0.1", port))),
      Q(jacoco.dir / "app"), Q(ready), Q(stop), Q(jacoco.dir / "tcp.log"));
  LiveApp app(command, stop);
  ASSERT_TRUE(app.started());
  auto deadline = Clock::now() + std::chrono::seconds(30);
  while (!fs::exists(ready) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(fs::exists(ready)) << "App did not start: " << TextOf(jacoco.dir / "tcp.log");
  auto s = android::Socket::Connect("127.0.0.1", port, 5000);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  std::string raw;
  ExecReader reader;
  ASSERT_TRUE(s->WriteAll(DumpCommand(true, false)).ok());
  Status st = ReadAnswer(*s, reader, raw);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string first_raw = raw.substr(0, reader.offset());
  const ExecData first = reader.TakeAnswer();
  // A second command on the same connection: the answer comes without a header.
  ASSERT_TRUE(s->WriteAll(DumpCommand(true, true)).ok());
  st = ReadAnswer(*s, reader, raw);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_GT(raw.size(), first_raw.size());
  EXPECT_EQ(raw[first_raw.size()], static_cast<char>(kBlockSessionInfo));
  const ExecData second = reader.TakeAnswer();
  s->Close();
  EXPECT_EQ(app.Stop(), 0) << TextOf(jacoco.dir / "tcp.log");

  ASSERT_TRUE(WriteFileAtomic(jacoco.dir / "first.tcp", first_raw).ok());
  ASSERT_TRUE(WriteFileAtomic(jacoco.dir / "both.tcp", raw).ok());
  int oks = 0;
  Result<ExecData> parsed = ParseExec(first_raw, &oks);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(oks, 1);
  EXPECT_EQ(*parsed, first);
  EXPECT_EQ(Describe(first), JacocoReads(jacoco, "tcp", jacoco.dir / "first.tcp"));
  ASSERT_EQ(first.classes.size(), 2u) << Describe(first);
  EXPECT_EQ(first.classes, second.classes)  // nothing ran between the two dumps
      << Describe(first) << "\n"
      << Describe(second);
  Result<ExecData> both = ParseExec(raw, &oks);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(oks, 2);
  EXPECT_EQ(Describe(*both), JacocoReads(jacoco, "tcp", jacoco.dir / "both.tcp"));
}

TEST_F(JacocoRealTest, JacocoReadsTheMergeRoamWrote) {
  // Inputs with branches of their own: x = 0 (x % 3 == 0, x <= 1) and x = 4 (x % 3 == 1, x > 1).
  Result<ExecData> a = RunToFile(jacoco, 0, 1, jacoco.dir / "a.exec");
  Result<ExecData> b = RunToFile(jacoco, 4, 5, jacoco.dir / "b.exec");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ExecData merged = *a;
  ASSERT_TRUE(Merge(merged, *b).ok());
  EXPECT_GT(merged.CoveredCount(), a->CoveredCount());
  EXPECT_GT(merged.CoveredCount(), b->CoveredCount());
  EXPECT_EQ(merged.classes.size(), 2u);
  EXPECT_EQ(merged.sessions.size(), 2u);
  ASSERT_TRUE(WriteFileAtomic(jacoco.dir / "merged.exec", WriteExec(merged)).ok());
  EXPECT_EQ(JacocoReads(jacoco, "file", jacoco.dir / "merged.exec"), Describe(merged));
}

}  // namespace
}  // namespace roam::device::jacoco
