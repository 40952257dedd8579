// run/fuzz_exec: runs Genie's seeds and mutants on a Device. Every run starts from cleared app
// data and a launch, then takes events one by one: each is resolved on the observed layout
// (fuzz::Resolve), sent, and followed by an observation, so a run yields its layouts, the
// concrete events and a trace in report/trace.h's format. Used by `roam fuzz` and by the replay
// of bugs/F<n>. Single-threaded; `stop` may be set from a signal handler.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "fuzz/layout.h"
#include "report/trace.h"

namespace roam::run {

struct Execution {
  std::vector<fuzz::Layout> layouts;      // layouts[0] after the launch, layouts[t+1] after event t
  std::vector<fuzz::Event> events;        // the events sent
  std::vector<report::TraceStep> trace;   // clear, launch, then one act step per event
  int unresolved = -1;                    // the event that found no target (its index), else -1
  bool crashed = false;                   // a crash or ANR ended the run
  bool left_app = false;                  // the app was no longer in front
  bool interrupted = false;               // out of budget or stopped
};

// The next event of a run after `t` events on `layout`; nullopt ends the run.
using NextEvent = std::function<std::optional<fuzz::Event>(int t, const fuzz::Layout& layout)>;

class Executor {
 public:
  // `budget` (may be null: unbounded) is decremented by every event sent; at 0 runs stop.
  Executor(device::Device& device, int64_t* budget, const std::atomic<bool>* stop)
      : device_(device), package_(device.Package()), budget_(budget), stop_(stop) {}

  // Runs events from `next` until it returns nullopt, an event finds no target, the app crashes
  // or leaves the foreground, or the budget or `stop` ends it.
  Result<Execution> Run(const NextEvent& next);
  // Runs a fixed list of events.
  Result<Execution> Run(const std::vector<fuzz::Event>& plan);

  int64_t events_sent() const { return events_sent_; }

 private:
  Status Observe(Execution& run);

  device::Device& device_;
  std::string package_;
  int64_t* budget_;
  const std::atomic<bool>* stop_;
  int64_t events_sent_ = 0;
  gui::Screen screen_;
  std::vector<device::Event> device_events_;
};

}  // namespace roam::run
