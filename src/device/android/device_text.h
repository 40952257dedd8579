// device_text: what AndroidDevice reads from and writes to the device shell, as pure functions
// so they are tested without a device: the dump in `uiautomator dump` output, the focused window
// in `dumpsys window` / `dumpsys activity activities`, `wm size`, and the command line that
// performs a gui::Action (`input tap/swipe/text/keyevent`, settings, am/monkey), the activities
// and intent filters `dumpsys package` lists and what `am start` answers. Plain functions:
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "gui/action.h"
#include "gui/intent.h"

namespace roam::device::android {

// "\r\n" -> "\n" (a shell: v1 stream comes through a pty).
std::string StripCarriageReturns(std::string_view text);

// `uiautomator dump` failed because another UiAutomation client holds the device's one
// connection ("UiAutomationService ... already registered"): a UiAutomator2 server left running.
bool UiAutomationTaken(std::string_view output);

// The XML of a `uiautomator dump /dev/tty` output: from "<?xml" (or "<hierarchy") through
// "</hierarchy>", without the "UI hierchary dumped to: /dev/tty" line; nullopt when there is
// none (then the output holds an error such as "ERROR: could not get idle state.").
std::optional<std::string_view> ExtractDump(std::string_view output);
// True when the output says the dump may work if tried again ("could not get idle state",
// "ERROR", "Killed", an empty output).
bool DumpWorthRetrying(std::string_view output);

// "org.app/.Main" -> "org.app.Main"; "org.app/org.app.ui.Main" -> "org.app.ui.Main";
// "org.app.Main" unchanged.
std::string NormaliseActivity(std::string_view component);

struct Focus {
  std::string package;   // "" when unknown
  std::string activity;  // fully qualified, "" when the focused window is not an activity
};
// From `dumpsys window` output: mCurrentFocus=Window{... u0 PKG/ACT} first, then mFocusedApp
// (ActivityRecord{... u0 PKG/ACT t12}); from `dumpsys activity activities`: mResumedActivity /
// topResumedActivity / ResumedActivity. Empty Focus when none is found.
Focus ParseFocus(std::string_view dumpsys);

// "Physical size: 1080x1920\nOverride size: 720x1280" -> the override when present.
std::optional<std::pair<int, int>> ParseWmSize(std::string_view output);

struct InputSettings {
  int long_click_ms = 800;  // `input swipe x y x y 800`: a long press
  int swipe_ms = 300;       // duration of scroll and swipe gestures
  double swipe_span = 0.5;  // gestures travel this fraction of the widget or screen
};

// The longest command line sent in one `shell:` request (adb's own request limit is 64 KiB).
inline constexpr size_t kMaxCommandLine = 16 * 1024;

// What performing an action asks of the device, whatever carries it (a shell's `input`, the
// UiAutomator2 server's endpoints): a tap, a long press, a swipe, a key, text typed after a tap
// on its field, a rotation, a restart of the app, a system broadcast to it, an intent that starts
// one of its activities. Coordinates are screen pixels.
struct DeviceInput {
  enum class Kind { kTap, kLongPress, kSwipe, kKey, kText, kRotate, kRestart, kBroadcast, kIntent };
  Kind kind = Kind::kTap;
  int x = 0, y = 0;    // the tap, press, field or the swipe's start
  int x2 = 0, y2 = 0;  // the swipe's end
  int ms = 0;          // the press's or the swipe's duration
  int key = -1;        // kKey: the key code (-1: known by name only, in text)
  int rotation = 0;    // kRotate: 0 portrait, 1 landscape
  std::string text;    // kText: the text; kKey: the key's name; kBroadcast: the intent action
  gui::Intent intent;  // kIntent
};

// Inputs only the shell performs, whatever the driver: a restart, a broadcast, an intent, a key
// known by name only (the UiAutomator2 server has no endpoint for them).
bool ShellOnly(const DeviceInput& input);

// The input of `action` on a screen of width x height rotated `rotation` (0-3). Widget actions
// use action.target's bounds: the centre, clamped inside the bounds and the screen.
// InvalidArgument for a widget action without target.
Result<DeviceInput> PlanAction(const gui::Action& action, int width, int height, int rotation,
                               const InputSettings& settings);

// The device shell command lines of `input` for `package`: one line, or for a long text
// several, each at most kMaxCommandLine bytes. Text is escaped (shell_escape.h); `dropped` gets
// the characters `input text` cannot type.
Result<std::vector<std::string>> InputCommands(const DeviceInput& input, const std::string& package,
                                               size_t* dropped = nullptr);

// The device shell command lines that perform `action` on a screen of width x height rotated
// `rotation` (0-3), for `package`, to be run in order: one line, or for a long text several,
// each at most kMaxCommandLine bytes. Widget actions use action.target's bounds: the centre,
// clamped inside the bounds and the screen. Text is escaped (shell_escape.h); `dropped` gets
// the characters `input text` cannot type. InvalidArgument for a widget action without target.
Result<std::vector<std::string>> ActionCommand(const gui::Action& action, int width, int height,
                                               int rotation, const std::string& package,
                                               const InputSettings& settings,
                                               size_t* dropped = nullptr);

// The intent actions `package`'s receivers filter on without data, from `dumpsys package
// PACKAGE`: the `Action: "..."` lines under "Receiver Resolver Table:" > "Non-Data Actions:"
// (what `am broadcast -a ACTION -p PACKAGE` reaches), sorted, each once. Receivers an app
// registers in code while it runs are not listed there.
std::vector<std::string> ParseReceiverActions(std::string_view dumpsys_package);
// True when `am broadcast`'s output says Android refused to send it from the shell: a protected
// broadcast, which only the system (or a root shell: `adb root` on an emulator) may send.
bool BroadcastRefused(std::string_view am_output);

// The activities `package` declares with intent filters, from `dumpsys package PACKAGE`: the
// component lines ("66dcbda org.app/.Detail filter 779d6e8") under "Activity Resolver Table:"
// with their filters' `Action:`, `Category:`, `Scheme:`, `Authority: "host": port [WILD]` and
// `Path: "PatternMatcher{KIND: path}"` lines. A filter listed under several keys (each scheme,
// each action) is read once; a filter with a MIME type (`Type:`, `StaticType:`, `MimeGroup:`) is
// left out, as `am start` without -t matches none. Android lists neither the activities without
// filters nor whether an activity is exported: each one listed is `exported` (the shell's refusal
// tells otherwise). Sorted by name.
std::vector<gui::DeclaredActivity> ParseActivityResolver(std::string_view dumpsys_package);

// A filter's host as a URI carries it: "*.example.com" (any subdomain) -> "www.example.com",
// "*" (any host) -> "localhost", a port other than -1 appended ("host:8080").
std::string FilterHost(std::string_view declared_host, int port);
// The longest path every path a filter's path pattern takes begins with (what
// gui::IntentFilter::paths keeps): a literal or a prefix itself, a glob's characters before its
// first wildcard, "/" and the suffix for a suffix. `kind` is PatternMatcher's: "LITERAL",
// "PREFIX", "GLOB", "ADVANCED_GLOB", "SUFFIX".
std::string FilterPathPrefix(std::string_view kind, std::string_view pattern);

// `am start -W` of `intent` in `package` (-W: its answer comes once the activity is up, on
// stdout): the component as -n PACKAGE/CLASS, or a deep link as -a ACTION -d URI -p PACKAGE (the
// package keeps the resolution inside the app, so no chooser opens), each extra as --es/--ei/--ez
// KEY VALUE; every value single-quoted (shell_escape.h).
std::string StartCommand(const gui::Intent& intent, const std::string& package);

// What `am start` answered. It exits 0 whatever happened: the text says.
struct StartAnswer {
  enum class Outcome {
    kStarted,          // "Status: ok" (or "timeout"), a "Warning:" that it was brought to front
    kNotExported,      // SecurityException: Permission Denial ... not exported from uid N
    kNeedsPermission,  // Permission Denial ... requires PERMISSION; "you do not have permission"
    kUnresolved,       // "Error: Activity not started, unable to resolve Intent { ... }"
    kNoSuchClass,      // "Error type 3" / "Error: Activity class {PKG/CLS} does not exist."
    kFailed,           // any other "Error:" or exception (a bad extra value): nothing started
  };
  Outcome outcome = Outcome::kStarted;
  std::string activity;  // the class the answer names (cmp=, {PKG/CLS}), fully qualified; or ""
  std::string line;      // the line that says what went wrong; "" when started
};
StartAnswer ParseStartAnswer(std::string_view am_output);
// Ok when started; otherwise Refused with the reason first, e.g. "intent not exported:
// org.app.Secret", "intent not resolved: app://x/y", "intent class not found: org.app.Gone",
// "intent needs a permission: org.app.Admin", "intent not started: <the line>".
Status StartStatus(const StartAnswer& answer, const gui::Intent& intent);
// Takes what a refusal of `intent` tells out of `activities`: an activity not exported or behind a
// permission is no longer exported, one that does not exist is gone, and for a deep link nothing
// resolved, the filters that seemed to take it are gone. True when something changed.
bool ForgetRefused(std::vector<gui::DeclaredActivity>& activities, const gui::Intent& intent,
                   const StartAnswer& answer);

// The launcher intent of `package`, as Monkey sends it.
std::string LaunchCommand(const std::string& package);
// The app's process killed; its data wiped (the app stopped as well).
std::string StopCommand(const std::string& package);
std::string ClearDataCommand(const std::string& package);
// Turns the screen to `rotation` (0 upright, 1 landscape) and keeps it there: auto-rotation off.
std::string RotationCommand(int rotation);
// One try of a dump to the shell's output, the focused window after it (`focus_command`); the
// tries after the first ask for the compressed hierarchy.
std::string DumpCommand(bool compressed, std::string_view focus_command);

}  // namespace roam::device::android
