// gui/intent: an intent Roam sends to start one of the app's activities from outside its GUI
// (an exported activity by its class, or a deep link by URI, with extras), and what an app
// declares it takes (its activities, their intent filters, the extras a screen reads). An
// Intent rides in a kIntent Action's text, in the form ToText writes and ParseIntentText reads,
// so traces, replays and the abstraction keep it as they keep a key's name. Value types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace roam::gui {

// The type of an extra, as `am start` takes it: --es, --ei, --ez.
enum class ExtraType { kString, kInt, kBool };
std::string_view ExtraTypeName(ExtraType type);  // "string", "int", "bool"
std::string_view ExtraTypeFlag(ExtraType type);  // "--es", "--ei", "--ez"
Result<ExtraType> ExtraTypeFromName(std::string_view name);
// The type am start's flag gives its extra ("--es" -> kString); nullopt for any other word.
std::optional<ExtraType> ExtraTypeFromFlag(std::string_view flag);

struct IntentExtra {
  std::string key;
  ExtraType type = ExtraType::kString;
  std::string value;  // as typed after the flag ("3", "true", any text)
  bool operator==(const IntentExtra&) const = default;
};

struct Intent {
  std::string component;  // the activity's class, fully qualified; "" lets the system resolve
  std::string action;     // "android.intent.action.VIEW" for a deep link; "" for none
  std::string data;       // a deep link's URI; "" for none
  std::vector<IntentExtra> extras;
  bool operator==(const Intent&) const = default;

  // What a kIntent Action's text holds: am start's arguments without the package, each value
  // with '%', ' ' and control characters percent-encoded, e.g.
  // "-n org.app.DetailActivity --ei id 3" or "-a android.intent.action.VIEW -d app://x/y".
  std::string ToText() const;
  // For people (steps.txt, logs): "start DetailActivity with extras id=3 (int)", "start
  // DetailActivity with no extras", "open the deep link app://x/y".
  std::string Describe() const;
};

// ToText's inverse; an error names the token it could not read.
Result<Intent> ParseIntentText(std::string_view text);

// One <intent-filter>: the actions, categories and data (scheme, host, path prefix) it takes.
// An empty data list takes intents without data only; an empty hosts or paths list, any.
struct IntentFilter {
  std::vector<std::string> actions;
  std::vector<std::string> categories;
  std::vector<std::string> schemes;
  std::vector<std::string> hosts;
  std::vector<std::string> paths;  // path prefixes ("/item")
  bool operator==(const IntentFilter&) const = default;
};

// Whether `filter` takes `intent` as Android's resolution does for an implicit start: its
// action is one of the filter's, and its data (if any) has a listed scheme, host and path
// prefix; an intent with data matches no filter without schemes, and one without data no filter
// with schemes.
bool FilterTakes(const IntentFilter& filter, const Intent& intent);

// One activity as the app declares it to the outside (the manifest; `dumpsys package`).
struct DeclaredActivity {
  std::string name;  // fully qualified class
  bool exported = false;
  std::vector<IntentFilter> filters;
  // The extras its screen reads, each with a value it accepts; known for simulated apps
  // (their spec says), empty over adb unless the user tells.
  std::vector<IntentExtra> extras;
  bool operator==(const DeclaredActivity&) const = default;
};

// The intents worth sending to `activity` (an exported one; none otherwise): its class with
// the extras it reads, with none, and with each read extra of another type; and per filter
// with schemes, a deep link built from its first scheme, host and path. In that order, each once.
std::vector<Intent> CandidateIntents(const DeclaredActivity& activity);

}  // namespace roam::gui
