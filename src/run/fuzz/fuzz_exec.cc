#include "run/fuzz/fuzz_exec.h"

#include <fmt/format.h>

namespace roam::run {

Status FuzzRunner::Observe(Execution& run) {
  gui::Screen screen;
  ROAM_RETURN_IF_ERROR(executor_.Observe(screen));
  run.layouts.push_back(fuzz::MakeLayout(std::move(screen), executor_.package()));
  return Status::Ok();
}

Result<Execution> FuzzRunner::Run(const NextEvent& next, const RunFrom& from) {
  Execution run;
  int64_t step = 0;
  int first = 0;
  if (from.resume) {
    const Execution& r = *from.resume;
    first = from.resume_events;
    if (first < 0 || static_cast<size_t>(first) >= r.layouts.size() ||
        static_cast<size_t>(first) > r.events.size() || r.trace.size() < 2 + r.events.size())
      return Status::InvalidArgument(
          fmt::format("resume after {} events of a run of {}", first, r.events.size()));
    ROAM_RETURN_IF_ERROR(executor_.Restore(from.snapshot).Wrap("restore " + from.snapshot));
    run.layouts.assign(r.layouts.begin(), r.layouts.begin() + first);
    run.events.assign(r.events.begin(), r.events.begin() + first);
    run.trace.assign(r.trace.begin(), r.trace.begin() + 2 + first);  // clear, launch, events
    step = static_cast<int64_t>(run.trace.size());
  } else {
    ROAM_RETURN_IF_ERROR(executor_.Clear().Wrap("clear"));
    run.trace.push_back({.step = step++, .op = "clear"});
    ROAM_RETURN_IF_ERROR(executor_.Launch().Wrap("launch"));
    run.trace.push_back({.step = step++, .op = "launch"});
  }
  executor_.DiscardEvents();
  ROAM_RETURN_IF_ERROR(Observe(run));
  for (int t = first;; ++t) {
    const fuzz::Layout& layout = run.layouts.back();
    if (!layout.in_app) {
      run.left_app = true;
      break;
    }
    if ((context_ && context_->Stopped()) || !executor_.budget().Left()) {
      run.interrupted = true;
      break;
    }
    if (t == from.save_at) {
      ROAM_RETURN_IF_ERROR(executor_.Snapshot(from.save_as).Wrap("snapshot " + from.save_as));
      run.snapshotted = true;
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
    outcome.WriteTo(ts);
    run.crashed = outcome.failed();
    run.events.push_back(std::move(sent));
    run.trace.push_back(std::move(ts));
    ROAM_RETURN_IF_ERROR(Observe(run));
    if (run.crashed) break;
  }
  return run;
}

Result<Execution> FuzzRunner::Run(const std::vector<fuzz::Event>& plan, const RunFrom& from) {
  return Run(
      [&plan](int t, const fuzz::Layout&) -> std::optional<fuzz::Event> {
        if (t >= static_cast<int>(plan.size())) return std::nullopt;
        return plan[t];
      },
      from);
}

}  // namespace roam::run
