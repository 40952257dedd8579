// AndroidDeviceOptions: how AndroidDevice reaches a device and drives it (android_device.h); its
// drivers read the same options (screen_driver.h).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "device/android/adb_protocol.h"
#include "device/android/device_text.h"
#include "device/android/driver_kind.h"
#include "device/android/jacoco_coverage.h"
#include "device/android/uia2_driver.h"

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

  // A device that stops answering once it was opened (connection refused, timed out, "device
  // offline", "device not found": a cable, a reboot, an adb server restarted) is tried again
  // every offline_wait_ms for up to offline_timeout_ms before the call fails with
  // Unavailable("device offline: ..."). Default 5 minutes, 1 s apart: a phone reboots in one or
  // two. Open fails at once. A wait ends early when *stop is set (Ctrl-C).
  int offline_timeout_ms = 300000;
  int offline_wait_ms = 1000;
  const std::atomic<bool>* stop = nullptr;

  // logcat: cleared at start (so the stream holds this run only). When the start of a crash
  // block has been read, wait up to logcat_settle_ms for the rest before reporting it.
  bool clear_logcat = true;
  int logcat_settle_ms = 30;

  // The driver of a step (screen_driver.h). kUiautomator: shell commands (`uiautomator dump`,
  // `input`, `dumpsys`), each a process on the device. kUia2: Appium's UiAutomator2 server
  // (uia2_driver.h), HTTP over a forward, the resumed activity from one `logcat -b events`
  // stream. nullopt (--driver auto): the fastest of kDriverNames. A driver other than uiautomator
  // that cannot start, or dies more than uia2.restarts times, leaves the run on uiautomator with
  // a note; driver_reason() says why.
  std::optional<DriverKind> driver = DriverKind::kUiautomator;
  Uia2Settings uia2;

  // The screens Android puts in front of the app (system_screens.h), met when a step observes:
  // "isn't responding" and "has stopped" are closed with "Close app" (the ANR or crash itself
  // comes from logcat), a permission request is allowed, denied or left to the strategy, the
  // lock screen is woken and dismissed. Each is noted; system_screens() counts them.
  enum class PermissionChoice { kAllow, kDeny, kStrategy };
  PermissionChoice permissions = PermissionChoice::kAllow;
  // Their names, as --permission-dialogs and bug.json's replay record write them.
  static constexpr std::pair<PermissionChoice, std::string_view> kPermissionNames[] = {
      {PermissionChoice::kAllow, "allow"},
      {PermissionChoice::kDeny, "deny"},
      {PermissionChoice::kStrategy, "strategy"}};
  bool close_error_dialogs = true;
  bool unlock = true;

  InputSettings input;
  // Installed (pm install -r -g) before the package is checked and the driver starts (--apk).
  std::string apk;
  // Code coverage of an app built with JaCoCo (jacoco_coverage.h); none by default.
  CoverageSettings coverage;
  // Notes for the user (reconnections, characters `input text` could not type); null: none.
  std::function<void(const std::string&)> log;
};

}  // namespace roam::device::android
