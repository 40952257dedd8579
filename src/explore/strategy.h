// explore/: strategies see abstracted states and return actions; they never talk to a device.
// The run loop owns one Strategy per campaign and calls it from one thread; strategies need
// not be thread-safe. Strategies are made by name from the table in registry.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "base/status.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::explore {

// An intent the app takes (gui/intent.h), as an action of kind kIntent, and the activity it
// starts (a deep link's: the one whose filter takes it).
struct IntentOffer {
  gui::Action action;
  std::string activity;
};

// What a strategy sees at one step.
struct StepView {
  const gui::Screen& screen;
  uint64_t state = 0;                       // gui::ScreenKey of the screen
  const std::vector<gui::Action>& actions;  // widget actions the screen offers (gui/actions.h)
  int64_t step = 0;                         // events sent so far
  // The system broadcasts the app takes (Device::DeclaredBroadcasts), for kBroadcast actions.
  std::span<const std::string> broadcasts = {};
  // The intents the app takes, when intents are on (--intents); explore/intents.h picks among them.
  std::span<const IntentOffer> intents = {};
};

// What happened after an action, for strategies that learn.
struct Transition {
  uint64_t from = 0;
  uint64_t to = 0;
  const gui::Action& action;
  bool new_state = false;  // `to` had never been seen in this run
  bool new_activity = false;
  size_t new_units = 0;    // code units first covered by this step (0 without coverage)
  bool crashed = false;    // a crash or ANR followed the action
  bool new_crash = false;  // ... one not seen before in this run
  bool left_app = false;
};

// An operation a strategy asks the run loop for (time travel, explore/timetravel.h). Strategies
// never touch the device; the run loop carries the request out and reports back with Done().
//   kSnapshot: keep the state the device shows now (StepView::state == `state`) as `name`. On a
//     device with snapshots (Device::CanSnapshot) that is a device snapshot; otherwise the run
//     loop keeps the shortest recorded action path from a launch or a clean start to the state.
//     Taking a snapshot under a name in use replaces the old one (that is how a strategy evicts).
//   kRestore: bring back snapshot `name`, which holds `state`: a device restore, or a relaunch
//     (clearing data when the path began from a clean start) and a replay of the path. Done(ok)
//     only when the screen's ScreenKey is `state` afterwards; a path that no longer reproduces
//     is dropped by the run loop (later restores of `name` fail until it is snapshot again).
struct Request {
  enum class Kind { kSnapshot, kRestore };
  Kind kind = Kind::kSnapshot;
  std::string name;
  uint64_t state = 0;
};

// A file of end-of-run figures a strategy leaves in the run folder: `<name>.json`, or
// `<name>-<device>.json` for one device of several unless `whole_run` (the devices share what
// it counts, so any one of them has the run's figures).
struct FiguresFile {
  std::string name;
  nlohmann::json figures;
  bool whole_run = false;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string_view Name() const = 0;
  // The next action. `view.actions` may be empty (then a global action is expected).
  virtual gui::Action Next(const StepView& view, Rng& rng) = 0;
  virtual void Learn(const Transition& /*transition*/) {}
  // Called each step after Learn and before Next, with the screen the device shows now (the
  // first step included). A strategy may return one request; the run loop carries it out,
  // calls Done, and asks again (with a fresh view after a restore) until it gets nullopt.
  virtual std::optional<Request> TakeRequest(const StepView& /*view*/) { return std::nullopt; }
  // How a request went: ok is false when the device or the replayed path failed.
  virtual void Done(const Request& /*request*/, bool /*ok*/) {}
  // Writes what the strategy keeps on disk (a learned model); called every so many events and
  // when the run stops.
  virtual Status Flush() { return Status::Ok(); }
  // The strategy's settings as the run resolved them, a section of config.json each, by name
  // ("fastbot": {...}); a wrapper adds its own and its base's. The run loop knows no strategy's
  // settings: this is how they reach the run folder.
  virtual void AddSettings(nlohmann::json& /*config*/) const {}
  // The strategy's end-of-run figures; a wrapper adds its own and its base's.
  virtual void AddFigures(std::vector<FiguresFile>& /*files*/) const {}
};

}  // namespace roam::explore
