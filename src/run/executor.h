// run/executor: the one place where a campaign touches its device. It launches, clears, stops,
// snapshots and restores the app, observes the screen, and sends events: each event is counted
// against the budget, paced (throttle), followed by the coverage it gained and by what the
// device reported (crashes and ANRs), handed to the oracles (oracle/oracle.h). Every campaign steps
// through it: exploration, time travel's path replays, fuzzing's seeds and mutants, and bug
// replays, so budgets, pacing, timing and crash signatures are the same everywhere.
// Single-threaded; borrows the device, the budget and the oracle, which must outlive it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "oracle/oracle.h"
#include "report/summary.h"
#include "report/trace.h"
#include "run/budget.h"
#include "run/progress.h"

namespace roam::run {

// Calls `f`, adding the seconds it took on `clock` to `bucket` (a StepTiming phase); its result.
template <typename F>
auto Timed(const Clock& clock, double& bucket, F&& f) {
  const double start = clock.Now();
  auto result = f();
  bucket += clock.Now() - start;
  return result;
}

struct ExecutorOptions {
  int throttle_ms = 0;  // pause after each event, as Monkey's --throttle
};

// What followed one event (or a drain of the device's reports).
struct ActOutcome {
  size_t new_units = 0;   // code units first covered (0 without coverage)
  oracle::Verdict heard;  // what the oracles made of the device's reports
  // The device turned the action down and it did nothing (Status::Refused): why, else "".
  std::string refused;
  bool failed() const { return !heard.failures.empty(); }
  // What a trace line keeps of it: "events" (the reports, then "refused: <reason>") and
  // "new_units".
  void WriteTo(report::TraceStep& step) const;
};

// The reason of a refusal (Status::Refused's message up to its first ':'), its count's key.
std::string RefusalReason(const std::string& message);

class StepExecutor {
 public:
  // The device's reports go to `crashes` and to each oracle Hear adds.
  StepExecutor(device::Device& device, Budget& budget, oracle::Oracle& crashes,
               ExecutorOptions options = {});
  // Hands the device's reports to `oracle` too (it must outlive the executor).
  void Hear(oracle::Oracle& oracle) { oracles_.push_back(&oracle); }

  // Device operations, timed (launch, clear, stop, snapshot and restore count as "launch").
  Status Observe(gui::Screen& screen);
  Status Launch();
  Status Clear();
  Status StopApp();
  Status Snapshot(const std::string& name);
  Status Restore(const std::string& name);

  // Runs a trace step that is not an action: clear, launch, stop, snapshot or restore (an
  // unknown op is an error naming it).
  Status RunOp(const report::TraceStep& step);

  // Sends `action` (an error: the device did not take it, nothing is counted), then counts it
  // against the budget, waits the throttle and fills `out` with what followed.
  Status Act(const gui::Action& action, ActOutcome& out);
  // Hands the device's reports to the oracles, their verdict into `out` (after a replay's last
  // step).
  void Drain(ActOutcome& out);
  // Throws away what the device reported so far (before a run starts, after a restore).
  void DiscardEvents();

  // The target of `action` on `screen` as a trace line names it (activity, state, widget text).
  static report::TraceStep StepFor(const gui::Screen& screen, const gui::Action& action,
                                   uint64_t state);
  // StepFor with the action's widget found on `screen` by its path: a replayed or planned action
  // carries the widget index of the screen it was chosen on, not of this one.
  static report::TraceStep StepOn(const gui::Screen& screen, gui::Action action, uint64_t state) {
    if (action.target) action.widget = screen.FindPath(action.target->path);
    return StepFor(screen, action, state);
  }

  device::Device& device() { return device_; }
  const std::string& package() const { return package_; }
  Budget& budget() { return budget_; }
  report::StepTiming& timing() { return timing_; }
  const report::StepTiming& timing() const { return timing_; }
  // Actions the device refused, by reason (summary.json's "refused").
  const std::map<std::string, int64_t>& refusals() const { return refusals_; }
  // Code units covered so far (0 without coverage).
  size_t units_covered() const { return units_covered_; }
  // The figures every campaign's progress line shares: events, budget, time.
  ProgressFigures Figures() const;

 private:
  device::Device& device_;
  Budget& budget_;
  std::vector<oracle::Oracle*> oracles_;
  ExecutorOptions options_;
  std::string package_;
  size_t units_covered_ = 0;
  std::vector<device::Event> events_;
  report::StepTiming timing_;
  std::map<std::string, int64_t> refusals_;
};

}  // namespace roam::run
