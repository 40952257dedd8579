// run/replay_trace: re-executing a trace. ReplayTrace runs a trace on a device through the step
// executor and says whether a crash or ANR signature shows up again (every campaign uses it to
// check a bug's trace before writing it; run/triage/replay.h replays whole bug folders with it).
// Single-threaded.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "report/trace.h"
#include "run/replay_spec.h"

namespace roam::run {

struct ReplayResult {
  bool reproduced = false;
  int64_t steps_run = 0;                // trace steps executed before stopping
  std::vector<std::string> signatures;  // every failure signature seen on the way
  // The first action step whose screen was not the one recorded (its state key differs): where
  // the replay left the run's path. Unset when every step saw its recorded screen.
  struct Divergence {
    int64_t step = 0;  // the trace's step number
    std::string recorded_activity, seen_activity;
    uint64_t recorded_state = 0, seen_state = 0;
  };
  std::optional<Divergence> divergence;
};

// A bug's trace checked on a device: whether it showed the bug again, and the screens it took.
struct TraceCheck {
  bool checked = false;     // a device replayed the trace (a fresh one, or a phone after the run)
  bool reproduced = false;  // and the finding's signature showed again
  std::vector<std::pair<size_t, std::string>> shots;  // by index in the trace
  std::string after;                                  // the screen the failure left (PNG)
  std::string shots_error;                            // why the device drew none
  size_t steps = 0;                                   // the trace's
  // Where the replay left the trace's recorded screens, when it did.
  std::optional<ReplayResult::Divergence> divergence;
};

// "the replay left the recorded path at step 15: recorded 9f0c... on .MainActivity, seen ..."
std::string DivergenceWords(const ReplayResult::Divergence& d);

// What a replay records besides its result (each optional).
struct ReplayRecord {
  // Each step run, its activity, state and target widget as this replay saw them (the trace a
  // person reads).
  std::vector<report::TraceStep>* annotated = nullptr;
  // For each step run, a hash of everything its screen showed (gui::ContentHash; 0 for steps
  // that are not actions): finer than the state, for telling exact returns apart.
  std::vector<uint64_t>* content = nullptr;
  // The screen before each of the last `screenshot_last` action steps, its target outlined, as
  // PNG, with its index in `steps`. A device that cannot draw leaves it empty and says why in
  // `screenshot_error`.
  std::vector<std::pair<size_t, std::string>>* screenshots = nullptr;
  size_t screenshot_last = 20;
  std::string* screenshot_error = nullptr;
  // The screen once the wanted signature showed (what the failure left: a dialog, the launcher),
  // as PNG; empty when it did not show or the device cannot draw.
  std::string* after_screenshot = nullptr;
  // Called with each action step and the screen it was taken on.
  std::function<void(const report::TraceStep&, const gui::Screen&)> on_screen;
  // The screen after the last step (read once more at the end; unset when it could not be).
  std::optional<gui::Screen>* last_screen = nullptr;
};

// Runs `steps` in order (clear / launch / stop / snapshot / restore / act) and stops at the
// first report whose signature is `want_signature` (empty: run to the end and just collect
// signatures). A phone may log the last action's crash only after the action returned: when it
// has not shown up, the device's reports are read again for up to `late_ms` (0 on the
// simulator, whose reports are immediate).
Result<ReplayResult> ReplayTrace(device::Device& device,
                                 const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames, int late_ms = 0,
                                 const ReplayRecord& record = {});

// A crash or ANR bug's trace replayed as `roam replay` replays it and as the check of a bug filed
// on a phone does: `spec`'s signature frames, and on a phone a late report waited for.
Result<ReplayResult> ReplayBugTrace(device::Device& device, const ReplaySpec& spec,
                                    const std::string& signature,
                                    const std::vector<report::TraceStep>& trace,
                                    const ReplayRecord& record = {});

// The screen a bug's failure left, beside its steps' screens (report.html shows it last).
inline constexpr char kAfterScreenshot[] = "steps/after.png";
// Where a user's oracle's check began, the widgets it selects outlined (run/oracle_bug.h).
inline constexpr char kBeforeScreenshot[] = "steps/before.png";

// Writes a replay's screenshots into `bug_dir`/steps/ as NNN.png (NNN: the step's number in
// the trace, from 1, as steps.txt counts), and the screen the failure left (`after`, a PNG;
// empty: none) as kAfterScreenshot, replacing what was there; returns the files' paths relative
// to `bug_dir`. A replay may draw the screen after without any step's (a crash at launch).
Result<std::vector<std::string>> WriteStepScreenshots(
    const std::filesystem::path& bug_dir,
    const std::vector<std::pair<size_t, std::string>>& screenshots, std::string_view after = {});

// How long a replay on a phone waits for a late crash report after its last step.
inline constexpr int kLateReportMs = 3000;

struct ReplayOutcome {
  bool reproduced = false;
  std::string trace;     // the trace file replayed (a crash's minimised one when there is one)
  std::string expected;  // the bug's signature or violation
  std::string words;     // `expected` for people, where it differs (a violation)
  ReplayResult result;
  std::string note;  // for the user ("" when there is nothing to say)
};

}  // namespace roam::run
