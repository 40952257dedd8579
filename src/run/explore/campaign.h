// run/explore/campaign: one exploration campaign, the step loop of DESIGN.md: observe, abstract,
// let the strategy choose, perform, drain events, run the oracles, learn, append to the trace. What
// decides the next event is the strategy; what judges it, the crash oracle. The device is
// driven through the run's Session (run/session.h: the budget, the step executor, the crash oracle,
// the trace and progress, why the run stopped); the campaign owns it and the bug folders, and
// borrows the device and the strategy.
// Single-threaded; the context's stop flag may be set from a signal handler.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/rng.h"
#include "device/device.h"
#include "explore/strategy.h"
#include "oracle/crash.h"
#include "oracle/kinds.h"
#include "report/summary.h"
#include "report/trace.h"
#include "report/verdict.h"
#include "run/budget.h"
#include "run/context.h"
#include "run/crash_bug.h"
#include "run/executor.h"
#include "run/oracle_bug.h"
#include "run/oracles.h"
#include "run/progress.h"
#include "run/replay_spec.h"
#include "run/session.h"
#include "run/target.h"

namespace roam::run {

struct CampaignOptions {
  // The session's (run/session.h): throttle, relaunch limit, crash signatures, progress, screens
  // kept; its budget, run folder, device tag and report come from the campaign's arguments.
  SessionOptions session;
  bool clear_data_at_start = true;   // start from a freshly installed state
  size_t max_episode_steps = 20000;  // steps kept in memory for a bug's short trace
  int64_t flush_every = 500;         // events between Strategy::Flush calls (0: only at the end)
  // The user's oracles (--properties and the other rows of oracle/kinds.h), each made fresh for
  // the campaign; the crash oracle is always on.
  std::vector<oracle::OracleMaker> oracles;
  // Offer the strategy the intents the app takes (--intents on|off; explore/intents.h).
  bool intents = true;
};

// The devices of one run taking turns, one step each in the order of their indexes
// (run/explore/fleet.h with ExploreOptions::lockstep): on the simulator such a run is reproducible
// from its seed, as a free-running one is not (which device's step reaches the shared model first
// varies). Thread-safe.
class StepTurns {
 public:
  explicit StepTurns(size_t devices) : active_(devices, true) {}
  void Begin(size_t device);  // waits for `device`'s turn
  void End(size_t device);    // passes the turn on
  void Leave(size_t device);  // `device` takes no more turns
 private:
  void PassOn(size_t from);
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<bool> active_;
  size_t turn_ = 0;
};

struct CampaignIo {
  std::string app;  // for summary.json: the spec path or the package
  uint64_t seed = 0;
  std::filesystem::path out_dir;  // prepared by PrepareOutDir
  ReplaySpec replay;              // copied into each bug.json ("how to replay")
  DeviceFactory fresh_device;     // checks bug traces before they are written; may be empty
  report::KnownBugs known;        // bugs the summary marks known
  bool html_report = true;        // write report.html (RunOptions::html_report)
  // One device of several in one run (run/explore/fleet.h): names its files trace-<tag>.jsonl,
  // progress-<tag>.jsonl and summary-<tag>.json; empty: the run's only device.
  std::string device_tag;
  SharedBugs* shared_bugs = nullptr;  // the run's bug folders, when devices share them
  // The simulator's planted bugs other than crashes, switched on: a property's bug is put down to
  // the one whose switching off makes it hold (its bug_id).
  std::vector<std::string> functional_bugs;
  StepTurns* turns = nullptr;  // when the devices take turns: this one is turn_index
  size_t turn_index = 0;
  // Called every so many steps, at each new activity and at the end, with the figures of the
  // progress line and the activities and abstract states reached, each in order of discovery.
  std::function<void(const ProgressFigures&, const std::vector<std::string>& activities,
                     const std::vector<uint64_t>& states)>
      on_progress;
};

class Campaign {
 public:
  Campaign(CampaignOptions options, BudgetOptions budget, device::Device& device,
           explore::Strategy& strategy, Rng& rng, CampaignIo io, const RunContext& context);
  ~Campaign();

  // Runs to the budget, a stop request or a device failure; summary.json, trace.jsonl and the
  // bug folders are written as it goes and completed before it returns.
  Result<report::Summary> Run();
  // The summary as it stands (after Run: the final one, also when Run ended with an error).
  report::Summary Summarize() const { return MakeSummary(); }

 private:
  // The last action, waiting for the next observation to tell the strategy where it led.
  struct Pending {
    uint64_t from = 0;
    gui::Action action;
    size_t new_units = 0;
    bool crashed = false;
    bool new_crash = false;
  };

  Status Start();
  Status Step();
  // Session::EnsureInApp, noting the first screen's rotation.
  Status EnsureInApp(bool& relaunched);
  // Notes the screen on the device now: a new state, a new activity.
  void SeeScreen(uint64_t key, bool& new_state, bool& new_activity);
  Status Record(report::TraceStep step);
  // Records an act step with what followed it, and files a bug for each new finding.
  Status RecordAct(report::TraceStep step, const ActOutcome& outcome);
  // A bug folder for a new finding: bugs/B<n> for a device's report, else its oracle kind's.
  Status File(const oracle::Finding& finding);
  Status FileBug(const oracle::Finding& finding);
  // The oracles' look at the screen about to be acted on (campaign_oracles.cc): a step of their
  // own in `own`, and a bug folder for each new finding.
  Status SeeOracles(bool restarted, std::optional<gui::Action>& own);
  Status FileOracleBug(const oracle::Finding& finding);
  // The last episode from a clean start (turned as the run began), or the whole run so far when
  // the episode overflowed; the whole run so far, read back from trace.jsonl.
  std::vector<report::TraceStep> EpisodeTrace();
  std::vector<report::TraceStep> RunTraceSoFar();
  // The trace of a new finding: the last episode from a clean start when it reproduces the
  // finding, else the whole run so far; `checked` says how its check went. Where no fresh
  // device can check it now (a phone), the whole run so far, with the last episode from a clean
  // start in `shorter` for the check after the run to try first.
  std::vector<report::TraceStep> BugTrace(const oracle::Finding& finding, TraceCheck& checked,
                                          std::vector<report::TraceStep>& shorter);
  // Time travel (campaign_timetravel.cc): the strategy's requests, see explore/strategy.h.
  struct SavedPath {
    uint64_t state = 0;
    std::vector<report::TraceStep> steps;  // an episode: from a clear or a launch to `state`
    bool from_clear = false;
    bool valid = false;  // false: too long to keep (the episode overflowed)
    int rotation = -1;   // the device's when the episode began (-1: as the run began)
  };
  Status ServeRequests(uint64_t& key);
  Status TakeSnapshot(const explore::Request& request, uint64_t key, bool& ok);
  Status RestoreSnapshot(const explore::Request& request, bool& ok);
  Status ReplayPath(const SavedPath& path, bool& ok);
  // A rotate step, sent when a device now in rotation `now` must be in `then`'s orientation
  // (rotate turns between portrait and landscape); nullopt when it is, or either is unknown.
  static std::optional<report::TraceStep> TurnStep(int now, int then);
  void KeepShorterPath(uint64_t key);
  ProgressFigures Figures() const;
  void ShowProgress();
  report::Summary MakeSummary() const;

  CampaignOptions options_;
  device::Device& device_;
  explore::Strategy& strategy_;
  Rng& rng_;
  CampaignIo io_;
  Session session_;
  Budget& budget_;          // session_'s
  StepExecutor& executor_;  // session_'s

  gui::Screen screen_;
  std::vector<gui::Action> actions_;
  std::unordered_set<uint64_t> states_;
  std::vector<uint64_t> state_order_;    // states_ in order of discovery (for io_.on_progress)
  std::vector<std::string> activities_;  // in order of first visit
  std::unordered_set<std::string> activity_set_;
  std::vector<report::TraceStep> episode_;  // since the last clear or launch
  bool episode_from_clear_ = false;
  bool episode_overflow_ = false;
  // The device's rotation outlives a relaunch and a clear, on a phone as in the simulator, so an
  // episode begins in the rotation the device had then (-1: as the run began, in
  // start_rotation_, the first screen's).
  int episode_rotation_ = -1;
  int start_rotation_ = -1;
  std::vector<std::string> bug_dirs_;  // per crash finding index
  std::optional<Pending> pending_;

  std::map<std::string, SavedPath> saved_;  // by snapshot name
  std::unordered_map<uint64_t, std::string> saved_by_state_;
  size_t snapshots_taken_ = 0, restores_ = 0, failed_restores_ = 0;
  int64_t restore_events_ = 0;  // events sent replaying paths

  // The user's oracles (CampaignOptions::oracles), besides the session's crash oracle, and the
  // bug folders of their findings.
  CampaignOracles oracles_;
  OracleFiler oracle_filer_;

  int64_t trace_steps_ = 0;
  size_t reported_activities_ = 0;  // activities when io_.on_progress was last called
};

}  // namespace roam::run
