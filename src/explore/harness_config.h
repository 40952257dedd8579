// The harness's settings and files (docs/harness.md): the text-input mix and --strings FILE,
// the black and white lists of --filters FILE, the custom-action scripts of --actions FILE.
// Loading reads and checks every file once; errors name the file, the place in it (line:column
// for JSON syntax, the JSON path for content) and, for unknown keys, the closest known one.
// The loaded HarnessConfig is immutable: thread-safe to share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "explore/text_input.h"
#include "gui/action.h"
#include "gui/widget_match.h"

namespace roam::explore {

// What the command line gives. With nothing set (Active() false) no harness is built and a
// run is exactly as without one.
struct HarnessOptions {
  std::filesystem::path strings_file;  // --strings: one text per line (empty: none)
  std::filesystem::path filters_file;  // --filters: black and white lists (JSON)
  std::filesystem::path actions_file;  // --actions: custom-action scripts (JSON)
  // Text input: on when strings_file is given or `text_input` is set (any --input-pct-*
  // flag sets it). Off, typed texts stay the base strategy's own.
  bool text_input = false;
  TextMix mix;
  // Activity lists: backs pressed in a row on a forbidden activity before the app is
  // restarted instead (default 3).
  int max_backs = 3;

  bool Active() const {
    return text_input || !strings_file.empty() || !filters_file.empty() || !actions_file.empty();
  }
  // The settings as config.json records them.
  nlohmann::json ToJson() const;
};

struct WidgetLists {
  std::vector<gui::WidgetMatcher> black;  // widget actions on these are removed
  std::vector<gui::WidgetMatcher> white;  // when non-empty, only widget actions on these remain
  bool empty() const { return black.empty() && white.empty(); }
};

struct ActivityLists {
  std::vector<std::string> black;  // on these, press back
  std::vector<std::string> white;  // when non-empty, outside these press back
  bool empty() const { return black.empty() && white.empty(); }
  // Whether the activity may be explored (gui::ActivityMatches names).
  bool Allowed(std::string_view activity) const;
};

struct Script {
  std::string name;
  std::string activity;      // precondition: ActivityMatches; "" = any screen
  double probability = 1.0;  // chance to start on a screen that meets the precondition
  int max_runs = 0;          // times it may start in a run; 0 = no limit
  std::vector<gui::WidgetStep> steps;
};

struct HarnessConfig {
  HarnessOptions options;
  std::vector<std::string> user_strings;
  WidgetLists widgets;
  ActivityLists activities;
  std::vector<Script> scripts;
};

Result<HarnessConfig> LoadHarnessConfig(const HarnessOptions& options);

// The parts, for tests: `source` names the file in errors.
Result<std::vector<std::string>> ParseStringsFile(const std::string& text,
                                                  const std::string& source);
Status ParseFilters(const nlohmann::json& j, const std::string& source, WidgetLists& widgets,
                    ActivityLists& activities);
Result<std::vector<Script>> ParseScripts(const nlohmann::json& j, const std::string& source);

}  // namespace roam::explore
