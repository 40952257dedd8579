// VisionDroid's cost per step without the model, as run/vision/vision.cc spends it: decode the
// screenshot once, mark the current screen (sent 768 px wide), keep the step's frame at the
// stitched width (the operated widget boxed), stitch a history of six such frames and write the
// widget list and the Explorer's prompt. The issue's target: under 20 ms on one core. The
// screenshot itself (the device's work) is not in it. Also: the pieces of that step, and what a
// whole run asks of a model (BM_VisionPromptTokens).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "device/sim_device.h"
#include "draw/draw.h"
#include "draw/marks.h"
#include "explore/word_vectors.h"
#include "llm/chat_server_double.h"
#include "run/explore/explore.h"
#include "run/vision/vision.h"
#include "run/vision/vision_internal.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "vision/agents.h"
#include "vision/examples.h"

namespace {

using namespace roam;

void BM_VisionStepOverhead(benchmark::State& state) {
  auto spec = sim::LoadSpec(std::string(ROAM_SOURCE_DIR) + "/apps/diary.json");
  if (!spec.ok()) {
    state.SkipWithError(spec.status().message().c_str());
    return;
  }
  sim::SimApp app(*spec, {});
  app.Launch();
  auto screenshot = device::DrawSimApp(app);  // what the device gives: not part of the step
  if (!screenshot.ok()) {
    state.SkipWithError(screenshot.status().message().c_str());
    return;
  }
  const auto first = draw::MarksFor(app.screen());
  auto thumb = draw::Picture::Decode(*screenshot)->MarkedPicture({first.front()}, 360);
  std::vector<draw::Frame> history(6, {"", "tap 3: choose an activity to record", *thumb});
  size_t bytes = 0;
  for (auto _ : state) {
    auto marks = draw::MarksFor(app.screen());
    auto picture = draw::Picture::Decode(*screenshot);
    auto marked = picture->Marked(marks, 768);
    auto frame = picture->MarkedPicture({marks.front()}, 360);
    auto frame_png = frame->Png();
    auto stitched = draw::StitchPng(history, 360);
    vision::ExplorerInput in{.app = "diary",
                             .activity = app.screen().activity,
                             .widget_list = draw::MarkList(app.screen(), marks),
                             .legend = draw::Legend(),
                             .history = {"tap 3: choose an activity", "tap 9: open the diary"}};
    std::string prompt = vision::ExplorerPrompt(in);
    bytes = (marked.ok() ? marked->size() : 0) + (frame_png.ok() ? frame_png->size() : 0) +
            (stitched.ok() ? stitched->size() : 0) + prompt.size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_VisionStepOverhead)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

using namespace roam;

std::string DiaryScreenshot() {
  auto spec = sim::LoadSpec(std::string(ROAM_SOURCE_DIR) + "/apps/diary.json");
  sim::SimApp app(*spec, {});
  app.Launch();
  return *device::DrawSimApp(app);
}

void BM_MarkScreen(benchmark::State& state) {
  const std::string png = DiaryScreenshot();
  std::vector<draw::Mark> marks = {{0, 1, draw::Interaction::kClick, {100, 300, 900, 420}}};
  for (auto _ : state) benchmark::DoNotOptimize(draw::MarkPng(png, marks));
}
BENCHMARK(BM_MarkScreen)->Unit(benchmark::kMillisecond);

void BM_MarkScreenThumbnail(benchmark::State& state) {
  const std::string png = DiaryScreenshot();
  std::vector<draw::Mark> marks = {{0, 1, draw::Interaction::kClick, {100, 300, 900, 420}}};
  for (auto _ : state) benchmark::DoNotOptimize(draw::MarkPng(png, marks, 360));
}
BENCHMARK(BM_MarkScreenThumbnail)->Unit(benchmark::kMillisecond);

void BM_StitchFourScreens(benchmark::State& state) {
  std::vector<draw::Frame> history(4, {DiaryScreenshot(), "tap 3: choose an activity"});
  for (auto _ : state) benchmark::DoNotOptimize(draw::StitchPng(history, 360));
}
BENCHMARK(BM_StitchFourScreens)->Unit(benchmark::kMillisecond);

void BM_DecodeScreen(benchmark::State& state) {
  const std::string png = DiaryScreenshot();
  for (auto _ : state) benchmark::DoNotOptimize(draw::DecodePng(png));
}
BENCHMARK(BM_DecodeScreen)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

void BM_PictureDecode(benchmark::State& state) {
  const std::string png = DiaryScreenshot();
  for (auto _ : state) benchmark::DoNotOptimize(roam::draw::Picture::Decode(png));
}
BENCHMARK(BM_PictureDecode)->Unit(benchmark::kMillisecond);

void BM_PictureMarked(benchmark::State& state) {
  auto picture = roam::draw::Picture::Decode(DiaryScreenshot());
  std::vector<roam::draw::Mark> marks = {
      {0, 1, roam::draw::Interaction::kClick, {100, 300, 900, 420}}};
  for (auto _ : state) benchmark::DoNotOptimize(picture->Marked(marks, state.range(0)));
}
BENCHMARK(BM_PictureMarked)->Arg(0)->Arg(360)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

void BM_StitchSixFrames(benchmark::State& state) {
  auto picture = roam::draw::Picture::Decode(DiaryScreenshot());
  std::vector<roam::draw::Mark> marks = {
      {0, 1, roam::draw::Interaction::kClick, {100, 300, 900, 420}}};
  std::vector<roam::draw::Frame> history(
      6, {*picture->Marked(marks, 360), "tap 3: choose an activity"});
  for (auto _ : state) benchmark::DoNotOptimize(roam::draw::StitchPng(history, 360));
}
BENCHMARK(BM_StitchSixFrames)->Unit(benchmark::kMillisecond);

void BM_MarkScreen768(benchmark::State& state) {
  auto picture = roam::draw::Picture::Decode(DiaryScreenshot());
  std::vector<roam::draw::Mark> marks = {
      {0, 1, roam::draw::Interaction::kClick, {100, 300, 900, 420}}};
  for (auto _ : state) benchmark::DoNotOptimize(picture->Marked(marks, 768));
}
BENCHMARK(BM_MarkScreen768)->Unit(benchmark::kMillisecond);

}  // namespace

// What a VisionDroid run asks of a model, per step and per function, on apps/diary.json with a
// stand-in for the model (tests/llm/chat_server_double.h: it answers a valid action on a
// widget in turn, the Monitor ends a function every four steps, the Detector finds nothing). The
// figures are the prompts' sizes, not the model's: image tokens by OpenAI's tile rule, as sent
// (one stitched history and the current screen) and as they would be with every history screen
// sent as a picture of its own; text tokens as characters / 4.

namespace {

void BM_VisionPromptTokens(benchmark::State& state) {
  roam::testing::ChatServerDouble server;
  std::atomic<int64_t> text_chars{0}, turn{0};
  server.Respond([&](const roam::testing::ChatServerDouble::Received& r) {
    auto body = nlohmann::json::parse(r.body);
    const auto& content = body["messages"].back()["content"];
    const std::string prompt =
        content.is_string() ? content.get<std::string>() : content[0]["text"].get<std::string>();
    text_chars += static_cast<int64_t>(prompt.size());
    nlohmann::json answer;
    if (prompt.rfind("You are testing", 0) == 0) {
      static const std::regex kLine(R"(\n  (\d+)\. ")");
      int widgets = 0;
      for (std::sregex_iterator it(prompt.begin(), prompt.end(), kLine), end; it != end; ++it)
        widgets = std::max(widgets, std::stoi((*it)[1].str()));
      // Each widget in turn; back every fifth step, as a tester leaves a screen it has tried.
      const int64_t t = turn++;
      answer = {{"action", t % 5 == 4 ? "back" : "click"},
                {"widget", 1 + static_cast<int>(t % std::max(1, widgets))},
                {"function", "try the next widget"}};
    } else if (prompt.rfind("You watch", 0) == 0) {
      const bool four = prompt.find("\n  4. ") != std::string::npos;
      answer = {{"function", "browse"}, {"description", "look around"}, {"done", four}};
    } else {
      answer = {
          {"expected", "-"}, {"actual", "-"}, {"bug", false}, {"report", ""}, {"feedback", ""}};
    }
    return roam::testing::ChatServerDouble::Reply{
        200, roam::testing::ChatServerDouble::Completion(answer.dump())};
  });
  roam::run::VisionResult result;
  for (auto _ : state) {
    roam::run::VisionOptions o;
    o.target.app = std::string(ROAM_SOURCE_DIR) + "/apps/diary.json";
    o.out = std::filesystem::temp_directory_path() / "roam_bench_vision_tokens";
    o.force = true;
    o.seed = 1;
    o.budget.events = state.range(0);
    o.llm.url = server.url();
    o.llm.model = "stand-in";
    o.html_report = false;
    auto r = roam::run::Vision(o);
    if (!r.ok()) {
      state.SkipWithError(r.status().message().c_str());
      return;
    }
    result = *r;
  }
  const auto& s = result.stats;
  const double steps = static_cast<double>(result.summary.events);
  state.counters["image_tokens_per_step"] = s.image_tokens_stitched / steps;
  state.counters["image_tokens_per_step_unstitched"] = s.image_tokens_separate / steps;
  state.counters["monitor_image_tokens_per_step"] = s.image_tokens_monitor / steps;
  state.counters["text_tokens_per_request"] =
      text_chars.load() / 4.0 /
      static_cast<double>(s.explorer_requests + s.monitor_requests + s.detector_requests);
  state.counters["requests_per_function"] =
      static_cast<double>(s.explorer_requests + s.monitor_requests + s.detector_requests) /
      static_cast<double>(std::max<int64_t>(1, s.functions));
  state.counters["tool_ms_per_step"] = 1000 * s.tool_seconds / steps;
}
BENCHMARK(BM_VisionPromptTokens)->Arg(100)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

// How alike the examples retrieved for a screen are to it, by each way of comparing activity
// names (the paper's word vectors, or character trigrams): for every example of the shipped
// library, the k = 4 retrieved for its activity from the other apps' examples, and the share of
// them of its kind and the share whose function shares a word of four letters or more with its
// own. No model judges here; these are what the Detector is shown, not what it finds.
namespace {

std::set<std::string> FunctionWords(const std::string& function) {
  std::set<std::string> out;
  std::string word;
  for (char c : function + " ") {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      if (word.size() >= 4) out.insert(word);
      word.clear();
    }
  }
  return out;
}

void BM_VisionRetrieval(benchmark::State& state) {
  auto examples = roam::vision::ShippedExamples();
  if (!examples.ok()) {
    state.SkipWithError(examples.status().message().c_str());
    return;
  }
  roam::vision::NameSimilarityFn similar = roam::vision::NameSimilarity;
  std::optional<roam::explore::WordVectors> vectors;
  if (state.range(0) == 1) {
    auto loaded = roam::explore::WordVectors::Load(roam::run::DefaultWordVectors());
    if (!loaded.ok()) {
      state.SkipWithError(loaded.status().message().c_str());
      return;
    }
    vectors = std::move(*loaded);
    similar = [&](std::string_view a, std::string_view b) {
      return roam::run::NameVectorSimilarity(*vectors, a, b);
    };
  }
  double same_kind = 0, shared_word = 0, shown = 0;
  for (auto _ : state) {
    same_kind = shared_word = shown = 0;
    for (const auto& e : *examples) {
      const auto words = FunctionWords(e.function);
      for (const auto* r : roam::vision::Retrieve(*examples, e.activity, 4, e.app, similar)) {
        ++shown;
        same_kind += r->kind == e.kind;
        const auto theirs = FunctionWords(r->function);
        shared_word += std::any_of(theirs.begin(), theirs.end(),
                                   [&](const std::string& w) { return words.count(w) > 0; });
      }
    }
  }
  state.counters["examples"] = static_cast<double>(examples->size());
  state.counters["same_kind"] = same_kind / shown;
  state.counters["shared_function_word"] = shared_word / shown;
}
// 0: trigrams, 1: word vectors.
BENCHMARK(BM_VisionRetrieval)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
