// Issue 44 through the binary: what a model's server, a file or a flag sends ends in a clean
// error or a clean run, never a signal, a hang or a file replaced. Each command runs under
// timeout(1) so a regression fails the test instead of hanging CTest.
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "explore/dqn_model.h"
#include "llm/chat_server_double.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam {
namespace {

namespace fs = std::filesystem;
using testing::ChatServerDouble;

std::string Diary() { return (testing::SourceDir() / "apps/diary.json").string(); }

// Runs roam with `args` under a 60-second timeout; exit 124 is the timeout.
testing::CommandRun Roam(const std::string& args) {
  return testing::RunCommand("timeout 60 " + testing::RoamBinary() + " " + args + " 2>&1");
}

// Rows 1 and 2: answers that are JSON of the wrong shape, or nested 100,000 deep, are answers
// the agents could not use: the run goes on with its fallbacks and writes everything.
TEST(RobustnessCli, VisionOutlivesMalformedAndDeepAnswers) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  int k = 0;
  for (const std::string& body :
       {std::string("{\"choices\":[1]}"), std::string("{\"choices\":[\"x\"]}"),
        "{\"choices\":" + deep + "}", "{\"error\":" + deep + "}",
        ChatServerDouble::Completion("{\"action\": " + deep + "}")}) {
    ChatServerDouble server;
    server.Respond([&](const ChatServerDouble::Received&) {
      return ChatServerDouble::Reply{200, body};
    });
    const fs::path out = testing::TempDir("robust_vision_" + std::to_string(k++)) / "run";
    auto r = Roam("vision --app " + Diary() + " --llm-url " + server.url() +
                  " --llm-model m --llm-retries 0 --events 1 --seed 1 -q --out " + out.string());
    EXPECT_EQ(r.code, 0) << body.substr(0, 40) << ": " << r.out;
    EXPECT_TRUE(fs::exists(out / "summary.json")) << body.substr(0, 40);
    auto log = ReadFile(out / "llm.jsonl");
    ASSERT_TRUE(log.ok());
    EXPECT_FALSE(log->empty());
  }
}

// Row 7: a timeout libcurl would read as "none", or one that overflows, is refused up front.
TEST(RobustnessCli, ATimeoutThatCannotWorkIsAUsageError) {
  for (const char* t : {"0.0004", "1e300"}) {
    auto r = Roam("vision --app " + Diary() +
                  " --llm-url http://127.0.0.1:9/v1 --llm-model m --events 1 --llm-timeout " + t);
    EXPECT_NE(r.code, 0) << t;
    EXPECT_NE(r.code, 124) << t;
    EXPECT_NE(r.out.find("--llm-timeout"), std::string::npos) << r.out;
  }
}

// Rows 11 and 13: a recording whose utg.js is a FIFO, and a spec written over its recording.
TEST(RobustnessCli, ImportRefusesAFifoAndAnOutputOverItsInput) {
  const fs::path dir = testing::TempDir("robust_import");
  ASSERT_EQ(::mkfifo((dir / "utg.js").c_str(), 0600), 0);
  auto fifo = Roam("sim import " + dir.string() + " --out " + (dir / "spec.json").string());
  EXPECT_NE(fifo.code, 0);
  EXPECT_NE(fifo.code, 124) << "blocked on the FIFO";
  EXPECT_NE(fifo.out.find("FIFO"), std::string::npos) << fifo.out;

  const fs::path rec = testing::TempDir("robust_import_rec");
  ASSERT_TRUE(WriteFileAtomic(rec / "utg.js", "var utg = {};").ok());
  auto over = Roam("sim import " + rec.string() + " --out " + (rec / "utg.js").string());
  EXPECT_NE(over.code, 0);
  EXPECT_NE(over.out.find("is a file of the recording"), std::string::npos) << over.out;
  EXPECT_EQ(*ReadFile(rec / "utg.js"), "var utg = {};");
}

// Rows 12 and 13: --junit over the run's own summary, over the app spec, or over a FIFO.
TEST(RobustnessCli, JunitReplacesNoInputNoRunFileAndNothingButAFile) {
  const fs::path dir = testing::TempDir("robust_junit");
  const fs::path run = dir / "run";
  const fs::path app = dir / "app.json";
  fs::copy_file(Diary(), app);
  const std::string base = "explore -q --app " + app.string() + " --events 20 --seed 1 --out " +
                           run.string() + " --force --junit ";
  auto summary = Roam(base + (run / "summary.json").string());
  EXPECT_EQ(summary.code, 2) << summary.out;
  EXPECT_NE(summary.out.find("is a file of the run folder"), std::string::npos) << summary.out;
  auto spec = Roam(base + app.string());
  EXPECT_EQ(spec.code, 2) << spec.out;
  EXPECT_NE(spec.out.find("is one of this command's inputs"), std::string::npos) << spec.out;
  EXPECT_EQ(*ReadFile(app), *ReadFile(Diary()));
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  auto fifo = Roam(base + (dir / "fifo").string());
  EXPECT_EQ(fifo.code, 2) << fifo.out;
  EXPECT_NE(fifo.out.find("a FIFO"), std::string::npos) << fifo.out;
  EXPECT_TRUE(fs::is_fifo(dir / "fifo"));
  auto fine = Roam(base + (run / "junit.xml").string());
  EXPECT_EQ(fine.code, 0) << fine.out;
  EXPECT_TRUE(fs::exists(run / "junit.xml"));
}

// Issue 60, row 9: --junit into a folder that does not exist was found missing only after the
// whole run; it is refused before the run, as every other output is.
TEST(RobustnessCli, JunitIntoAMissingFolderIsRefusedBeforeTheRun) {
  const fs::path dir = testing::TempDir("robust_junit_dir");
  const fs::path run = dir / "run";
  auto r = Roam("explore -q --app " + Diary() + " --events 20 --seed 1 --out " + run.string() +
                " --force --junit " + (dir / "nodir/j.xml").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(run / "trace.jsonl"));
  // Beside the run folder that the run makes, the file's folder is that run folder: fine.
  auto fine = Roam("explore -q --app " + Diary() + " --events 20 --seed 1 --out " +
                   (dir / "made").string() + " --force --junit " + (dir / "made/j.xml").string());
  EXPECT_EQ(fine.code, 0) << fine.out;
  EXPECT_TRUE(fs::exists(dir / "made/j.xml"));
}

// Issue 60, row 2: `roam bench` died by Ctrl-C's signal, lost every finished run's figures (no
// --json) and left the runs in flight "running" with a half-written trace line. Now: exit 130,
// the JSON holds the finished runs and lists the interrupted ones, whose folders are complete.
TEST(RobustnessCli, BenchStopsCleanlyOnCtrlC) {
  const fs::path dir = testing::TempDir("robust_bench_int");
  fs::remove_all(dir);
  const fs::path json_file = dir / "b.json";
  fs::create_directories(dir);
  // Three long runs on one job: the signal comes while the first runs (its trace has begun).
  const std::string bench = testing::RoamBinary() + " bench -q --apps " + Diary() +
                            " --strategies random --events 40000000 --seeds 3 --jobs 1 --out " +
                            (dir / "B").string() + " --json " + json_file.string();
  const fs::path first = dir / "B/runs/diary/random/s1/trace.jsonl";
  testing::CommandRun r = testing::RunCommand(
      "sh -c '" + bench + " & pid=$!; i=0; while [ ! -s " + first.string() +
      " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; sleep 0.3; kill -INT $pid; "
      "wait $pid; echo exit=$?' 2>&1");
  EXPECT_NE(r.out.find("exit=130"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("interrupted"), std::string::npos) << r.out;
  auto j = ReadJsonFile(json_file);
  ASSERT_TRUE(j.ok()) << j.status().message();
  EXPECT_EQ((*j)["runs"].size(), 0u);  // s1 was stopped in flight, s2 and s3 never started
  ASSERT_EQ((*j)["interrupted"].size(), 1u);
  EXPECT_EQ((*j)["interrupted"][0]["seed"], 1);
  auto summary = ReadJsonFile(dir / "B/runs/diary/random/s1/summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["stop_reason"], "interrupted");
  auto trace = ReadFile(first);
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->back(), '\n');  // no half-written line
  EXPECT_FALSE(fs::exists(dir / "B/runs/diary/random/s2"));
}

// Row 5: a 100,000-character string typed and drawn on a bug's screen. Shortening text a
// character at a time took half a minute for 30,000 (and grew with the square); under the
// timeout it must finish.
TEST(RobustnessCli, ALongTypedStringIsDrawnAndTheRunEnds) {
  const fs::path dir = testing::TempDir("robust_strings");
  ASSERT_TRUE(WriteFileAtomic(dir / "s.txt", std::string(100000, 'A') + "\n").ok());
  auto r = Roam("explore --app " + Diary() + " --events 200 --seed 7 -q --strings " +
                (dir / "s.txt").string() + " --out " + (dir / "run").string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir / "run/summary.json"));
}

// The model's weights with the tensor entry `name` of its archive changed by `damage`, sealed
// again so only the tensor is wrong. `damage` gets the archive and the places of the entry's
// central and local headers.
template <typename Damage>
std::string DamagedModel(const std::string& name, Damage damage) {
  auto model = explore::DecodeDqnModel(explore::ShippedDqnModel(), "shipped");
  EXPECT_TRUE(model.ok()) << model.status().message();
  std::string w = model->weights;
  size_t central = std::string::npos;
  for (size_t at = w.find(name); at != std::string::npos; at = w.find(name, at + 1))
    if (at >= 46 && w.compare(at - 46, 4, "PK\x01\x02") == 0) central = at - 46;
  EXPECT_NE(central, std::string::npos) << name;
  if (central == std::string::npos) return "";
  auto le32 = [&](size_t at) {
    return uint32_t(uint8_t(w[at])) | uint32_t(uint8_t(w[at + 1])) << 8 |
           uint32_t(uint8_t(w[at + 2])) << 16 | uint32_t(uint8_t(w[at + 3])) << 24;
  };
  damage(w, central, le32(central + 42));
  return explore::EncodeDqnModel(model->meta, w);
}

void PutLe32(std::string& w, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) w[at + k] = static_cast<char>(v >> (8 * k) & 0xFF);
}

// Row 4: a DQN model whose envelope is sound and whose tensor is damaged: an entry cut to 4
// bytes or emptied (libtorch read past it: heap corruption), or its pickle scribbled over (an
// uncaught c10::Error). Each is a clean error naming the file.
TEST(RobustnessCli, ADamagedTensorInADqnModelIsACleanError) {
  if (explore::ShippedDqnModel().empty()) GTEST_SKIP() << "this build ships no DQN model";
  const fs::path dir = testing::TempDir("robust_dqn");
  const std::map<std::string, std::string> models = {
      {"cut", DamagedModel("archive/data/0",
                           [](std::string& w, size_t central, size_t local) {
                             for (size_t at : {central + 20, central + 24, local + 18, local + 22})
                               PutLe32(w, at, 4);
                           })},
      {"emptied",
       DamagedModel("archive/data/3",
                    [](std::string& w, size_t central, size_t local) {
                      for (size_t at : {central + 20, central + 24, local + 18, local + 22})
                        PutLe32(w, at, 0);
                    })},
      {"pickle", DamagedModel("archive/data.pkl", [](std::string& w, size_t, size_t local) {
         const size_t data = local + 30 + (uint8_t(w[local + 26]) | uint8_t(w[local + 27]) << 8) +
                             (uint8_t(w[local + 28]) | uint8_t(w[local + 29]) << 8);
         for (size_t k = 0; k < 200; ++k) w[data + 20 + k] = 'X';
       })}};
  for (const auto& [what, bytes] : models) {
    ASSERT_FALSE(bytes.empty()) << what;
    const fs::path file = dir / (what + ".dqn");
    ASSERT_TRUE(WriteFileAtomic(file, bytes).ok());
    auto r = Roam("explore --app " + Diary() + " --strategy dqn --dqn-model " + file.string() +
                  " --events 50 --seed 1 -q --out " + (dir / what).string());
    EXPECT_EQ(r.code, 2) << what << ": " << r.out;  // a bad input, as any model file
    EXPECT_NE(r.out.find(file.string()), std::string::npos) << what << ": " << r.out;
    EXPECT_NE(r.out.find("do not load"), std::string::npos) << what << ": " << r.out;
  }
}

}  // namespace
}  // namespace roam

namespace roam {
namespace {

// Issue 62 item 8: a serial the adb server does not have lists those it has and is a usage
// error (exit 2); a package that is not installed is one too, found before the UiAutomator2
// server is installed; no adb server at all says how to start one.
TEST(RobustnessCli, DeviceErrorsListTheDevicesAndInstallNothing) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  serve::SimAdbServer server(*spec, {.port = 0});
  ASSERT_TRUE(server.Start().ok());
  const std::string run = fmt::format("explore --adb-port {} --events 5 -q --out {}", server.port(),
                                      testing::TempDir("device_errors").string());
  auto serial = testing::RunRoam(run + "/a --serial emulator-5556 --package org.x");
  EXPECT_EQ(serial.code, 2) << serial.out;
  EXPECT_NE(serial.out.find("no device emulator-5556 on the adb server 127.0.0.1:"),
            std::string::npos)
      << serial.out;
  EXPECT_NE(serial.out.find("attached: emulator-5554 (device)"), std::string::npos) << serial.out;
  auto package = testing::RunRoam(run + "/b --serial emulator-5554 --package org.roam.nothere");
  EXPECT_EQ(package.code, 2) << package.out;
  EXPECT_NE(package.out.find("org.roam.nothere is not installed"), std::string::npos)
      << package.out;
  EXPECT_FALSE(server.Device("emulator-5554")->Installed("io.appium.uiautomator2.server"))
      << "the UiAutomator2 server was installed for a package that is not there";
  server.Stop();
  auto none = testing::RunRoam(fmt::format(
      "explore --adb-port {} --serial emulator-5554 --package org.x --events 5 -q --out {}",
      server.port(), (testing::TempDir("device_errors") / "c").string()));
  EXPECT_EQ(none.code, 1) << none.out;
  EXPECT_NE(none.out.find("start one with `adb start-server`"), std::string::npos) << none.out;
}

}  // namespace
}  // namespace roam
