// run/session: what every campaign shares, whatever loop it runs on it (explore and time travel in
// run/explore, fuzz in run/fuzz, vision in run/vision): the budget, the crash oracle and the step
// executor on the device, the progress line and progress.jsonl, trace.jsonl, the relaunch limit
// and count, why the run stopped, the summary's shared fields and the files a run ends with
// (summary.json, coverage.exec, report.html). A campaign owns one Session and borrows the device.
// Single-threaded, as the campaign that owns it; the context's stop flag may be set from a signal
// handler.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "explore/strategy.h"
#include "gui/screen.h"
#include "oracle/crash.h"
#include "report/summary.h"
#include "report/trace.h"
#include "report/verdict.h"
#include "run/budget.h"
#include "run/context.h"
#include "run/executor.h"
#include "run/progress.h"
#include "run/replay_trace.h"
#include "run/run_folder.h"

namespace roam::run {

struct SessionOptions {
  BudgetOptions budget;
  oracle::CrashOracleOptions crash;
  ExecutorOptions executor;
  ProgressOptions progress;
  // Launches in a row that leave the app elsewhere before the run gives up.
  int max_failed_launches = 5;
  std::filesystem::path out_dir;  // the run folder, prepared (run/run_folder.h)
  // One device of several in one run (run/explore/fleet.h): its files are `<stem>-<tag>.<ext>`;
  // empty: the run's only device.
  std::string device_tag;
  bool html_report = true;  // write report.html
  // Screens of a bug trace's last steps kept by the check of a bug filed unchecked (0: none).
  int bug_screenshots = 20;
  // States whose first screen is kept for report.html's screen view (screens/<state>.png and
  // .xml; 0: none).
  int state_screens = 48;

  // A campaign of `run` (fuzz, vision): its budget (its time counted on `budget_clock`, the
  // target's: null for the wall), run folder and page, crash signatures of `signature_frames`
  // app frames.
  static SessionOptions For(const RunOptions& run, const Clock* budget_clock, int signature_frames,
                            ProgressOptions progress) {
    return {.budget = {.events = run.budget.events,
                       .seconds = run.budget.seconds,
                       .clock = budget_clock},
            .crash = {.top_frames = signature_frames},
            .progress = progress,
            .out_dir = run.out,
            .html_report = run.html_report};
  }
};

class Session {
 public:
  Session(device::Device& device, SessionOptions options, const RunContext& context);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens progress.jsonl and, with `trace`, trace.jsonl (fuzz writes its runs elsewhere).
  Status Open(bool trace = true);

  device::Device& device() { return device_; }
  const device::Device& device() const { return device_; }
  const std::string& package() const { return package_; }
  const RunContext& context() const { return context_; }
  Budget& budget() { return budget_; }
  const Budget& budget() const { return budget_; }
  oracle::CrashOracle& crashes() { return crashes_; }
  const oracle::CrashOracle& crashes() const { return crashes_; }
  StepExecutor& executor() { return executor_; }
  const StepExecutor& executor() const { return executor_; }
  Progress& progress() { return progress_; }
  report::TraceWriter& trace() { return trace_; }
  const SessionOptions& options() const { return options_; }
  // The activities the app declares, read once by Open (empty where the device cannot say).
  const std::vector<std::string>& declared_activities() const { return declared_; }
  // Device::DeclaredBroadcasts, read at Open and again after each broadcast sent (a device may
  // refuse one).
  const std::vector<std::string>& broadcasts() const { return broadcasts_; }
  void ReadBroadcasts() { broadcasts_ = device_.DeclaredBroadcasts(); }
  // The intents worth sending (gui::CandidateIntents of Device::DeclaredIntentTargets, but not
  // the launcher's own), each with the activity it starts; read at Open and again after the
  // device refused one (it then declares less).
  const std::vector<explore::IntentOffer>& intents() const { return intents_; }
  void ReadIntents();

  // A file of the run folder: `stem`.`ext`, or `stem`-<device_tag>.`ext` for one of several.
  std::filesystem::path RunFile(std::string_view stem, std::string_view ext) const;
  // Passes on the status of a write to the run folder, noting when it failed (the run then stops
  // with a write error, not a device error).
  Status Wrote(Status s) {
    write_failed_ = write_failed_ || !s.ok();
    return s;
  }

  // Brings the app to the foreground: observes into `screen` and, while it shows another
  // package, calls `before_launch` (which records the launch) and launches, counting a relaunch
  // after the run's first launch. Unavailable after max_failed_launches launches in a row.
  template <typename BeforeLaunch>
  Status EnsureInApp(gui::Screen& screen, bool& relaunched, BeforeLaunch before_launch);
  // The error of an app that did not come up after `launches` launches in a row.
  Status NotInForeground(int launches, const gui::Screen& screen) const;
  size_t relaunches() const { return relaunches_; }

  // Whether the loop stops before its next step: a stop request ("interrupted") or the budget
  // spent ("events", "time"); the reason is noted.
  bool Over();
  // Notes that the run stops on `failure`: "write error: " and its message after a write to the
  // run folder failed, else `cause` ("device error: " when empty). The first reason noted stays.
  void StopOn(const Status& failure, std::string_view cause = {});
  // Notes the reason of a run that ended without an error and without Over(): a stop request,
  // the budget, or `otherwise` (fuzz: "seeds").
  void StopAtEnd(std::string_view otherwise);
  // Why the run stopped, as summary.json says it; "running" until a reason is noted.
  const std::string& stop_reason() const { return stop_reason_; }

  // The progress figures every campaign has: events, budget, time, crashes, ANRs, relaunches, the
  // declared activities and code coverage. The campaign adds states, activities and its own.
  ProgressFigures Figures() const;
  // The summary's shared fields; the campaign adds what it reached and what it found.
  report::Summary Summary(std::string app, std::string strategy, uint64_t seed) const;

  // A bug folder filed without a check, the device having no second copy of the app (a phone):
  // Finish checks it on this device once the run is over with `check` (run/crash_bug.h's
  // CheckFiledBug for a crash, run/oracle_bug.h's CheckFiledOracleBug for a user oracle's bug).
  using FiledBugCheck = Result<TraceCheck> (*)(device::Device& device,
                                               const std::filesystem::path& bug_dir,
                                               int screenshots);
  void CheckAfterRun(std::filesystem::path bug_dir, FiledBugCheck check) {
    unchecked_.emplace_back(std::move(bug_dir), check);
  }

  // Keeps the screen of `state` (its gui::ScreenKey) as the device shows it now, for the first
  // state_screens states: screens/<HexKey>.png and .xml. The time goes to timing.aside; a device
  // that cannot take screenshots is noted once and asked no more.
  void KeepScreen(uint64_t state, const gui::Screen& screen);

  // coverage.exec (coverage-<device>.exec in a fleet), when the device's coverage is JaCoCo's.
  Status WriteCoverageFile() const;
  // Writes report.html from the run folder (mid-run: only when it is due, so a long run spends
  // under 5% of its time on it); a failure is noted once and the run goes on.
  void RefreshReport(bool final);
  // The end of a run, whatever stopped it: the last progress line with `figures`, `summary` with
  // the known bugs marked into summary.json, the checks of bugs filed unchecked (not after a stop
  // request or a device error), coverage.exec and report.html.
  Status Finish(const ProgressFigures& figures, report::Summary& summary,
                const report::KnownBugs& known);

 private:
  void CheckUnchecked();  // the folders of CheckAfterRun, each noted

  device::Device& device_;
  SessionOptions options_;
  RunContext context_;
  std::string package_;
  Budget budget_;
  oracle::CrashOracle crashes_;
  StepExecutor executor_;
  Progress progress_;
  report::TraceWriter trace_;
  std::vector<std::string> declared_;
  std::vector<std::string> broadcasts_;
  std::vector<explore::IntentOffer> intents_;
  std::vector<std::pair<std::filesystem::path, FiledBugCheck>> unchecked_;  // Finish checks them
  std::unordered_set<uint64_t> kept_screens_;  // states KeepScreen kept
  bool screens_failed_ = false;
  size_t relaunches_ = 0;
  std::string stop_reason_ = "running";
  bool stopped_ = false;  // a reason was noted
  bool write_failed_ = false;
  double next_report_ = 0;  // budget seconds
  bool report_failed_ = false;
};

template <typename BeforeLaunch>
Status Session::EnsureInApp(gui::Screen& screen, bool& relaunched, BeforeLaunch before_launch) {
  for (int attempt = 0;; ++attempt) {
    ROAM_RETURN_IF_ERROR(executor_.Observe(screen));
    if (screen.package == package_) return Status::Ok();
    if (attempt >= options_.max_failed_launches) return NotInForeground(attempt, screen);
    ROAM_RETURN_IF_ERROR(before_launch());
    ROAM_RETURN_IF_ERROR(executor_.Launch());
    if (budget_.events() > 0 || attempt > 0) ++relaunches_;
    relaunched = true;
  }
}

}  // namespace roam::run
