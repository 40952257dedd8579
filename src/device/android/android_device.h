// AndroidDevice: the Device over an adb server (a real one on 5037 in front of a phone or an
// emulator, or `roam sim serve`). It speaks the smart-socket protocol itself (adb_protocol.h):
// each shell command is a fresh `host:transport:SERIAL` + `shell:` connection, screenshots use
// `exec:`, files use `sync:`; no process is spawned per step. One long-lived `logcat` stream is
// read with non-blocking reads whenever the device is used, so no line is lost, and parsed
// incrementally (logcat.h). A device that stops answering is waited for with bounded retries
// (OfflinePolicy); Observe never returns a stale screen: after the retries it fails with
// Unavailable("device offline: ..."). With the uia2 driver a step reads the page source and
// acts through Appium's UiAutomator2 server instead of starting processes (uia2_driver.h).
// Not thread-safe: one thread drives it, as the run layer does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "device/android/adb_protocol.h"
#include "device/android/device_text.h"
#include "device/android/jacoco_coverage.h"
#include "device/android/logcat.h"
#include "device/android/uia2_driver.h"
#include "device/device.h"

namespace roam::device::android {

struct AndroidDeviceOptions {
  std::string host = std::string(kLoopback);  // the adb server
  int port = kDefaultAdbServerPort;           // 5037
  std::string serial;                         // "" = the only device (host:transport-any)
  std::string package;                        // the app under test (required)
  int io_timeout_ms = kDefaultTimeoutMs;      // every connect, read and write (10 s)

  // Observe: `uiautomator dump /dev/tty` tries (the 2nd on uses --compressed) before falling
  // back to a dump into dump_file pulled with sync RECV. Default 3, 100 ms apart.
  int dump_attempts = 3;
  int dump_retry_wait_ms = 100;
  std::string dump_file = "/sdcard/window_dump.xml";
  // Where the focused activity comes from; `dumpsys activity activities` is the fallback.
  std::string focus_command = "dumpsys window";

  // Launch waits until the package has the focus, polling every launch_poll_ms, for at most
  // launch_timeout_ms (0: do not wait). Default 5000 / 100 ms.
  int launch_timeout_ms = 5000;
  int launch_poll_ms = 100;

  // A device that stops answering (connection refused, timed out, "device offline", "device
  // not found") is tried again offline_retries times, offline_wait_ms apart, before the call
  // fails with Unavailable("device offline: ..."). Default 10 x 1000 ms.
  int offline_retries = 10;
  int offline_wait_ms = 1000;

  // logcat: cleared at start (so the stream holds this run only). When the start of a crash
  // block has been read, wait up to logcat_settle_ms for the rest before reporting it.
  bool clear_logcat = true;
  int logcat_settle_ms = 30;

  // The driver of a step. kUiautomator: shell commands (`uiautomator dump`, `input`, `dumpsys`),
  // each a process on the device. kUia2: Appium's UiAutomator2 server (uia2_driver.h), HTTP over
  // a forward, the resumed activity from one `logcat -b events` stream. kAuto: uia2 when it
  // starts, else uiautomator. A uia2 server that cannot start, or dies more than
  // uia2.restarts times, leaves the run on uiautomator with a note; driver_reason() says why.
  enum class Driver { kUiautomator, kUia2, kAuto };
  Driver driver = Driver::kUiautomator;
  Uia2Settings uia2;

  // The screens Android puts in front of the app (system_screens.h), met when a step observes:
  // "isn't responding" and "has stopped" are closed with "Close app" (the ANR or crash itself
  // comes from logcat), a permission request is allowed, denied or left to the strategy, the
  // lock screen is woken and dismissed. Each is noted; system_screens() counts them.
  enum class PermissionChoice { kAllow, kDeny, kStrategy };
  PermissionChoice permissions = PermissionChoice::kAllow;
  bool close_error_dialogs = true;
  bool unlock = true;

  InputSettings input;
  // Code coverage of an app built with JaCoCo (jacoco_coverage.h); none by default.
  CoverageSettings coverage;
  // Notes for the user (reconnections, characters `input text` could not type); null: none.
  std::function<void(const std::string&)> log;
};

class AndroidDevice final : public Device {
 public:
  // Checks that the device answers and starts the logcat stream.
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
  // With options.coverage: JaCoCo's probes, dumped after every `every` actions since the last
  // dump when asked (a dump that fails keeps the last figures, and is noted once).
  bool HasCoverage() const override { return coverage_ != nullptr; }
  Coverage GetCoverage() const override;
  std::vector<std::string> CoveredUnits() const override;
  Result<std::string> CoverageExec() const override;
  const JacocoCoverage* coverage() const { return coverage_.get(); }
  // The intent actions the app's manifest receivers take (`dumpsys package`, read at Open),
  // less those Android refused to send from the shell.
  std::vector<std::string> DeclaredBroadcasts() const override { return broadcasts_; }
  // A file on the device, with the sync protocol's RECV.
  Result<std::string> Pull(const std::string& path);

  // Pushes `apk` to /data/local/tmp with sync SEND and runs `pm install -r -g` (runtime
  // permissions granted).
  Status InstallApk(const std::string& apk_path);
  // Whether the package under test is installed (`pm path`): NotFound otherwise, naming the
  // installed package closest to it (`pm list packages`).
  Status CheckInstalled();

  // One shell command on the device (fresh connection, retried while offline); output with
  // "\r\n" turned into "\n".
  Result<std::string> Shell(std::string_view command);
  int64_t reconnects() const { return reconnects_; }
  // "uia2" or "uiautomator": the driver in use now; why it is the one (for config.json).
  std::string driver_name() const { return uia2_ ? "uia2" : "uiautomator"; }
  const std::string& driver_reason() const { return driver_reason_; }
  int64_t uia2_restarts() const { return uia2_restarts_; }
  // The system screens met and dealt with, by name ("not responding dialog: close", ...).
  const std::map<std::string, int64_t>& system_screens() const { return system_screens_; }

 private:
  explicit AndroidDevice(AndroidDeviceOptions options);
  Result<std::string> RunService(std::string_view service, bool raw);
  Result<std::string> RunOnce(std::string_view service);
  Status StartLogcat(bool after_reconnect);
  void PumpLogcat();
  Result<std::string> DumpXml(std::string& focus_text);
  Result<std::pair<int, int>> ScreenSize();
  Status Emu(const std::string& command);
  void Note(const std::string& message) const;
  // uia2: starting the server, the events stream, and what to do when the server fails.
  Status StartUia2();
  Status StartEvents();
  void PumpEvents();
  // After a uia2 call failed with `failure`: true when the server was restarted (try again);
  // false when the failure is not the server's death, or the run left uia2 (use the shell).
  bool RecoverUia2(const Status& failure);
  Status ObserveUia2(gui::Screen& out, bool& fell_back);
  Status ObserveOnce(gui::Screen& out);
  // Deals with a system screen in `out` as the options say; true when it did something (the
  // screen is to be observed again).
  bool PassSystemScreen(const gui::Screen& out);

  AndroidDeviceOptions options_;
  Socket logcat_;
  bool logcat_broken_ = false;
  LogcatParser parser_;
  std::vector<Event> pending_;               // parsed, not yet drained
  std::string last_log_line_;                // for resuming the stream after a reconnection
  std::string log_tail_;                     // the partial line at the end of the last read
  bool skipping_to_last_line_ = false;       // resuming: lines up to last_log_line_ were seen
  std::optional<std::pair<int, int>> size_;  // `wm size`, portrait
  int rotation_ = 0;                         // from the last observed screen
  int64_t reconnects_ = 0;
  std::map<std::string, int64_t> system_screens_;
  std::unique_ptr<Uia2Driver> uia2_;  // null: the uiautomator driver
  std::string driver_reason_;
  int64_t uia2_restarts_ = 0;
  Socket events_;            // `logcat -b events` of resumes (uia2)
  std::string events_tail_;  // its partial last line
  std::string resumed_;      // the activity last resumed, fully qualified ("" unknown)
  int64_t resumes_ = 0;      // resume lines read
  std::optional<std::pair<int, int>> observed_size_;  // uia2: the last page's width, height
  std::unique_ptr<JacocoCoverage> coverage_;          // with options_.coverage
  std::vector<std::string> broadcasts_;               // DeclaredBroadcasts()
  mutable int actions_since_dump_ = 1;                // a dump is due before the first figures
  mutable bool coverage_noted_ = false;               // a failing dump is noted once
  bool released_uiautomation_ = false;  // a UiAutomator2 server that held it was stopped once
};

}  // namespace roam::device::android
