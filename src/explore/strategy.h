// explore/: strategies see abstracted states and return actions; they never talk to a device.
// The run loop owns one Strategy per campaign and calls it from one thread; strategies need
// not be thread-safe. Strategies are made by name from the table in registry.h.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/rng.h"
#include "base/status.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::explore {

// What a strategy sees at one step.
struct StepView {
  const gui::Screen& screen;
  uint64_t state = 0;                        // gui::ScreenKey of the screen
  const std::vector<gui::Action>& actions;   // widget actions the screen offers (gui/actions.h)
  int64_t step = 0;                          // events sent so far
};

// What happened after an action, for strategies that learn.
struct Transition {
  uint64_t from = 0;
  uint64_t to = 0;
  const gui::Action& action;
  bool new_state = false;        // `to` had never been seen in this run
  bool new_activity = false;
  size_t new_units = 0;          // code units first covered by this step (0 without coverage)
  bool crashed = false;          // a crash or ANR followed the action
  bool left_app = false;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string_view Name() const = 0;
  // The next action. `view.actions` may be empty (then a global action is expected).
  virtual gui::Action Next(const StepView& view, Rng& rng) = 0;
  virtual void Learn(const Transition& /*transition*/) {}
  // Writes what the strategy keeps on disk (a learned model); called every so many events and
  // when the run stops.
  virtual Status Flush() { return Status::Ok(); }
};

}  // namespace roam::explore
