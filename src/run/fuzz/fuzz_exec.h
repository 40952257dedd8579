// run/fuzz/fuzz_exec: Genie's seeds and mutants as runs on the step executor. A run starts from
// cleared app data and a launch (or from a device snapshot of an earlier run's state: RunFrom),
// then takes events one by one: each is resolved on the observed layout (fuzz::Resolve), sent
// through the executor (so it counts against the campaign's budget and its crashes go through
// the crash oracle), and followed by an observation, so a run yields
// its layouts, the concrete events and a trace in report/trace.h's format. Used by `roam fuzz`
// and by the replay of bugs/F<n>. Single-threaded; borrows the executor.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "fuzz/layout.h"
#include "oracle/crash.h"
#include "report/trace.h"
#include "run/budget.h"
#include "run/context.h"
#include "run/executor.h"

namespace roam::run {

struct Execution {
  std::vector<fuzz::Layout> layouts;     // layouts[0] after the launch, layouts[t+1] after event t
  std::vector<fuzz::Event> events;       // the events sent
  std::vector<report::TraceStep> trace;  // clear, launch, then one act step per event
  int unresolved = -1;                   // the event that found no target (its index), else -1
  bool crashed = false;                  // a crash or ANR ended the run
  bool left_app = false;                 // the app was no longer in front
  bool interrupted = false;              // out of budget or stopped
  bool snapshotted = false;              // RunFrom::save_at was reached and saved
};

// Where a run begins and what it saves on the way. By default it starts from cleared data and a
// launch. With `resume`, it restores the device snapshot `snapshot`, taken after the first
// `resume_events` events of `resume` (Device::CanSnapshot), and takes its layouts, events and
// trace up to there from that run: the run reads as if it had replayed them, and its trace
// replays from the clean start. With `save_at` >= 0 (and not before `resume_events`) it saves a
// device snapshot `save_as` after that many events.
struct RunFrom {
  const Execution* resume = nullptr;
  int resume_events = 0;
  std::string snapshot;
  int save_at = -1;
  std::string save_as;
};

// The next event of a run after `t` events on `layout`; nullopt ends the run.
using NextEvent = std::function<std::optional<fuzz::Event>(int t, const fuzz::Layout& layout)>;

class FuzzRunner {
 public:
  // `context` (may be null) is asked whether to stop.
  FuzzRunner(StepExecutor& executor, const RunContext* context)
      : executor_(executor), context_(context) {}

  // Runs events from `next` until it returns nullopt, an event finds no target, the app crashes
  // or leaves the foreground, or the budget or a stop request ends it.
  Result<Execution> Run(const NextEvent& next, const RunFrom& from = {});
  // Runs a fixed list of events (from.resume: the plan's first resume_events are not sent).
  Result<Execution> Run(const std::vector<fuzz::Event>& plan, const RunFrom& from = {});

 private:
  Status Observe(Execution& run);

  StepExecutor& executor_;
  const RunContext* context_;
};

// A runner with its own unbounded budget and crash oracle, for checks and replays of one case.
class UnboundedRunner {
 public:
  explicit UnboundedRunner(device::Device& device, int signature_frames = 3)
      : crashes_(device.Package(), {.top_frames = signature_frames}),
        steps_(device, budget_, crashes_),
        runner_(steps_, nullptr) {}

  Result<Execution> Run(const std::vector<fuzz::Event>& plan) { return runner_.Run(plan); }

 private:
  Budget budget_ = Budget::Unbounded();
  oracle::CrashOracle crashes_;
  StepExecutor steps_;
  FuzzRunner runner_;
};

}  // namespace roam::run
