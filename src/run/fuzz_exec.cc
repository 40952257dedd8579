#include "run/fuzz_exec.h"

namespace roam::run {

Status FuzzRunner::Observe(Execution& run) {
  gui::Screen screen;
  ROAM_RETURN_IF_ERROR(executor_.Observe(screen));
  run.layouts.push_back(fuzz::MakeLayout(std::move(screen), executor_.package()));
  return Status::Ok();
}

Result<Execution> FuzzRunner::Run(const NextEvent& next) {
  Execution run;
  int64_t step = 0;
  ROAM_RETURN_IF_ERROR(executor_.Clear().Wrap("clear"));
  run.trace.push_back({.step = step++, .op = "clear"});
  ROAM_RETURN_IF_ERROR(executor_.Launch().Wrap("launch"));
  run.trace.push_back({.step = step++, .op = "launch"});
  executor_.DiscardEvents();
  ROAM_RETURN_IF_ERROR(Observe(run));
  for (int t = 0;; ++t) {
    const fuzz::Layout& layout = run.layouts.back();
    if (!layout.in_app) {
      run.left_app = true;
      break;
    }
    if ((context_ && context_->Stopped()) || !executor_.budget().Left()) {
      run.interrupted = true;
      break;
    }
    std::optional<fuzz::Event> event = next(t, layout);
    if (!event) break;
    int widget = fuzz::Resolve(layout.screen, *event);
    if (event->widget() && widget < 0) {
      run.unresolved = t;
      break;
    }
    gui::Action action = fuzz::ActionFor(layout.screen, *event, widget);
    report::TraceStep ts = StepExecutor::StepFor(layout.screen, action, layout.abs);
    ts.step = step++;
    // The event as sent: its target's own signature (the resolved view, not the planned one).
    fuzz::Event sent = widget >= 0 ? fuzz::EventOf(layout.screen, action) : *event;
    sent.text = event->text;
    ActOutcome outcome;
    ROAM_RETURN_IF_ERROR(
        executor_.Act(action, outcome).Wrap("fuzz step " + std::to_string(ts.step)));
    ts.events = outcome.failures;
    run.crashed = outcome.failed();
    run.events.push_back(std::move(sent));
    run.trace.push_back(std::move(ts));
    ROAM_RETURN_IF_ERROR(Observe(run));
    if (run.crashed) break;
  }
  return run;
}

Result<Execution> FuzzRunner::Run(const std::vector<fuzz::Event>& plan) {
  return Run([&plan](int t, const fuzz::Layout&) -> std::optional<fuzz::Event> {
    if (t >= static_cast<int>(plan.size())) return std::nullopt;
    return plan[t];
  });
}

}  // namespace roam::run
