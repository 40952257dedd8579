// sim/import: a recorded exploration of a real app (sim/recording.h: DroidBot's or Kea's utg.js
// with its events and states) as a simulated app spec, so strategies can be benchmarked offline
// on a team's own app. Faithful to the recording: a screen per recorded state that has its views
// (the views as widgets at their recorded bounds, nothing invented), where the first launch
// led as the start, and a handler per recorded (widget, action) whose effect is what the recording
// saw it do: open the state it led to, leave the app when it led to another app (the launcher,
// a browser), or nothing when it stayed (or led to a state whose views were not recorded).
// Taps, long taps, typing and a view's scroll are the view's handlers; keys (back, menu, ...), a
// rotation and a scroll of no view (a swipe) the screen's. Where an event led is its recorded
// stop state, or where the next event began when that stop state was taken before the app had
// settled (see ImportRecording). An action the recording never did on a widget does nothing;
// every handler is a code unit. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "sim/recording.h"

namespace roam::sim {

struct ImportStats {
  size_t screens = 0;
  size_t handlers = 0;         // (widget, action) pairs with a recorded effect: the code units
  size_t events_mapped = 0;    // user events turned into (or repeating) a handler
  size_t events_unmapped = 0;  // user events left out, with the reasons in `notes`
  std::vector<std::string> notes;
};

// The spec (as JSON, for `roam sim check`'s loader) of `recording`, named `app`. An error when
// the recording has no state with its views (nothing to show).
Result<nlohmann::json> ImportRecording(const Recording& recording, const std::string& app,
                                       ImportStats& stats);

}  // namespace roam::sim
