#include "run/vision/vision.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "base/json_fields.h"
#include "base/rng.h"
#include "draw/draw.h"
#include "draw/marks.h"
#include "gui/actions.h"
#include "report/run_report.h"
#include "run/crash_bug.h"
#include "run/executor.h"
#include "run/explore/explore.h"
#include "run/oracle_bug.h"
#include "run/oracles.h"
#include "run/session.h"
#include "run/target.h"
#include "run/vision/vision_internal.h"
#include "vision/agents.h"
#include "vision/examples.h"

namespace roam::run {

using nlohmann::json;

int64_t EstimatedImageTokens(int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  double w = width, h = height;
  if (double s = 2048.0 / std::max(w, h); s < 1) w *= s, h *= s;
  if (double s = 768.0 / std::min(w, h); s < 1) w *= s, h *= s;
  const int64_t tiles = static_cast<int64_t>(std::ceil(w / 512) * std::ceil(h / 512));
  return 85 + 170 * tiles;
}

namespace {

int64_t ImageTokens(const std::string& png) {
  auto size = draw::ReadPngSize(png);
  return size ? EstimatedImageTokens(size->width, size->height) : 0;
}

std::string_view OpName(vision::Op op) {
  switch (op) {
    case vision::Op::kClick:
      return "tap";
    case vision::Op::kLongClick:
      return "long-press";
    case vision::Op::kCheck:
      return "check";
    case vision::Op::kScroll:
      return "scroll";
    case vision::Op::kType:
      return "type into";
    case vision::Op::kBack:
      return "press back";
  }
  return "tap";
}

class VisionCampaign {
 public:
  VisionCampaign(const VisionOptions& options, Target& target, llm::Client& client,
                 std::vector<vision::BugExample> examples, vision::NameSimilarityFn similar,
                 const std::vector<oracle::OracleMaker>& oracles, const RunContext& context)
      : options_(options),
        target_(target),
        client_(client),
        examples_(std::move(examples)),
        similar_(std::move(similar)),
        session_(target.device(),
                 SessionOptions::For(options, target.clock(), options.signature_frames,
                                     options.progress),
                 context),
        budget_(session_.budget()),
        executor_(session_.executor()),
        progress_(session_.progress()),
        package_(session_.package()),
        rng_(options.seed),
        crash_filer_(options.out, CrashCheckSetup::For(target)),
        oracles_(oracles, executor_),
        oracle_filer_({.run_dir = options.out,
                       .replay = target.replay(),
                       .fresh_device = target.fresh_device(),
                       .functional_bugs = target.FunctionalBugsOn()}) {}

  // Runs to the budget, a stop request or a failure; the run folder holds what was found
  // whatever stopped it (a failure is returned after it is written).
  Result<VisionResult> Run();

 private:
  // What the Explorer's choice is on the device's terms: the action, the history's line for it
  // and the widget it operates (null: back).
  struct DeviceAction {
    gui::Action action;
    std::string text;
    const draw::Mark* mark = nullptr;
  };

  Status Start();
  // One step: the Explorer is shown the screen, its widgets numbered, and chooses; the action is
  // taken and recorded, and the Monitor sees where it led (AfterStep).
  Status StepOnce();
  // Asks the Explorer which of `marks` to operate (a random click when its answer cannot be
  // used). `tool_start`: when the step's own work began, for the tool's seconds.
  Result<vision::ExplorerAction> AskExplorer(const draw::Picture& picture,
                                             const std::vector<draw::Mark>& marks,
                                             double tool_start);
  // The device's action for `choice` (none: no widget to operate, back).
  DeviceAction ActionFor(const std::optional<vision::ExplorerAction>& choice,
                         const std::vector<draw::Mark>& marks) const;
  // The step as the history keeps it, before it is taken: its line and the screen, boxed.
  Result<VisionStep> StepBefore(const draw::Picture& picture, const DeviceAction& chosen) const;
  // Takes the action (and an ENTER after typing, when asked), records it in the trace and files
  // the crashes it met.
  Status Perform(const gui::Action& action, const std::optional<vision::ExplorerAction>& choice,
                 uint64_t key, VisionStep& step);
  // Observes where the step led, adds it to the function under test and hands it on.
  Status ObserveAfter(VisionStep step);
  Status Record(report::TraceStep step, const ActOutcome* outcome);
  // Asks `agent` and parses its answer with `parse`; an answer that does not parse is asked
  // once more, with what was wrong. Null when the model failed twice or did not answer.
  template <typename T, typename Parse>
  std::optional<T> Ask(const std::string& prompt, std::vector<std::string> images, Parse parse,
                       int64_t& requests, int64_t& retries);
  // After each step: the Monitor names the function and says whether its test is over (then
  // the Detector judges it). `now` is the screen the step led to.
  Status AfterStep(const gui::Screen& now);
  // The screen as a picture: the last screenshot if no step came since and the screen shows the
  // same (the Monitor's is the next step's Explorer's), else a new one.
  Result<draw::Picture> PictureOf(const gui::Screen& screen);
  // Files bugs/B<n>/ for the crashes and ANRs met first, the run from its start as their trace.
  Status FileCrashes();
  // The user's oracles' look at the screen about to be acted on (oracle/oracle.h): a step of
  // their own in `own`, and bugs/P<n> for each new finding, the run from its start as its trace.
  Status SeeOracles(bool restarted, std::optional<gui::Action>& own);
  // Takes an oracle's step (a property's interaction) instead of asking the Explorer.
  Status TakeOwnStep(const gui::Action& action, uint64_t key);
  // The Detector on the function's steps; `now` is the screen they led to when a screenshot of
  // it is at hand (null: one is taken).
  Status Judge(const draw::Picture* now);
  ProgressFigures Figures() const;
  report::Summary MakeSummary() const;
  std::string Stitch(const std::vector<VisionStep>& steps);
  // What the Explorer is shown: the steps kept of earlier functions, then those the Monitor
  // keeps of `function` (all, until it says), the last history_steps of them.
  std::vector<VisionStep> ExplorerHistory(const std::vector<VisionStep>& function) const;

  const VisionOptions& options_;
  Target& target_;
  llm::Client& client_;
  std::vector<vision::BugExample> examples_;
  vision::NameSimilarityFn similar_;  // how examples are retrieved
  Session session_;
  Budget& budget_;              // session_'s
  StepExecutor& executor_;      // session_'s
  Progress& progress_;          // session_'s
  const std::string& package_;  // session_'s
  Rng rng_;                     // the Explorer's fallback actions
  VisionStats stats_;

  gui::Screen screen_;
  draw::Picture shot_;                      // PictureOf's last screenshot
  uint64_t shot_shown_ = 0;                 // and the ShownHash of the screen it showed
  std::vector<report::TraceStep> episode_;  // every step of the run, for bug traces
  std::vector<VisionStep> history_;         // kept steps of the functions judged so far
  std::vector<VisionStep> function_steps_;  // the steps of the function under test
  std::vector<int> keep_;                   // the Monitor's keep of them (empty: all)
  std::string function_, description_;
  std::string feedback_;  // the Detector's last feedback for the Explorer
  std::vector<std::string> activities_;
  std::set<uint64_t> states_;
  std::vector<report::FunctionalFinding> findings_;
  CrashFiler crash_filer_;
  // The user's oracles (VisionOptions::oracle_files) and their bug folders.
  CampaignOracles oracles_;
  std::vector<gui::Action> actions_;  // what the screen offers, for the oracles' steps
  OracleFiler oracle_filer_;
  // The model cannot be used any more (Ask): the run stops with it as a model error.
  Status model_error_;
  bool answered_ = false;  // the model has answered at least once
};

Result<VisionResult> VisionCampaign::Run() {
  ROAM_RETURN_IF_ERROR(session_.Open());
  Status s = Start();
  while (s.ok() && !session_.Over()) {
    s = StepOnce();
    progress_.Update(Figures());
  }
  // The function under test when the budget ran out is judged too.
  if (s.ok() && !function_steps_.empty() && !session_.context().Stopped()) s = Judge(nullptr);
  if (Status closed = session_.trace().Close(); s.ok()) s = closed;
  session_.StopOn(s, model_error_.ok() ? "" : "model error: ");
  VisionResult r{.summary = MakeSummary(), .stats = stats_};
  ROAM_RETURN_IF_ERROR(session_.Finish(Figures(), r.summary, options_.known));
  if (!s.ok()) return s;
  return r;
}

Status VisionCampaign::Record(report::TraceStep step, const ActOutcome* outcome) {
  step.step = static_cast<int64_t>(episode_.size()) + 1;
  if (outcome) outcome->WriteTo(step);
  episode_.push_back(step);
  return session_.Wrote(session_.trace().Append(step));
}

Status VisionCampaign::Start() {
  executor_.DiscardEvents();
  ROAM_RETURN_IF_ERROR(executor_.Clear());
  ROAM_RETURN_IF_ERROR(Record({.op = "clear"}, nullptr));
  ROAM_RETURN_IF_ERROR(executor_.Launch());
  return Record({.op = "launch"}, nullptr);
}

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

Status VisionCampaign::StepOnce() {
  // Left the app (or it crashed): back in, as the other campaigns do.
  bool relaunched = false;
  ROAM_RETURN_IF_ERROR(
      session_.EnsureInApp(screen_, relaunched, [&] { return Record({.op = "launch"}, nullptr); }));
  const uint64_t key = gui::ScreenKey(screen_);
  if (states_.insert(key).second) session_.KeepScreen(key, screen_);
  if (std::find(activities_.begin(), activities_.end(), screen_.activity) == activities_.end())
    activities_.push_back(screen_.activity);
  std::optional<gui::Action> own;
  ROAM_RETURN_IF_ERROR(SeeOracles(relaunched, own));
  if (own) return TakeOwnStep(*own, key);

  const double tool_start = budget_.Elapsed();
  auto picture = PictureOf(screen_);
  if (!picture.ok()) return picture.status();
  const std::vector<draw::Mark> marks = draw::MarksFor(screen_);
  std::optional<vision::ExplorerAction> choice;
  if (!marks.empty()) {
    auto asked = AskExplorer(*picture, marks, tool_start);
    if (!asked.ok()) return asked.status();
    choice = std::move(*asked);
  }
  const double tool_restart = budget_.Elapsed();
  const DeviceAction chosen = ActionFor(choice, marks);
  auto step = StepBefore(*picture, chosen);
  if (!step.ok()) return step.status();
  stats_.tool_seconds += budget_.Elapsed() - tool_restart;
  ROAM_RETURN_IF_ERROR(Perform(chosen.action, choice, key, *step));
  return ObserveAfter(std::move(*step));
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

VisionCampaign::DeviceAction VisionCampaign::ActionFor(
    const std::optional<vision::ExplorerAction>& choice,
    const std::vector<draw::Mark>& marks) const {
  // No widget at all: back.
  DeviceAction out{.action = gui::MakeGlobalAction(gui::ActionKind::kBack),
                   .text = "press back: (no widget to operate)"};
  if (choice && choice->op == vision::Op::kBack) {
    out.text = "press back: " + choice->function;
  } else if (choice) {
    out.mark = &marks[choice->widget - 1];
    gui::ActionKind kind = gui::ActionKind::kClick;
    if (choice->op == vision::Op::kLongClick) kind = gui::ActionKind::kLongClick;
    if (choice->op == vision::Op::kScroll)
      kind = choice->scroll_up ? gui::ActionKind::kScrollUp : gui::ActionKind::kScrollDown;
    if (choice->op == vision::Op::kType) kind = gui::ActionKind::kInputText;
    out.action = gui::MakeWidgetAction(kind, screen_, out.mark->widget);
    if (choice->op == vision::Op::kType) out.action.text = choice->text;
    const std::string label = draw::WidgetLabel(screen_, out.mark->widget);
    out.text = fmt::format("{} {}{}{}: {}", OpName(choice->op), choice->widget,
                           label.empty() ? "" : " " + json(Excerpt(label, 40)).dump(),
                           choice->op == vision::Op::kType ? " " + json(choice->text).dump() : "",
                           choice->function);
  }
  return out;
}

Result<VisionStep> VisionCampaign::StepBefore(const draw::Picture& picture,
                                              const DeviceAction& chosen) const {
  VisionStep step;
  step.text = chosen.text;
  step.activity = screen_.activity;
  step.shown_before = ShownHash(screen_);
  std::vector<draw::Mark> operated;
  if (chosen.mark) step.mark = *chosen.mark, operated.push_back(*chosen.mark);
  // The history keeps each screen at its stitched width, the operated widget boxed.
  auto thumb = picture.MarkedPicture(operated, options_.frame_width);
  if (!thumb.ok()) return thumb.status();
  auto frame = thumb->Png();
  if (!frame.ok()) return frame.status();
  step.thumb = std::move(*thumb);
  step.frame = std::move(*frame);
  return step;
}

Status VisionCampaign::Perform(const gui::Action& action,
                               const std::optional<vision::ExplorerAction>& choice, uint64_t key,
                               VisionStep& step) {
  ActOutcome outcome;
  report::TraceStep ts = StepExecutor::StepFor(screen_, action, key);
  ROAM_RETURN_IF_ERROR(executor_.Act(action, outcome));
  oracles_.Saw(action, screen_, outcome.failed());
  shot_ = {};  // a step may change pixels no widget's text shows
  step.trace_index = episode_.size();
  ROAM_RETURN_IF_ERROR(Record(ts, &outcome));
  if (choice && choice->press_enter && budget_.Left()) {
    gui::Action enter = gui::MakeGlobalAction(gui::ActionKind::kKey, "ENTER");
    ActOutcome o2;
    ROAM_RETURN_IF_ERROR(executor_.Act(enter, o2));
    ROAM_RETURN_IF_ERROR(Record(StepExecutor::StepFor(screen_, enter, key), &o2));
  }
  return FileCrashes();
}

Status VisionCampaign::ObserveAfter(VisionStep step) {
  gui::Screen after;
  ROAM_RETURN_IF_ERROR(executor_.Observe(after));
  step.shown_after = ShownHash(after);
  step.activity_after = after.activity;
  step.episode_end = episode_.size();
  // A step that changed nothing is the Monitor's and the Detector's as what it is: "the button
  // does nothing" is one of the Detector's kinds.
  if (step.shown_after == step.shown_before) {
    ++stats_.unchanged_steps;
    step.text += fmt::format(" ({})", vision::kNothingChanged);
  }
  function_steps_.push_back(std::move(step));
  return AfterStep(after);
}

Result<draw::Picture> VisionCampaign::PictureOf(const gui::Screen& screen) {
  const uint64_t shown = ShownHash(screen);
  if (!shot_.empty() && shot_shown_ == shown) return shot_;
  auto png = executor_.device().Screenshot(std::nullopt);
  if (!png.ok()) return png.status().Wrap("VisionDroid needs the screen as a picture (screencap)");
  auto picture = draw::Picture::Decode(*png);
  if (!picture.ok()) return picture.status().Wrap("the device's screenshot");
  shot_ = *picture;
  shot_shown_ = shown;
  return picture;
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

Status VisionCampaign::SeeOracles(bool restarted, std::optional<gui::Action>& own) {
  if (oracles_.empty()) return Status::Ok();
  gui::ActionsFor(screen_, actions_);
  std::vector<oracle::Finding> found;
  own = oracles_.See(static_cast<int64_t>(episode_.size()) + 1, screen_, actions_, restarted, rng_,
                     found);
  for (const auto& f : found)  // the run from its start is the trace, as crashes' here
    ROAM_RETURN_IF_ERROR(
        session_.Wrote(oracle_filer_
                           .File(
                               f, [&] { return episode_; }, nullptr, session_, "vision")
                           .status()));
  return Status::Ok();
}

Status VisionCampaign::TakeOwnStep(const gui::Action& action, uint64_t key) {
  ActOutcome outcome;
  report::TraceStep ts = StepExecutor::StepFor(screen_, action, key);
  ROAM_RETURN_IF_ERROR(executor_.Act(action, outcome));
  oracles_.Saw(action, screen_, outcome.failed());
  shot_ = {};
  ROAM_RETURN_IF_ERROR(Record(ts, &outcome));
  return FileCrashes();
}

Status VisionCampaign::FileCrashes() {
  return session_.Wrote(
      crash_filer_.FileNew(session_.crashes().findings(), episode_, session_, "roam vision"));
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

ProgressFigures VisionCampaign::Figures() const {
  ProgressFigures f = session_.Figures();
  f.states = states_.size();
  f.activities = activities_.size();
  f.extra = {fmt::format("reports {}", findings_.size()),
             fmt::format("requests {}", stats_.explorer_requests + stats_.monitor_requests +
                                            stats_.detector_requests),
             fmt::format("fallbacks {}", stats_.explorer_fallbacks + stats_.monitor_fallbacks +
                                             stats_.detector_fallbacks),
             fmt::format("functions {}", stats_.functions)};
  return f;
}

report::Summary VisionCampaign::MakeSummary() const {
  report::Summary sum = session_.Summary(target_.app_name(), "visiondroid", options_.seed);
  sum.activities_covered = activities_;
  sum.states = states_.size();
  report::AddFindings(session_.crashes().findings(), crash_filer_.dirs(), sum);
  sum.functional = findings_;
  const auto& own = oracle_filer_.findings();
  sum.functional->insert(sum.functional->end(), own.begin(), own.end());
  sum.sections = {{"vision", VisionStatsJson(stats_)}};
  oracles_.AddFigures(sum.sections);
  return sum;
}

}  // namespace

double NameVectorSimilarity(const explore::WordVectors& vectors, std::string_view a,
                            std::string_view b) {
  auto mean = [&](std::string_view name) {
    std::vector<float> sum(vectors.dim(), 0.0f), word(vectors.dim());
    const auto words = vision::NameWords(name);
    for (const auto& w : words) {
      vectors.Lookup(w, word.data());
      for (size_t i = 0; i < sum.size(); ++i) sum[i] += word[i];
    }
    return std::pair{sum, !words.empty()};
  };
  const auto [x, x_words] = mean(a);
  const auto [y, y_words] = mean(b);
  if (!x_words || !y_words) return 0;
  double dot = 0, nx = 0, ny = 0;
  for (size_t i = 0; i < x.size(); ++i) dot += x[i] * y[i], nx += x[i] * x[i], ny += y[i] * y[i];
  return nx > 0 && ny > 0 ? dot / std::sqrt(nx * ny) : 0;
}

Result<VisionResult> Vision(const VisionOptions& options, const RunContext& context) {
  ROAM_RETURN_IF_ERROR(CheckBudget(options.budget));
  if (options.examples_k < 0 || options.history_steps < 1 || options.max_function_steps < 1 ||
      options.frame_width < 40 || options.screen_width < 0)
    return Status::InvalidArgument(
        "vision settings: examples_k >= 0, history_steps and max_function_steps >= 1, "
        "frame_width >= 40, screen_width >= 0");
  if (options.examples_by != "vectors" && options.examples_by != "trigrams")
    return Status::InvalidArgument(fmt::format(
        "vision settings: examples_by \"{}\" is not vectors or trigrams", options.examples_by));
  // The model first: an endpoint that cannot be reached stops the run before it starts.
  std::unique_ptr<llm::Client> model;
  if (!options.llm_replay.empty()) {
    auto c = llm::ReplayClient(options.llm_replay);
    if (!c.ok()) return c.status();
    model = std::move(*c);
  } else {
    llm::ClientOptions llm = options.llm;
    llm.stop = context.stop;  // a request or a retry's wait ends on Ctrl-C
    auto c = llm::HttpClient(llm);
    if (!c.ok()) return c.status();
    model = std::move(*c);
  }
  ROAM_RETURN_IF_ERROR(model->Check());
  auto examples = vision::ShippedExamples();
  if (!examples.ok()) return examples.status();
  for (const auto& file : options.examples) {
    auto more = vision::LoadExamples(file);
    if (!more.ok()) return more.status();
    examples->insert(examples->end(), more->begin(), more->end());
  }
  vision::NameSimilarityFn similar = vision::NameSimilarity;
  std::optional<explore::WordVectors> vectors;  // outlives the campaign, which reads it
  if (options.examples_by == "vectors" && options.examples_k > 0) {
    auto loaded = explore::WordVectors::Load(options.vectors.empty() ? DefaultWordVectors()
                                                                     : options.vectors);
    if (!loaded.ok())
      return loaded.status().Wrap(
          "VisionDroid retrieves bug examples by word vectors (--examples-by trigrams needs none)");
    vectors = std::move(*loaded);
    similar = [&vectors](std::string_view a, std::string_view b) {
      return NameVectorSimilarity(*vectors, a, b);
    };
  }
  TargetOptions target_options = options.target;
  target_options.android.stop = context.stop;  // Ctrl-C ends a wait for a device that went away
  auto target = Target::Open(target_options, options.seed, options.signature_frames);
  if (!target.ok()) return target.status();
  json config = VisionConfig(options);
  // Read before the run folder: a bad file leaves nothing behind.
  auto oracles = ReadOracles(options.oracle_files, config);
  if (!oracles.ok()) return oracles.status();
  ROAM_RETURN_IF_ERROR(OpenRunFolder(options, **target, config));
  // A replayed log is read whole before the run folder is prepared (it may be in it).
  auto recorder = llm::Recorder::Open(*model, options.out / "llm.jsonl", options.llm.model);
  if (!recorder.ok()) return recorder.status();
  VisionCampaign campaign(options, **target, **recorder, std::move(*examples), std::move(similar),
                          *oracles, context);
  return campaign.Run();
}

}  // namespace roam::run
