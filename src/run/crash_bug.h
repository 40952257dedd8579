// run/crash_bug: bugs/B<n>/ for a crash or an ANR, the one way every campaign files one
// (explore through CheckCrashTrace and WriteCrashBug, fuzz and vision through CrashFiler). Where
// the target makes fresh devices (the simulator), the trace that reaches the bug is replayed on
// one first (the replay also takes the screens of its last steps), then the finding's record, the
// trace and the screens are written at once. On a phone, which has no second copy of the app, the
// folder is written unchecked and the session checks it on the same device once the run is over
// (CheckFiledBug). A fleet's devices number their folders through one SharedBugs. The functions
// keep no state; CrashFiler is single-threaded; SharedBugs is thread-safe.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "oracle/oracle.h"
#include "report/trace.h"
#include "run/progress.h"
#include "run/replay_spec.h"
#include "run/replay_trace.h"
#include "run/session.h"
#include "run/target.h"

namespace roam::run {

// How a campaign's crash bugs are checked before their folders are written: the replay they get
// (also copied into bug.json for `roam replay`), the fresh device it runs on, the screens kept.
struct CrashCheckSetup {
  ReplaySpec replay;           // how the bug replays (copied into bug.json)
  DeviceFactory fresh_device;  // empty: no check (a phone)
  int screenshots = 20;        // screens of the trace's last steps kept (0: none)

  // Bugs found on `target`: replayed as it says (its crash signatures of
  // replay.signature_frames app frames), checked on its fresh devices.
  static CrashCheckSetup For(const Target& target) {
    return {.replay = target.replay(), .fresh_device = target.fresh_device()};
  }
};

// Replays `trace` on a fresh device of `setup`, looking for `finding`'s signature, and takes the
// screens of its last setup.screenshots steps. Unchecked (`checked` false) when `setup` makes no
// fresh device or the one asked for could not be made.
TraceCheck CheckCrashTrace(const CrashCheckSetup& setup, const oracle::Finding& finding,
                           const std::vector<report::TraceStep>& trace);

// A shorter trace than trace.jsonl that a bug folder filed unchecked may hold: the check after
// the run tries it first.
inline constexpr char kShorterTrace[] = "trace.shorter.jsonl";
// The whole run's trace up to the bug, kept when a shorter one reproduced it.
inline constexpr char kRunTrace[] = "trace.run.jsonl";

// The traces of a bug folder filed without a check (a phone), tried once the run is over by
// `shows`, which replays one on the device and says whether the bug showed again: its
// trace.shorter.jsonl first (removed once read; a failed replay of it is not an error), then its
// trace.jsonl. When the shorter one shows the bug, it is written as trace.jsonl and the whole
// run's is kept as kRunTrace. Returns whether the bug showed, and the trace that did (the whole
// one when neither did), for the folder's record.
struct FiledTraceCheck {
  bool reproduced = false;
  std::vector<report::TraceStep> trace;
};
Result<FiledTraceCheck> CheckFiledTraces(
    const std::filesystem::path& bug_dir,
    const std::function<Result<bool>(const std::vector<report::TraceStep>&)>& shows);

// Checks a bug folder filed without a check, because the device had no second copy of the app
// (a phone), on that device once the run is over (CheckFiledTraces), with the replay `roam replay`
// does (bug.json's "replay"): its trace.shorter.jsonl, when there is one, then its trace.jsonl. The
// one that reproduced becomes trace.jsonl (the whole run's, replaced, is kept as kRunTrace);
// trace.shorter.jsonl is removed; bug.json records whether the failure showed again, and the
// screens of the last `screenshots` steps are kept. The device is left where the replay left it.
Result<TraceCheck> CheckFiledBug(device::Device& device, const std::filesystem::path& bug_dir,
                                 int screenshots);

// Writes run_dir/bugs/`id`/ (bug.json, trace.jsonl, steps/NNN.png when reproduced).
Status WriteCrashBug(const std::filesystem::path& run_dir, const std::string& id,
                     const oracle::Finding& finding, const std::vector<report::TraceStep>& trace,
                     const TraceCheck& check, const ReplaySpec& replay);

// The bug folders of a run whose devices meet bugs at once (run/explore/fleet.h): each signature
// gets one folder, filed by the device that met it first, numbered in its folder letter's
// sequence (bugs/B<n> for crashes and ANRs, bugs/P<n> for properties). Thread-safe.
class SharedBugs {
 public:
  struct Claim {
    std::string id;      // "B3"
    bool first = false;  // the caller files the folder; otherwise another device did
  };
  Claim ClaimFor(const oracle::Finding& finding, std::string_view folder = "B");
  // Unique crashes (native included) and ANRs claimed so far.
  size_t crashes() const;
  size_t anrs() const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::string> ids_;  // by folder and signature
  std::map<std::string, size_t, std::less<>> claimed_;              // by folder
  size_t anrs_ = 0;
};

// Files an oracle's findings as they come, each with the trace of the run that met it (fuzz:
// the seed or mutant run; vision: the run from its start). Single-threaded.
class CrashFiler {
 public:
  CrashFiler(std::filesystem::path run_dir, CrashCheckSetup setup)
      : run_dir_(std::move(run_dir)), setup_(std::move(setup)) {}
  // Writes bugs/B<n>/ for each of the crash oracle's findings not filed yet (finding i: B<i+1>),
  // each noted on the progress line as "<command>: B<n> <signature>". Where `setup` has no fresh
  // device, each is left to `session` to check after the run.
  Status FileNew(const std::vector<oracle::Finding>& crashes,
                 const std::vector<report::TraceStep>& trace, Session& session,
                 std::string_view command);
  // Per finding filed, its folder ("bugs/B1"), for report::AddFindings.
  const std::vector<std::string>& dirs() const { return dirs_; }

 private:
  std::filesystem::path run_dir_;
  CrashCheckSetup setup_;
  std::vector<std::string> dirs_;
};

}  // namespace roam::run
