// The chat-completions client against a scripted test double of the model's server: the request
// it sends, the answers it parses or refuses, retries, timeouts, the cap, and the log that
// replays a session offline.
#include "llm/chat.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include <gtest/gtest.h>

#include "base/base64.h"
#include "base/files.h"
#include "chat_server_double.h"
#include "test_paths.h"

namespace roam::llm {
namespace {

using nlohmann::json;
using testing::ChatServerDouble;

ClientOptions Options(const ChatServerDouble& server) {
  ClientOptions o;
  o.url = server.url();
  o.model = "llava-test";
  o.key_env = "ROAM_TEST_LLM_KEY";
  o.timeout_seconds = 5;
  o.backoff_seconds = 0.01;
  return o;
}

std::unique_ptr<Client> Must(Result<std::unique_ptr<Client>> c) {
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? std::move(*c) : nullptr;
}

TEST(Chat, SendsTextAndImagesAsOpenAIChatCompletionsWithTheKeyAsBearer) {
  ChatServerDouble server;
  server.Script(
      {200, ChatServerDouble::Completion("{\"action\": \"click\", \"widget\": 3}", 120, 9)});
  setenv("ROAM_TEST_LLM_KEY", "sk-test-secret", 1);
  auto client = Must(HttpClient(Options(server)));
  unsetenv("ROAM_TEST_LLM_KEY");
  auto answer = client->Complete({{"system", "You test apps.", {}},
                                  {"user", "Which widget?", {std::string("\x89PNG-bytes", 10)}}});
  ASSERT_TRUE(answer.ok()) << answer.status().message();
  EXPECT_EQ(answer->content, "{\"action\": \"click\", \"widget\": 3}");
  EXPECT_EQ(answer->usage.prompt_tokens, 120);
  EXPECT_EQ(client->counters().usage.completion_tokens, 9);
  auto got = server.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].head.rfind("POST /v1/chat/completions HTTP/1.1", 0), 0u) << got[0].head;
  EXPECT_NE(got[0].head.find("Authorization: Bearer sk-test-secret"), std::string::npos);
  json body = json::parse(got[0].body);
  EXPECT_EQ(body["model"], "llava-test");
  EXPECT_EQ(body["messages"][0]["content"], "You test apps.");
  EXPECT_EQ(body["messages"][1]["content"][0]["text"], "Which widget?");
  EXPECT_EQ(body["messages"][1]["content"][1]["image_url"]["url"],
            "data:image/png;base64," + Base64(std::string("\x89PNG-bytes", 10)));
}

TEST(Chat, WithoutAKeyNoAuthorizationIsSent) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion("ok")});
  unsetenv("ROAM_TEST_LLM_KEY");
  auto client = Must(HttpClient(Options(server)));
  ASSERT_TRUE(client->Complete({{"user", "hi", {}}}).ok());
  EXPECT_EQ(server.received()[0].head.find("Authorization"), std::string::npos);
}

TEST(Chat, RetriesOn429And5xxThenAnswers) {
  ChatServerDouble server;
  server.Script({429, "{\"error\": {\"message\": \"slow down\"}}"});
  server.Script({503, "overloaded"});
  server.Script({200, ChatServerDouble::Completion("third time")});
  auto client = Must(HttpClient(Options(server)));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_TRUE(answer.ok()) << answer.status().message();
  EXPECT_EQ(answer->content, "third time");
  EXPECT_EQ(client->counters().requests, 1);
  EXPECT_EQ(client->counters().retries, 2);
}

TEST(Chat, GivesUpAfterItsRetriesWithTheServersOwnWords) {
  ChatServerDouble server;
  for (int i = 0; i < 3; ++i) server.Script({500, "{\"error\": {\"message\": \"model crashed\"}}"});
  ClientOptions o = Options(server);
  o.retries = 2;
  auto client = Must(HttpClient(o));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("HTTP 500"), std::string::npos)
      << answer.status().message();
  EXPECT_NE(answer.status().message().find("model crashed"), std::string::npos);
  EXPECT_EQ(server.received().size(), 3u);
  EXPECT_EQ(client->counters().failures, 1);
}

TEST(Chat, A4xxOtherThan429IsNotRetried) {
  ChatServerDouble server;
  server.Script({401, "{\"error\": {\"message\": \"invalid api key\"}}"});
  auto client = Must(HttpClient(Options(server)));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("invalid api key"), std::string::npos);
  EXPECT_EQ(server.received().size(), 1u);
}

TEST(Chat, ASlowServerTimesOut) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion("late"), 700});
  ClientOptions o = Options(server);
  o.timeout_seconds = 0.2;
  o.retries = 0;
  auto client = Must(HttpClient(o));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("POST " + server.url() + "/chat/completions"),
            std::string::npos)
      << answer.status().message();
  EXPECT_NE(answer.status().message().find("imed out"), std::string::npos)
      << answer.status().message();
}

TEST(Chat, AnUnreachableEndpointIsNamed) {
  ClientOptions o;
  o.url = "http://127.0.0.1:9/v1";  // discard port: nothing listens
  o.model = "m";
  o.retries = 1;
  o.backoff_seconds = 0.01;
  auto client = Must(HttpClient(o));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("http://127.0.0.1:9/v1/chat/completions"),
            std::string::npos)
      << answer.status().message();
}

TEST(Chat, AnswersThatAreNoChatCompletionAreRefusedWithTheReason) {
  EXPECT_NE(ParseResponse("Sure! Here is my answer").status().message().find("not JSON"),
            std::string::npos);
  EXPECT_NE(ParseResponse("{\"choices\": []}").status().message().find("no \"choices\""),
            std::string::npos);
  EXPECT_NE(ParseResponse("{\"choices\": [{\"message\": {\"content\": null}}]}")
                .status()
                .message()
                .find("no text \"content\""),
            std::string::npos);
  EXPECT_NE(ParseResponse("{\"error\": {\"message\": \"context too long\"}}")
                .status()
                .message()
                .find("context too long"),
            std::string::npos);
  auto ok = ParseResponse(ChatServerDouble::Completion("fine"));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->content, "fine");
}

// Issue 44, rows 1, 2, 7, 8 and 9: what a broken or hostile server sends ends in a clean error.
TEST(Chat, ChoicesThatAreNotObjectsAreRefused) {
  for (const char* body : {"{\"choices\":[1]}", "{\"choices\":[\"x\"]}",
                           "{\"choices\":[{\"message\":1}]}", "{\"error\":[1]}", "[1]"}) {
    auto a = ParseResponse(body);
    EXPECT_FALSE(a.ok()) << body;
  }
}

TEST(Chat, DeeplyNestedAnswersAreRefusedByTheDepthGuard) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& body : {"{\"choices\":" + deep + "}", "{\"error\":" + deep + "}", deep}) {
    auto a = ParseResponse(body);
    ASSERT_FALSE(a.ok());
    EXPECT_NE(a.status().message().find("nested deeper"), std::string::npos)
        << a.status().message();
  }
}

TEST(Chat, AnAnswerPastTheCapIsCutAndRefused) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion(std::string(kMaxAnswerBytes + 1000, 'a'))});
  auto client = Must(HttpClient(Options(server)));
  auto answer = client->Complete({{"user", "hi", {}}});
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("more than an answer may hold"), std::string::npos)
      << answer.status().message();
  EXPECT_EQ(server.received().size(), 1u);  // not retried
}

TEST(Chat, TimeoutsThatCannotWorkAreRefused) {
  for (double t : {0.0004, 0.0, -1.0, 1e300, std::nan("")}) {
    auto c = HttpClient({.url = "http://127.0.0.1:9/v1", .model = "m", .timeout_seconds = t});
    ASSERT_FALSE(c.ok()) << t;
    EXPECT_NE(c.status().message().find("--llm-timeout"), std::string::npos);
  }
}

TEST(Chat, RetryAfterIsHonouredUpToItsCap) {
  ChatServerDouble server;
  server.Script({429, "{\"error\": {\"message\": \"slow down\"}}", 0, "Retry-After: 0.4\r\n"});
  server.Script({429, "{\"error\": {\"message\": \"slow down\"}}", 0, "Retry-After: 30\r\n"});
  server.Script({200, ChatServerDouble::Completion("ok")});
  ClientOptions o = Options(server);
  o.max_retry_after_seconds = 0.5;
  auto client = Must(HttpClient(o));
  const auto start = std::chrono::steady_clock::now();
  auto answer = client->Complete({{"user", "hi", {}}});
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(answer.ok()) << answer.status().message();
  // 0.4 s as asked, then 30 s capped to 0.5 s: not the 0.01 s backoff, not half a minute.
  EXPECT_GE(waited, 0.85);
  EXPECT_LT(waited, 10.0);
  EXPECT_EQ(client->counters().retries, 2);
}

TEST(Chat, TheStopFlagEndsAWaitingRequest) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion("late"), 1500});
  std::atomic<bool> stop{false};
  ClientOptions o = Options(server);
  o.stop = &stop;
  auto client = Must(HttpClient(o));
  std::thread signal([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  auto answer = client->Complete({{"user", "hi", {}}});
  signal.join();
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), Status::Code::kAborted) << answer.status().message();
}

TEST(Chat, TheRequestCapStopsFurtherRequests) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion("one")});
  ClientOptions o = Options(server);
  o.max_requests = 1;
  auto client = Must(HttpClient(o));
  ASSERT_TRUE(client->Complete({{"user", "hi", {}}}).ok());
  auto second = client->Complete({{"user", "again", {}}});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("cap of 1"), std::string::npos);
  EXPECT_EQ(server.received().size(), 1u);
}

TEST(Chat, BadOptionsAreRefusedBeforeAnyRequest) {
  ClientOptions o;
  o.url = "127.0.0.1:11434";
  o.model = "m";
  EXPECT_NE(HttpClient(o).status().message().find("base URL"), std::string::npos);
  o.url = "http://127.0.0.1:11434/v1";
  o.model = "";
  EXPECT_NE(HttpClient(o).status().message().find("--llm-model"), std::string::npos);
}

TEST(Chat, ASessionIsLoggedWithoutTheKeyAndReplaysOffline) {
  ChatServerDouble server;
  server.Script({200, ChatServerDouble::Completion("first", 100, 4)});
  server.Script({400, "{\"error\": {\"message\": \"bad image\"}}"});
  setenv("ROAM_TEST_LLM_KEY", "sk-never-logged", 1);
  auto http = Must(HttpClient(Options(server)));
  unsetenv("ROAM_TEST_LLM_KEY");
  auto dir = roam::testing::TempDir("llm_log");
  auto recorder = Recorder::Open(*http, dir / "llm.jsonl", "llava-test");
  ASSERT_TRUE(recorder.ok());
  const std::string png = "\x89PNG fake screen";
  std::vector<Message> first = {{"user", "step 1", {png}}};
  std::vector<Message> second = {{"user", "step 2", {png}}};
  ASSERT_TRUE((*recorder)->Complete(first).ok());
  EXPECT_FALSE((*recorder)->Complete(second).ok());
  auto log = ReadFile(dir / "llm.jsonl");
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->find("sk-never-logged"), std::string::npos);
  EXPECT_EQ(log->find(Base64(png)), std::string::npos) << "images are kept by hash";
  EXPECT_NE(log->find(ContentHash(png)), std::string::npos);
  EXPECT_EQ(*ReadFile(dir / "images" / (ContentHash(png) + ".png")), png);

  // Offline: the same requests get the same answers and the same error, without a server.
  auto replay = Must(ReplayClient(dir / "llm.jsonl"));
  auto a = replay->Complete(first);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->content, "first");
  EXPECT_EQ(a->usage.prompt_tokens, 100);
  auto b = replay->Complete(second);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("bad image"), std::string::npos);
  auto c = replay->Complete(second);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("the log ends after 2 requests"), std::string::npos);

  // A run that asks something else is told where it parted from the recording.
  auto other = Must(ReplayClient(dir / "llm.jsonl"));
  auto d = other->Complete({{"user", "a different question", {}}});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("llm.jsonl:1: this run's request differs"), std::string::npos)
      << d.status().message();
}

TEST(Chat, ACorruptLogIsRefusedWithItsLine) {
  auto dir = roam::testing::TempDir("llm_corrupt");
  ASSERT_TRUE(WriteFileAtomic(dir / "llm.jsonl",
                              "{\"request_hash\": \"00\", \"answer\": {}}\n"
                              "{\"oops\": 1}\n")
                  .ok());
  auto r = ReplayClient(dir / "llm.jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("llm.jsonl:2"), std::string::npos) << r.status().message();
  EXPECT_FALSE(ReplayClient(dir / "missing.jsonl").ok());
}

}  // namespace
}  // namespace roam::llm
