// The statistics that make an app hard to explore, measured the same way on simulated apps
// (a breadth-first walk of the simulator), on recorded explorations of real apps
// (sim/recording.h) and on uiautomator dumps: actionable widgets, text fields, lists and their
// lengths, and dialogs per screen; screens per activity; the shares of events that change
// nothing, leave the app or send it to the launcher; activity depth from the launcher; fan-out.
// `roam sim stats` prints them; docs/realism.md compares real and generated apps.
// Pure functions returning values; thread-safe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/screen.h"
#include "sim/recording.h"

namespace roam::sim {

class AppSpec;

// A sample of one figure (one value per screen, activity, state or list).
struct Figure {
  std::vector<double> values;
  void Add(double v) { values.push_back(v); }
  bool empty() const { return values.empty(); }
  // Nearest-rank quantile, q in [0, 1]; 0 for an empty sample.
  double Quantile(double q) const;
  double Median() const { return Quantile(0.5); }
  double P90() const { return Quantile(0.9); }
  double Mean() const;
};

// What one screen offers.
struct ScreenFigures {
  int actionable = 0;   // widgets with at least one action (gui/actions.h), system UI left out
  int text_fields = 0;  // editable widgets
  std::vector<int> list_lengths;  // children of each scrollable widget
  bool dialog = false;  // an AlertDialog's parts (alertTitle, button1, parentPanel) are shown
};
ScreenFigures MeasureScreen(const gui::Screen& screen);

// Who went where: the common form of a recording and of a walk of a spec.
struct ExplorationGraph {
  struct State {
    std::string package;  // "" when unknown (an event names a state the recording lacks)
    std::string activity;
    std::optional<gui::Screen> screen;
  };
  struct Event {
    int from = -1, to = -1;
    bool tool = false;     // made by the tool (launch, kill): not in the per-event shares
    bool changed = true;   // the screen's content changed (DroidBot: state_str differs)
    bool crashed = false;  // the app crashed or stopped responding
    bool counted = true;   // false: only for the depth and fan-out (a utg edge that repeats
                           // events recorded one by one)
  };
  std::string package;  // the app's
  std::vector<State> states;
  std::vector<Event> events;
  bool no_change_recorded = true;  // false: events that changed nothing were not recorded
  std::vector<std::string> notes;
};

struct AppStats {
  std::string source;  // file or folder measured
  std::string kind;    // "spec", "recording", "dumps" or "pooled"
  // Per screen: states of the app that have views, or dumps.
  size_t screens_measured = 0;
  Figure actionable, text_fields, lists, list_length;
  size_t dialogs = 0;
  // Over the graph (absent for dumps).
  bool has_graph = false;
  size_t states = 0;      // distinct states of the app
  size_t activities = 0;  // distinct activities of the app
  Figure screens_per_activity, activity_depth, fanout;
  size_t events = 0;        // user events (tool events left out)
  size_t no_change = 0;     // ... after which the content was the same
  size_t known_target = 0;  // ... whose target state's package is known
  size_t leave = 0;         // ... that led to another package than the app's and the launcher's
  size_t to_launcher = 0;   // ... that led to the launcher (back from the root, home, a crash)
  size_t crashes = 0;       // ... after which the app had crashed or hung
  bool no_change_recorded = true;
  std::vector<std::string> notes;
};

ExplorationGraph GraphOfRecording(const Recording& recording);

struct WalkOptions {
  size_t max_states = 4000;  // the walk stops expanding after this many states (a note says so)
  size_t max_events = 200000;
  // Typed into every edit field, one event each: a name, an e-mail, a long and a short number.
  std::vector<std::string> texts = {"Alice", "alice@example.com", "12345678", "1234"};
};
// Walks the app breadth-first as a systematic tester would: from the launcher, every widget
// action of gui/actions.h (each text of `texts` into each edit field) and back, on every
// state. A state is the app's screen key (gui/abstraction.h) plus the text of its edit fields;
// an event changed nothing when no widget's class, resource-id, text, description or flags
// changed (the texts of widgets that change on their own are left out).
ExplorationGraph WalkSpec(const std::shared_ptr<const AppSpec>& spec, const WalkOptions& options);

AppStats StatsOfGraph(const ExplorationGraph& graph, const std::string& source,
                      const std::string& kind);
// Per-screen figures only; screens of other packages than `package` ("" for any) are skipped.
AppStats StatsOfScreens(const std::vector<gui::Screen>& screens, const std::string& package,
                        const std::string& source);
// The samples of every input together; counts summed.
AppStats Pool(const std::vector<AppStats>& all, const std::string& source);

// What `roam sim stats` measures at `path`: an app spec (*.json, walked with `options`), a
// recording (utg.js or a folder holding one), a uiautomator dump (*.xml) or a folder of dumps
// (every *.xml below it, as one source). An AutoDroid utg.yaml is Unsupported (no YAML reader
// among our dependencies). Errors name the file and the place in it.
Result<AppStats> MeasurePath(const std::filesystem::path& path, const WalkOptions& options);

// A table: one row a figure, one column an input (median / p90 for distributions).
std::string FormatStatsTable(const std::vector<AppStats>& all);
nlohmann::json StatsToJson(const AppStats& stats);

}  // namespace roam::sim
