// run/progress: the live status of every campaign (explore, fuzz). On a terminal one line redrawn
// in place (about ten times a second); otherwise a plain line every few seconds, for logs and
// CI. Every field is documented in docs/exploring.md. The same figures are sampled into the run
// folder's progress.jsonl every `sample_every` events (the coverage chart of report.html), each
// line flushed as it is written so an interrupted run keeps its curve. Single-threaded.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam::run {

struct ProgressFigures {
  int64_t events = 0;
  int64_t max_events = 0;               // 0: no event budget
  double elapsed = 0;                   // seconds
  std::optional<double> phone_seconds;  // on a phone's clock (run/budget.h): its seconds
  size_t states = 0;
  size_t activities = 0;
  std::optional<size_t> activities_total;
  std::optional<size_t> units_covered, units_total;
  size_t crashes = 0;
  size_t anrs = 0;
  size_t relaunches = 0;
  // Time travel: snapshots taken, restores done, restores that failed (shown when nonzero).
  size_t snapshots = 0, restores = 0, failed_restores = 0;
  double aside = 0;        // seconds of `elapsed` not spent exploring (checking bugs): not in ev/s
  double max_seconds = 0;  // the time budget (0: none), in phone_seconds when there are some
  // A campaign's own figures (fuzz: reports, violations, mutants, seeds), most telling first: a
  // line too wide for the terminal drops the last first.
  std::vector<std::string> extra;
};

struct ProgressOptions {
  // Columns of the terminal line (0: the terminal's, else $COLUMNS, else 80). A line is fitted
  // to it by dropping the least telling parts first: ev/s, relaunches, a campaign's own figures,
  // ...; whole lines (not a terminal) are never cut.
  int width = 0;
  double tty_interval = 0.1;    // seconds between redraws on a terminal
  double plain_interval = 5.0;  // seconds between lines otherwise
  int64_t sample_every = 100;   // events between lines of progress.jsonl
};

// One line of progress.jsonl: {"events", "seconds", "activities", "states", "crashes", "anrs",
// "relaunches"}, "units" on a device with coverage and "phone_seconds" on a phone's clock.
nlohmann::json ProgressSample(const ProgressFigures& figures);
// The status line: elapsed, the share of the budget used and the time left, events, bugs,
// states, activities, units, how long ago the last new state or unit came (`since_new` seconds;
// negative: none yet), ev/s, relaunches, a campaign's figures; at most `width` columns when
// `width` > 0 (parts dropped, least telling first).
std::string ProgressLine(const ProgressFigures& figures, double since_new, size_t width);

class Progress {
 public:
  // `out` may be null (silent). `tty` decides the style.
  Progress(std::FILE* out, bool tty, ProgressOptions options = {});
  ~Progress();
  Progress(const Progress&) = delete;  // owns progress.jsonl's handle
  Progress& operator=(const Progress&) = delete;
  // Samples the figures into `path` (progress.jsonl) from now on. A sample that cannot be written
  // is reported once with Note() and sampling stops; the run goes on.
  Status OpenLog(const std::filesystem::path& path);
  // Draws if the interval has passed (or `force`); samples when `sample_every` events passed.
  void Update(const ProgressFigures& figures, bool force = false);
  // Draws the final figures, ends the line, and writes the last sample.
  void Finish(const ProgressFigures& figures);
  // A line of its own (a bug found): on a terminal it replaces the status line, which the next
  // Update draws again below it.
  void Note(const std::string& line);

 private:
  std::FILE* out_;
  bool tty_;
  ProgressOptions options_;
  std::chrono::steady_clock::time_point last_;
  bool drawn_ = false;
  std::FILE* log_ = nullptr;
  int64_t next_sample_ = 0;
  int64_t last_sampled_ = -1;  // events of the last sample written
  // When (elapsed seconds) the states or units last grew, and their counts then.
  double new_at_ = -1;
  size_t seen_states_ = 0, seen_units_ = 0;

  std::string Line(const ProgressFigures& figures);
  size_t Width() const;

  void Sample(const ProgressFigures& figures);
};

}  // namespace roam::run
