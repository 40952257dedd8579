// report/trace: trace.jsonl, one JSON line per step, streamed to disk as the run goes so any run
// can be replayed and nothing is lost on Ctrl-C. TraceWriter is used by one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::report {

// One line of a trace. `op` is "act" (send `action`), "launch" (bring the app up), "clear"
// (wipe app data), "stop" (kill the app), or, written by time travel on a device with
// snapshots, "snapshot" / "restore" (save / bring back the device state named `snapshot`).
// Only op, action and snapshot matter to a replay; the rest is for people and tools.
struct TraceStep {
  int64_t step = 0;
  std::string op = "act";
  gui::Action action;
  std::string activity;     // before the action
  uint64_t state = 0;       // screen key before (the next step's is the one after)
  std::string widget_text;  // text / content-desc of the target, for readers
  std::string resource_id;
  std::vector<std::string> events;  // "crash <signature>", "anr ...", "left_app"
  int64_t new_units = 0;            // code units the step covered first (with coverage)
  std::string snapshot;             // the snapshot's name ("snapshot" and "restore" steps)
};

nlohmann::json ActionToJson(const gui::Action& action);
Result<gui::Action> ActionFromJson(const nlohmann::json& j);
nlohmann::json StepToJson(const TraceStep& step);
Result<TraceStep> StepFromJson(const nlohmann::json& j);
std::string HexKey(uint64_t key);
// A step as a person would do it by hand: `tap "Add" (id/add) on MainActivity`, `press back on
// EditActivity`, `clear the app's data`.
std::string StepSentence(const TraceStep& step);

// Reads a whole trace; errors name the file and line.
Result<std::vector<TraceStep>> ReadTrace(const std::filesystem::path& path);
// Writes a whole trace at once (temp name, then rename).
Status WriteTrace(const std::filesystem::path& path, const std::vector<TraceStep>& steps);

struct TraceWriterOptions {
  double flush_seconds = 0.2;  // flush at least this often (and on Flush())
};

class TraceWriter {
 public:
  TraceWriter() = default;
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  Status Open(const std::filesystem::path& path, TraceWriterOptions options = {});
  Status Append(const TraceStep& step);
  Status Flush();
  Status Close();

 private:
  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  TraceWriterOptions options_;
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace roam::report
