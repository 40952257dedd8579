// device/: the Device interface every driver implements (sim_device.h: the simulator;
// android/android_device.h: a phone or an emulator over adb). The run layer owns one Device per
// campaign and drives it from a single thread; implementations need not be thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "gui/action.h"
#include "gui/intent.h"
#include "gui/screen.h"

namespace roam::device {

// Something the device reported besides the screen: a crash or an ANR of the app under test.
struct Event {
  enum class Kind { kCrash, kAnr, kNativeCrash };
  Kind kind = Kind::kCrash;
  std::string package;    // the process that failed
  std::string exception;  // e.g. java.lang.NullPointerException ("" for an ANR)
  std::string message;
  std::vector<std::string> frames;  // "org.app.Foo.bar(Foo.java:12)", top first, no "at "
  std::string bug_id;               // ground truth when the device knows it (the simulator)
  std::string raw;                  // the log text it was read from, when there is one
};
std::string_view EventKindName(Event::Kind kind);  // "crash", "anr", "native_crash"

struct Coverage {
  size_t covered = 0;
  size_t total = 0;
};

// What a device lived through in a run: spells it stopped answering and came back, and how
// long they lasted; its driver started again (it died, or the device came back) and requests it
// asked again (a page source answered 5xx); the system screens passed ("not responding dialog:
// close"). The simulator's is empty.
struct DeviceLife {
  int64_t away = 0;
  double away_seconds = 0;
  int64_t driver_restarts = 0;
  int64_t driver_retries = 0;  // requests asked again after the driver's server failed one
  std::map<std::string, int64_t> system_screens;

  bool empty() const {
    return away == 0 && driver_restarts == 0 && driver_retries == 0 && system_screens.empty();
  }
};

// How a device's coverage link (JaCoCo's data read over adb) went: whether the dump at the run's
// start answered; dumps tried and failed, with the last failure's words; what the data holds.
struct CoverageLink {
  std::string source;  // "jacoco-tcp:6300", "jacoco-file:/data/data/org.app/files/coverage.ec"
  bool working = false;
  int64_t dumps = 0;
  int64_t failed = 0;
  std::string last_error;
  size_t classes = 0;  // the classes that ran (JaCoCo lists no other)
  size_t probes = 0;   // ... and their probes
};

class Device {
 public:
  virtual ~Device() = default;

  // A short name for logs and config.json: "sim:diary", "android:emulator-5554".
  virtual std::string Name() const = 0;
  // The package under test.
  virtual std::string Package() const = 0;

  // Brings the app to the foreground on its launcher activity (starting it if needed).
  virtual Status Launch() = 0;
  // Kills the app process.
  virtual Status Stop() = 0;
  // Wipes the app's data (as `pm clear`) and turns the screen upright; the app is stopped
  // afterwards. Every trace begins here, and its rotations are turns from upright.
  virtual Status ClearData() = 0;

  // What is on the screen now. Reuses `out`'s storage.
  virtual Status Observe(gui::Screen& out) = 0;
  // Sends one action. Widget actions are resolved through action.target.
  virtual Status Perform(const gui::Action& action) = 0;
  // Crashes and ANRs since the last call, oldest first.
  virtual void DrainEvents(std::vector<Event>& out) = 0;

  // Capabilities. Each returns Unsupported where the device has none.
  virtual bool CanSnapshot() const { return false; }
  virtual Status Snapshot(const std::string& name) { return Unsupported("snapshot " + name); }
  virtual Status Restore(const std::string& name) { return Unsupported("restore " + name); }
  virtual bool HasCoverage() const { return false; }
  virtual Coverage GetCoverage() const { return {}; }
  // After an action: the coverage with the action's share in it (a device that reads it from the
  // app waits until the screen has taken the action first: AndroidDevice).
  virtual Coverage UpdateCoverage() { return GetCoverage(); }
  // Where the coverage is read from the app (Android): how its link went. A link whose first
  // dump failed is not working and the device has no coverage (HasCoverage() false).
  virtual std::optional<CoverageLink> CoverageHealth() const { return std::nullopt; }
  // Names of the covered code units (only when HasCoverage()).
  virtual std::vector<std::string> CoveredUnits() const { return {}; }
  // Everything covered so far as a JaCoCo exec file (device/jacoco), for the run folder's
  // coverage.exec; Unsupported where the coverage is not JaCoCo's.
  virtual Result<std::string> CoverageExec() const { return Unsupported("a JaCoCo coverage file"); }
  // Every activity the app declares, when known (the simulator; `dumpsys package` on Android).
  virtual std::vector<std::string> DeclaredActivities() const { return {}; }
  // The system broadcasts the app takes (the intent actions its receivers filter on), sorted;
  // what a gui::ActionKind::kBroadcast may send. The simulator: its spec's `broadcast:` handlers;
  // Android: the manifest's receivers. May shrink during a run (a device that refuses one).
  virtual std::vector<std::string> DeclaredBroadcasts() const { return {}; }
  // The activities an intent (gui::ActionKind::kIntent) may start, as the app declares them:
  // each with whether it is exported and its intent filters, sorted by name. Android: the APK's
  // manifest with --apk, else `dumpsys package`'s Activity Resolver Table (which does not say
  // what is exported: each activity there counts as exported until the device refuses it). May
  // shrink during a run: an activity Android refuses to start from the shell is no longer
  // exported, one that does not exist and a deep link's filter that resolves nothing are gone.
  virtual std::vector<gui::DeclaredActivity> DeclaredIntentTargets() const { return {}; }
  // What the device lived through so far (summary.json's "device").
  virtual DeviceLife Life() const { return {}; }
  // The screen as PNG; with `outline`, a red frame around that rectangle (a step's target).
  virtual Result<std::string> Screenshot(const std::optional<gui::Rect>& outline) {
    (void)outline;
    return Unsupported("screenshot");
  }

 protected:
  Status Unsupported(const std::string& what) const {
    return Status::Unsupported(what + " is not available on " + Name());
  }
};

}  // namespace roam::device
