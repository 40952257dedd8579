// ScreenDriver: how AndroidDevice reads a phone's screen and acts on it, one class per driver
// (driver_kind.h): uiautomator over the shell (shell_driver.cc) and Appium's UiAutomator2 server
// (uia2_screen_driver.cc). FallbackDriver wraps the one asked for: it starts it again when it
// dies and goes on with uiautomator when it cannot. The adb side (shell commands, files, notes)
// stays AndroidDevice's, handed to a driver as a DriverHost.
// A third driver: a DriverKind, a row in kDriverNames, a file with its class and a row in
// screen_driver.cc's table of starts.
// Not thread-safe: the thread that drives the AndroidDevice uses them.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "device/android/android_options.h"
#include "device/android/device_text.h"
#include "device/android/driver_kind.h"
#include "gui/screen.h"

namespace roam::device::android {

// What a driver may ask of the device it drives. Every call is AndroidDevice's own: retried while
// the device is offline, noted under the device's name.
struct DriverHost {
  const AndroidDeviceOptions* options = nullptr;                       // outlives the driver
  std::function<Result<std::string>(std::string_view command)> shell;  // "\r\n" -> "\n"
  std::function<Result<std::string>(std::string_view command)> exec;   // raw bytes (exec:)
  std::function<Result<std::string>(const std::string& path)> pull;
  std::function<Status(const std::string& apk_path)> install;
  std::function<void(const std::string& message)> note;
  // The shell refused to send a broadcast (only the system may): it is offered no more.
  std::function<void(const std::string& intent_action)> broadcast_refused;
  // The shell refused to start an intent (`am start`'s answer): what it tells is taken out of the
  // activities offered (ForgetRefused).
  std::function<void(const gui::Intent& intent, const StartAnswer& answer)> intent_refused;
  // Waits while the device is away (options.offline_timeout_ms at most): how many times it has
  // come back so far, or the offline error when it does not answer.
  std::function<Result<int64_t>()> await_device;
};

class ScreenDriver {
 public:
  virtual ~ScreenDriver() = default;
  virtual DriverKind kind() const = 0;

  // The screen now: widgets, package, activity, rotation, width and height. Unavailable when the
  // driver could not read it (a dump that failed, a server that stopped answering).
  virtual Status Observe(gui::Screen& out) = 0;
  // Whether this driver performs `input` (the UiAutomator2 server has no endpoint for a restart,
  // a broadcast or an intent: the shell performs them).
  virtual bool Takes(const DeviceInput& input) const {
    (void)input;
    return true;
  }
  // One input. Refused: the device turned it down (the step did nothing); Unavailable: the driver
  // failed.
  virtual Status Perform(const DeviceInput& input) = 0;
  virtual Result<std::string> Screenshot() = 0;  // PNG bytes
  // Runs `launch` (the app's start) and waits until the app is in front, at most
  // options.launch_timeout_ms; the campaign sees where it is when it is not.
  virtual Status AwaitLaunch(const std::function<Status()>& launch) = 0;
  // What is running, for the run's config ("the UiAutomator2 server 10.6.6 answers on ..."); "".
  virtual std::string Describe() const { return {}; }
  // Requests asked again because the driver's server failed to answer one (a page source answered
  // 5xx).
  virtual int64_t retries() const { return 0; }
  // False once the driver is known dead (its server's process ended).
  virtual bool Alive() { return true; }
  // The screen changed under the driver (a snapshot restored, an input the shell performed): what
  // it kept of it is stale, and the next read may catch it moving.
  virtual void ScreenChanged() {}
};

// The driver `kind`, started: installs and starts what it needs on the device.
Result<std::unique_ptr<ScreenDriver>> StartDriver(DriverKind kind, const DriverHost& host);

// The driver a run asked for, in front of uiautomator: a call that fails because the driver died
// waits for the device if it is away, starts the driver again and tries once more. A driver that
// died while the device stayed (at most options.uia2.restarts times a run) or that the device
// lost when it went away (a reboot, a cable: any number of times) is started again; one that
// cannot start, or dies once too often, leaves the run on uiautomator, said once by a note and by
// reason(). A device that does not come back fails the call. Inputs the driver does not take go
// to uiautomator.
class FallbackDriver final : public ScreenDriver {
 public:
  // Starts `asked` (nullopt: the fastest of kDriverNames, `--driver auto`).
  static std::unique_ptr<FallbackDriver> Start(std::optional<DriverKind> asked, DriverHost host);

  DriverKind kind() const override { return primary_ ? primary_->kind() : fallback_->kind(); }
  Status Observe(gui::Screen& out) override;
  bool Takes(const DeviceInput&) const override { return true; }
  Status Perform(const DeviceInput& input) override;
  Result<std::string> Screenshot() override;
  Status AwaitLaunch(const std::function<Status()>& launch) override;
  void ScreenChanged() override;

  // Why the driver in use is the one ("asked for (--driver uia2): ...", "the UiAutomator2 server
  // died 4 times (...)").
  const std::string& reason() const { return reason_; }
  int64_t restarts() const { return restarts_; }
  int64_t retries() const override {
    return retries_before_ + (primary_ ? primary_->retries() : 0);
  }

 private:
  explicit FallbackDriver(DriverHost host) : host_(std::move(host)) {}
  // After the primary failed with `failure`: `again` when it was started again (try once more);
  // not when the failure is the step's, or the run left it (use the fallback). An error: the
  // device is gone.
  Status Recover(const Status& failure, bool& again);
  // Starts the primary's kind again (the old one released first); false: the run left it.
  bool Restart(DriverKind kind);
  void DropPrimary();  // its retries kept
  // `call` on the primary, recovered once, else on the fallback.
  template <typename Call>
  Status Run(Call call);

  DriverHost host_;
  std::unique_ptr<ScreenDriver> primary_;   // null: the fallback alone
  std::unique_ptr<ScreenDriver> fallback_;  // uiautomator
  std::string reason_;
  int64_t restarts_ = 0;        // every start after the first
  int64_t deaths_ = 0;          // restarts while the device stayed: at most options.uia2.restarts
  int64_t comebacks_ = 0;       // the device's comebacks when the primary last started
  int64_t retries_before_ = 0;  // of the primaries dropped
};

// Two reads of a screen show the same layout: the same views where they were, in the same states.
// Texts may differ (a clock, a cursor, a counter): they do not make a transition.
bool SameLayout(const gui::Screen& a, const gui::Screen& b);

// Each driver's start (one file each; StartDriver's table names them).
Result<std::unique_ptr<ScreenDriver>> StartShellDriver(const DriverHost& host);
Result<std::unique_ptr<ScreenDriver>> StartUia2ScreenDriver(const DriverHost& host);

}  // namespace roam::device::android
