// Internal to run/vision*.cc: one operated step as VisionDroid keeps it, a Detector's report on
// its way to bugs/V<n>/, the hash of what a screen shows, and the re-run of a report's steps that
// scoring and replay share. Single-threaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/device.h"
#include "draw/marks.h"
#include "explore/word_vectors.h"
#include "gui/screen.h"
#include "report/trace.h"
#include "run/replay_spec.h"
#include "run/target.h"
#include "run/vision/vision.h"
#include "vision/agents.h"

namespace roam::run {

// summary.json's "vision" section: requests, retries and fallbacks per agent, tokens, time.
nlohmann::json VisionStatsJson(const VisionStats& stats);
// config.json's keys of a vision run (the run folder adds the shared ones).
nlohmann::json VisionConfig(const VisionOptions& options);

struct VisionStep {
  std::string text;                // "tap 3 "OK": delete a photo", the history's line
  std::string frame;               // PNG: the screen before it, the operated widget boxed
  draw::Picture thumb;             // the same decoded, for stitching
  std::optional<draw::Mark> mark;  // the operated widget's box (none: back)
  std::string activity, activity_after;
  uint64_t shown_before = 0, shown_after = 0;  // ShownHash
  size_t trace_index = 0;                      // its act step in the run's trace
  size_t episode_end = 0;  // trace steps up to the end of it (an ENTER after typing included)
};

struct VisionReport {
  std::string id;  // "V1"
  std::string function, description;
  vision::DetectorVerdict verdict;
  std::vector<VisionStep> steps;         // the function's steps the Detector judged
  std::vector<report::TraceStep> trace;  // the run's steps from its start to the last of them
  std::string detector_prompt, stitched;
  std::string after;  // PNG: the screen after the last step (AfterFrame)
  ReplaySpec replay;
  std::string app;        // the package
  int frame_width = 360;  // of the stitched image
  std::string bug_id;
  bool scored = false;
};

// The screen on `device` now, as the last frame of the Detector's picture (no box; captioned
// kAfterCaption), `frame_width` wide.
inline constexpr const char* kAfterCaption = "the screen after the last step";
Result<VisionStep> AfterFrame(device::Device& device, int frame_width);
// The same from a screenshot already taken of that screen.
Result<VisionStep> AfterFrame(const draw::Picture& screen, int frame_width);

// The cosine of the mean word vectors of two activity names' words (vision::NameWords; a word
// the vectors lack has its hash vector, so it matches only itself); 0 when either has no words.
double NameVectorSimilarity(const explore::WordVectors& vectors, std::string_view a,
                            std::string_view b);

// A hash of everything a screen shows: its activity and every widget's class, id, text,
// description and checked state, all rows included (finer than gui::ContentHash).
uint64_t ShownHash(const gui::Screen& screen);

// Runs `trace` on `device` and returns, for each of `steps` (by trace_index), ShownHash of the
// screen after it; with a `frame_width`, also the screen before it with its mark boxed at that
// width, as the run kept it (0: no pictures).
struct JudgedRun {
  std::vector<uint64_t> shown_after;
  std::vector<std::string> frames;  // and, last, AfterFrame's
};
Result<JudgedRun> RunJudgedSteps(device::Device& device,
                                 const std::vector<report::TraceStep>& trace,
                                 const std::vector<VisionStep>& steps, int frame_width,
                                 int signature_frames);

// The planted bug whose switching off changes what the judged steps show ("" when none does, or
// when the steps do not show the same on a fresh copy of the app).
std::string ScoreVisionReport(const Target& target, const VisionReport& report,
                              int signature_frames);

// Writes bugs/V<n>/: bug.json, trace.jsonl, stitched.png, screens/NN.png, detector_prompt.txt
// and explanation.txt.
Status WriteVisionBug(const std::filesystem::path& dir, const VisionReport& report);

}  // namespace roam::run
