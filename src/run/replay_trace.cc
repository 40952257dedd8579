#include "run/replay_trace.h"

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "base/files.h"
#include "gui/abstraction.h"
#include "oracle/crash.h"
#include "run/budget.h"
#include "run/executor.h"

namespace roam::run {

Result<ReplayResult> ReplayTrace(device::Device& device,
                                 const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames, int late_ms,
                                 const ReplayRecord& record) {
  std::vector<report::TraceStep>* annotated = record.annotated;
  std::vector<uint64_t>* content = record.content;
  // The action steps whose screens are taken: the last `screenshot_last`.
  size_t acts = 0;
  for (const auto& step : steps) acts += step.op == "act";
  const size_t first_shot = acts > record.screenshot_last ? acts - record.screenshot_last : 0;
  size_t act_index = 0;
  bool can_draw = record.screenshots != nullptr;
  ReplayResult result;
  Budget budget = Budget::Unbounded();
  oracle::CrashOracle crashes(device.Package(), {.top_frames = top_frames});
  StepExecutor executor(device, budget, crashes);
  gui::Screen screen;
  // True once the wanted signature is among what `outcome` saw.
  auto found = [&](const ActOutcome& outcome) {
    for (const auto& sig : outcome.heard.signatures) {
      result.signatures.push_back(sig);
      if (!want_signature.empty() && sig == want_signature) result.reproduced = true;
    }
    if (result.reproduced && can_draw && record.after_screenshot) {
      auto png = device.Screenshot(std::nullopt);
      if (png.ok()) *record.after_screenshot = std::move(*png);
    }
    return result.reproduced;
  };
  for (const auto& step : steps) {
    ActOutcome outcome;
    Status s;
    report::TraceStep seen = step;
    uint64_t hash = 0;
    if (step.op == "act") {
      // Observe first, as the original run did, so the device resolves the target against the
      // screen the action was chosen on.
      s = executor.Observe(screen);
      if (s.ok() && step.state != 0 && !result.divergence) {
        const uint64_t key = gui::ScreenKey(screen);
        if (key != step.state)
          result.divergence = {.step = step.step,
                               .recorded_activity = step.activity,
                               .seen_activity = screen.activity,
                               .recorded_state = step.state,
                               .seen_state = key};
      }
      if (s.ok() && record.on_screen) record.on_screen(step, screen);
      if (s.ok() && annotated) {
        seen = StepExecutor::StepOn(screen, step.action, gui::ScreenKey(screen));
      }
      if (s.ok() && content) hash = gui::ContentHash(screen);
      if (s.ok() && can_draw && act_index++ >= first_shot) {
        std::optional<gui::Rect> target;
        if (step.action.target) target = step.action.target->bounds;
        auto png = device.Screenshot(target);
        if (png.ok()) {
          record.screenshots->push_back(
              {static_cast<size_t>(&step - steps.data()), std::move(*png)});
        } else {
          can_draw = false;  // said once; the replay goes on
          if (record.screenshot_error) *record.screenshot_error = png.status().message();
        }
      }
      if (s.ok()) s = executor.Act(step.action, outcome);
    } else {
      s = executor.RunOp(step);
      if (s.ok()) executor.Drain(outcome);
    }
    if (!s.ok()) return s.Wrap("replay step " + std::to_string(step.step));
    ++result.steps_run;
    if (content) content->push_back(hash);
    if (annotated) {
      seen.op = step.op;
      seen.snapshot = step.snapshot;
      seen.step = static_cast<int64_t>(annotated->size());
      seen.events = outcome.heard.failures;
      annotated->push_back(std::move(seen));
    }
    if (found(outcome)) return result;
  }
  // A phone may log the last action's crash only after the action returned; the run saw it at
  // its next observation, so the replay looks once more after one.
  if (!steps.empty() && executor.Observe(screen).ok()) {
    if (record.last_screen) *record.last_screen = screen;
    constexpr int kPollMs = 50;
    for (int waited = 0;; waited += kPollMs) {
      ActOutcome outcome;
      executor.Drain(outcome);
      if (annotated && !annotated->empty())
        for (auto& f : outcome.heard.failures) annotated->back().events.push_back(f);
      if (found(outcome) || want_signature.empty() || waited >= late_ms) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    }
  }
  return result;
}

std::string DivergenceWords(const ReplayResult::Divergence& d) {
  return fmt::format(
      "the replay left the recorded path at step {}: recorded {} on {}, seen {} on {}", d.step,
      report::HexKey(d.recorded_state), d.recorded_activity, report::HexKey(d.seen_state),
      d.seen_activity);
}

Result<ReplayResult> ReplayBugTrace(device::Device& device, const ReplaySpec& spec,
                                    const std::string& signature,
                                    const std::vector<report::TraceStep>& trace,
                                    const ReplayRecord& record) {
  const int late_ms = spec.target == ReplaySpec::Target::kAndroid ? kLateReportMs : 0;
  return ReplayTrace(device, trace, signature, spec.signature_frames, late_ms, record);
}

Result<std::vector<std::string>> WriteStepScreenshots(
    const std::filesystem::path& bug_dir,
    const std::vector<std::pair<size_t, std::string>>& screenshots, std::string_view after) {
  const auto dir = bug_dir / "steps";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::vector<std::string> files;
  if (screenshots.empty() && after.empty()) return files;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  for (const auto& [index, png] : screenshots) {
    std::string name = fmt::format("steps/{:03}.png", index + 1);
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(bug_dir / name, png));
    files.push_back(std::move(name));
  }
  if (!after.empty()) {
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(bug_dir / kAfterScreenshot, std::string(after)));
    files.push_back(kAfterScreenshot);
  }
  return files;
}

}  // namespace roam::run
