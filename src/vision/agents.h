// vision/agents: the prompts of VisionDroid's three agents and the parsers of their answers,
// pure text (the pictures travel beside the prompt: the stitched history and the current marked
// screen). Each agent answers one JSON object in a schema its prompt gives; a parser finds that
// object in whatever prose surrounds it, checks every field, and says what is wrong, so the
// campaign can ask once more and then fall back. Text from the app (widget texts, activity
// names) is quoted as JSON strings inside a block marked as data, so a widget that says "ignore
// your instructions" is a string in a list, not an instruction on a line of its own.
// Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "vision/examples.h"

namespace roam::vision {

// --- Explorer: which widget to operate next. ---
struct ExplorerInput {
  std::string app;          // the app's name or package
  std::string activity;     // the current screen's activity
  std::string widget_list;  // draw::MarkList: "3. android.widget.Button "Save" id/save: click"
  std::string legend;       // draw::Legend
  std::vector<std::string> history;  // the steps kept so far, each "tap 3: open a note"
  std::string feedback;              // the Detector's last feedback ("" : none)
};
std::string ExplorerPrompt(const ExplorerInput& input);

// kBack (the device's back key, on no widget) is ours: without it an Explorer that opened a
// form it cannot finish had no way out but a widget that happens to leave.
enum class Op { kClick, kLongClick, kCheck, kScroll, kType, kBack };
struct ExplorerAction {
  Op op = Op::kClick;
  int widget = 0;            // the box's number, 1-based (0 for kBack)
  std::string text;          // kType: what to type
  bool scroll_up = false;    // kScroll: up (else down)
  bool press_enter = false;  // after typing
  std::string function;      // what the step serves, for the history's caption
};
// The action in `answer`; an error says what is missing or wrong (a widget number outside
// 1..widget_count, an unknown action, no JSON object at all).
Result<ExplorerAction> ParseExplorerAnswer(std::string_view answer, int widget_count);

// The mark on a history line of a step after which the screen showed the same (run/ appends it
// in parentheses; the Monitor's and the Detector's prompts say what it means).
inline constexpr std::string_view kNothingChanged = "nothing changed on screen";

// --- Monitor: which function is under test, and whether its test is over. ---
// The pictures: the function's steps stitched, then the current screen with its boxes.
struct MonitorInput {
  std::string app, activity;
  std::string legend;                // draw::Legend: the current screen's box colours
  std::vector<std::string> history;  // every step since the last check, numbered from 1
  std::string function;              // the function named so far ("" : none yet)
};
std::string MonitorPrompt(const MonitorInput& input);

struct MonitorVerdict {
  std::string function, description;
  bool done = false;      // the function's test is over: call the Detector
  std::vector<int> keep;  // the steps worth keeping in the history (1-based)
};
Result<MonitorVerdict> ParseMonitorAnswer(std::string_view answer, int steps);

// --- Detector: did the screens change as the function says they should? ---
struct DetectorInput {
  std::string app, function, description;
  std::vector<std::string> steps;  // the steps of the function's test, in order
  std::vector<const BugExample*> examples;
};
std::string DetectorPrompt(const DetectorInput& input);

struct DetectorVerdict {
  bool bug = false;
  // One of ExampleKinds() when bug, or kOtherKind for a kind outside them (a bug all the same, as
  // the paper lists kinds as examples, not as a closed set), with the model's word in kind_said.
  std::string kind;
  std::string kind_said;
  std::string expected, actual;
  std::string report;    // the bug in a sentence ("" when no bug)
  std::string feedback;  // for the Explorer: wrong or wasted actions ("" : none)
};
Result<DetectorVerdict> ParseDetectorAnswer(std::string_view answer);

// An answer longer than this is refused (llm/ caps a whole reply at the same size).
constexpr size_t kMaxAnswerBytes = 4 << 20;

// The first JSON object in `text` that parses (models wrap answers in prose and code fences):
// linear in the text, at most 32 parse attempts.
Result<std::string> FirstJsonObject(std::string_view text);

}  // namespace roam::vision
