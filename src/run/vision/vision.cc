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
#include "run/vision/vision_campaign.h"
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

}  // namespace

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
                               f, [&] { return episode_; }, nullptr, session_, "roam vision")
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
