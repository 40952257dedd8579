#include "run/fuzz_exec.h"

#include "oracle/crash.h"

namespace roam::run {

Status Executor::Observe(Execution& run) {
  ROAM_RETURN_IF_ERROR(device_.Observe(screen_));
  run.layouts.push_back(fuzz::MakeLayout(screen_, package_));
  return Status::Ok();
}

Result<Execution> Executor::Run(const NextEvent& next) {
  Execution run;
  int64_t step = 0;
  for (const char* op : {"clear", "launch"}) {
    Status s = std::string(op) == "clear" ? device_.ClearData() : device_.Launch();
    if (!s.ok()) return s.Wrap(op);
    report::TraceStep ts;
    ts.step = step++;
    ts.op = op;
    run.trace.push_back(std::move(ts));
  }
  device_.DrainEvents(device_events_);
  device_events_.clear();
  ROAM_RETURN_IF_ERROR(Observe(run));
  for (int t = 0;; ++t) {
    const fuzz::Layout& layout = run.layouts.back();
    if (!layout.in_app) {
      run.left_app = true;
      break;
    }
    if ((stop_ && stop_->load()) || (budget_ && *budget_ <= 0)) {
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
    report::TraceStep ts;
    ts.step = step++;
    ts.action = action;
    ts.activity = layout.screen.activity;
    ts.state = layout.abs;
    if (widget >= 0) {
      const gui::Widget& w = layout.screen.widgets[widget];
      ts.widget_text = w.text.empty() ? w.content_desc : w.text;
      ts.resource_id = w.resource_id;
    }
    // The event as sent: its target's own signature (the resolved view, not the planned one).
    fuzz::Event sent = widget >= 0 ? fuzz::EventOf(layout.screen, action) : *event;
    sent.text = event->text;
    Status s = device_.Perform(action);
    if (!s.ok()) return s.Wrap("fuzz step " + std::to_string(ts.step));
    ++events_sent_;
    if (budget_) --*budget_;
    device_events_.clear();
    device_.DrainEvents(device_events_);
    for (const auto& e : device_events_) {
      ts.events.push_back(std::string(device::EventKindName(e.kind)) + " " +
                          oracle::CrashSignature(e, package_, 3));
      run.crashed = true;
    }
    run.events.push_back(std::move(sent));
    run.trace.push_back(std::move(ts));
    ROAM_RETURN_IF_ERROR(Observe(run));
    if (run.crashed) break;
  }
  return run;
}

Result<Execution> Executor::Run(const std::vector<fuzz::Event>& plan) {
  return Run([&plan](int t, const fuzz::Layout&) -> std::optional<fuzz::Event> {
    if (t >= static_cast<int>(plan.size())) return std::nullopt;
    return plan[t];
  });
}

}  // namespace roam::run
