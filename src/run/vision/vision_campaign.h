// Internal to run/vision*.cc: the campaign behind `roam vision` (run/vision/vision.h). Its step
// loop, the oracles' steps and the summary are in vision.cc; what it asks its agents (the
// Explorer's choice, the Monitor's view of the function under test, the Detector's verdict) and
// the pictures it shows them, in vision_agents.cc. Single-threaded.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/rng.h"
#include "base/status.h"
#include "draw/draw.h"
#include "draw/marks.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "llm/chat.h"
#include "oracle/oracle.h"
#include "report/summary.h"
#include "report/trace.h"
#include "run/context.h"
#include "run/crash_bug.h"
#include "run/executor.h"
#include "run/oracle_bug.h"
#include "run/oracles.h"
#include "run/progress.h"
#include "run/session.h"
#include "run/target.h"
#include "run/vision/vision.h"
#include "run/vision/vision_internal.h"
#include "vision/agents.h"
#include "vision/examples.h"

namespace roam::run {

class VisionCampaign {
 public:
  VisionCampaign(const VisionOptions& options, Target& target, llm::Client& client,
                 std::vector<vision::BugExample> examples, vision::NameSimilarityFn similar,
                 const std::vector<oracle::OracleMaker>& oracles, const RunContext& context)
      : options_(options),
        target_(target),
        client_(client),
        examples_(std::move(examples)),
        similar_(std::move(similar)),
        session_(target.device(),
                 SessionOptions::For(options, target.clock(), options.signature_frames,
                                     options.progress),
                 context),
        budget_(session_.budget()),
        executor_(session_.executor()),
        progress_(session_.progress()),
        package_(session_.package()),
        rng_(options.seed),
        crash_filer_(options.out, CrashCheckSetup::For(target)),
        oracles_(oracles, executor_),
        oracle_filer_({.run_dir = options.out,
                       .replay = target.replay(),
                       .fresh_device = target.fresh_device(),
                       .functional_bugs = target.FunctionalBugsOn()}) {}

  // Runs to the budget, a stop request or a failure; the run folder holds what was found
  // whatever stopped it (a failure is returned after it is written).
  Result<VisionResult> Run();

 private:
  // What the Explorer's choice is on the device's terms: the action, the history's line for it
  // and the widget it operates (null: back).
  struct DeviceAction {
    gui::Action action;
    std::string text;
    const draw::Mark* mark = nullptr;
  };

  Status Start();
  // One step: the Explorer is shown the screen, its widgets numbered, and chooses; the action is
  // taken and recorded, and the Monitor sees where it led (AfterStep).
  Status StepOnce();
  // Asks the Explorer which of `marks` to operate (a random click when its answer cannot be
  // used). `tool_start`: when the step's own work began, for the tool's seconds.
  Result<vision::ExplorerAction> AskExplorer(const draw::Picture& picture,
                                             const std::vector<draw::Mark>& marks,
                                             double tool_start);
  // The device's action for `choice` (none: no widget to operate, back).
  DeviceAction ActionFor(const std::optional<vision::ExplorerAction>& choice,
                         const std::vector<draw::Mark>& marks) const;
  // The step as the history keeps it, before it is taken: its line and the screen, boxed.
  Result<VisionStep> StepBefore(const draw::Picture& picture, const DeviceAction& chosen) const;
  // Takes the action (and an ENTER after typing, when asked), records it in the trace and files
  // the crashes it met.
  Status Perform(const gui::Action& action, const std::optional<vision::ExplorerAction>& choice,
                 uint64_t key, VisionStep& step);
  // Observes where the step led, adds it to the function under test and hands it on.
  Status ObserveAfter(VisionStep step);
  Status Record(report::TraceStep step, const ActOutcome* outcome);
  // Asks `agent` and parses its answer with `parse`; an answer that does not parse is asked
  // once more, with what was wrong. Null when the model failed twice or did not answer.
  template <typename T, typename Parse>
  std::optional<T> Ask(const std::string& prompt, std::vector<std::string> images, Parse parse,
                       int64_t& requests, int64_t& retries);
  // After each step: the Monitor names the function and says whether its test is over (then
  // the Detector judges it). `now` is the screen the step led to.
  Status AfterStep(const gui::Screen& now);
  // The screen as a picture: the last screenshot if no step came since and the screen shows the
  // same (the Monitor's is the next step's Explorer's), else a new one.
  Result<draw::Picture> PictureOf(const gui::Screen& screen);
  // Files bugs/B<n>/ for the crashes and ANRs met first, the run from its start as their trace.
  Status FileCrashes();
  // The user's oracles' look at the screen about to be acted on (oracle/oracle.h): a step of
  // their own in `own`, and bugs/P<n> for each new finding, the run from its start as its trace.
  Status SeeOracles(bool restarted, std::optional<gui::Action>& own);
  // Takes an oracle's step (a property's interaction) instead of asking the Explorer.
  Status TakeOwnStep(const gui::Action& action, uint64_t key);
  // The Detector on the function's steps; `now` is the screen they led to when a screenshot of
  // it is at hand (null: one is taken).
  Status Judge(const draw::Picture* now);
  ProgressFigures Figures() const;
  report::Summary MakeSummary() const;
  std::string Stitch(const std::vector<VisionStep>& steps);
  // What the Explorer is shown: the steps kept of earlier functions, then those the Monitor
  // keeps of `function` (all, until it says), the last history_steps of them.
  std::vector<VisionStep> ExplorerHistory(const std::vector<VisionStep>& function) const;

  const VisionOptions& options_;
  Target& target_;
  llm::Client& client_;
  std::vector<vision::BugExample> examples_;
  vision::NameSimilarityFn similar_;  // how examples are retrieved
  Session session_;
  Budget& budget_;              // session_'s
  StepExecutor& executor_;      // session_'s
  Progress& progress_;          // session_'s
  const std::string& package_;  // session_'s
  Rng rng_;                     // the Explorer's fallback actions
  VisionStats stats_;

  gui::Screen screen_;
  draw::Picture shot_;                      // PictureOf's last screenshot
  uint64_t shot_shown_ = 0;                 // and the ShownHash of the screen it showed
  std::vector<report::TraceStep> episode_;  // every step of the run, for bug traces
  std::vector<VisionStep> history_;         // kept steps of the functions judged so far
  std::vector<VisionStep> function_steps_;  // the steps of the function under test
  std::vector<int> keep_;                   // the Monitor's keep of them (empty: all)
  std::string function_, description_;
  std::string feedback_;  // the Detector's last feedback for the Explorer
  std::vector<std::string> activities_;
  std::set<uint64_t> states_;
  std::vector<report::FunctionalFinding> findings_;
  CrashFiler crash_filer_;
  // The user's oracles (VisionOptions::oracle_files) and their bug folders.
  CampaignOracles oracles_;
  std::vector<gui::Action> actions_;  // what the screen offers, for the oracles' steps
  OracleFiler oracle_filer_;
  // The model cannot be used any more (Ask): the run stops with it as a model error.
  Status model_error_;
  bool answered_ = false;  // the model has answered at least once
};

}  // namespace roam::run
