// sim/: the app simulator. An app is a JSON spec (docs/app-spec.md); AppSpec is its checked,
// immutable form and SimApp one running instance of it: render the current Screen, perform an
// Action, report crashes and ANRs as Faults, save and load its whole state, count coverage.
// AppSpec is immutable and may be shared between threads; a SimApp is used by one thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/action.h"
#include "gui/intent.h"
#include "gui/screen.h"

namespace roam::sim {

struct SpecError {
  std::string path;     // JSON path of the offending value, e.g. /screens/2/widgets/0/on/click
  std::string message;  // what is wrong there
};

class AppSpec;  // defined in spec.h

// Parses and checks a spec; on failure the Status lists every error with its JSON path.
Result<std::shared_ptr<const AppSpec>> LoadSpec(const std::filesystem::path& path);
Result<std::shared_ptr<const AppSpec>> LoadSpecJson(const nlohmann::json& doc,
                                                    const std::string& source_name);
// "34 screens, 21 dialogs, 373 code units, 6 planted bugs": what `sim check` and `sim generate`
// say of a spec.
std::string DescribeSpec(const AppSpec& spec);
// Every error in a spec document (empty when it is valid).
std::vector<SpecError> CheckSpec(const nlohmann::json& doc);

// A crash or ANR raised by a handler.
struct Fault {
  enum class Kind { kCrash, kAnr };
  Kind kind = Kind::kCrash;
  std::string exception;  // crash only
  std::string message;
  std::vector<std::string> frames;  // top first
  std::string bug_id;               // the planted bug whose effect raised it ("" if none)
};

struct SimOptions {
  uint64_t seed = 1;               // drives dynamic widgets (ads) and nothing else
  std::set<std::string> bugs_off;  // planted bugs switched off (their correct behaviour runs)
};

// What starting an intent came to (SimApp::StartIntent).
enum class IntentOutcome {
  kStarted,      // the activity's screen is in front (or the app crashed creating it)
  kNotExported,  // the activity exists but is not exported: a phone's shell gets "Permission
                 // Denial", nothing starts
  kUnresolved,   // no activity of the app is that component or takes that deep link
};

class SimState;  // everything mutable of a running app; copyable (defined in interpreter.h)

class SimApp {
 public:
  // `spec` is shared because parallel workers run instances of one parsed spec.
  SimApp(std::shared_ptr<const AppSpec> spec, SimOptions options);
  ~SimApp();
  SimApp(const SimApp&) = delete;
  SimApp& operator=(const SimApp&) = delete;

  const AppSpec& spec() const;
  const std::string& package() const;

  void Launch();     // foreground at the start screen (resumes the top screen if running)
  void Stop();       // kills the process: screens, dialogs and non-persistent data are lost
  void ClearData();  // Stop, then every variable and list back to its initial value
  bool running() const;
  // The screen in front is locked to portrait: a rotation does nothing (a phone's UiAutomator2
  // server refuses one, `settings put system user_rotation` is ignored).
  bool RotationLocked() const;
  // The screen in front: its index in spec().screens() (-1 when the app is not in front), and
  // how long it takes to settle when it comes to the front (PageSpec::settle_ms).
  int TopScreen() const;
  int SettleMs() const;

  // The current screen: the app's top screen, dialog or menu, or the launcher when the app is
  // not in the foreground. Valid until the next non-const call.
  const gui::Screen& screen();
  // What is drawn beneath the current screen when it is a dialog or a menu (they are windows of
  // their own, as uiautomator dumps them): the page they opened over, and whether the window
  // dims it (a dialog does, a menu does not). False when the current screen is a whole page.
  bool ScreenBeneath(gui::Screen& out, bool& dimmed);
  // Applies one action to the current screen. Unknown targets and actions without a handler
  // are no-ops, as on a device.
  void Perform(const gui::Action& action);
  // Starts an intent as `am start` does on a phone: a component names an activity of the app
  // (fully qualified, ".Cls" or "package/cls"), which must be exported; else the deep link (the
  // action and data) resolves through the exported screens' intent filters (gui::FilterTakes),
  // the first in spec order. Started, the app comes to the front (its process starts if it was
  // stopped, holding that screen alone, as Android creates only the started activity) with the
  // screen pushed on top: its "<id>:intent" unit is covered, each extra it reads that is missing
  // or of another type follows its declared behaviour (a crash is a Fault, with its bug id), then
  // its `enter` runs. One step of the clock, as Perform; Perform of a kIntent action comes here.
  IntentOutcome StartIntent(const gui::Intent& intent);
  // Faults raised since the last call.
  std::vector<Fault> DrainFaults();

  // Snapshots of the whole state (not of coverage, which is cumulative).
  std::unique_ptr<SimState> Save() const;
  // With `keep_clock`, the clock and the rotating texts' generator go on from where they are
  // (the app shows what it showed when saved, then changes by itself as time goes on), as on
  // a device whose snapshot restores the app while the world's time and content move on.
  void Load(const SimState& state, bool keep_clock = false);
  // LogicHash (interpreter.h) of the current state, without copying it.
  uint64_t LogicHash() const;

  size_t units_total() const;
  size_t units_covered() const;
  std::vector<std::string> CoveredUnits() const;
  std::vector<std::string> Activities() const;  // fully qualified, in spec order
  // The intent actions of the screens' `broadcast:` handlers, sorted, each once.
  std::vector<std::string> Broadcasts() const;
  // Every activity as its manifest would declare it, in Activities() order, exported or not: its
  // intent filters and the extras its screen reads, each with its declared value.
  std::vector<gui::DeclaredActivity> DeclaredActivities() const;
  // The covered flag of every unit, indexed as AppSpec::units(). A planner copies one
  // instance's coverage into another before trying actions on it.
  const std::vector<uint8_t>& CoverageMask() const;
  void SetCoverageMask(const std::vector<uint8_t>& mask);  // mask must be units_total() long
  // How often each unit ran since the app was made (saturating; snapshots do not restore it):
  // a served device tells the units one app process ran, as JaCoCo's runtime does.
  const std::vector<uint32_t>& UnitHits() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace roam::sim
