// AndroidDevice: the Device over an adb server (a real one on 5037 in front of a phone or an
// emulator, or `roam sim serve`). It speaks the smart-socket protocol itself (adb_protocol.h):
// each shell command is a fresh `host:transport:SERIAL` + `shell:` connection, screenshots use
// `exec:`, files use `sync:`; no process is spawned per step. One long-lived `logcat` stream is
// read with non-blocking reads whenever the device is used, so no line is lost, and parsed
// incrementally (logcat.h). A device that stops answering is waited for with bounded retries
// (OfflinePolicy); Observe never returns a stale screen: after the retries it fails with
// Unavailable("device offline: ..."). The screen is read and acted on by a driver
// (screen_driver.h): uiautomator over the shell, or Appium's UiAutomator2 server, which starts no
// process a step, with uiautomator behind it.
// Not thread-safe: one thread drives it, as the run layer does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "device/android/adb_protocol.h"
#include "device/android/android_options.h"
#include "device/android/device_text.h"
#include "device/android/jacoco_coverage.h"
#include "device/android/logcat.h"
#include "device/android/screen_driver.h"
#include "device/device.h"

namespace roam::device::android {

class AndroidDevice final : public Device {
 public:
  // Checks that the device answers (InvalidArgument listing the attached devices for a serial
  // the server does not have), installs options.apk, checks the package is installed, starts the
  // logcat stream and the driver.
  static Result<std::unique_ptr<AndroidDevice>> Open(AndroidDeviceOptions options);
  ~AndroidDevice() override;

  std::string Name() const override;  // "android:SERIAL"
  std::string Package() const override { return options_.package; }
  Status Launch() override;
  Status Stop() override;
  Status ClearData() override;
  Status Observe(gui::Screen& out) override;
  Status Perform(const gui::Action& action) override;
  void DrainEvents(std::vector<Event>& out) override;

  // Snapshots through the emulator console (adb's emu service): emulator-* serials only.
  bool CanSnapshot() const override;
  Status Snapshot(const std::string& name) override;
  Status Restore(const std::string& name) override;
  Result<std::string> Screenshot(
      const std::optional<gui::Rect>& outline) override;  // PNG bytes from `screencap -p`
  // With options.coverage: JaCoCo's probes, once StartCoverage found the link working; dumped
  // by UpdateCoverage after every `every` actions, after the screen is read (a dump that fails
  // keeps the last figures; a few failing in a row are noted, and their end).
  Status StartCoverage();
  bool HasCoverage() const override { return coverage_ != nullptr && coverage_working_; }
  Coverage GetCoverage() const override;
  Coverage UpdateCoverage() override;
  std::optional<CoverageLink> CoverageHealth() const override;
  std::vector<std::string> CoveredUnits() const override;
  Result<std::string> CoverageExec() const override;
  const JacocoCoverage* coverage() const { return coverage_.get(); }
  // The intent actions the app's manifest receivers take (`dumpsys package`, read at Open),
  // less those Android refused to send from the shell.
  std::vector<std::string> DeclaredBroadcasts() const override { return broadcasts_; }
  // The app's activities for intents: the --apk's manifest, else `dumpsys package` (read at Open),
  // less what the shell's refusals told (ForgetRefused).
  std::vector<gui::DeclaredActivity> DeclaredIntentTargets() const override { return activities_; }
  // A file on the device, with the sync protocol's RECV.
  Result<std::string> Pull(const std::string& path);

  // Pushes `apk` to /data/local/tmp with sync SEND and runs `pm install -r -g` (runtime
  // permissions granted).
  Status InstallApk(const std::string& apk_path);
  // Whether the package under test is installed (`pm path`): NotFound otherwise, naming the
  // installed package closest to it (`pm list packages`).
  Status CheckInstalled();
  // Whether the device answers; why not, in a user's words, otherwise.
  Status CheckReachable();

  // One shell command on the device (fresh connection, retried while offline); output with
  // "\r\n" turned into "\n".
  Result<std::string> Shell(std::string_view command);
  int64_t reconnects() const { return reconnects_; }
  DeviceLife Life() const override;
  // "uia2" or "uiautomator": the driver in use now; why it is the one (for config.json); how
  // often it was started again after it died.
  DriverKind driver_kind() const { return driver_->kind(); }
  std::string driver_name() const { return std::string(NameOf(driver_kind())); }
  const std::string& driver_reason() const { return driver_->reason(); }
  int64_t driver_restarts() const { return driver_->restarts(); }
  // The system screens met and dealt with, by name ("not responding dialog: close", ...).
  const std::map<std::string, int64_t>& system_screens() const { return system_screens_; }

 private:
  explicit AndroidDevice(AndroidDeviceOptions options);
  Result<std::string> RunService(std::string_view service, bool raw);
  Result<std::string> RunOnce(std::string_view service);
  Status StartLogcat(bool after_reconnect);
  void PumpLogcat();
  Status Emu(const std::string& command);
  void Note(const std::string& message) const;
  DriverHost Host();
  Status ObserveOnce(gui::Screen& out);
  // Deals with a system screen in `out` as the options say; true when it did something (the
  // screen is to be observed again).
  bool PassSystemScreen(const gui::Screen& out);
  // The activities intents may start, from the --apk's manifest or `dumpsys package`'s output.
  void ReadActivities(const Result<std::string>& dumpsys_package);
  // The shell refused `intent`: what it tells leaves activities_, said once a reason and class.
  void IntentRefused(const gui::Intent& intent, const StartAnswer& answer);

  AndroidDeviceOptions options_;
  Socket logcat_;
  bool logcat_broken_ = false;
  LogcatParser parser_;
  std::vector<Event> pending_;          // parsed, not yet drained
  std::string last_log_line_;           // for resuming the stream after a reconnection
  std::string log_tail_;                // the partial line at the end of the last read
  bool skipping_to_last_line_ = false;  // resuming: lines up to last_log_line_ were seen
  // The last observed screen's geometry, which actions are planned on.
  int width_ = 1080, height_ = 1920, rotation_ = 0;
  bool cleared_once_ = false;  // ClearData turned the phone upright
  int64_t reconnects_ = 0;     // spells away that ended with the device back
  double away_seconds_ = 0;    // how long the device was away, all told
  bool gave_up_ = false;       // the last wait ended without the device: calls fail at once
  std::map<std::string, int64_t> system_screens_;
  std::unique_ptr<FallbackDriver> driver_;
  std::unique_ptr<JacocoCoverage> coverage_;       // with options_.coverage
  std::vector<std::string> broadcasts_;            // DeclaredBroadcasts()
  std::vector<gui::DeclaredActivity> activities_;  // DeclaredIntentTargets()
  std::set<std::string> refusals_noted_;           // IntentRefused: the reasons said
  bool coverage_working_ = false;                  // StartCoverage's dump answered
  int actions_since_dump_ = 0;
  static constexpr int kCoverageFailuresToWarn = 3;
  int coverage_failures_in_row_ = 0;
  bool coverage_warned_ = false;
  // The screen read for a coverage dump after an action; the next Observe returns it, unless the
  // device was acted on since.
  std::optional<gui::Screen> read_ahead_;
};

}  // namespace roam::device::android
