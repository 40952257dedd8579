// report/summary: summary.json (the machine-readable result of a run, documented in
// docs/exploring.md) and the bugs/B<n>/ folders. Plain data plus writers that write to a temp name
// and rename. Thread-compatible.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/device.h"
#include "oracle/oracle.h"
#include "report/code_coverage.h"
#include "report/trace.h"

namespace roam::report {

// One unique crash or ANR.
struct FailureSummary {
  std::string kind;  // "crash", "anr", "native_crash"
  std::string signature;
  std::string exception;
  std::string message;
  int count = 0;
  std::string bug_id;  // the planted bug behind it (simulator), "" when unknown
  int64_t first_step = 0;
  std::string bug_dir;  // "bugs/B1"
  bool known = false;   // listed in the run's --known file: reported, but fails no job
};

// Where the step loop's time went (seconds, summed over the run). A step is one action: observe
// (Device::Observe: the dump, its parse, the focused activity), decide (screen key, actions,
// strategy Next and Learn), act (Device::Perform), events (Device::DrainEvents and the crash
// oracle). launch holds the app launches and data clears; the rest of wall_seconds is the
// trace, bug folders, summaries, throttle and progress output.
struct StepTiming {
  int64_t steps = 0;
  double observe = 0;
  double decide = 0;
  double act = 0;
  double events = 0;
  double launch = 0;
  // Time not spent exploring, left out of events per second: checking bugs' traces on a fresh
  // device with their screens, and keeping the states' screens for report.html.
  double aside = 0;
};

// One functional bug report (bugs/F<n> of `roam fuzz`): a unique violation of Genie's
// independent-view check.
struct FunctionalFinding {
  std::string id;   // "F1"
  std::string key;  // the violation string
  std::string activity;
  std::string explanation;
  int count = 0;        // mutants that showed it
  int first_seed = 0;   // the seed (0-based) it was found on
  std::string bug_dir;  // "bugs/F1"
  std::string bug_id;   // simulator: the planted bug it is a true positive for ("": none)
  bool scored = false;  // whether bug_id was computed
  bool known = false;   // listed in the run's --known file
};

struct Summary {
  std::string app;  // spec path or package
  std::string package;
  std::string device;
  std::string strategy;
  uint64_t seed = 0;
  int64_t events = 0;
  double wall_seconds = 0;
  // On a phone's clock (--clock phone): the seconds a phone would have taken (run/budget.h).
  std::optional<double> phone_seconds;
  std::string stop_reason;  // "events", "time", "interrupted", "device error: ..."
  std::optional<size_t> activities_total;
  std::vector<std::string> activities_covered;
  std::vector<std::string> activities_declared;  // empty when unknown
  std::optional<size_t> units_total;
  std::optional<size_t> units_covered;
  size_t states = 0;
  size_t relaunches = 0;
  // Actions the device turned down, which did nothing, by reason (a phone's UiAutomator2 server
  // refusing a rotation on a screen locked to portrait: "invalid element state (POST
  // /orientation)").
  std::map<std::string, int64_t> refused;
  // What the device lived through (summary.json's "device", written when not empty): spells
  // away and their seconds, driver restarts, system screens passed.
  device::DeviceLife device_life;
  // Where coverage is read from the app (Android's --coverage): how the link went; absent
  // otherwise.
  std::optional<device::CoverageLink> coverage_link;
  // JaCoCo's figures from the app's class files (a run given --classfiles), as of the run's end.
  std::optional<CoverageCounters> code_coverage;
  // Time travel: snapshots taken (paths kept, on a device without snapshots), restores that
  // reached their state, restores that failed, events sent replaying paths.
  size_t snapshots = 0, restores = 0, failed_restores = 0;
  int64_t restore_events = 0;
  std::vector<FailureSummary> crashes;  // unique crashes (native included)
  std::vector<FailureSummary> anrs;     // unique ANRs
  StepTiming timing;
  // Campaigns that report functional bugs (fuzz's independent-view check, vision's Detector, the
  // user's oracles): their reports. Absent otherwise.
  std::optional<std::vector<FunctionalFinding>> functional;
  // A campaign's own top-level keys (fuzz: "fuzz" with its counters); an object or null. Each
  // name is one of report/summary_sections.h's table: WriteSummary refuses any other.
  nlohmann::json sections;
};

// Adds the crash oracle's unique crashes and ANRs to `into`; bug_dirs[i] is finding i's folder
// ("" or absent: none).
void AddFindings(const std::vector<oracle::Finding>& findings,
                 const std::vector<std::string>& bug_dirs, Summary& into);

// Events per second of exploring: the wall time without timing.aside (0 without time).
inline double EventsPerSecond(const Summary& s) {
  const double exploring = s.wall_seconds - s.timing.aside;
  return exploring > 0 ? s.events / exploring : 0.0;
}

// An error when `sections` is neither null nor an object, or names a section not in
// report/summary_sections.h's table (WriteSummary adds the file's name).
Result<nlohmann::json> SummaryToJson(const Summary& summary);
Status WriteSummary(const std::filesystem::path& path, const Summary& summary);
// summary.json read back (report/summary_read.cc), the one reader of what WriteSummary writes:
// a field of the wrong type is an error naming the file and the field ("summary.json:
// crashes[1].count: expected an integer, got \"x\""); an absent field keeps its default, so
// older and unfinished runs read. The sections of report/summary_sections.h's table (a campaign's
// "fuzz", "vision", "devices") land in `sections`; any other key is an error naming it and the
// file (a typo, or a section of a newer Roam this one cannot read, or write back).
Result<Summary> SummaryFromJson(const nlohmann::json& j, std::string_view where);
Result<Summary> ReadSummary(const std::filesystem::path& path);

// What bugs/B<n>/bug.json holds. `replay` says how to re-run the trace: app spec (or package),
// bugs switched off, and that it starts from cleared app data.
struct BugRecord {
  std::string id;  // "B1"
  FailureSummary failure;
  std::vector<std::string> frames;
  std::string log;                 // the device log text of the first occurrence
  nlohmann::json replay;           // {"app": ..., "bugs_off": [...], "start": "clear"}
  std::optional<bool> reproduced;  // checked on a fresh app when the device allows it
  // The screens of the trace's last steps (steps/NNN.png), taken by that check; or why none.
  std::vector<std::string> screenshots;
  std::string screenshots_unavailable;
};

Status WriteBug(const std::filesystem::path& dir, const BugRecord& bug,
                const std::vector<TraceStep>& trace);
Result<BugRecord> ReadBug(const std::filesystem::path& dir);

}  // namespace roam::report
