#include "run/executor.h"

#include <thread>

#include <fmt/format.h>

namespace roam::run {

StepExecutor::StepExecutor(device::Device& device, Budget& budget, oracle::Oracle& crashes,
                           ExecutorOptions options)
    : device_(device),
      budget_(budget),
      oracles_{&crashes},
      options_(options),
      package_(device.Package()) {}

Status StepExecutor::Observe(gui::Screen& screen) {
  return Timed(budget_.clock(), timing_.observe, [&] { return device_.Observe(screen); });
}

Status StepExecutor::Launch() {
  return Timed(budget_.clock(), timing_.launch, [&] { return device_.Launch(); });
}

Status StepExecutor::Clear() {
  return Timed(budget_.clock(), timing_.launch, [&] { return device_.ClearData(); });
}

Status StepExecutor::StopApp() {
  return Timed(budget_.clock(), timing_.launch, [&] { return device_.Stop(); });
}

Status StepExecutor::Snapshot(const std::string& name) {
  return Timed(budget_.clock(), timing_.launch, [&] { return device_.Snapshot(name); });
}

Status StepExecutor::Restore(const std::string& name) {
  return Timed(budget_.clock(), timing_.launch, [&] { return device_.Restore(name); });
}

Status StepExecutor::RunOp(const report::TraceStep& step) {
  if (step.op == "clear") return Clear();
  if (step.op == "launch") return Launch();
  if (step.op == "stop") return StopApp();
  if (step.op == "snapshot") return Snapshot(step.snapshot);
  if (step.op == "restore") return Restore(step.snapshot);
  return Status::Corruption(fmt::format("trace step {}: unknown op \"{}\"", step.step, step.op));
}

Status StepExecutor::Act(const gui::Action& action, ActOutcome& out) {
  out = ActOutcome();
  Status performed = Timed(budget_.clock(), timing_.act, [&] { return device_.Perform(action); });
  if (performed.IsRefused()) {  // the action did nothing; the step stands (and took its time)
    out.refused = performed.message();
    ++refusals_[RefusalReason(out.refused)];
  } else {
    ROAM_RETURN_IF_ERROR(performed.Wrap(action.Describe()));
  }
  budget_.Spend();
  ++timing_.steps;
  if (options_.throttle_ms > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.throttle_ms));
  if (device_.HasCoverage()) {
    // Reading what the action covered is reading the device: an Android device reads the next
    // screen first (the next Observe takes it), so it counts as observing.
    size_t covered = 0;
    (void)Timed(budget_.clock(), timing_.observe, [&] {
      covered = device_.UpdateCoverage().covered;
      return Status::Ok();
    });
    out.new_units = covered > units_covered_ ? covered - units_covered_ : 0;
    units_covered_ = std::max(units_covered_, covered);
  }
  Drain(out);
  return Status::Ok();
}

std::string RefusalReason(const std::string& message) {
  return message.substr(0, message.find(':'));
}

void ActOutcome::WriteTo(report::TraceStep& step) const {
  step.events = heard.failures;
  if (!refused.empty()) step.events.push_back("refused: " + RefusalReason(refused));
  step.new_units = static_cast<int64_t>(new_units);
}

void StepExecutor::Drain(ActOutcome& out) {
  const double start = budget_.clock().Now();
  events_.clear();
  device_.DrainEvents(events_);
  const oracle::StepHeard heard{.events = budget_.events(), .reports = &events_};
  for (oracle::Oracle* o : oracles_) o->Hear(heard, out.heard);
  timing_.events += budget_.clock().Now() - start;
}

void StepExecutor::DiscardEvents() {
  events_.clear();
  device_.DrainEvents(events_);
  events_.clear();
}

ProgressFigures StepExecutor::Figures() const {
  ProgressFigures f;
  f.events = budget_.events();
  f.max_events = budget_.options().events;
  f.max_seconds = budget_.options().seconds;
  f.elapsed = budget_.Elapsed();
  if (budget_.options().clock) f.phone_seconds = budget_.Spent();
  f.aside = timing_.aside;
  return f;
}

report::TraceStep StepExecutor::StepFor(const gui::Screen& screen, const gui::Action& action,
                                        uint64_t state) {
  report::TraceStep step{
      .op = "act", .action = action, .activity = screen.activity, .state = state};
  if (action.widget >= 0 && action.widget < static_cast<int>(screen.widgets.size())) {
    const gui::Widget& w = screen.widgets[action.widget];
    step.widget_text = w.text.empty() ? w.content_desc : w.text;
    step.resource_id = w.resource_id;
  }
  return step;
}

}  // namespace roam::run
