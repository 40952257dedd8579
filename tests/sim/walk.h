// Test-only helper for scripted walks through a simulated app (apps/*.json, apps/bench/*.json):
// a Walk runs one SimApp and offers find/click/type moves that return AssertionResult, plus the
// fault checks the app acceptance tests share. Header-only; not thread-safe.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gui/action.h"
#include "gui/screen.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::sim::testing_walk {

// A path below the source tree ("apps/diary.json" -> <source>/apps/diary.json).
inline std::filesystem::path AppPath(const std::string& rel) {
  return roam::testing::SourceDir() / rel;
}

// The spec at `rel` (below the source tree), or null after a failed expectation.
inline std::shared_ptr<const AppSpec> Load(const std::string& rel) {
  auto spec = LoadSpec(AppPath(rel));
  EXPECT_TRUE(spec.ok()) << rel << ": " << spec.status().ToString();
  return spec.ok() ? *spec : nullptr;
}

inline std::set<std::string> AllBugIds(const AppSpec& spec) {
  std::set<std::string> out;
  for (const BugSpec& b : spec.bugs()) out.insert(b.id);
  return out;
}

// One running app with the helpers a scripted walk needs. Moves return AssertionResult so a walk
// reads `ASSERT_TRUE(t.Click("OK"))` and a failure names the missing widget and the screen.
// A move on a disabled widget still goes to the app (see EnabledOnlyWalk for the strict kind).
class Walk {
 public:
  explicit Walk(const std::string& rel, std::set<std::string> bugs_off = {}) {
    spec_ = Load(rel);
    if (!spec_) return;
    SimOptions options;
    options.bugs_off = std::move(bugs_off);
    app_ = std::make_unique<SimApp>(spec_, options);
    app_->Launch();
  }
  bool ok() const { return app_ != nullptr; }
  SimApp& app() { return *app_; }
  const gui::Screen& screen() { return app_->screen(); }

  // Full resource id for a short id of the app's package ("save" -> "org.app:id/save").
  std::string Rid(const std::string& id) const {
    return id.find(':') != std::string::npos ? id : app_->package() + ":id/" + id;
  }

  // ---- finding widgets (indices into screen().widgets, -1 when absent) ----

  // First widget (pre-order) within [begin, end) matching `pred`, or -1.
  template <typename Pred>
  int Find(Pred pred, int begin = 0, int end = -1) {
    const gui::Screen& s = screen();
    if (end < 0) end = static_cast<int>(s.widgets.size());
    for (int i = begin; i < end; ++i)
      if (pred(s.widgets[i])) return i;
    return -1;
  }
  int FindByText(const std::string& text) {
    return Find([&](const gui::Widget& w) { return w.text == text; });
  }
  int FindById(const std::string& id) {
    std::string rid = Rid(id);
    return Find([&](const gui::Widget& w) { return w.resource_id == rid; });
  }
  int FindByDesc(const std::string& desc) {
    return Find([&](const gui::Widget& w) { return w.content_desc == desc; });
  }
  // The widget with resource id `id` inside the subtree of `ancestor`.
  int FindIdWithin(int ancestor, const std::string& id) {
    if (ancestor < 0) return -1;
    std::string rid = Rid(id);
    return Find([&](const gui::Widget& w) { return w.resource_id == rid; }, ancestor + 1,
                screen().widgets[ancestor].subtree_end);
  }
  // The widget showing `text` inside the subtree of the widget with resource id `within`.
  int FindTextWithin(const std::string& within, const std::string& text) {
    int root = FindById(within);
    if (root < 0) return -1;
    return Find([&](const gui::Widget& w) { return w.text == text; }, root + 1,
                screen().widgets[root].subtree_end);
  }
  // In a list row: the widget `id` of the row whose widget shows `row_text` (the row is the
  // parent of the text widget).
  int FindInRow(const std::string& row_text, const std::string& id) {
    int t = FindByText(row_text);
    if (t < 0) return -1;
    return FindIdWithin(screen().widgets[t].parent, id);
  }

  // ---- reading the screen ----

  // How many widgets show `text` (with resource id `id` when given).
  int Count(const std::string& text, const std::string& id = "") {
    int n = 0;
    std::string rid = id.empty() ? "" : Rid(id);
    for (const gui::Widget& w : screen().widgets)
      if (w.text == text && (rid.empty() || w.resource_id == rid)) ++n;
    return n;
  }
  bool HasText(const std::string& text) { return FindByText(text) >= 0; }
  bool HasDesc(const std::string& desc) { return FindByDesc(desc) >= 0; }
  // Whether a widget shows `text` and is enabled.
  bool EnabledText(const std::string& text) {
    int i = FindByText(text);
    return i >= 0 && screen().widgets[i].enabled;
  }
  std::vector<std::string> Texts() {
    std::vector<std::string> out;
    for (const gui::Widget& w : screen().widgets)
      if (!w.text.empty()) out.push_back(w.text);
    return out;
  }
  // The text of the widget with resource id `id`, or "<absent>".
  std::string TextOf(const std::string& id) {
    int i = FindById(id);
    return i < 0 ? "<absent>" : screen().widgets[i].text;
  }
  bool ActivityEndsWith(const std::string& suffix) {
    const std::string& a = screen().activity;
    return a.size() >= suffix.size() &&
           a.compare(a.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  bool Covered(const std::string& unit) const {
    auto units = app_->CoveredUnits();
    return std::find(units.begin(), units.end(), unit) != units.end();
  }
  // The current screen, one widget a line, for failure messages.
  std::string Dump() {
    std::string out = "activity " + screen().activity + ":";
    for (const gui::Widget& w : screen().widgets) {
      out += "\n  " + w.cls + " id=" + w.resource_id + " text=\"" + w.text + "\" desc=\"" +
             w.content_desc + "\"";
      if (w.clickable) out += " clickable";
      if (w.long_clickable) out += " long-clickable";
      if (!w.enabled) out += " disabled";
    }
    return out;
  }

  // ---- moves ----

  // The widget itself or its nearest ancestor that accepts `kind` (a click on a preference title
  // lands on its clickable row, as on a device; a scroll lands on the scrollable container).
  int Actionable(int i, gui::ActionKind kind) {
    const gui::Screen& s = screen();
    for (; i >= 0; i = s.widgets[i].parent) {
      const gui::Widget& w = s.widgets[i];
      bool ok = kind == gui::ActionKind::kLongClick ? w.long_clickable
                : kind == gui::ActionKind::kClick   ? w.clickable
                                                    : w.scrollable;
      if (ok) return i;
    }
    return -1;
  }
  ::testing::AssertionResult Act(gui::ActionKind kind, int i, const std::string& what,
                                 const std::string& text = "") {
    if (i < 0) return ::testing::AssertionFailure() << "no widget " << what << " on " << Dump();
    int target = kind == gui::ActionKind::kInputText ? i : Actionable(i, kind);
    if (target < 0)
      return ::testing::AssertionFailure()
             << what << " is not " << gui::ActionKindName(kind) << "-able on " << Dump();
    if (refuse_disabled_ && !screen().widgets[target].enabled)
      return ::testing::AssertionFailure() << what << " is disabled on " << Dump();
    gui::Action a = gui::MakeWidgetAction(kind, screen(), target);
    a.text = text;
    app_->Perform(a);
    ++steps_;
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult Click(const std::string& text) {
    return Act(gui::ActionKind::kClick, FindByText(text), "\"" + text + "\"");
  }
  ::testing::AssertionResult ClickId(const std::string& id) {
    return Act(gui::ActionKind::kClick, FindById(id), "#" + id);
  }
  ::testing::AssertionResult ClickDesc(const std::string& desc) {
    return Act(gui::ActionKind::kClick, FindByDesc(desc), "desc \"" + desc + "\"");
  }
  ::testing::AssertionResult ClickIn(const std::string& list_id, const std::string& text) {
    return Act(gui::ActionKind::kClick, FindTextWithin(list_id, text),
               "\"" + text + "\" in #" + list_id);
  }
  ::testing::AssertionResult LongClickIn(const std::string& list_id, const std::string& text) {
    return Act(gui::ActionKind::kLongClick, FindTextWithin(list_id, text),
               "\"" + text + "\" in #" + list_id);
  }
  ::testing::AssertionResult ClickInRow(const std::string& row_text, const std::string& id) {
    return Act(gui::ActionKind::kClick, FindInRow(row_text, id),
               "#" + id + " of row \"" + row_text + "\"");
  }
  ::testing::AssertionResult ScrollDown(const std::string& id) {
    return Act(gui::ActionKind::kScrollDown, FindById(id), "#" + id);
  }
  ::testing::AssertionResult Type(const std::string& id, const std::string& text) {
    int i = FindById(id);
    if (i >= 0 && !screen().widgets[i].editable)
      return ::testing::AssertionFailure() << "#" << id << " is not editable on " << Dump();
    return Act(gui::ActionKind::kInputText, i, "#" + id, text);
  }
  void Global(gui::ActionKind kind) {
    app_->Perform(gui::MakeGlobalAction(kind));
    ++steps_;
  }
  void Menu() { Global(gui::ActionKind::kMenu); }
  void Back() { Global(gui::ActionKind::kBack); }
  // Opens the options menu and picks an item.
  ::testing::AssertionResult MenuItem(const std::string& text) {
    Menu();
    return Click(text);
  }

  int steps() const { return steps_; }
  void ResetSteps() { steps_ = 0; }

 protected:
  bool refuse_disabled_ = false;  // see EnabledOnlyWalk

 private:
  std::shared_ptr<const AppSpec> spec_;
  std::unique_ptr<SimApp> app_;
  int steps_ = 0;
};

// A Walk whose moves refuse disabled widgets: a click or typing on a disabled widget (or on a
// widget whose actionable ancestor is disabled) fails the move and is not sent to the app.
class EnabledOnlyWalk : public Walk {
 public:
  explicit EnabledOnlyWalk(const std::string& rel, std::set<std::string> bugs_off = {})
      : Walk(rel, std::move(bugs_off)) {
    refuse_disabled_ = true;
  }
};

namespace internal {

// The single fault drained from `app`, checked against the expected kind, bug and exception (when
// given). `fatal` also wants stack frames on every fault (not only crashes) and a stopped app.
inline ::testing::AssertionResult CheckOneFault(SimApp& app, Fault::Kind kind,
                                                const std::string& bug_id,
                                                const std::string& exception, bool fatal) {
  auto faults = app.DrainFaults();
  if (faults.size() != 1)
    return ::testing::AssertionFailure() << faults.size() << " faults, want 1";
  const Fault& f = faults[0];
  if (f.kind != kind) return ::testing::AssertionFailure() << "wrong fault kind";
  if (f.bug_id != bug_id)
    return ::testing::AssertionFailure()
           << "bug id \"" << f.bug_id << "\", want \"" << bug_id << "\"";
  if (!exception.empty() && f.exception != exception)
    return ::testing::AssertionFailure() << "exception " << f.exception << ", want " << exception;
  if (fatal) {
    if (f.frames.empty()) return ::testing::AssertionFailure() << "a fault without stack frames";
    if (app.running()) return ::testing::AssertionFailure() << "the app still runs after the fault";
  } else if (kind == Fault::Kind::kCrash && f.frames.empty()) {
    return ::testing::AssertionFailure() << "a crash without stack frames";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace internal

// The single fault raised since the last drain, checked against the expected kind and bug (and
// exception, when given); a crash must carry stack frames.
inline ::testing::AssertionResult OneFault(SimApp& app, Fault::Kind kind, const std::string& bug_id,
                                           const std::string& exception = "") {
  return internal::CheckOneFault(app, kind, bug_id, exception, /*fatal=*/false);
}

// As OneFault, and stricter: the fault (crash or ANR) carries stack frames and the app no longer
// runs after it.
inline ::testing::AssertionResult OneFatalFault(SimApp& app, Fault::Kind kind,
                                                const std::string& bug_id,
                                                const std::string& exception = "") {
  return internal::CheckOneFault(app, kind, bug_id, exception, /*fatal=*/true);
}

// No fault raised since the last drain.
inline ::testing::AssertionResult NoFault(SimApp& app) {
  auto faults = app.DrainFaults();
  if (faults.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << faults.size() << " unexpected faults, first "
                                       << faults[0].exception << " (" << faults[0].bug_id << ")";
}

}  // namespace roam::sim::testing_walk
