// VisionCampaign's questions to its agents (run/vision/vision_campaign.h): the Explorer picks
// the next action from the screen and the function's history, the Monitor follows the function
// under test, the Detector judges it when its test is over.
#include <algorithm>

#include <fmt/format.h>

#include "draw/draw.h"
#include "run/vision/vision_campaign.h"

namespace roam::run {

namespace {

int64_t ImageTokens(const std::string& png) {
  auto size = draw::ReadPngSize(png);
  return size ? EstimatedImageTokens(size->width, size->height) : 0;
}

}  // namespace

template <typename T, typename Parse>
std::optional<T> VisionCampaign::Ask(const std::string& prompt, std::vector<std::string> images,
                                     Parse parse, int64_t& requests, int64_t& retries) {
  std::vector<llm::Message> messages = {{"user", prompt, std::move(images)}};
  for (int attempt = 0; attempt < 2; ++attempt) {
    ++requests;
    const double t0 = budget_.Elapsed();
    auto answer = client_.Complete(messages);
    stats_.model_seconds += budget_.Elapsed() - t0;
    if (!answer.ok()) {
      // The run is over when the model cannot be used at all: a replay that parts from its
      // log, an endpoint that refuses every request (a wrong key, URL or model), or one whose
      // first answers fail at the server or on the way (an Io error: an HTTP status, a fault).
      // A model that fails now and then, or answers what is not a chat completion, is replaced.
      const Status& failed = answer.status();
      if (!options_.llm_replay.empty() || failed.IsUnavailable() ||
          (!answered_ && failed.code() == Status::Code::kIo))
        model_error_ = failed;
      progress_.Note("roam vision: the model did not answer: " + answer.status().message());
      return std::nullopt;
    }
    answered_ = true;
    stats_.prompt_tokens += answer->usage.prompt_tokens;
    stats_.completion_tokens += answer->usage.completion_tokens;
    Result<T> parsed = parse(answer->content);
    if (parsed.ok()) return std::move(*parsed);
    if (attempt == 1) break;
    ++retries;
    messages.push_back({"assistant", answer->content, {}});
    messages.push_back({"user",
                        fmt::format("That answer cannot be used: {}. Answer again with one JSON "
                                    "object in the schema given, and nothing else.",
                                    parsed.status().message()),
                        {}});
  }
  return std::nullopt;
}

std::string VisionCampaign::Stitch(const std::vector<VisionStep>& steps) {
  std::vector<draw::Frame> frames;
  for (const auto& step : steps) frames.push_back({step.frame, step.text, step.thumb});
  if (frames.empty()) return "";
  auto png = draw::StitchPng(frames, options_.frame_width);
  return png.ok() ? *png : "";
}

Result<vision::ExplorerAction> VisionCampaign::AskExplorer(const draw::Picture& picture,
                                                           const std::vector<draw::Mark>& marks,
                                                           double tool_start) {
  auto marked = picture.Marked(marks, options_.screen_width);
  if (!marked.ok()) return marked.status();
  vision::ExplorerInput in{.app = target_.app_name(),
                           .activity = screen_.activity,
                           .widget_list = draw::MarkList(screen_, marks),
                           .legend = draw::Legend(),
                           .feedback = feedback_};
  const std::vector<VisionStep> history = ExplorerHistory(function_steps_);
  for (const auto& h : history) in.history.push_back(h.text);
  std::vector<std::string> images;
  if (std::string stitched = Stitch(history); !stitched.empty())
    images.push_back(std::move(stitched));
  images.push_back(*marked);
  stats_.tool_seconds += budget_.Elapsed() - tool_start;
  for (const auto& png : images) stats_.image_tokens_stitched += ImageTokens(png);
  stats_.image_tokens_separate += ImageTokens(*marked);
  // Sent one by one, each history screen would go at the device's size.
  stats_.image_tokens_separate +=
      static_cast<int64_t>(history.size()) * EstimatedImageTokens(screen_.width, screen_.height);
  const int count = static_cast<int>(marks.size());
  std::optional<vision::ExplorerAction> choice = Ask<vision::ExplorerAction>(
      vision::ExplorerPrompt(in), std::move(images),
      [&](std::string_view a) { return vision::ParseExplorerAnswer(a, count); },
      stats_.explorer_requests, stats_.explorer_retries);
  ROAM_RETURN_IF_ERROR(model_error_);
  if (choice) return std::move(*choice);
  ++stats_.explorer_fallbacks;
  return vision::ExplorerAction{
      .op = vision::Op::kClick,
      .widget = static_cast<int>(rng_.Below(marks.size())) + 1,
      .function = "(a random action: the model's answer could not be used)"};
}

std::vector<VisionStep> VisionCampaign::ExplorerHistory(
    const std::vector<VisionStep>& function) const {
  std::vector<VisionStep> out = history_;
  for (size_t i = 0; i < function.size(); ++i)
    if (keep_.empty() ||
        std::find(keep_.begin(), keep_.end(), static_cast<int>(i) + 1) != keep_.end())
      out.push_back(function[i]);
  if (out.size() > static_cast<size_t>(options_.history_steps))
    out.erase(out.begin(), out.end() - options_.history_steps);
  return out;
}

Status VisionCampaign::AfterStep(const gui::Screen& now) {
  std::vector<std::string> lines;
  for (const auto& s : function_steps_) lines.push_back(s.text);
  vision::MonitorInput in{.app = target_.app_name(),
                          .activity = now.activity,
                          .legend = draw::Legend(),
                          .history = lines,
                          .function = function_};
  // The steps, then the screen now with every widget boxed, as the Explorer will see it next.
  std::vector<std::string> images = {Stitch(function_steps_)};
  const double tool_start = budget_.Elapsed();
  auto picture = PictureOf(now);
  if (!picture.ok()) return picture.status();
  if (const auto marks = draw::MarksFor(now); !marks.empty()) {
    auto marked = picture->Marked(marks, options_.screen_width);
    if (!marked.ok()) return marked.status();
    images.push_back(std::move(*marked));
  }
  stats_.tool_seconds += budget_.Elapsed() - tool_start;
  for (const auto& png : images) stats_.image_tokens_monitor += ImageTokens(png);
  const int steps = static_cast<int>(lines.size());
  auto verdict = Ask<vision::MonitorVerdict>(
      vision::MonitorPrompt(in), std::move(images),
      [&](std::string_view a) { return vision::ParseMonitorAnswer(a, steps); },
      stats_.monitor_requests, stats_.monitor_retries);
  ROAM_RETURN_IF_ERROR(model_error_);
  bool done = false;
  if (verdict) {
    function_ = verdict->function;
    description_ = verdict->description;
    done = verdict->done;
    keep_ = verdict->keep;  // the Explorer's history keeps these of the function's steps
  } else {
    ++stats_.monitor_fallbacks;
  }
  if (done || function_steps_.size() >= static_cast<size_t>(options_.max_function_steps))
    return Judge(&*picture);
  return Status::Ok();
}

Status VisionCampaign::Judge(const draw::Picture* now) {
  ++stats_.functions;
  vision::DetectorInput in{.app = target_.app_name(),
                           .function = function_.empty() ? "(not named)" : function_,
                           .description = description_};
  for (const auto& s : function_steps_) in.steps.push_back(s.text);
  in.examples = vision::Retrieve(examples_, function_steps_.back().activity,
                                 static_cast<size_t>(options_.examples_k), package_, similar_);
  const std::string prompt = vision::DetectorPrompt(in);
  // The function's steps and, last, the screen they led to: the evidence.
  auto after = now ? AfterFrame(*now, options_.frame_width)
                   : AfterFrame(executor_.device(), options_.frame_width);
  if (!after.ok()) return after.status();
  std::vector<VisionStep> shown = function_steps_;
  shown.push_back(std::move(*after));
  const std::string stitched = Stitch(shown);
  auto verdict = Ask<vision::DetectorVerdict>(prompt, {stitched}, vision::ParseDetectorAnswer,
                                              stats_.detector_requests, stats_.detector_retries);
  ROAM_RETURN_IF_ERROR(model_error_);
  std::vector<VisionStep> judged = std::move(function_steps_);
  function_steps_.clear();
  history_ = ExplorerHistory(judged);
  keep_.clear();
  const std::string function = function_.empty() ? "(not named)" : function_;
  function_.clear();
  description_.clear();
  if (!verdict) {
    ++stats_.detector_fallbacks;
    return Status::Ok();
  }
  feedback_ = verdict->feedback;
  if (!verdict->bug) return Status::Ok();
  const std::string key = verdict->kind + ": " + verdict->report;
  for (auto& seen : findings_)
    if (seen.key == key) {  // the same report again: counted, not filed twice
      ++seen.count;
      return Status::Ok();
    }
  VisionReport r;
  r.id = fmt::format("V{}", findings_.size() + 1);
  r.function = function;
  r.description = in.description;
  r.verdict = *verdict;
  r.steps = judged;
  r.trace.assign(episode_.begin(), episode_.begin() + judged.back().episode_end);
  r.detector_prompt = prompt;
  r.stitched = stitched;
  r.after = shown.back().frame;
  r.replay = target_.replay();
  r.app = package_;
  r.frame_width = options_.frame_width;
  report::FunctionalFinding f;
  f.id = r.id;
  f.key = key;
  f.activity = judged.back().activity;
  f.explanation = verdict->report;
  f.count = 1;
  f.bug_dir = "bugs/" + f.id;
  if (options_.score && target_.fresh_device()) {
    f.bug_id = ScoreVisionReport(target_, r, options_.signature_frames);
    f.scored = true;
  }
  r.bug_id = f.bug_id;
  r.scored = f.scored;
  ROAM_RETURN_IF_ERROR(session_.Wrote(WriteVisionBug(options_.out / f.bug_dir, r)));
  progress_.Note(fmt::format(
      "roam vision: {} {}: {}{}", f.id, verdict->kind, verdict->report,
      f.scored ? fmt::format(" [planted: {}]", f.bug_id.empty() ? "none" : f.bug_id) : ""));
  findings_.push_back(std::move(f));
  return Status::Ok();
}

}  // namespace roam::run
