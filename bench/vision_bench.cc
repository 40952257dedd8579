// VisionDroid's cost per step without the model, as run/vision.cc spends it: decode the
// screenshot once, mark the current screen (sent 768 px wide), keep the step's frame at the
// stitched width (the operated widget boxed), stitch a history of six such frames and write the
// widget list and the Explorer's prompt. The target: under 20 ms on one core. The
// screenshot itself (the device's work) is not in it.
#include <benchmark/benchmark.h>

#include "device/sim_device.h"
#include "draw/draw.h"
#include "draw/marks.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "vision/agents.h"

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
