// Recorded explorations of real apps, as DroidBot and Kea (a DroidBot fork) write them: utg.js
// (`var utg = {...}`: nodes are states with package and activity, edges carry events), plus
// events/*.json (one event each, with its start and stop state) and states/*.json or
// all_states/*.json (a state with its views). `roam sim stats` measures them (sim/stats.h).
// Plain functions returning values; thread-safe.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/screen.h"

namespace roam::sim {

// One state of the recording (DroidBot's state_str names it).
struct RecordedState {
  std::string id;
  std::string package;
  std::string activity;               // as recorded: ".MainActivity" or qualified
  std::optional<gui::Screen> screen;  // its views, when its state file was recorded
};

// One event, from its start state to its stop state (equal when nothing changed).
struct RecordedEvent {
  std::string type;  // touch, long_touch, scroll, set_text, key, intent, kill_app, rotate, ...
                     // or "unknown"
  std::string from, to;
  // Made by the tool rather than a user (the launch intent, killing the app): left out of the
  // per-event shares, kept for the depth from the launcher.
  bool tool = false;
  // From events/*.json: the view it acted on (bounds, class, ids, texts), what set_text typed,
  // a key event's key name and a scroll's direction (UP, DOWN, LEFT, RIGHT).
  std::optional<gui::Widget> view;
  std::string text, key, direction;
  // An intent event's command ("am start com.app/com.app.SplashActivity"), when recorded.
  std::string intent;
};

struct Recording {
  std::filesystem::path utg;  // the utg.js read
  std::string package;        // the app under test (utg's app_package)
  std::vector<RecordedState> states;
  // From events/*.json in file-name (time) order; when that folder is absent, the edges.
  std::vector<RecordedEvent> events;
  bool events_from_files = false;
  // One event per event on the utg's edges (events that changed nothing are not among them).
  std::vector<RecordedEvent> edges;
  std::vector<std::string> skipped;  // files that could not be read, each "file: why"
};

// An event or state file larger than this is skipped (listed in `skipped`) before it is parsed:
// DroidBot's state file of a real screen is tens to a few hundred KB, and a JSON tree takes
// about 15 times its text (a 133 MB state file took 2.3 GB), so the cap bounds that to ~120 MB.
constexpr size_t kMaxStateFileBytes = size_t{8} << 20;

// Reads a recording from its utg.js or the folder holding it (or an `output/` folder below it).
// An unreadable utg.js is an error naming the file (and line:column for bad JSON); an event or
// state file that cannot be read (DroidBot leaves an empty one when killed) is listed in
// `skipped` and left out.
Result<Recording> ReadRecording(const std::filesystem::path& path);

// The views of a DroidBot state file (`views`: temp_id, parent, children, bounds [[l,t],[r,b]],
// class, resource_id, text, content_description and flags) as a Screen in pre-order; the
// package and activity from `foreground_activity` ("pkg/.Activity"). `where` names the file in
// errors.
Result<gui::Screen> ScreenOfDroidBotState(const nlohmann::json& state, const std::string& where);

}  // namespace roam::sim
