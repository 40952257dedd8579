// sim_shell_app: the app's lifecycle on the simulated device: launch, actions, faults turned
// into crash/ANR log blocks, the emulator console's snapshots, and monkey, am, pm, settings, wm.
// Members run under SimAndroidDevice's mutex (Console takes it).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "device/android/uia2_protocol.h"
#include "serve/sim_jacoco.h"
#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"
#include "sim/interpreter.h"

namespace roam::serve {

using internal::kMsPerEvent;
using internal::SplitFields;

// --- The device: app, events ------------------------------------------------------------------

const gui::Screen& SimAndroidDevice::Screen() {
  return dialog_ != Dialog::kNone ? dialog_screen_ : app_.screen();
}

std::string SimAndroidDevice::FullActivity(const std::string& activity) const {
  const std::string& pkg = app_.package();
  if (!activity.empty() && activity[0] == '.') return pkg + "/" + pkg + activity;
  size_t slash = activity.find('/');
  if (slash != std::string::npos) return FullActivity(activity.substr(slash + 1));
  // The application id owns every activity of the app, whatever the class's Java package
  // (org.tasks/com.todoroo.astrid.activity.MainActivity), as on a phone.
  return pkg + "/" + activity;
}

std::string SimAndroidDevice::ShortActivity(const std::string& activity) const {
  std::string full = FullActivity(activity);
  size_t slash = full.find('/');
  std::string pkg = full.substr(0, slash), cls = full.substr(slash + 1);
  if (cls.rfind(pkg + ".", 0) == 0) return pkg + "/" + cls.substr(pkg.size());
  return full;
}

void SimAndroidDevice::Launch() {
  hits_before_input_.clear();  // a launch is no input: what it runs shows at once
  if (dialog_ == Dialog::kNotResponding || dialog_ == Dialog::kCrashed) CloseDialog("relaunch");
  bool was_running = app_.running();
  const auto& acts = app_.Activities();
  std::string act = acts.empty() ? app_.package() + ".MainActivity" : acts.front();
  Log('I', "ActivityTaskManager",
      fmt::format(
          "START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
          "flg=0x10200000 cmp={}}} from uid 2000",
          ShortActivity(act)));
  app_.Launch();
  ++stats_.launches;
  if (!was_running && app_.running()) {
    app_pid_ = next_pid_++;
    Log('I', "ActivityManager",
        fmt::format("Start proc {}:{}/u0a{} for pre-top-activity {{{}}}", app_pid_, app_.package(),
                    100 + index_, ShortActivity(act)));
    Log('I', "ActivityTaskManager", fmt::format("Displayed {}: +{}ms", ShortActivity(act), 312));
    if (WantsPermission()) ShowDialog(Dialog::kPermission);  // the app asks at its start
  }
  AfterChange();
}

void SimAndroidDevice::Perform(const gui::Action& action) {
  CountInput();
  app_.Perform(action);
  AfterChange();
}

void SimAndroidDevice::CountInput() {
  ++stats_.input_events;
  if (read_unsettled_) ++stats_.acted_on_unsettled;
  read_unsettled_ = false;
  last_input_ms_ = WallMs();
  clock_ms_ += kMsPerEvent;
  hits_before_input_ = app_.UnitHits();
}

int SimAndroidDevice::StartActivity(const gui::Intent& intent, bool wait, Io& io) {
  CountInput();
  const sim::IntentOutcome outcome = app_.StartIntent(intent);
  AfterChange();
  const std::string cmp = intent.component.empty() ? "" : ShortActivity(intent.component);
  std::string shown;  // the Intent as ActivityManager's toString prints it
  if (!intent.action.empty()) shown += "act=" + intent.action + " ";
  if (!intent.data.empty())
    shown += "dat=" + intent.data.substr(0, intent.data.find('/') + 2) + "... ";
  shown += "flg=0x10000000 ";
  shown += cmp.empty() ? "pkg=" + app_.package() : "cmp=" + cmp;
  if (!intent.extras.empty()) shown += " (has extras)";
  switch (outcome) {
    case sim::IntentOutcome::kNotExported:
      // Android 12 and later (ActivityTaskSupervisor.checkStartAnyActivityPermission).
      io.err += fmt::format(
          "\nException occurred while executing 'start':\n"
          "java.lang.SecurityException: Permission Denial: starting Intent {{ {} }} from null "
          "(pid={}, uid=2000) not exported from uid 10{}\n"
          "\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission("
          "ActivityTaskSupervisor.java:1172)\n",
          shown, 6000 + index_, 100 + index_);
      return 255;
    case sim::IntentOutcome::kUnresolved:
      if (!cmp.empty()) {
        io.err += fmt::format("Error type 3\nError: Activity class {{{}}} does not exist.\n",
                              FullActivity(intent.component));
      } else {
        io.err += "Error: Activity not started, unable to resolve Intent { " + shown + " }\n";
      }
      return 0;
    case sim::IntentOutcome::kStarted:
      break;
  }
  if (wait) {
    const bool alive = app_.running() && Screen().package == app_.package();
    io.out += fmt::format(
        "Status: ok\nLaunchState: {}\nActivity: {}\nTotalTime: 280\n"
        "WaitTime: 284\nComplete\n",
        alive ? "WARM" : "UNKNOWN (0)", alive ? FullActivity(Screen().activity) : cmp);
  }
  return 0;
}

void SimAndroidDevice::AfterChange() {
  if (const int top = app_.TopScreen(); top != settle_screen_) {
    settle_screen_ = top;  // a screen came to the front: it settles from now
    settle_total_ms_ = app_.SettleMs();
    if (settle_total_ms_ > 0) settled_at_ms_ = WallMs() + settle_total_ms_;
  }
  int pid = app_pid_;
  for (sim::Fault& f : app_.DrainFaults()) {
    device::Event e;
    e.kind = f.kind == sim::Fault::Kind::kCrash ? device::Event::Kind::kCrash
                                                : device::Event::Kind::kAnr;
    e.package = app_.package();
    e.exception = f.exception;
    e.message = f.message;
    e.frames = f.frames;
    e.bug_id = f.bug_id;
    std::string activity =
        ShortActivity(Screen().package == app_.package()
                          ? Screen().activity
                          : (app_.Activities().empty() ? ".MainActivity" : app_.Activities()[0]));
    size_t first_line = log_.size();
    if (e.kind == device::Event::Kind::kCrash) {
      Log('D', "AndroidRuntime", "Shutting down VM", pid);
      Log('E', "AndroidRuntime", "FATAL EXCEPTION: main", pid);
      Log('E', "AndroidRuntime", fmt::format("Process: {}, PID: {}", e.package, pid), pid);
      Log('E', "AndroidRuntime", e.message.empty() ? e.exception : e.exception + ": " + e.message,
          pid);
      for (const auto& frame : e.frames) Log('E', "AndroidRuntime", "\tat " + frame, pid);
      Log('I', "Process", fmt::format("Sending signal. PID: {} SIG: 9", pid), pid);
      Log('W', "ActivityTaskManager", "  Force finishing activity " + activity);
    } else {
      Log('E', "ActivityManager", fmt::format("ANR in {} ({})", e.package, activity));
      Log('E', "ActivityManager", fmt::format("PID: {}", pid));
      Log('E', "ActivityManager",
          "Reason: " +
              (e.message.empty() ? std::string("Input dispatching timed out") : e.message));
      Log('E', "ActivityManager", "Load: 0.0 / 0.0 / 0.0");
    }
    for (size_t k = first_line; k < log_.size(); ++k) e.raw += log_[k].text + "\n";
    ShowDialog(e.kind == device::Event::Kind::kCrash ? Dialog::kCrashed : Dialog::kNotResponding);
    stats_.faults.emplace_back(stats_.input_events, std::move(e));
  }
  if (!app_.running())
    EndProcess();
  else if (app_pid_ == 0)
    app_pid_ = next_pid_++;
  const gui::Screen& screen = Screen();
  if (screen.package == app_.package() && activities_seen_.insert(screen.activity).second) {
    stats_.activities.push_back(screen.activity);
  }
  // The app's process logs each resume of one of its activities in the events buffer, as
  // ActivityThread does (API 30: token, class, reason). A permission request is an activity
  // of its own; the error dialogs are windows that resume nothing.
  std::string resumed = screen.package == app_.package() && app_.running()
                            ? FullActivity(screen.activity).substr(app_.package().size() + 1)
                            : "";
  if (dialog_ == Dialog::kPermission) resumed = screen.activity;
  if (dialog_ == Dialog::kNotResponding || dialog_ == Dialog::kCrashed) resumed = resumed_;
  if (resumed != resumed_) {
    resumed_ = resumed;
    if (!resumed.empty())
      LogEvent("wm_on_resume_called",
               fmt::format("[{},{},RESUME_ACTIVITY]", std::hash<std::string>()(resumed) & 0xfffffff,
                           resumed),
               app_pid_);
  }
  if (!focused_path_.empty()) {
    int w = screen.FindPath(focused_path_);
    if (w < 0 || !screen.widgets[w].editable) focused_path_.clear();
  }
}

std::string SimAndroidDevice::Console(std::string_view command) {
  std::lock_guard<std::mutex> lock(mu_);
  auto words = SplitFields(std::string(command));
  if (words.size() >= 3 && words[0] == "avd" && words[1] == "snapshot") {
    const std::string& op = words[2];
    if (op == "list") {
      std::string out = "List of snapshots present on all disks:\r\n";
      for (const auto& [name, st] : snapshots_) out += name + "\r\n";
      return out + "OK\r\n";
    }
    if (words.size() < 4) return "KO: missing snapshot name\r\n";
    const std::string& name = words[3];
    if (op == "save") {
      snapshots_[name] = app_.Save();
      return "OK\r\n";
    }
    auto it = snapshots_.find(name);
    if (it == snapshots_.end()) return "KO: snapshot '" + name + "' does not exist\r\n";
    if (op == "load") {
      app_.Load(*it->second);
      EndProcess();
      AfterChange();
      return "OK\r\n";
    }
    if (op == "delete") {
      snapshots_.erase(it);
      return "OK\r\n";
    }
  }
  if (!words.empty() && words[0] == "ping") return "I am alive!\r\nOK\r\n";
  return "KO: unknown command, try 'help'\r\n";
}

int SimAndroidDevice::CmdMonkey(const std::vector<std::string>& a, Io& io) {
  std::string pkg;
  std::string count = "1";
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k] == "-p" && k + 1 < a.size())
      pkg = a[++k];
    else if ((a[k] == "-c" || a[k] == "-s" || a[k] == "--throttle" || a[k] == "--pct-touch") &&
             k + 1 < a.size())
      ++k;
    else if (a[k][0] != '-')
      count = a[k];
  }
  for (size_t k = 1; k < a.size(); ++k) io.out += "  bash arg: " + a[k] + "\n";
  if (pkg != app_.package()) {
    io.out += "** No activities found to run, monkey aborted.\n";
    return 252;
  }
  Launch();
  if (std::atoi(count.c_str()) > 1) {
    io.err += "** roam sim: monkey's random events are not simulated; only the launch was sent\n";
  }
  io.out +=
      "Events injected: 1\n## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, "
      "14ms not connected)\n";
  return 0;
}

namespace {

// `am start`'s arguments as ActivityManagerShellCommand reads the ones Roam and people send.
struct AmStartArgs {
  bool wait = false, stop_first = false, launcher = false;  // -W, -S, -c ...LAUNCHER
  std::string component, to_package;                        // -n (or a bare PKG/CLS), -p
  gui::Intent intent;                                       // -a, -d, --es/--ei/--ez
};

AmStartArgs ParseAmStart(const std::vector<std::string>& a) {
  AmStartArgs r;
  for (size_t k = 2; k < a.size(); ++k) {
    const bool has_value = k + 1 < a.size();
    if (a[k] == "-W") {
      r.wait = true;
    } else if (a[k] == "-S") {
      r.stop_first = true;
    } else if (a[k] == "-n" && has_value) {
      r.component = a[++k];
    } else if (a[k] == "-a" && has_value) {
      r.intent.action = a[++k];
    } else if (a[k] == "-d" && has_value) {
      r.intent.data = a[++k];
    } else if (a[k] == "-p" && has_value) {
      r.to_package = a[++k];
    } else if (a[k] == "-c" && has_value) {
      r.launcher |= a[++k] == "android.intent.category.LAUNCHER";
    } else if (const auto type = gui::ExtraTypeFromFlag(a[k]); type && k + 2 < a.size()) {
      r.intent.extras.push_back({.key = a[k + 1], .type = *type, .value = a[k + 2]});
      k += 2;
    } else if ((a[k] == "-t" || a[k] == "-f" || a[k] == "--user") && has_value) {
      ++k;
    } else if (a[k].find('/') != std::string::npos && a[k][0] != '-') {
      r.component = a[k];
    }
  }
  return r;
}

}  // namespace

int SimAndroidDevice::CmdAmStart(const std::vector<std::string>& a, Io& io) {
  AmStartArgs args = ParseAmStart(a);
  const std::string& component = args.component;
  gui::Intent& intent = args.intent;
  // A deep link without -p resolves among the phone's apps: this phone has one.
  const std::string pkg = !component.empty()         ? component.substr(0, component.find('/'))
                          : !args.to_package.empty() ? args.to_package
                          : !intent.data.empty()     ? app_.package()
                                                     : "";
  // FullActivity names the class within this app, whatever package `component` gave.
  if (!component.empty() && pkg == app_.package())
    intent.component = FullActivity(component).substr(app_.package().size() + 1);
  const std::string& start = app_.spec().screens()[app_.spec().start()].activity;
  // Anything but the launcher's own activity, started bare, is an intent the app handles.
  if (pkg == app_.package() && !args.launcher &&
      (intent.component != start || !intent.extras.empty() || !intent.data.empty())) {
    io.out += fmt::format("Starting: Intent {{ {}{}{} }}\n",
                          intent.action.empty() ? "" : "act=" + intent.action + " ",
                          intent.data.empty() ? "" : "dat=" + intent.data + " ",
                          component.empty() ? "pkg=" + pkg : "cmp=" + component);
    return StartActivity(intent, args.wait, io);
  }
  io.out += "Starting: Intent { cmp=" + component + " }\n";
  if (component.empty() || pkg != app_.package()) {
    io.err += "Error: Activity not started, unable to resolve Intent { cmp=" + component +
              " flg=0x10000000 }\n";
    return 1;
  }
  if (args.stop_first) app_.Stop();
  Launch();
  if (args.wait) {
    io.out += "Status: ok\nLaunchState: COLD\nActivity: " + FullActivity(Screen().activity) +
              "\nTotalTime: 312\nWaitTime: 315\nComplete\n";
  }
  return 0;
}

int SimAndroidDevice::CmdAm(const std::vector<std::string>& a, Io& io) {
  std::string sub = a.size() > 1 ? a[1] : "";
  if (sub == "instrument") return CmdInstrument(a, io);
  if (sub == "force-stop" || sub == "kill") {
    if (a.size() > 2 && (a.back() == device::android::kUia2ServerPackage ||
                         a.back() == device::android::kUia2TestPackage))
      StopUia2Locked("force-stopped");
    if (a.size() > 2 && a.back() == app_.package()) {
      if (app_.running()) {
        Log('I', "ActivityManager",
            fmt::format("Force stopping {} appid=10{} user=0: from pid {}", app_.package(),
                        100 + index_, 4000 + index_));
      }
      app_.Stop();
      if (dialog_ != Dialog::kNone) CloseDialog("force_stop");
      AfterChange();
    }
    return 0;
  }
  if (sub == "start" || sub == "start-activity") return CmdAmStart(a, io);
  if (sub == "broadcast") {
    std::string component, action, to_package;
    for (size_t k = 2; k + 1 < a.size(); ++k) {
      if (a[k] == "-n")
        component = a[++k];
      else if (a[k] == "-a")
        action = a[++k];
      else if (a[k] == "-p")
        to_package = a[++k];
    }
    io.out += fmt::format("Broadcasting: Intent {{ {}flg=0x400000{} }}\n",
                          component.empty() ? "act=" + action + " " : "cmp=" + component + " ",
                          to_package.empty() ? "" : " pkg=" + to_package);
    const std::string& pkg = app_.package();
    if (action.starts_with("android.") && !root_) {
      // Android's own actions are protected: only the system (or a root shell) sends them.
      io.err += fmt::format(
          "Exception occurred while executing 'broadcast':\n"
          "java.lang.SecurityException: Permission Denial: not allowed to send broadcast {} "
          "from pid={}, uid=2000\n"
          "\tat com.android.server.am.ActivityManagerService.broadcastIntentLocked("
          "ActivityManagerService.java:14316)\n",
          action, 6000 + index_);
      return 255;
    }
    if (const auto taken = app_.Broadcasts();
        std::binary_search(taken.begin(), taken.end(), action)) {
      // The receivers the app's screen in front registered (the spec's `broadcast:` handlers).
      if ((to_package.empty() || to_package == pkg) && app_.screen().package == pkg)
        Perform(gui::MakeGlobalAction(gui::ActionKind::kBroadcast, action));
    } else if (ReachesCoverageReceiver(pkg, component, action, to_package)) {
      // The app's coverage receiver (docs/coverage.md's) writes the JaCoCo data of this process
      // into its private files folder; any other broadcast reaches nothing, and is "completed"
      // all the same, as on a phone.
      if (app_.running()) {
        auto data = JacocoDumpLocked(/*reset=*/false);
        if (data.ok()) files_[SimCoverageFile(pkg)] = device::jacoco::WriteExec(*data);
      }
    }
    io.out += "Broadcast completed: result=0\n";
    return 0;
  }
  io.err += "Unknown command: " + sub + "\n";
  return 255;
}

// pm, settings, wm.
int SimAndroidDevice::CmdPm(const std::vector<std::string>& a, Io& io) {
  std::string sub = a.size() > 1 ? a[1] : "";
  const std::string& pkg = app_.package();
  if (a[0] == "wm") {
    const gui::Screen& s = Screen();
    if (sub == "size")
      io.out += fmt::format("Physical size: {}x{}\n", s.width, s.height);
    else if (sub == "density")
      io.out += "Physical density: 420\n";
    else
      return io.err += "Error: unknown command '" + sub + "'\n", 255;
    return 0;
  }
  if (a[0] == "settings") {
    // settings put system user_rotation N rotates the simulated screen.
    if (sub == "put" && a.size() >= 5 && a[3] == "user_rotation") {
      int want = std::atoi(a[4].c_str()) % 4;
      for (int k = 0; k < 4 && app_.screen().rotation != want; ++k)
        Perform(gui::MakeGlobalAction(gui::ActionKind::kRotate));
      env_["settings." + a[3]] = a[4];
    } else if (sub == "put" && a.size() >= 5) {
      env_["settings." + a[3]] = a[4];
    } else if (sub == "delete" && a.size() >= 4) {
      io.out += fmt::format("Deleted {} rows\n", env_.erase("settings." + a[3]));
    } else if (sub == "get" && a.size() >= 4) {
      auto it = env_.find("settings." + a[3]);
      io.out += (it == env_.end() ? "null" : it->second) + "\n";
    }
    return 0;
  }
  std::string target = a.size() > 2 ? a.back() : "";
  if (sub == "clear") {
    if (target != pkg) {
      io.out += "Failed\n";
      return 1;
    }
    app_.ClearData();
    if (dialog_ != Dialog::kNone) CloseDialog("clear");
    permission_granted_ = false;  // pm clear revokes runtime permissions
    permission_denials_ = 0;
    AfterChange();
    io.out += "Success\n";
    return 0;
  }
  if (sub == "list" && a.size() > 2 && a[2] == "instrumentation") {
    for (const auto& [name, m] : installed_)
      if (!m.instrumentation_runner.empty())
        io.out += fmt::format("instrumentation:{}/{} (target={})\n", name, m.instrumentation_runner,
                              m.instrumentation_target);
    return 0;
  }
  if (sub == "list" && a.size() > 2 && a[2] == "packages") {
    static const char* kSystem[] = {"android", "com.android.systemui", "com.android.settings",
                                    "com.android.launcher3", "com.android.shell"};
    std::string filter = a.size() > 3 && a.back()[0] != '-' ? a.back() : "";
    bool third_party = std::find(a.begin(), a.end(), "-3") != a.end();
    std::vector<std::string> names;
    if (!third_party) names.assign(std::begin(kSystem), std::end(kSystem));
    names.push_back(pkg);
    for (const auto& [name, m] : installed_) names.push_back(name);
    for (const auto& n : names)
      if (n.find(filter) != std::string::npos) io.out += "package:" + n + "\n";
    return 0;
  }
  if (sub == "path") {
    if (target != pkg) return 1;
    io.out += "package:/data/app/" + pkg + "-1/base.apk\n";
    return 0;
  }
  if (sub == "grant" || sub == "revoke") {
    std::string who = a.size() > 2 ? a[2] : "";
    if (who != pkg) {
      io.err += "Exception occurred while executing '" + sub +
                "':\njava.lang.IllegalArgumentException: Unknown package: " + who + "\n";
      return 255;
    }
    return 0;
  }
  if (sub == "install") return CmdInstall(a, io);
  if (sub == "uninstall") return CmdUninstall(a, io);
  io.err += "Unknown command: " + sub + "\n";
  return 255;
}

void SimAndroidDevice::EndProcess() {
  app_pid_ = 0;
  hits_at_start_ = app_.UnitHits();
  hits_before_input_.clear();
  process_start_ms_ = WallMs();  // the next process's runtime starts from here
}

int64_t SimAndroidDevice::WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void SimAndroidDevice::Reboot() {
  std::lock_guard<std::mutex> lock(mu_);
  StopUia2Locked("the device rebooted");
  if (app_.running()) app_.Stop();
  if (dialog_ != Dialog::kNone) CloseDialog("reboot");
  AfterChange();
  focused_path_.clear();
  resumed_.clear();
  // The log buffers live in RAM: a booted phone's logcat starts empty.
  log_base_ += log_.size();
  log_.clear();
  log_cv_.notify_all();
}

bool SimAndroidDevice::AppRunning() const {
  std::lock_guard<std::mutex> lock(mu_);
  return app_.running();
}

int SimAndroidDevice::app_pid() const {
  std::lock_guard<std::mutex> lock(mu_);
  return app_pid_;
}

Result<device::jacoco::ExecData> SimAndroidDevice::JacocoDump(bool reset) {
  std::lock_guard<std::mutex> lock(mu_);
  return JacocoDumpLocked(reset);
}

void SimAndroidDevice::set_jacoco_tcpserver(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  jacoco_tcpserver_ = on;
}

bool SimAndroidDevice::jacoco_tcpserver() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jacoco_tcpserver_;
}

void SimAndroidDevice::LeaveStaleCoverage() {
  std::lock_guard<std::mutex> lock(mu_);
  const std::vector<std::string>& units = app_.spec().units();
  auto data = JacocoData(app_.package(), units, std::vector<bool>(units.size(), true),
                         fmt::format("{}-yesterday", serial_));
  constexpr int64_t kDayMs = 24 * 3600 * 1000;
  data.sessions[0].start_ms = WallMs() - kDayMs;
  data.sessions[0].dump_ms = WallMs() - kDayMs + 60000;
  files_[SimCoverageFile(app_.package())] = device::jacoco::WriteExec(data);
}

Result<device::jacoco::ExecData> SimAndroidDevice::JacocoDumpLocked(bool reset) {
  if (!app_.running()) return Status::Unavailable(app_.package() + " is not running");
  const bool settling =
      WallMs() < settled_at_ms_ && hits_before_input_.size() == app_.UnitHits().size();
  const std::vector<uint32_t>& hits = settling ? hits_before_input_ : app_.UnitHits();
  if (hits_at_start_.size() != hits.size()) hits_at_start_.assign(hits.size(), 0);
  std::vector<bool> hit(hits.size());
  for (size_t i = 0; i < hits.size(); ++i) hit[i] = hits[i] > hits_at_start_[i];
  if (reset) hits_at_start_ = hits;
  auto data =
      JacocoData(app_.package(), app_.spec().units(), hit, fmt::format("{}-{}", serial_, app_pid_));
  data.sessions[0].start_ms = process_start_ms_;
  data.sessions[0].dump_ms = WallMs();
  return data;
}

}  // namespace roam::serve
