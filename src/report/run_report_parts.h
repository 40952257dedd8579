// Internal to report/run_report*.cc: the page's lenient reads of what a run wrote (a file shows
// what it holds and the page skips what it does not) and its bugs section. Stateless.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "report/summary.h"

namespace roam::report::page {

// Lenient reads: the page shows what a file holds and skips what it does not.
inline std::string Str(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}
inline std::optional<double> Num(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}
inline bool Bool(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return false;
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}
inline std::vector<std::string> Strs(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains(key) || !j[key].is_array()) return out;
  for (const auto& v : j[key])
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}
// 123,456: whole numbers grouped by thousands.
inline std::string Count(double v);
inline std::string Count(size_t v) { return Count(static_cast<double>(v)); }
inline std::string Count(int64_t v) { return Count(static_cast<double>(v)); }
inline std::string Count(int v) { return Count(static_cast<double>(v)); }
inline std::string Count(double v) {
  const std::string digits = fmt::format("{}", std::llabs(std::llround(v)));
  std::string out = v < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The last component of a class name: "MainActivity".
inline std::string ShortName(const std::string& activity) {
  auto dot = activity.rfind('.');
  return dot == std::string::npos ? activity : activity.substr(dot + 1);
}

// A JSON file of the folder: the value, or why it could not be read ("" error: absent).
struct JsonFile {
  nlohmann::json value;
  std::string error;
  bool present = false;
};
inline JsonFile ReadOptionalJson(const std::filesystem::path& path) {
  JsonFile f;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return f;
  f.present = true;
  auto j = ReadJsonFile(path);
  if (j.ok()) {
    f.value = std::move(*j);
  } else {
    f.error = j.status().message();
  }
  return f;
}

// The bugs section: a card per crash, ANR and functional report of summary.json, each with its
// screens and steps, the first one open.
std::string BugsSection(const std::filesystem::path& run_dir, const Summary& summary);

// The id of a bug's card on the page: its folder ("bugs/B1"), or the signature of a bug that has
// none. The figure cards link to it.
inline std::string BugAnchor(const FailureSummary& failure) {
  return failure.bug_dir.empty() ? failure.signature : failure.bug_dir;
}

// For a bug `roam minimize` has not cut yet: the command that does, with the folder's absolute
// path (bugs/B1 of `run_dir`), on a line of its own.
std::string MinimizeHint(const std::filesystem::path& run_dir, const std::string& rel);

// A bug's screens (bug.json's "screenshots": steps/NNN.png, the screen before the trace's NNN-th
// step with its target outlined; steps/before.png and steps/after.png), each captioned from
// `trace`; or why there are none.
std::string StepsStrip(const std::filesystem::path& bug_dir, const std::string& rel,
                       const nlohmann::json& bug, const std::vector<TraceStep>& trace);

// The card of a functional report (run_report_functional.cc): the explanation, the seed's and
// the mutant's screens before and after with the views the mutant missed outlined (diff.json),
// the minimised steps or the command that makes them, and the replay command.
std::string FunctionalCard(const std::filesystem::path& run_dir, const FunctionalFinding& f,
                           bool simulator, bool open);

// The actions out of the states whose screen the run kept, from its traces (read with the
// activity transitions): by state (HexKey), the actions taken on it and where they led.
struct StateSteps {
  std::set<std::string> kept;  // the states with a screen in screens/
  // from, to: each action in words (`click "Add"`, `back`) and how often it led there
  std::map<std::pair<std::string, std::string>, std::map<std::string, int64_t>> edges;
  std::map<std::string, int64_t> visits;          // actions taken on each kept state
  std::map<std::string, std::string> activities;  // each kept state's activity
  std::map<std::string, int64_t> starts;  // how often each kept state came first after a launch
};

// report.html's screen view, in the spirit of DroidBot's: the states whose first screen the run
// kept (screens/<state>.png and .xml, run/session.h), each opening to its widgets and the actions
// that left it, linked to where they led; `states` is how many the run reached. "" when the run
// kept none.
std::string ScreensSection(const std::filesystem::path& run_dir, const StateSteps& steps,
                           size_t states);

// report.html's state graph (run_report_states.cc), in the spirit of DroidBot's UTG: the states
// whose screen the run kept, drawn as those screens and laid out by Graphviz, an arrow an action
// that led from one to another; each screen links to its card in the screen view. The most
// visited states and the most taken arrows when there are many, with a line that says what was
// left out; the box scrolls on its own. "" when the run kept no screen.
std::string StateGraphSection(const std::filesystem::path& run_dir, const StateSteps& steps,
                              size_t states);

}  // namespace roam::report::page
