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
  double aside = 0;   // seconds of `elapsed` not spent exploring (checking bugs): not in ev/s
  std::string extra;  // a campaign's own figures, appended (fuzz: seeds, mutants)
};

struct ProgressOptions {
  double tty_interval = 0.1;    // seconds between redraws on a terminal
  double plain_interval = 5.0;  // seconds between lines otherwise
  int64_t sample_every = 100;   // events between lines of progress.jsonl
};

// One line of progress.jsonl: {"events", "seconds", "activities", "states", "crashes", "anrs",
// "relaunches"}, "units" on a device with coverage and "phone_seconds" on a phone's clock.
nlohmann::json ProgressSample(const ProgressFigures& figures);

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

  void Sample(const ProgressFigures& figures);
};

}  // namespace roam::run
