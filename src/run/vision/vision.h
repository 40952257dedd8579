// run/vision/vision: the job behind `roam vision`, VisionDroid (shared/seeds/003) on the simulator
// or an Android device, a third kind of campaign on the step executor. Each step: observe the
// screen, take its screenshot, box and number its actionable widgets (draw/marks.h), and ask the
// Explorer for one action, showing it the stitched history and the marked screen (a screen with
// no widget to operate: back, without asking); perform it. Every step then goes to the Monitor
// (one that changed nothing on screen says so, as "the button does nothing" is a kind of bug the
// Detector knows), which names the function under test, keeps the history short and says when the
// function's test is over; then (or after max_function_steps) the Detector judges the function's
// steps with k bug examples retrieved by activity name, and a bug it reports becomes bugs/V<n>/. An
// answer that does not parse is asked once more with what was wrong, then replaced (the Explorer: a
// random widget's click; the Monitor: "not done"; the Detector: "no bug"), and counted. Every
// request and answer goes to llm.jsonl. On the simulator each report is scored: it is a true
// positive for the planted bug X when switching X off changes the screens the Detector judged (the
// same screens make the same request, so the report could not vanish without that).
// Single-threaded; the context's stop flag may be set from a signal handler.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "llm/chat.h"
#include "report/summary.h"
#include "run/context.h"
#include "run/progress.h"
#include "run/replay_spec.h"
#include "run/replay_trace.h"
#include "run/run_folder.h"

namespace roam::run {

struct VisionOptions : RunOptions {
  VisionOptions() { budget.events = 200; }
  llm::ClientOptions llm;            // the model's endpoint (--llm-url, --llm-model, ...)
  std::filesystem::path llm_replay;  // answer from this llm.jsonl instead (--llm replay:FILE)
  std::vector<std::filesystem::path> examples;  // libraries added to the shipped one
  int examples_k = 4;  // bug examples shown to the Detector (the paper's k)
  // How activity names are compared to retrieve them: "trigrams" (vision::NameSimilarity, no
  // data) or "vectors" (the cosine of the names' mean word vectors, as the paper's Word2Vec).
  // Trigrams by default: on the shipped library the examples they retrieve share a word of the
  // screen's function more often (BM_VisionRetrieval: 0.29 against 0.23).
  std::string examples_by = "trigrams";
  std::filesystem::path vectors;  // the word vectors ("": the build's, as dqn's)
  int history_steps = 6;          // steps kept in the Explorer's history and its stitched image
  int max_function_steps = 12;    // steps of one function before the Detector is called anyway
  int frame_width = 360;          // pixels per screen in a stitched image
  // The current screen is sent at most this wide: vision APIs scale a screenshot down to a
  // 768-px short side anyway (OpenAI's rule), so wider costs time and bytes, not tokens.
  int screen_width = 768;
  bool score = true;         // simulator: find the planted bug behind each report
  int signature_frames = 3;  // app frames of a crash signature (oracle/crash.h)
  ProgressOptions progress;
};

struct VisionStats {
  int64_t explorer_requests = 0, monitor_requests = 0, detector_requests = 0;
  // Answers that did not parse and were asked again; those that failed again and were replaced.
  int64_t explorer_retries = 0, monitor_retries = 0, detector_retries = 0;
  int64_t explorer_fallbacks = 0, monitor_fallbacks = 0, detector_fallbacks = 0;
  int64_t unchanged_steps = 0;                       // steps after which the screen showed the same
  int64_t functions = 0;                             // functions judged by the Detector
  int64_t prompt_tokens = 0, completion_tokens = 0;  // as the server counted them
  // Image tokens by OpenAI's tile rule (EstimatedImageTokens), summed over the Explorer's
  // requests: as sent (one stitched history, the current screen) and as they would have been
  // with every history screen sent as a picture of its own.
  int64_t image_tokens_stitched = 0, image_tokens_separate = 0;
  // The same, as sent, over the Monitor's requests (the function's steps, the current screen).
  int64_t image_tokens_monitor = 0;
  double model_seconds = 0;  // waiting for answers
  double tool_seconds = 0;   // marking, stitching, prompts (the per-step overhead)

  // Questions put to the agents (a retry is the same question), and those whose answer was
  // replaced (a random action, "not done", "no bug").
  int64_t questions() const {
    return explorer_requests + monitor_requests + detector_requests - explorer_retries -
           monitor_retries - detector_retries;
  }
  int64_t replaced() const { return explorer_fallbacks + monitor_fallbacks + detector_fallbacks; }
  // More than half the answers replaced: the run says little about the model.
  bool MostlyReplaced() const { return replaced() > 0 && 2 * replaced() > questions(); }
};

struct VisionResult {
  report::Summary summary;  // summary.functional: the reports (id "V<n>")
  VisionStats stats;
};

Result<VisionResult> Vision(const VisionOptions& options, const RunContext& context = {});

// The tokens a PNG of width x height costs a vision model at high detail by OpenAI's published
// rule: scaled to fit 2048 x 2048, then its short side to 768, 170 per 512-pixel tile plus 85.
// Other models count differently; this is the yardstick for the stitching's saving.
int64_t EstimatedImageTokens(int width, int height);

// Re-runs a V folder's steps on a fresh device of its replay spec: reproduced when the screens
// the Detector judged show again (bug.json's "screens") and, when a model is at hand, the
// Detector, asked again with the same prompt and pictures, reports a bug again. The model: the
// live one `llm` names (url set), else the run's llm.jsonl by request hash. ReplayBug calls it.
Result<ReplayOutcome> ReplayVision(const std::filesystem::path& dir, const ReplaySpec& spec,
                                   bool original, const llm::ClientOptions& llm = {});

// Appends the report in `bug_dir` (bugs/V<n>) to the example library `library` as a confirmed
// example (created when absent): its function, steps, expected and actual, kind, activity and
// app, source "confirmed". Returns the new example's id.
Result<std::string> ConfirmVisionBug(const std::filesystem::path& bug_dir,
                                     const std::filesystem::path& library);

}  // namespace roam::run
