#include "device/android/phone_pace.h"

#include <algorithm>
#include <cctype>
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

// A gesture's duration argument in ms: its leading digits (as `input` reads it, a negative or
// missing one 0), at most kMaxGestureMs.
int Duration(const std::vector<std::string>& argv, size_t index) {
  if (index >= argv.size()) return 0;
  int64_t ms = 0;
  for (char c : argv[index]) {
    if (c < '0' || c > '9') break;
    ms = std::min<int64_t>(ms * 10 + (c - '0'), kMaxGestureMs);
  }
  return static_cast<int>(ms);
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
  gesture_ms = std::clamp(gesture_ms, 0, kMaxGestureMs);
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

int PhoneShellLineMs(std::string_view line) {
  int64_t total = 0;  // saturates: a line of many day-long swipes is charged at most kMaxLineMs
  std::vector<std::string> argv;
  std::string word;
  bool in_word = false;
  auto end_word = [&] {
    if (in_word) argv.push_back(std::move(word));
    word.clear();
    in_word = false;
  };
  auto end_command = [&] {
    end_word();
    total = std::min<int64_t>(total + PhoneShellCommandMs(argv), kMaxLineMs);
    argv.clear();
  };
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        word += c;
    } else if (quote == '"') {
      if (c == '"')
        quote = 0;
      else if (c == '\\' && i + 1 < line.size())
        word += line[++i];
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (c == ';' || c == '|' || c == '&' || c == '\n') {
      if ((c == '|' || c == '&') && i + 1 < line.size() && line[i + 1] == c) ++i;
      end_command();
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      end_word();
    } else {
      word += c;
      in_word = true;
    }
  }
  end_command();
  return static_cast<int>(total);
}

// Each mirrors the AndroidDevice call of the same name (android_device.cc) with its driver's
// commands (shell_driver.cc, uia2_screen_driver.cc).

int PhoneCalls::ObserveMs(bool moved) const {
  if (driver == DriverKind::kUia2) {
    const int source = PhoneUia2RequestMs("GET", "/source", 0);
    return moved && settle_compare ? source + settle_poll_ms + source : source;
  }
  return PhoneShellLineMs(DumpCommand(false, focus_command));
}

int PhoneCalls::IdleWaitMs(int input_ms) const {
  return driver == DriverKind::kUia2 && settle_idle ? std::max(0, kIdleQuietMs - input_ms) : 0;
}

int PhoneCalls::PerformMs(const DeviceInput& input) const {
  using K = DeviceInput::Kind;
  if (driver == DriverKind::kUia2 && !ShellOnly(input)) {
    switch (input.kind) {
      case K::kTap:
        return PhoneUia2RequestMs("POST", "/appium/gestures/click", 0);
      case K::kLongPress:
        return PhoneUia2RequestMs("POST", "/appium/gestures/long_click", input.ms);
      case K::kSwipe:
        return PhoneUia2RequestMs("POST", "/actions", input.ms);
      case K::kKey:
        return PhoneUia2RequestMs("POST", "/appium/device/press_keycode", 0);
      case K::kText:
        return PhoneUia2RequestMs("POST", "/appium/gestures/click", 0) +
               PhoneUia2RequestMs("POST", "/keys", 0);
      case K::kRotate:
        return PhoneUia2RequestMs("POST", "/orientation", 0);
      case K::kRestart:
      case K::kBroadcast:
      case K::kIntent:  // am start through the shell, as a launch
        break;
    }
  }
  auto lines = InputCommands(input, package);
  int64_t total = 0;
  if (lines.ok())
    for (const auto& line : *lines)
      total = std::min<int64_t>(total + PhoneShellLineMs(line), kMaxLineMs);
  return static_cast<int>(total);
}

int PhoneCalls::LaunchMs() const {
  const int launch = PhoneShellLineMs(LaunchCommand(package));
  return driver == DriverKind::kUia2 ? launch : launch + PhoneShellLineMs(focus_command);
}

int PhoneCalls::StopMs() const { return PhoneShellLineMs(StopCommand(package)); }

int PhoneCalls::ClearDataMs(bool turn) const {
  return PhoneShellLineMs(ClearDataCommand(package) + (turn ? ";" + RotationCommand(0) : ""));
}

int PhoneCalls::ScreenSizeMs() const {
  return driver == DriverKind::kUia2 ? 0 : PhoneShellLineMs("wm size");
}

int PhoneCalls::SnapshotMs() const { return PhoneConsoleMs("avd snapshot save roam"); }

int PhoneCalls::RestoreMs() const { return PhoneConsoleMs("avd snapshot load roam"); }

int PhoneCalls::ScreenshotMs() const {
  if (driver == DriverKind::kUia2) return PhoneUia2RequestMs("GET", "/screenshot", 0);
  return PhoneShellCommandMs({"screencap", "-p"});
}

}  // namespace roam::device::android
