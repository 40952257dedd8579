#include "device/android/phone_pace.h"

#include <algorithm>
#include <cstdlib>

namespace roam::device::android {

namespace {

// The rows (docs/android.md has each figure's sources).
constexpr int kUiautomatorDumpMs = 2000;  // measured ~2 s; at least 1 s of idle wait (AOSP)
constexpr int kInputMs = 600;             // `input`: a Java VM a command (Android 11 and older)
constexpr int kDumpsysMs = 80;            // dumpsys window, 71-86 ms measured
constexpr int kAmStartMs = 1400;          // am start: cold start to first frame, median
constexpr int kMonkeyLaunchMs = 1400;  // monkey -p PKG 1: a Java VM, then the same launch (assumed)
constexpr int kForceStopMs = 1100;     // am force-stop, measured on an API 24 phone
constexpr int kPmClearMs = 1150;       // pm clear, same phone
constexpr int kPmMs = 1200;            // pm list and other pm commands, same phone
constexpr int kPmInstallMs = 5000;     // pm install of an 18 MB APK (assumed)
constexpr int kAmOtherMs = 600;        // am broadcast, am instrument's start: a Java VM (assumed)
constexpr int kSettingsMs = 600;       // settings, wm: a Java VM (assumed as input)
constexpr int kScreencapMs = 2000;     // screencap -p with its transfer, median
constexpr int kSnapshotMs = 2000;      // avd snapshot load/save and settling (partly assumed)

int Duration(const std::vector<std::string>& argv, size_t index) {
  return index < argv.size() ? std::max(0, std::atoi(argv[index].c_str())) : 0;
}

}  // namespace

int PhoneShellCommandMs(const std::vector<std::string>& argv) {
  if (argv.empty()) return 0;
  std::string_view name = argv[0];
  if (size_t slash = name.rfind('/'); slash != std::string_view::npos)
    name.remove_prefix(slash + 1);
  const std::string_view sub = argv.size() > 1 ? std::string_view(argv[1]) : "";
  if (name == "uiautomator") return kUiautomatorDumpMs;
  if (name == "input") {
    if (sub == "swipe" || sub == "draganddrop") return kInputMs + Duration(argv, 6);
    return kInputMs;
  }
  if (name == "dumpsys") return kDumpsysMs;
  if (name == "monkey") return kMonkeyLaunchMs;
  if (name == "am") {
    if (sub == "start" || sub == "start-activity") return kAmStartMs;
    if (sub == "force-stop" || sub == "kill") return kForceStopMs;
    return kAmOtherMs;
  }
  if (name == "pm") {
    if (sub == "clear") return kPmClearMs;
    if (sub == "install") return kPmInstallMs;
    return kPmMs;
  }
  if (name == "settings" || name == "wm") return kSettingsMs;
  if (name == "screencap") return kScreencapMs;
  return kPhoneRoundTripMs;  // echo, getprop, logcat -c, cat, rm: the adb round trip
}

int PhoneUia2RequestMs(std::string_view method, std::string_view route, int gesture_ms) {
  gesture_ms = std::max(0, gesture_ms);
  if (route == "/source") return 300;                 // 212 ms measured
  if (route == "/appium/gestures/click") return 400;  // ~400 ms measured
  if (route == "/appium/gestures/long_click") return 400 + gesture_ms;
  if (route == "/actions") return 1000 + gesture_ms;  // ~1.0 s measured
  if (route == "/screenshot") return 400;             // 0.3-0.5 s measured
  if (route == "/keys") return 500;                   // assumed
  if (route == "/appium/device/press_keycode" || route == "/back") return 400;  // as a tap
  if (route == "/orientation" && method == "POST") return 1000;                 // assumed
  return kPhoneRoundTripMs;  // status, sessions, settings, window size
}

int PhoneConsoleMs(std::string_view command) {
  if (command.find("snapshot") != std::string_view::npos) return kSnapshotMs;
  return kPhoneRoundTripMs;
}

}  // namespace roam::device::android
