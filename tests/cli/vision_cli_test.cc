// `roam vision` as a newcomer meets it: it says how to name a model, an endpoint that is not
// there stops it at once, a model that answers nonsense still gives a whole run folder, and the
// run replays offline from its llm.jsonl step for step. The model is the chat server test double
// (tests/llm/chat_server_double.h), not a model.
#include <gtest/gtest.h>

#include "base/files.h"
#include "llm/chat_server_double.h"
#include "test_paths.h"

namespace roam {
namespace {

namespace fs = std::filesystem;
using testing::ChatServerDouble;

std::string Diary() { return (testing::SourceDir() / "apps/diary.json").string(); }

TEST(VisionCli, SaysHowToNameAModel) {
  auto r = testing::RunRoam("vision --app " + Diary());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--llm-url URL --llm-model NAME"), std::string::npos) << r.out;
  r = testing::RunRoam("vision --app " + Diary() + " --llm recorded.jsonl");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("replay:RUN/llm.jsonl"), std::string::npos) << r.out;
}

TEST(VisionCli, AnEndpointThatIsNotThereStopsTheRunAtOnce) {
  std::string url;
  {
    ChatServerDouble gone;
    url = gone.url();
  }
  const fs::path out = testing::TempDir("vision_cli_gone") / "run";
  auto r = testing::RunRoam("vision --app " + Diary() + " --llm-url " + url +
                            " --llm-model m --seed 1 --out " + out.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("cannot be reached"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "config.json"));
}

TEST(VisionCli, NonsenseAnswersGiveAWholeRunThatReplaysFromItsLog) {
  ChatServerDouble server;
  server.Respond([](const ChatServerDouble::Received&) {
    return ChatServerDouble::Reply{200, ChatServerDouble::Completion("Sure! Let me think.")};
  });
  const fs::path dir = testing::TempDir("vision_cli_nonsense");
  auto r = testing::RunRoam("vision --app " + Diary() + " --llm-url " + server.url() +
                            " --llm-model m --llm-retries 0 --events 8 --seed 3 -q --out " +
                            (dir / "live").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("answers replaced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("this run says little about the model"), std::string::npos) << r.out;
  for (const char* f : {"summary.json", "trace.jsonl", "llm.jsonl", "report.html", "config.json"})
    EXPECT_TRUE(fs::exists(dir / "live" / f)) << f;
  auto summary = ReadJsonFile(dir / "live/summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["events"], 8);
  EXPECT_EQ((*summary)["vision"]["fallbacks"]["explorer"], 8);
  auto config = ReadFile(dir / "live/config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_NE(config->find("OPENAI_API_KEY"), std::string::npos);  // the variable's name only

  // Offline, from the log: the same steps.
  r = testing::RunRoam("vision --app " + Diary() +
                       " --llm replay:" + (dir / "live/llm.jsonl").string() +
                       " --events 8 --seed 3 -q --out " + (dir / "replayed").string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto live = ReadFile(dir / "live/trace.jsonl");
  auto replayed = ReadFile(dir / "replayed/trace.jsonl");
  ASSERT_TRUE(live.ok() && replayed.ok());
  EXPECT_EQ(*live, *replayed);

  // A different seed asks other questions: the log says where it parts.
  r = testing::RunRoam("vision --app " + Diary() +
                       " --llm replay:" + (dir / "live/llm.jsonl").string() +
                       " --events 8 --seed 4 -q --out " + (dir / "other").string());
  EXPECT_NE(r.code, 0);
}

}  // namespace
}  // namespace roam
