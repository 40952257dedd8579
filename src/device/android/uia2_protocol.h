// uia2_protocol: every detail of Appium's UiAutomator2 server that Roam relies on, in one place,
// for both sides (the uia2 driver in AndroidDevice and the server `roam sim serve` emulates).
// Read from appium-uiautomator2-server 10.6.2 (AppiumServlet, the handlers, ServerConfig,
// AccessibilityNodeInfoDumper) and appium-uiautomator2-driver 8.1.2 (how it installs and starts
// the server); docs/android.md says which and why.
//   * the packages, the instrumentation that runs the server, its device port (6790);
//   * routes without a base path (the server also strips a leading /wd/hub);
//   * every answer is {"sessionId": ..., "value": ...}; an error's value is {"error": W3C code,
//     "message", "stacktrace"} with an HTTP status of 400, 404, 405 or 500;
//   * the page source is XML whose elements are named by class (gui/uiautomator.h reads it).
// Plain functions: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "base/status.h"

namespace roam::device::android {

inline constexpr std::string_view kUia2ServerPackage = "io.appium.uiautomator2.server";
inline constexpr std::string_view kUia2TestPackage = "io.appium.uiautomator2.server.test";
inline constexpr std::string_view kUia2Runner = "androidx.test.runner.AndroidJUnitRunner";
inline constexpr int kUia2DevicePort = 6790;  // ServerConfig.DEFAULT_SERVER_PORT
// The APK file names in the npm package's apks/ folder (its index.mjs).
std::string Uia2ServerApkName(std::string_view version);  // appium-uiautomator2-server-vV.apk
inline constexpr std::string_view kUia2TestApkName =
    "appium-uiautomator2-server-debug-androidTest.apk";

// `am instrument -w -e disableAnalytics true PKG.test/androidx.test.runner.AndroidJUnitRunner`:
// the one test in the test APK starts the server and blocks until it stops.
std::string Uia2InstrumentCommand();
// `am force-stop` of the server's two packages: what releases the device's UiAutomation
// connection and the server's wake lock (Appium's driver, deleteSession and its cleanup).
std::string Uia2StopCommand();

// Android 9 (API 28) and later keep hidden APIs from apps; the server reaches some by reflection,
// and Appium's driver relaxes the policy for the session (appium-adb's setHiddenApiPolicy('1'))
// and puts the default back after it (setDefaultHiddenApiPolicy): the shell line for each.
inline constexpr int kHiddenApiPolicySdk = 28;
std::string Uia2HiddenApiCommand(bool relax);
// `pm list instrumentation` lists the server's runner (Appium's driver waits for it after an
// install: the package manager may not have registered it yet).
bool Uia2RunnerListed(std::string_view pm_list_instrumentation);

// The settings a crawler wants, sent as capabilities of POST /session (the server applies a
// capability named like a setting as that setting):
//   waitForIdleTimeout `wait_for_idle_ms`: every /source and action first waits for the UI to
//     idle (no accessibility event for 500 ms) for up to this (the server's default 10,000 ms):
//     Uia2Settings::settle_ms with settle kIdle (Roam's default), else 0.
//   waitForSelectorTimeout 0: Roam finds nothing through selectors.
//   shutdownOnPowerDisconnect false: a charging toggle must not kill the server mid-run.
//   deferAccessibilityCacheReset true: an unchanged screen's /source skips the cache reset.
//   allowInvisibleElements false, enableMultiWindows false: the active window's visible nodes,
//     as `uiautomator dump` gives them.
nlohmann::json Uia2CrawlerSettings(int wait_for_idle_ms = 0);
// {"capabilities": {"alwaysMatch": SETTINGS, "firstMatch": [{}]}}
std::string Uia2NewSessionBody(int wait_for_idle_ms = 0);

// "/session/SID" + suffix ("/source", "/appium/gestures/click", ...).
std::string Uia2SessionPath(std::string_view session, std::string_view suffix);

// Request bodies.
std::string Uia2ClickBody(int x, int y);                       // {"offset":{"x","y"}}
std::string Uia2LongClickBody(int x, int y, int duration_ms);  // + "duration"
// A W3C pointer action: move to (x, y), down, move to (x2, y2) over duration_ms, up.
std::string Uia2SwipeBody(int x, int y, int x2, int y2, int duration_ms);
std::string Uia2KeysBody(std::string_view text);  // {"text": ..., "replace": false}
std::string Uia2KeycodeBody(int keycode);         // {"keycode": ...}

// The `value` of an answer; an error answer (or a body that is not the envelope) becomes a
// Status that names the route, the W3C error and the server's message:
// NotFound for "no such element", Unavailable for "invalid session id" (the server restarted)
// and for a 5xx (the server failed: "unknown error" when GET /source finds no window root);
// for an `action` (a gesture, keys, a rotation) any other 4xx is Refused, reason first ("invalid
// element state (POST /orientation): ..."): the server turned that one action down (a rotation
// on an activity locked to portrait, text into a view that takes none); InvalidArgument
// otherwise.
Result<nlohmann::json> Uia2Value(std::string_view route, long http_status, std::string_view body,
                                 bool action = false);

// The server's error answer: {"sessionId": null, "value": {"error", "message", "stacktrace"}}.
std::string Uia2ErrorBody(std::string_view error, std::string_view message);
// The HTTP status the server gives a W3C error code (400, 404, 405 or 500).
int Uia2ErrorStatus(std::string_view error);

}  // namespace roam::device::android
