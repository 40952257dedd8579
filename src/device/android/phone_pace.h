// phone_pace: what one device-side command costs on a phone, in milliseconds, by what it is:
// the table behind `roam sim serve --pace phone` (and a phone's clock for the benchmarks). Each
// row's figure and its public sources are in docs/android.md ("A phone's pace"); rows without a
// public measurement are marked assumed there. Plain functions over constants: thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "device/android/device_text.h"
#include "device/android/driver_kind.h"

namespace roam::device::android {

// What a client asks may be absurd (`input swipe ... 99999999999`, an /actions chain of a million
// pauses): a gesture is charged at most a day, a shell line at most a week, so no sum overflows.
inline constexpr int kMaxGestureMs = 24 * 3600 * 1000;
inline constexpr int kMaxLineMs = 7 * 24 * 3600 * 1000;

// One shell command (argv) as `adb shell` runs it: `uiautomator dump`, `input tap`, `dumpsys`,
// `am start`, `pm clear`, `screencap -p`, ...; a built-in or a file command costs the adb round
// trip. Several commands in one line cost their sum; the caller adds them up.
int PhoneShellCommandMs(const std::vector<std::string>& argv);

// UiAutomation.waitForIdle's quiet time (UiAutomator's QUIET_TIME_TO_BE_CONSIDERD_IDLE_STATE): the
// UI is idle once no accessibility event came for this long (an input's come at once).
inline constexpr int kIdleQuietMs = 500;

// POST /orientation on an activity locked to portrait: the server polls for the new rotation for
// CustomUiDevice's CHANGE_ROTATION_TIMEOUT_MS before it answers 400.
inline constexpr int kRotationRefusalMs = 2000;

// One request to Appium's UiAutomator2 server: the route after /session/ID ("/source",
// "/appium/gestures/click", "/actions", ...) or a sessionless one ("/status"); `gesture_ms` is
// the duration a long press or a swipe asks for.
int PhoneUia2RequestMs(std::string_view method, std::string_view route, int gesture_ms);

// An emulator console command: "avd snapshot load NAME", "avd snapshot save NAME".
int PhoneConsoleMs(std::string_view command);

// A connection to a device port (the JaCoCo agent's dump): the adb round trip.
inline constexpr int kPhoneRoundTripMs = 30;

// A command line as AndroidDevice sends it in one `shell:` request: its commands, split at `;`,
// `&&`, `||` and `|` outside quotes, costed and added up.
int PhoneShellLineMs(std::string_view line);

// What AndroidDevice's calls cost on a phone with `driver` (AndroidDevice's --driver): the rows
// above, added up over the commands and requests android_device.cc sends for each when all goes
// well (no retried dump, no system dialog). A test holds the two together through `roam sim
// serve`'s count of its pace.
struct PhoneCalls {
  DriverKind driver = DriverKind::kUia2;
  std::string package;
  std::string focus_command = "dumpsys window";  // AndroidDeviceOptions::focus_command
  // uia2's settling (Uia2Settings): with kIdle (the default) the page source after an input waits
  // for the rest of kIdleQuietMs after it (IdleWaitMs); with kCompare the page source after an
  // action that moved the layout is read again settle_poll_ms later (once, on a screen that does
  // not move: the simulator's).
  bool settle_idle = true;
  bool settle_compare = false;
  int settle_poll_ms = 150;
  // With kIdle: what the first page source after an input that took `input_ms` waits for idle.
  int IdleWaitMs(int input_ms) const;

  // A dump and the focused window, or the page source (`moved`: the first since an action, a
  // launch or a restore, and the layout is not the one before it).
  int ObserveMs(bool moved) const;
  int PerformMs(const DeviceInput& input) const;
  int LaunchMs() const;  // the launch and, with uiautomator, one look at the focus
  int StopMs() const;
  // pm clear, and the settings that turn the screen upright when `turn` (AndroidDevice::ClearData:
  // at a device's first clear and when the last screen read was turned).
  int ClearDataMs(bool turn) const;
  // `wm size`: read before the first step and again after a rotation or a restore (the
  // uiautomator driver; uia2 takes the size from the page source).
  int ScreenSizeMs() const;
  int SnapshotMs() const;  // the emulator console's save and load
  int RestoreMs() const;
  int ScreenshotMs() const;
};

}  // namespace roam::device::android
