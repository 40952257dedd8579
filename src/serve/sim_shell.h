// sim_shell: one simulated Android device as an adb client sees it: a SimApp behind a device
// shell. ParseShellScript reads a command line with sh's quoting rules (single quotes, double
// quotes with backslash escapes, backslash, $VAR, $(...) and `...` substitution, ;, &&, ||, |,
// newlines, redirections); SimAndroidDevice runs it against the app and answers as a device:
// uiautomator dump, dumpsys window/activity, wm size, input tap/swipe/text/keyevent, monkey,
// am, pm, getprop, logcat (threadtime, with real crash and ANR block shapes), echo, cat, rm,
// grep, and "/system/bin/sh: foo: inaccessible or not found" for anything else. Every command
// it runs is kept in History(), so tests can check that quoted text was never executed.
// SimAndroidDevice is thread-safe (one mutex); it owns its SimApp, log and in-memory files.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "device/android/apk.h"
#include "device/device.h"
#include "device/jacoco/exec_data.h"
#include "gui/screen.h"
#include "sim/sim_app.h"

namespace roam::serve {

// --- Parsing ----------------------------------------------------------------------------------
struct ShellWordPart {
  enum class Kind { kLiteral, kVariable, kCommand };
  Kind kind = Kind::kLiteral;
  std::string text;     // the literal text, the variable name, or the substituted script
  bool quoted = false;  // inside quotes: no field splitting
};
struct ShellWord {
  std::vector<ShellWordPart> parts;
};
struct ShellRedirect {
  int fd = 1;              // 1 or 2
  bool append = false;     // >>
  bool to_stdout = false;  // 2>&1
  ShellWord target;
};
struct ShellSimpleCommand {
  std::vector<ShellWord> words;
  std::vector<ShellRedirect> redirects;
};
struct ShellPipeline {
  std::vector<ShellSimpleCommand> commands;  // a | b | c
};
struct ShellListItem {
  enum class Next { kEnd, kSeq, kAnd, kOr };
  ShellPipeline pipeline;
  Next next = Next::kEnd;  // how it connects to the following item
};
using ShellScript = std::vector<ShellListItem>;

// Errors as sh reports them: "syntax error: unterminated quoted string".
Result<ShellScript> ParseShellScript(std::string_view line);
// The argv of each simple command when the line has no substitutions or variables (literal
// words only); InvalidArgument otherwise. For tests and quick checks.
Result<std::vector<std::vector<std::string>>> SplitShellWords(std::string_view line);

// --- The device -------------------------------------------------------------------------------
// Which log lines a `logcat` shows: the main, system and crash buffers (the default) or the
// events buffer (-b events), and the tags a filterspec such as `wm_on_resume_called:I *:S`
// keeps (empty: all).
struct LogFilter {
  bool events = false;
  std::vector<std::string> tags;
  bool Accepts(bool events_line, std::string_view line) const;
};

struct ShellResult {
  std::string out;
  std::string err;
  int exit_code = 0;
  // `logcat` without -d as the last command: the caller streams the log from log_cursor on,
  // the lines log_filter lets through.
  bool stream_log = false;
  uint64_t log_cursor = 0;
  LogFilter log_filter;
  // `am instrument -w` of the UiAutomator2 server: the caller holds the connection open while
  // the server runs (SimAndroidDevice::Uia2Running), then sends what it prints as it ends
  // (SimAndroidDevice::Uia2EndText).
  bool instrumentation = false;
  // With phone pacing: what the commands would take on a phone (device/android/phone_pace.h);
  // the caller waits that long before it answers.
  int64_t pace_ms = 0;
};

// What the device saw, for summary.json.
struct SimDeviceStats {
  int64_t input_events = 0;             // input tap/swipe/text/keyevent keys received
  int64_t launches = 0;                 // monkey / am start
  std::vector<std::string> activities;  // of the app, in order of first sight
  std::vector<std::string> covered_units;
  size_t units_total = 0;
  size_t activities_total = 0;
  std::vector<std::pair<int64_t, device::Event>> faults;  // (input event index, event) oldest first
  // System dialogs shown, by kind, and closed, by "kind:how" (close, wait, allow, deny, ...).
  std::map<std::string, int64_t> dialogs_shown;
  std::map<std::string, int64_t> dialogs_closed;
  // Commands run that start a process of their own on a phone, by name (uiautomator, input, am,
  // pm, monkey, settings and wm start a Java VM, app_process; dumpsys and screencap are native):
  // what a driver costs a device a step, whatever the simulator's own speed.
  std::map<std::string, int64_t> process_starts;
  // Screens that settle (PageSpec::settle_ms): page sources and dumps answered while the screen
  // in front was still settling, and actions taken right after such an answer (a client that
  // recorded a state the app never rests in).
  int64_t unsettled_reads = 0;
  int64_t acted_on_unsettled = 0;
};

class SimAndroidDevice {
 public:
  // index: 0, 1, ... (pids and the transport id derive from it).
  SimAndroidDevice(std::string serial, std::shared_ptr<const sim::AppSpec> spec,
                   sim::SimOptions options, int index);
  ~SimAndroidDevice();

  const std::string& serial() const { return serial_; }
  // The screens Android puts in front of the app (sim_shell_dialogs.cc): "isn't responding"
  // after an ANR, "keeps stopping" after a crash, a permission request at a cold launch. Off by
  // default (`roam sim serve --dialogs`).
  void set_system_dialogs(bool on);
  // Commands cost what they cost on a phone (RunShell's pace_ms); off by default.
  void set_phone_pace(bool on);
  bool phone_pace() const;
  // The shell runs as root, as an emulator's after `adb root`: it may send Android's protected
  // broadcasts (`am broadcast -a android.intent.action.BATTERY_LOW`), which a phone's shell may
  // not. Off by default (`roam sim serve --root`).
  void set_root(bool on);
  // The app's JaCoCo runtime (docs/coverage.md): `tcpserver` false is an APK whose
  // jacoco-agent.properties says output=none (AGP injects one): nothing listens on port 6300.
  // LeaveStaleCoverage puts a coverage.ec from yesterday's process where the app's receiver
  // writes (SimCoverageFile), every unit covered, as a run before this one would leave it.
  void set_jacoco_tcpserver(bool on);
  bool jacoco_tcpserver() const;
  void LeaveStaleCoverage();
  // Whether the shell may open `path` now: an app's private folder (/data/data/PKG/...,
  // /data/user/N/PKG/...) is the app's alone, open to a root shell and to `run-as PKG` for a
  // debuggable PKG (the served app is one), as on a phone.
  bool ShellMayAccess(const std::string& path) const;
  bool is_emulator() const { return serial_.rfind("emulator-", 0) == 0; }
  std::string package() const;

  // Runs one `adb shell` command line.
  ShellResult RunShell(std::string_view command_line);
  // An emulator console command ("avd snapshot save NAME" / "load NAME"); "OK\r\n" or
  // "KO: message\r\n".
  std::string Console(std::string_view command);

  // The in-memory file system (what uiautomator dump FILE writes, cat and sync RECV read).
  Result<std::string> ReadFile(const std::string& path) const;
  void WriteFile(const std::string& path, std::string data);

  // The log buffer: absolute line numbers; `logcat -c` drops lines before the end.
  // Lines at or after *cursor that `filter` keeps (the cursor moves past every line read).
  std::vector<std::string> LogSince(uint64_t* cursor, const LogFilter& filter = {}) const;
  // Waits up to timeout_ms for a line at or after cursor; true if there is one.
  bool WaitForLog(uint64_t cursor, int timeout_ms) const;
  // Wakes streaming readers (for shutdown).
  void NotifyAll() const;

  // Every simple command run, as argv, oldest first.
  std::vector<std::vector<std::string>> History() const;
  SimDeviceStats Stats() const;

  // --- Appium's UiAutomator2 server (serve/sim_uia2.h) ---
  // True while `am instrument -w` of the server's runner runs: started by that command once
  // both APKs are installed (`pm install` reads their manifests), ended by a force-stop of
  // either package, by another UiAutomation client (`uiautomator dump`), by Uia2Stop (the
  // server's DELETE /session, the shell that started it closing).
  bool Uia2Running() const;
  uint64_t Uia2Generation() const;  // counts the starts: a new server forgets the old session
  void Uia2Stop();
  // The low-memory killer takes the server's process: its `am instrument -w` ends as the real one
  // does when ActivityManager reports the instrumentation's process gone ("Process crashed.").
  // False when no server ran.
  bool Uia2Kill();
  // What the `am instrument -w` of the server prints when it ends (how it ended decides).
  std::string Uia2EndText() const;
  // A reboot (roam sim serve --faults reboot): the server and the app's process are gone, the
  // log is empty, dialogs and focus are gone; installed packages and files stay.
  void Reboot();
  // What its endpoints do to the device, each as its `input` command would (no process starts).
  // The page source; with `idle_timeout_ms` (the server's waitForIdleTimeout) as it is once the UI
  // has been idle (the screen settled, and paced as a phone kIdleQuietMs since the last input) or
  // the timeout passed, the wait in `waited_ms`.
  std::string PageSource(int idle_timeout_ms = 0, int64_t* waited_ms = nullptr);
  void Tap(int x, int y, bool long_press);
  void Swipe(int x, int y, int x2, int y2, int duration_ms);
  // Text into the element at `path` ("": the focused one, the field a tap focused or a widget
  // the screen marks focused), as SendKeysToElement sets it: kNoTarget when there is none (or a
  // system dialog is in front), kTakesNoText when it is not an enabled text field.
  enum class TypeResult { kTyped, kNoTarget, kTakesNoText };
  TypeResult TypeInto(const std::string& path, const std::string& text);
  // The focused element's path (nullopt: nothing has the focus); the bounds of the element at
  // `path` on the screen now (nullopt: gone).
  std::optional<std::string> FocusedPath();
  std::optional<gui::Rect> BoundsOf(const std::string& path);
  bool PressKeyCode(int code);  // false: a key the simulator does not know
  Result<std::string> ScreenshotPng();
  gui::Rect Display();  // 0,0,width,height of the current screen
  int Rotation();
  // 0 portrait, 1 landscape; false, unchanged, when the activity in front is locked to portrait.
  bool Rotate(int rotation);
  // What `pm install` installed under `package` (nullopt: not installed).
  // Puts a package's manifest in as if it had been installed before (a phone that ran a newer
  // Appium): for client tests.
  void SetInstalledForTest(device::android::ApkManifest manifest);
  std::optional<device::android::ApkManifest> Installed(const std::string& package) const;

  // The app's code units as its JaCoCo runtime holds them (serve/sim_jacoco.h): the probes its
  // current process ran; `reset` zeroes them, as the agent's reset does. Unavailable while the
  // app does not run (the agent's server lives in the app's process).
  Result<device::jacoco::ExecData> JacocoDump(bool reset);
  bool AppRunning() const;
  int app_pid() const;

 private:
  struct Io;
  static void TakeStreams(Io& to, Io& from);
  int RunScript(const ShellScript& script, Io& io, int depth);
  int RunPipeline(const ShellPipeline& p, Io& io, int depth);
  int RunSimple(const ShellSimpleCommand& c, const std::string& in, Io& io, int depth);
  Result<std::vector<std::string>> Expand(const ShellWord& w, int depth, bool split);
  int Dispatch(const std::vector<std::string>& argv, const std::string& in, Io& io);

  int CmdUiautomator(const std::vector<std::string>& a, Io& io);
  int CmdDumpsys(const std::vector<std::string>& a, Io& io);
  int CmdInput(const std::vector<std::string>& a, Io& io);
  int CmdMonkey(const std::vector<std::string>& a, Io& io);
  int CmdAm(const std::vector<std::string>& a, Io& io);
  int CmdAmStart(const std::vector<std::string>& a, Io& io);  // am start, start-activity
  int CmdPm(const std::vector<std::string>& a, Io& io);
  int CmdGetprop(const std::vector<std::string>& a, Io& io);
  int CmdScreencap(const std::vector<std::string>& a, Io& io);
  int CmdLogcat(const std::vector<std::string>& a, Io& io);
  int CmdFiles(const std::vector<std::string>& a, const std::string& in, Io& io);
  int CmdRunAs(const std::vector<std::string>& a, const std::string& in, Io& io);
  bool MayAccessLocked(const std::string& path) const;

  void Touch(int x, int y, bool long_press);
  void TouchSwipe(int x, int y, int x2, int y2, int duration_ms);
  bool TypeText(const std::string& text);
  bool Key(const std::string& name_or_code);  // a KEYCODE_ name or number
  int CmdInstrument(const std::vector<std::string>& a, Io& io);
  int CmdInstall(const std::vector<std::string>& a, Io& io);
  int CmdUninstall(const std::vector<std::string>& a, Io& io);
  void StopUia2Locked(const std::string& why);
  enum class Dialog { kNone, kNotResponding, kCrashed, kPermission };
  static std::string_view DialogName(Dialog kind);
  void ShowDialog(Dialog kind);
  void CloseDialog(std::string_view how);
  void DialogTouch(int x, int y);
  void DialogBack();
  bool WantsPermission() const;
  void LogEvent(const std::string& tag, const std::string& values, int pid);
  std::string LogStamp();
  std::vector<std::string> LogSinceLocked(uint64_t* cursor, const LogFilter& filter) const;

  void EndProcess();  // the app's process is gone: its JaCoCo probes start again from zero
  Result<device::jacoco::ExecData> JacocoDumpLocked(bool reset);
  static int64_t WallMs();                  // the JaCoCo session's times: ms since 1970
  void Perform(const gui::Action& action);  // counts, logs, faults
  void CountInput();                        // what Perform counts of an input
  // `dumpsys package`'s Activity Resolver Table of the app: its intent filters.
  std::string ActivityResolverTable() const;
  // `am start` of the app's activity or deep link (not its launcher start): what it printed.
  int StartActivity(const gui::Intent& intent, bool wait, Io& io);
  void Launch();
  void AfterChange();  // drains faults, notes the activity
  void Log(char level, const std::string& tag, const std::string& message, int pid = -1);
  std::string FullActivity(const std::string& activity) const;   // org.p/org.p.Main
  std::string ShortActivity(const std::string& activity) const;  // org.p/.Main
  const gui::Screen& Screen();
  // The screen as a dump or a page source shows it: the field a tap focused marked focused; a
  // screen still settling (PageSpec::settle_ms) as it slides in, unless `settled`.
  gui::Screen ShownScreen(bool settled = false);
  // Milliseconds until the screen in front has settled (0: it has).
  int64_t SettleLeftMs() const;

  std::string serial_;
  int index_;
  mutable std::mutex mu_;
  mutable std::condition_variable log_cv_;
  sim::SimApp app_;
  std::map<std::string, std::string> env_;
  std::map<std::string, std::string> files_;
  std::map<std::string, std::unique_ptr<sim::SimState>> snapshots_;
  struct LogLine {
    std::string text;
    bool events = false;  // in the events buffer
  };
  std::vector<LogLine> log_;
  uint64_t log_base_ = 0;  // absolute number of log_[0]
  int64_t clock_ms_ = 0;   // the fake monotonic clock of the log
  int app_pid_ = 0;
  std::vector<uint32_t> hits_at_start_;  // SimApp::UnitHits() when the app's process began
  // SimApp::UnitHits() before the last input: what its handlers ran shows in a JaCoCo dump only
  // once its screen has settled, as a phone's UI thread runs them after the input is injected.
  std::vector<uint32_t> hits_before_input_;
  int64_t process_start_ms_ = WallMs();
  int next_pid_ = 0;
  std::string focused_path_;  // the edit field a tap focused
  std::vector<std::vector<std::string>> history_;
  SimDeviceStats stats_;
  std::set<std::string> activities_seen_;
  std::string resumed_;  // the activity last reported resumed in the events buffer
  std::map<std::string, device::android::ApkManifest> installed_;  // by `pm install`, by package
  bool uia2_running_ = false;
  bool phone_pace_ = false;
  bool root_ = false;
  std::string run_as_;            // the package a `run-as` command runs as, while it runs
  bool jacoco_tcpserver_ = true;  // set_jacoco_tcpserver
  bool system_dialogs_ = false;
  Dialog dialog_ = Dialog::kNone;  // the system dialog in front of the app
  gui::Screen dialog_screen_;
  bool permission_granted_ = false;
  int permission_denials_ = 0;
  int64_t pace_owed_ms_ = 0;  // of the command line being run
  uint64_t uia2_generation_ = 0;
  bool uia2_crashed_ = false;  // the last server's process was killed (Uia2Kill)
  // Settling: the screen in front when the app last changed, when it settles (WallMs), and
  // whether the last page source or dump showed it still settling.
  int settle_screen_ = -1;
  int settle_total_ms_ = 0;  // its settle_ms
  int64_t settled_at_ms_ = 0;
  int64_t last_input_ms_ = 0;  // WallMs of the last input event
  bool read_unsettled_ = false;
};

}  // namespace roam::serve
