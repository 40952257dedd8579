// phone_pace: what one device-side command costs on a phone, in milliseconds, by what it is:
// the table behind `roam sim serve --pace phone` (and a phone's clock for the benchmarks). Each
// row's figure and its public sources are in docs/android.md ("A phone's pace"); rows without a
// public measurement are marked assumed there. Plain functions over constants: thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace roam::device::android {

// One shell command (argv) as `adb shell` runs it: `uiautomator dump`, `input tap`, `dumpsys`,
// `am start`, `pm clear`, `screencap -p`, ...; a built-in or a file command costs the adb round
// trip. Several commands in one line cost their sum; the caller adds them up.
int PhoneShellCommandMs(const std::vector<std::string>& argv);

// One request to Appium's UiAutomator2 server: the route after /session/ID ("/source",
// "/appium/gestures/click", "/actions", ...) or a sessionless one ("/status"); `gesture_ms` is
// the duration a long press or a swipe asks for.
int PhoneUia2RequestMs(std::string_view method, std::string_view route, int gesture_ms);

// An emulator console command: "avd snapshot load NAME", "avd snapshot save NAME".
int PhoneConsoleMs(std::string_view command);

// A connection to a device port (the JaCoCo agent's dump): the adb round trip.
inline constexpr int kPhoneRoundTripMs = 30;

}  // namespace roam::device::android
