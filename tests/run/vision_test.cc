// run/vision/vision: VisionDroid end to end on apps/diary.json with a scripted model behind the
// chat server test double (tests/llm/chat_server_double.h; it reads the prompt, it is no model).
// The scripted Explorer walks the photo-delete function, the Monitor ends the function after "OK",
// the Detector reports the wrong photo: bugs/V1, scored as the planted bug, replayed from
// llm.jsonl. Also: the Monitor's trigger, answers that are nonsense, an unreachable endpoint.
#include "run/vision/vision.h"

#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "llm/chat_server_double.h"
#include "report/run_report.h"
#include "report/trace.h"
#include "run/bench/bench.h"
#include "run/triage/replay.h"
#include "run/vision/vision_internal.h"
#include "test_paths.h"
#include "vision/examples.h"

namespace roam::run {
namespace {

using nlohmann::json;
using testing::ChatServerDouble;

// The text of the last message of a chat-completions request body.
std::string LastText(const std::string& body) {
  json j = json::parse(body);
  const json& content = j["messages"].back()["content"];
  if (content.is_string()) return content.get<std::string>();
  return content[0]["text"].get<std::string>();
}

// The number of the widget list line that holds `needle` (a quoted text as MarkList writes it),
// or 0. Lines are `  N. "<the line as a JSON string>"`.
int WidgetNumber(const std::string& prompt, const std::string& needle) {
  static const std::regex kLine(R"(\n  (\d+)\. (".*"))");
  for (std::sregex_iterator it(prompt.begin(), prompt.end(), kLine), end; it != end; ++it) {
    const std::string line = json::parse((*it)[2].str()).get<std::string>();
    if (line.find(needle) != std::string::npos) return std::stoi((*it)[1].str());
  }
  return 0;
}

// What the scripted model says, by agent. The Explorer clicks `path` in order (BACK presses
// back), then the first widget; the Monitor says the function is done once a step's
// line holds `done_after`; the Detector reports a bug of `kind` when told to.
struct ScriptedModel {
  std::vector<std::string> path;
  std::string done_after = "\"OK\"";
  std::string kind = "wrong_behaviour";
  bool monitor_never_done = false;
  bool detector_reports = true;
  bool keep_first_only = false;  // the Monitor keeps only a function's first step
  size_t next = 0;
  std::vector<std::string> explorer_prompts;
  int detector_calls = 0;
  std::vector<std::string> detector_prompts;

  ChatServerDouble::Reply operator()(const ChatServerDouble::Received& r) {
    const std::string prompt = LastText(r.body);
    json answer;
    if (prompt.rfind("You are testing", 0) == 0) {
      explorer_prompts.push_back(prompt);
      int widget = 1;
      std::string target = "(any)";
      if (next < path.size()) {
        target = path[next++];
        widget = WidgetNumber(prompt, target);
      }
      if (target == "BACK")
        answer = {{"action", "back"}, {"function", "leave"}};
      else
        answer = {{"action", "click"}, {"widget", widget}, {"function", "click " + target}};
    } else if (prompt.rfind("You watch", 0) == 0) {
      // Steps are quoted in the prompt: "OK" shows as \"OK\".
      const std::string quoted = json(done_after).dump();
      const std::string data = prompt.substr(prompt.find("BEGIN APP DATA"));
      const bool done = !monitor_never_done &&
                        data.find(quoted.substr(1, quoted.size() - 2)) != std::string::npos;
      answer = {{"function", "delete a photo from a diary entry"},
                {"description", "the photo tapped is removed from its entry"},
                {"done", done}};
      if (keep_first_only) answer["keep"] = {1};
    } else if (prompt.rfind("You judge", 0) == 0) {
      ++detector_calls;
      detector_prompts.push_back(prompt);
      answer = {{"expected", "Cinema's photo disappears"},
                {"actual", "Cinema's photo is still shown after OK"},
                {"bug", detector_reports},
                {"kind", detector_reports ? json(kind) : json(nullptr)},
                {"report", detector_reports ? "Deleting Cinema's photo leaves it in place" : ""},
                {"feedback", ""}};
    } else {
      return {400, R"({"error": {"message": "the scripted model knows no such prompt"}})"};
    }
    // Models wrap their JSON in prose; the parsers must find it.
    return {200, ChatServerDouble::Completion("Here is my answer:\n" + answer.dump(), 1000, 40)};
  }
};

VisionOptions DiaryOptions(const std::string& url, const std::string& name) {
  VisionOptions o;
  o.target.app = roam::testing::SourceDir() / "apps/diary.json";
  o.out = roam::testing::TempDir(name);
  o.force = true;
  o.seed = 5;
  o.llm.url = url;
  o.llm.model = "scripted";
  o.llm.retries = 0;
  o.html_report = false;
  return o;
}

TEST(VisionTest, TheScriptedModelFindsThePlantedWrongPhotoBugAndItReplaysFromTheLog) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\"", "\"Diary\"",
                               "\"Photo of Cinema\"", "\"OK\""}};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_e2e");
  o.budget.events = 6;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const auto& s = result->summary;
  EXPECT_EQ(s.strategy, "visiondroid");
  EXPECT_EQ(s.events, 6);
  EXPECT_EQ(result->stats.explorer_fallbacks, 0);
  EXPECT_EQ(result->stats.explorer_requests, 6);
  EXPECT_EQ(model.detector_calls, 1);
  ASSERT_EQ(s.functional->size(), 1u);
  const auto& f = (*s.functional)[0];
  EXPECT_EQ(f.id, "V1");
  EXPECT_EQ(f.bug_dir, "bugs/V1");
  EXPECT_TRUE(f.scored);
  EXPECT_EQ(f.bug_id, "diary-wrong-photo-deleted");  // a true positive
  // The Detector saw the six steps and four examples, none of the diary's own.
  ASSERT_EQ(model.detector_prompts.size(), 1u);
  EXPECT_NE(model.detector_prompts[0].find("6. "), std::string::npos);
  // The library's own diary example (E01) is left out: the app under test.
  EXPECT_EQ(model.detector_prompts[0].find("the first photo is removed and the second stays"),
            std::string::npos);

  const auto dir = o.out / "bugs/V1";
  for (const char* file : {"bug.json", "trace.jsonl", "stitched.png", "screens/01.png",
                           "screens/06.png", "explanation.txt", "detector_prompt.txt"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  auto bug = ReadJsonFile(dir / "bug.json");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ((*bug)["kind"], "vision");
  EXPECT_EQ((*bug)["bug_kind"], "wrong_behaviour");
  EXPECT_EQ((*bug)["bug_id"], "diary-wrong-photo-deleted");
  auto summary = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["vision"]["fallbacks"]["explorer"], 0);
  EXPECT_GT((*summary)["vision"]["image_tokens_estimated"]["every_screen"].get<int64_t>(),
            (*summary)["vision"]["image_tokens_estimated"]["stitched"].get<int64_t>());
  // No key is written anywhere; the log has every request.
  auto log = ReadFile(o.out / "llm.jsonl");
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(std::count(log->begin(), log->end(), '\n'), result->stats.explorer_requests +
                                                            result->stats.monitor_requests +
                                                            result->stats.detector_requests);

  // Replayed offline: the same steps, the same screens, the Detector's answer from llm.jsonl.
  auto replay = ReplayBug(dir);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_TRUE(replay->reproduced) << replay->note;
  EXPECT_NE(replay->note.find("6 of 6"), std::string::npos) << replay->note;

  // Asked again by the live model instead of the log: the scripted Detector reports it again.
  llm::ClientOptions live{.url = server.url(), .model = "scripted", .retries = 0};
  auto asked = ReplayBug(dir, false, live);
  ASSERT_TRUE(asked.ok()) << asked.status().ToString();
  EXPECT_TRUE(asked->reproduced) << asked->note;
  EXPECT_EQ(model.detector_calls, 2);

  // A copy whose replay runs with the planted bug off: other screens, so no answer in the log
  // for them, and not reproduced.
  const auto fixed = roam::testing::TempDir("vision_e2e_fixed") / "run";
  std::filesystem::create_directories(fixed / "bugs");
  std::filesystem::copy(dir, fixed / "bugs/V1", std::filesystem::copy_options::recursive);
  std::filesystem::copy_file(o.out / "llm.jsonl", fixed / "llm.jsonl");
  std::filesystem::copy_file(o.out / "app.json", fixed / "app.json");
  auto fixed_bug = ReadJsonFile(fixed / "bugs/V1/bug.json");
  ASSERT_TRUE(fixed_bug.ok());
  (*fixed_bug)["replay"]["bugs_off"] = {"diary-wrong-photo-deleted"};
  ASSERT_TRUE(WriteJsonFile(fixed / "bugs/V1/bug.json", *fixed_bug).ok());
  auto not_again = ReplayBug(fixed / "bugs/V1");
  ASSERT_TRUE(not_again.ok()) << not_again.status().ToString();
  EXPECT_FALSE(not_again->reproduced);
  EXPECT_NE(not_again->note.find("5 of 6"), std::string::npos) << not_again->note;
  EXPECT_NE(not_again->note.find("holds no answer"), std::string::npos) << not_again->note;

  // The whole run again from its log, with no server at all: the same report.
  VisionOptions again = DiaryOptions("", "vision_e2e_replayed");
  again.llm_replay = o.out / "llm.jsonl";
  again.budget.events = 6;
  auto replayed = Vision(again);
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  ASSERT_EQ(replayed->summary.functional->size(), 1u);
  EXPECT_EQ((*replayed->summary.functional)[0].bug_id, "diary-wrong-photo-deleted");

  // Confirmed into a team's library, which then loads as --examples does; not twice.
  const auto library = roam::testing::TempDir("vision_confirm") / "ours.json";
  auto id = ConfirmVisionBug(dir, library);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto loaded = vision::LoadExamples(library);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].function, "delete a photo from a diary entry");
  EXPECT_EQ((*loaded)[0].kind, "wrong_behaviour");
  EXPECT_EQ((*loaded)[0].steps.size(), 6u);
  EXPECT_FALSE(ConfirmVisionBug(dir, library).ok());
}

// apps/bench/tube: after a video's "Open in browser" -> Chrome -> back, Play does nothing
// (tube-play-dead-after-browser). That step leaves the screen as it was; it must reach the
// Monitor and the Detector as what it is, or the bug can never be judged.
// --properties in vision (issue 63): where the precondition holds, the property's interaction is
// taken instead of asking the Explorer, and a violation is bugs/P1 with the run as its trace,
// checked again on a fresh app, beside the Detector's reports.
TEST(VisionTest, APropertysInteractionRunsInsteadOfTheExplorerAndItsViolationIsFiled) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\"", "\"Cleaning\"", "\"Diary\""}};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_properties");
  o.budget.events = 6;
  const auto file = roam::testing::TempDir("vision_properties_file") / "p.json";
  // A wrong expectation, so that it is violated: attaching a picture stays in the diary app.
  ASSERT_TRUE(WriteFileAtomic(file, R"({"properties": [{"name": "attach leaves",
      "precondition": {"present": [{"text": "Attach picture"}]},
      "probability": 1,
      "interaction": [{"action": "click", "widget": {"text": "Attach picture"}}],
      "postcondition": [{"activity": "NoSuchActivity"}]}]})")
                  .ok());
  o.oracle_files["properties"] = file;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const auto& s = result->summary;
  EXPECT_EQ(s.events, 6);
  // Each time the main screen showed, the property's click was the step (the Explorer is asked
  // in between: a property is not started again at once); the Explorer chose the others.
  auto trace = report::ReadTrace(o.out / "trace.jsonl");
  ASSERT_TRUE(trace.ok());
  int clicks = 0;
  for (const auto& step : *trace) clicks += step.widget_text == "Attach picture";
  EXPECT_GE(clicks, 1);
  EXPECT_EQ(result->stats.explorer_requests + clicks, 6);
  ASSERT_TRUE(s.functional.has_value());
  const auto p1 = std::find_if(s.functional->begin(), s.functional->end(),
                               [](const auto& f) { return f.id == "P1"; });
  ASSERT_NE(p1, s.functional->end());
  auto bug = ReadJsonFile(o.out / "bugs/P1/bug.json");
  ASSERT_TRUE(bug.ok());
  EXPECT_EQ((*bug)["kind"], "property");
  EXPECT_EQ((*bug)["reproduced"], true);
  EXPECT_EQ(s.sections["properties"]["properties"][0]["violated"], clicks);
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["properties"], file.string());
}

TEST(VisionTest, AStepThatChangesNothingReachesTheDetectorAsSuch) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"What if the Moon disappeared?", "\"More options\"",
                               "\"Open in browser\"", "\"Chrome\"", "BACK", "\"Play\""},
                      .done_after = "(nothing changed on screen)",
                      .kind = "function_stops"};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_unchanged");
  o.target.app = roam::testing::SourceDir() / "apps/bench/tube.json";
  o.budget.events = 6;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->stats.explorer_fallbacks, 0);
  EXPECT_EQ(result->stats.unchanged_steps, 1);
  ASSERT_EQ(model.detector_calls, 1);
  const std::string& judged = model.detector_prompts[0];
  const size_t play = judged.find("Play");
  ASSERT_NE(play, std::string::npos) << judged;
  EXPECT_NE(judged.find("(nothing changed on screen)", play), std::string::npos) << judged;
  ASSERT_EQ(result->summary.functional->size(), 1u);
  EXPECT_TRUE((*result->summary.functional)[0].scored);
  EXPECT_EQ((*result->summary.functional)[0].bug_id, "tube-play-dead-after-browser");
}

TEST(VisionTest, WithTheBugOffTheSameWalkIsScoredAsNoPlantedBug) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\"", "\"Diary\"",
                               "\"Photo of Cinema\"", "\"OK\""}};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_bug_off");
  o.target.bugs_off = {"diary-wrong-photo-deleted"};
  o.budget.events = 6;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->summary.functional->size(), 1u);  // the model still says so
  EXPECT_TRUE((*result->summary.functional)[0].scored);
  EXPECT_EQ((*result->summary.functional)[0].bug_id, "");  // a false alarm
}

TEST(VisionTest, TheMonitorsDoneCallsTheDetectorAndAMonitorThatNeverSaysSoIsCappedBySteps) {
  {
    ChatServerDouble server;
    ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\""},
                        .done_after = "\"Attach picture\"",
                        .detector_reports = false};
    server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
    VisionOptions o = DiaryOptions(server.url(), "vision_monitor_done");
    o.budget.events = 3;
    auto result = Vision(o);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    // Done after step 2: the Detector judges steps 1-2; step 3 opens a new function, judged at
    // the end of the run.
    ASSERT_EQ(model.detector_calls, 2);
    EXPECT_NE(model.detector_prompts[0].find("2. "), std::string::npos);
    EXPECT_EQ(model.detector_prompts[0].find("3. "), std::string::npos);
    EXPECT_EQ(result->stats.functions, 2);
    EXPECT_TRUE(result->summary.functional->empty());
  }
  {
    ChatServerDouble server;
    ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\"", "\"Diary\"",
                                 "\"Photo of Cinema\"", "\"OK\""},
                        .monitor_never_done = true,
                        .detector_reports = false};
    server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
    VisionOptions o = DiaryOptions(server.url(), "vision_monitor_capped");
    o.budget.events = 6;
    o.max_function_steps = 3;
    auto result = Vision(o);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    // Six steps that each change the screen: the Detector judges steps 1-3 and 4-6.
    EXPECT_EQ(result->stats.unchanged_steps, 0);
    EXPECT_EQ(result->stats.functions, 2);
    ASSERT_EQ(model.detector_calls, 2);
    EXPECT_NE(model.detector_prompts[1].find("Photo of Cinema"), std::string::npos);
    EXPECT_EQ(model.detector_prompts[1].find("Attach picture"), std::string::npos);
  }
}

TEST(VisionTest, TheExplorerSeesTheStepsTheMonitorKeeps) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\"", "\"Diary\""},
                      .monitor_never_done = true,
                      .detector_reports = false,
                      .keep_first_only = true};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_keep");
  o.budget.events = 4;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(model.explorer_prompts.size(), 4u);
  // Before step 4 the function had three steps; the Monitor kept the first only.
  const std::string& last = model.explorer_prompts[3];
  const std::string history = last.substr(last.find("steps so far:"));
  EXPECT_NE(history.find("Cinema"), std::string::npos) << history;
  EXPECT_EQ(history.find("Attach picture"), std::string::npos) << history;
  EXPECT_EQ(history.find("Cleaning"), std::string::npos) << history;
}

TEST(VisionTest, NonsenseAnswersAreAskedOnceMoreThenReplacedAndCounted) {
  ChatServerDouble server;
  server.Respond([](const ChatServerDouble::Received& r) -> ChatServerDouble::Reply {
    const std::string prompt = LastText(r.body);
    if (prompt.find("widget") != std::string::npos && prompt.rfind("That answer", 0) != 0 &&
        prompt.rfind("You are testing", 0) == 0)
      return {200, ChatServerDouble::Completion("I would click the big button.")};
    if (prompt.rfind("That answer", 0) == 0)  // the retry: still no JSON, and a wrong widget
      return {200, ChatServerDouble::Completion(R"({"action": "click", "widget": 999})")};
    return {200, ChatServerDouble::Completion("{\"done\": \"maybe\"}")};
  });
  VisionOptions o = DiaryOptions(server.url(), "vision_nonsense");
  o.budget.events = 5;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->summary.events, 5);  // the run went on
  EXPECT_EQ(result->stats.explorer_fallbacks, 5);
  EXPECT_EQ(result->stats.explorer_retries, 5);
  EXPECT_EQ(result->stats.explorer_requests, 10);
  EXPECT_EQ(result->stats.monitor_fallbacks, 5);   // every step goes to the Monitor
  EXPECT_EQ(result->stats.detector_fallbacks, 1);  // the function open at the end
  auto summary = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ((*summary)["vision"]["fallbacks"]["explorer"], 5);
  // Mostly replaced, and the page says so.
  EXPECT_TRUE(result->stats.MostlyReplaced());
  EXPECT_EQ((*summary)["vision"]["answers_replaced"], result->stats.replaced());
  auto page = report::RunReportHtml(o.out);
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_NE(page->find("11 of 11 of the model's answers were replaced"), std::string::npos);
}

TEST(VisionTest, AnUnreachableEndpointStopsTheRunBeforeItStarts) {
  std::string url;
  {
    ChatServerDouble closed;  // a port that was just free
    url = closed.url();
  }
  VisionOptions o = DiaryOptions(url, "vision_unreachable");
  std::filesystem::remove_all(o.out);
  auto result = Vision(o);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(url), std::string::npos) << result.status().message();
  EXPECT_NE(result.status().message().find("cannot be reached"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(o.out / "config.json"));
}

// Issue 46, item 1: a wrong key used to replace every answer with a random click and exit 0.
TEST(VisionTest, AnEndpointThatRefusesEveryRequestStopsTheRunAsAModelError) {
  for (int status : {401, 403, 404}) {
    ChatServerDouble server;
    int requests = 0;
    server.Respond([&](const ChatServerDouble::Received&) -> ChatServerDouble::Reply {
      ++requests;
      return {status, R"({"error": {"message": "Incorrect API key provided: sk-wrong"}})"};
    });
    VisionOptions o = DiaryOptions(server.url(), "vision_refused");
    o.budget.events = 200;
    auto result = Vision(o);
    ASSERT_FALSE(result.ok()) << status;
    EXPECT_TRUE(result.status().IsUnavailable()) << result.status().ToString();
    EXPECT_NE(result.status().message().find(fmt::format("HTTP {}", status)), std::string::npos)
        << result.status().message();
    EXPECT_NE(result.status().message().find("Incorrect API key"), std::string::npos);
    EXPECT_LE(requests, 10);
    auto summary = ReadJsonFile(o.out / "summary.json");
    ASSERT_TRUE(summary.ok());
    EXPECT_TRUE((*summary)["stop_reason"].get<std::string>().starts_with("model error: "))
        << (*summary)["stop_reason"];
    EXPECT_LT((*summary)["events"].get<int>(), 5);
  }
}

// A model that answered before and then fails once (a 500 after the retries) is replaced and
// the run goes on.
TEST(VisionTest, AModelThatFailsNowAndThenIsReplacedAndTheRunGoesOn) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\""}};
  int requests = 0;
  server.Respond([&](const ChatServerDouble::Received& r) -> ChatServerDouble::Reply {
    if (++requests == 3) return {400, R"({"error": {"message": "this prompt is too long"}})"};
    return model(r);
  });
  VisionOptions o = DiaryOptions(server.url(), "vision_now_and_then");
  o.budget.events = 6;
  auto result = Vision(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->summary.events, 6);
}

TEST(VisionTest, TheBenchRunsVisionAndCountsItsTruePositiveInTheFuncColumn) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\"", "\"Attach picture\"", "\"Cleaning\"", "\"Diary\"",
                               "\"Photo of Cinema\"", "\"OK\""}};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  BenchOptions b;
  b.apps = {roam::testing::SourceDir() / "apps/diary.json"};
  b.strategies = {kVisionStrategy};
  b.budget.events = 6;
  b.seeds = 1;
  b.jobs = 1;  // the scripted model walks one run at a time
  b.out = roam::testing::TempDir("vision_bench");
  b.llm.url = server.url();
  b.llm.model = "scripted";
  auto runs = RunBench(b, nullptr);
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].functional_tp, 1u);
  EXPECT_EQ((*runs)[0].functional_fp, 0u);
  // Without a model the bench refuses before any run starts.
  b.llm.url.clear();
  auto refused = RunBench(b, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--llm-url"), std::string::npos);
}

TEST(VisionTest, ExamplesAreRetrievedByWordVectorsWhereTrigramsSeeNoLikeness) {
  // Three words in 3-d: "settings" and "preferences" point the same way, "photo" elsewhere.
  auto vectors = explore::WordVectors::Parse(
      "3 3\nsettings 1 0.1 0\npreferences 0.9 0.2 0\nphoto 0 0 1\n", "test vectors");
  ASSERT_TRUE(vectors.ok()) << vectors.status().message();
  EXPECT_GT(NameVectorSimilarity(*vectors, "org.app.SettingsActivity", "PreferencesActivity"), 0.9);
  EXPECT_LT(NameVectorSimilarity(*vectors, "SettingsActivity", "PhotoActivity"), 0.2);
  EXPECT_EQ(NameVectorSimilarity(*vectors, "SettingsActivity", "Activity"), 0);  // no words
  EXPECT_EQ(vision::NameSimilarity("SettingsActivity", "PreferencesActivity"), 0);

  std::vector<vision::BugExample> library(2);
  library[0] = {.id = "A", .app = "x", .activity = "PreferencesActivity"};
  library[1] = {.id = "B", .app = "y", .activity = "PhotoActivity"};
  auto by_vectors = vision::Retrieve(
      library, "SettingsActivity", 1, "",
      [&](std::string_view a, std::string_view b) { return NameVectorSimilarity(*vectors, a, b); });
  ASSERT_EQ(by_vectors.size(), 1u);
  EXPECT_EQ(by_vectors[0]->id, "A");
}

TEST(VisionTest, RetrievalByVectorsReadsTheVectorsOrSaysWhyItCannot) {
  ChatServerDouble server;
  ScriptedModel model{.path = {"\"Cinema\""}, .monitor_never_done = true};
  server.Respond([&](const ChatServerDouble::Received& r) { return model(r); });
  VisionOptions o = DiaryOptions(server.url(), "vision_vectors");
  o.budget.events = 2;
  o.examples_by = "vectors";
  auto run = Vision(o);  // the build's vectors
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(model.detector_calls, 1);
  o.vectors = roam::testing::TempDir("vision_vectors_missing") / "none.vec";
  auto missing = Vision(o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("none.vec"), std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("--examples-by trigrams"), std::string::npos)
      << missing.status().message();
  o.examples_by = "bigrams";
  EXPECT_FALSE(Vision(o).ok());
}

TEST(VisionTest, ImageTokensFollowTheTileRule) {
  EXPECT_EQ(EstimatedImageTokens(512, 512), 85 + 170);
  // 1080 x 1920: short side to 768 -> 768 x 1365: 2 x 3 tiles.
  EXPECT_EQ(EstimatedImageTokens(1080, 1920), 85 + 170 * 6);
  // Six 360-wide frames side by side (2160 x 720): fits 2048 -> 2048 x 683, 4 x 2 tiles.
  EXPECT_EQ(EstimatedImageTokens(2160, 720), 85 + 170 * 8);
  EXPECT_EQ(EstimatedImageTokens(0, 10), 0);
}

}  // namespace
}  // namespace roam::run
