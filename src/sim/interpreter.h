// SimState (everything mutable of a running simulated app; a copyable value) and SimApp::Impl,
// the interpreter: lifecycle and action dispatch (interpreter.cc), values and effects
// (effects.cc), rendering into a reused gui::Screen (render.cc). One thread per instance.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/sim_app.h"
#include "sim/spec.h"
#include "sim/value.h"

namespace roam::sim {

// An item of a list, as handlers see it through `$row`.
struct RowRef {
  int list = -1;
  int index = -1;
  bool operator==(const RowRef&) const = default;
};

// One instance of a screen or dialog: what was typed into its fields, where its lists are
// scrolled, and the row it was opened from.
struct Frame {
  int page = -1;  // index into AppSpec::screens() or dialogs()
  RowRef row;
  std::vector<std::string> fields;  // by FieldSpec slot
  std::vector<int> scroll;          // by list scroll slot
  // By ExtraSpec slot of the screen: what `$extra.KEY` reads when an intent started it (the value
  // sent, else what the declared behaviour gives); empty when the app's own GUI started it (each
  // reads its declared value).
  std::vector<Val> extras;
  bool operator==(const Frame&) const = default;
};

using Item = std::vector<Val>;  // one Val per AppSpec::field_names()

class SimState {
 public:
  std::vector<Frame> stack;  // back stack, top last
  bool has_dialog = false;
  Frame dialog;
  bool menu_open = false;
  std::vector<Val> vars;
  std::vector<std::vector<Item>> lists;
  bool running = false;
  bool foreground = false;
  uint64_t step = 0;        // actions performed: drives the clock
  uint64_t rng = 0;         // splitmix64 state: drives rotating texts
  std::vector<int> rotate;  // current text of each rotating widget
  int rotation = 0;         // 0 portrait, 1 landscape
  bool operator==(const SimState&) const = default;
};

// A hash of what decides the app's behaviour: the back stack with its fields, scroll positions
// and rows, the dialog, the menu, variables, lists, whether it runs in the foreground and the
// rotation; not the clock's step count nor the rotating texts' generator (what they show is on
// the screen). Two states with one hash act alike: the exact planning key.
uint64_t LogicHash(const SimState& state);

// What a rendered widget stands for, so an action on it finds its handler.
struct Target {
  enum class Kind : uint8_t { kNone, kWidget, kMenuItem, kOverflow, kLauncherIcon };
  Kind kind = Kind::kNone;
  const WidgetSpec* widget = nullptr;
  RowRef row;     // the row its handlers see as `$row`
  int menu = -1;  // menu item index
};

constexpr uint64_t kStepsPerMinute = 10;        // the clock advances one minute per 10 steps
constexpr int64_t kClockStartMinutes = 9 * 60;  // the clock shows 09:00 at step 0

// Where a value is evaluated: which frame `$input` reads and which row `$row` names.
struct EvalCtx {
  const PageSpec* page = nullptr;
  bool dialog = false;
  int frame = -1;  // stack index (screens) or the page index (dialogs)
  RowRef row;
};

class SimApp::Impl {
 public:
  Impl(std::shared_ptr<const AppSpec> spec, SimOptions options);

  // interpreter.cc
  void Launch();
  void Stop();
  void ClearData();
  void Perform(const gui::Action& action);
  // The screen in front is locked to portrait (PageSpec::portrait_locked): rotations do nothing.
  bool RotationLocked() const {
    return st_.running && st_.foreground && !st_.stack.empty() &&
           spec_->screens()[st_.stack.back().page].portrait_locked;
  }

  int TopScreen() const {
    return st_.running && st_.foreground && !st_.stack.empty() ? st_.stack.back().page : -1;
  }
  // intents.cc: starts `intent` as Android does an `am start` (SimApp::StartIntent), without the
  // clock's step (Perform's or SimApp::StartIntent's Tick counts it).
  IntentOutcome StartIntent(const gui::Intent& intent);
  // The screen that declares `activity` to the outside (the first of its screens that says
  // exported, intent_filters or extras), else its first screen; -1 for an unknown activity.
  int DeclaringScreen(const std::string& activity) const;
  void Tick();  // one step of the clock and of the rotating texts

  // render.cc
  const gui::Screen& Render();
  bool ScreenBeneath(gui::Screen& out, bool& dimmed);

  std::shared_ptr<const AppSpec> spec_;
  SimOptions options_;
  std::vector<bool> bug_off_;  // by bug index
  SimState st_;
  std::vector<uint8_t> covered_;
  size_t covered_count_ = 0;
  std::vector<uint32_t> hits_;  // runs of each unit, saturating (not part of a snapshot)
  std::vector<Fault> faults_;
  gui::Screen screen_;
  std::vector<Target> targets_;     // parallel to screen_.widgets
  std::vector<gui::Widget> spare_;  // widgets of larger past screens, kept for their storage
  int used_ = 0;                    // widgets emitted so far by the current Render
  bool dirty_ = true;

 private:
  // interpreter.cc
  void ResetData(bool all);
  // `extras`: Frame::extras; `crash`: an extra's crash behaviour (a handler) to run once the
  // screen is created, before its `enter` (which a crash prevents).
  void PushScreen(int screen, RowRef row, std::vector<Val> extras = {}, int crash = -1);
  void OpenDialog(int dialog, RowRef row);
  void DefaultBack();
  void PressBack();
  void ReceiveBroadcast(const std::string& action);  // the top screen's receiver, if any
  void Leave();
  void PerformOnWidget(const gui::Action& action);
  bool RunPageEvent(PageEvent event);        // false when the page has no such handler
  EvalCtx TopCtx(RowRef row = {}) const;     // the dialog in front, else the screen
  EvalCtx ScreenCtx(RowRef row = {}) const;  // the screen, under a dialog or not
  EvalCtx CtxForTarget(const Target& t) const;
  uint64_t NextRandom();

 public:
  // effects.cc
  void Cover(int unit);
  Frame* FrameOf(const EvalCtx& ctx);
  const Frame* FrameOf(const EvalCtx& ctx) const;
  Val Eval(const ValueExpr& v, const EvalCtx& ctx) const;
  Val Deref(const Ref& r, const EvalCtx& ctx) const;
  void Expand(const Template& t, const EvalCtx& ctx, std::string& out) const;
  bool Test(int cond, const EvalCtx& ctx) const;
  bool Test(const Cond& c, const EvalCtx& ctx) const;
  bool Valid(const Ref& field, const EvalCtx& ctx) const;
  void RunHandler(int handler, const EvalCtx& ctx);

 private:
  bool RunEffect(const Effect& e, const Handler& h, const EvalCtx& ctx);  // false: stop
  void RaiseFault(const Effect& e, const Handler& h, const EvalCtx& ctx);
  const std::string* FieldText(const Ref& field, const EvalCtx& ctx, const FieldSpec** spec) const;
  std::string* MutableField(const Ref& field, const EvalCtx& ctx);

  // render.cc
  int Add(int parent, const Target& target, const char* cls, gui::Rect bounds);
  void RenderLauncher(int width, int height);
  void RenderScreen(int width, int height);
  void RenderDialog(int width, int height);
  void RenderMenu(int width, int height);
  int Units(const WidgetSpec& w, const EvalCtx& ctx) const;
  void Column(const std::vector<WidgetSpec>& ws, gui::Rect area, int parent, const EvalCtx& ctx);
  void Emit(const WidgetSpec& w, gui::Rect r, int parent, const EvalCtx& ctx);
  void EmitRows(const WidgetSpec& w, gui::Rect r, int parent, const EvalCtx& ctx);

  int depth_ = 0;  // handler nesting (enter handlers that navigate), bounded
};

}  // namespace roam::sim
