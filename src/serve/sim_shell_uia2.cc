// sim_shell_uia2: the simulated device's side of Appium's UiAutomator2 server: `pm install` of
// APKs (their manifests read as a phone reads them), `am instrument` of the server's runner
// starting the server, what ends it, and what its endpoints do to the app (the touches and keys
// of `input`, without a process start each). Members run under SimAndroidDevice's mutex.
#include <algorithm>

#include <fmt/format.h>

#include "device/android/phone_pace.h"
#include "device/android/uia2_protocol.h"
#include "device/sim_device.h"
#include "gui/uiautomator.h"
#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"

namespace roam::serve {

using device::android::kUia2Runner;
using device::android::kUia2ServerPackage;
using device::android::kUia2TestPackage;

// pm install [-r] [-g] [-t] [-d] PATH: the APK at PATH in the device's files.
int SimAndroidDevice::CmdInstall(const std::vector<std::string>& a, Io& io) {
  std::string path;
  for (size_t k = 2; k < a.size(); ++k)
    if (!a[k].empty() && a[k][0] != '-') path = a[k];
  auto it = files_.find(path);
  if (path.empty() || it == files_.end()) {
    io.err +=
        "Error: Unable to open file: " + path + "\nConsider using a file under /data/local/tmp/\n";
    return 1;
  }
  auto manifest = device::android::ReadApkManifest(it->second);
  if (!manifest.ok()) {
    io.out += "Failure [INSTALL_PARSE_FAILED_NOT_APK: " + manifest.status().message() + "]\n";
    return 1;
  }
  if (manifest->package == app_.package()) {
    io.out += "Success\n";  // the app under test itself: the simulated app stays as it is
    return 0;
  }
  // A lower versionCode over an installed package is refused without -d, as PackageManager
  // refuses it (a phone that ran a newer Appium keeps its newer server).
  const bool downgrade_ok = std::find(a.begin(), a.end(), "-d") != a.end();
  if (auto old = installed_.find(manifest->package);
      old != installed_.end() && !downgrade_ok &&
      manifest->version_code < old->second.version_code) {
    io.out += fmt::format(
        "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code {} "
        "is older than current {}]\n",
        manifest->version_code, old->second.version_code);
    return 1;
  }
  // Replacing a package stops it, as on a phone: a running server goes down with its APK.
  if (uia2_running_ &&
      (manifest->package == kUia2ServerPackage || manifest->package == kUia2TestPackage))
    StopUia2Locked("its package was replaced");
  installed_[manifest->package] = std::move(*manifest);
  io.out += "Success\n";
  return 0;
}

// pm uninstall [-k] PKG
int SimAndroidDevice::CmdUninstall(const std::vector<std::string>& a, Io& io) {
  const std::string pkg = a.size() > 2 ? a.back() : "";
  auto it = installed_.find(pkg);
  if (it == installed_.end()) {
    io.out += "Failure [DELETE_FAILED_INTERNAL_ERROR]\n";
    return 1;
  }
  if (uia2_running_ && (pkg == kUia2ServerPackage || pkg == kUia2TestPackage))
    StopUia2Locked("its package was uninstalled");
  installed_.erase(it);
  io.out += "Success\n";
  return 0;
}

void SimAndroidDevice::SetInstalledForTest(device::android::ApkManifest manifest) {
  std::lock_guard<std::mutex> lock(mu_);
  installed_[manifest.package] = std::move(manifest);
}

// am instrument [-w] [-r] [-e KEY VALUE]... [--no-window-animation] PKG/RUNNER
int SimAndroidDevice::CmdInstrument(const std::vector<std::string>& a, Io& io) {
  bool wait = false;
  std::string component;
  for (size_t k = 2; k < a.size(); ++k) {
    if (a[k] == "-w")
      wait = true;
    else if (a[k] == "-e" && k + 2 < a.size())
      k += 2;
    else if (a[k] == "-p" || a[k] == "--user" || a[k] == "--abi")
      ++k;
    else if (!a[k].empty() && a[k][0] != '-')
      component = a[k];
  }
  const std::string pkg = component.substr(0, component.find('/'));
  const std::string runner = component.find('/') == std::string::npos
                                 ? std::string()
                                 : component.substr(component.find('/') + 1);
  auto test = installed_.find(pkg);
  if (test == installed_.end() || test->second.instrumentation_runner != runner ||
      !installed_.count(test->second.instrumentation_target)) {
    io.out += fmt::format(
        "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: "
        "ComponentInfo{{{}}}\nINSTRUMENTATION_STATUS_CODE: -1\n",
        component);
    io.err += "android.util.AndroidException: INSTRUMENTATION_FAILED: " + component + "\n";
    return 1;
  }
  if (pkg != kUia2TestPackage || runner != kUia2Runner) {
    io.out += "\nTime: 0.001\n\nOK (0 tests)\n\n";  // an instrumentation the simulator cannot run
    return 0;
  }
  if (uia2_running_) {
    // A second UiAutomation client: the running server loses its connection, as on a phone.
    StopUia2Locked("a second instrumentation started");
  }
  uia2_running_ = true;
  uia2_crashed_ = false;
  ++uia2_generation_;
  io.instrumentation = wait;
  return 0;
}

std::string SimAndroidDevice::Uia2EndText() const {
  std::lock_guard<std::mutex> lock(mu_);
  // ActivityManagerService.handleAppDiedLocked finishes the instrumentation with shortMsg
  // "Process crashed." and RESULT_CANCELED; `am instrument` prints its results so.
  if (uia2_crashed_)
    return "INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n";
  return fmt::format("{}.AppiumUiAutomator2Server:.\nTime: 1.0\n\nOK (1 test)\n\n",
                     kUia2TestPackage);
}

bool SimAndroidDevice::Uia2Kill() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!uia2_running_) return false;
  uia2_crashed_ = true;
  Log('I', "ActivityManager",
      fmt::format("Process {} (pid {}) has died: fg  FGS", kUia2ServerPackage, 20000 + index_));
  Log('W', "ActivityManager",
      fmt::format("Crash of app {} running instrumentation ComponentInfo{{{}/{}}}",
                  kUia2ServerPackage, kUia2TestPackage, kUia2Runner));
  StopUia2Locked("its process was killed");
  return true;
}

void SimAndroidDevice::StopUia2Locked(const std::string& why) {
  if (!uia2_running_) return;
  uia2_running_ = false;
  Log('I', "AppiumUiAutomator2Server", "the server stops: " + why);
  log_cv_.notify_all();  // the shell that waits on the instrumentation
}

void SimAndroidDevice::set_phone_pace(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  phone_pace_ = on;
}

void SimAndroidDevice::set_root(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  root_ = on;
}

bool SimAndroidDevice::phone_pace() const {
  std::lock_guard<std::mutex> lock(mu_);
  return phone_pace_;
}

bool SimAndroidDevice::Uia2Running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return uia2_running_;
}

uint64_t SimAndroidDevice::Uia2Generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return uia2_generation_;
}

void SimAndroidDevice::Uia2Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  StopUia2Locked("asked to");
}

std::string SimAndroidDevice::PageSource(int idle_timeout_ms, int64_t* waited_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  // UiAutomation.waitForIdle(500, timeout): no accessibility event for 500 ms, an input's or a
  // screen's settling; answered as it is after that wait (the caller delays the answer by it).
  int64_t wait = 0;
  if (idle_timeout_ms > 0) {
    // Paced as a phone, an input's accessibility events go on for its quiet time; unpaced, the
    // device answers at the machine's speed and an input is over at once.
    const int quiet = phone_pace_ ? device::android::kIdleQuietMs : 0;
    const int64_t idle_at = std::max(settled_at_ms_, last_input_ms_ + quiet);
    wait = std::clamp<int64_t>(idle_at - WallMs(), 0, idle_timeout_ms);
  }
  if (waited_ms) *waited_ms = wait;
  return gui::WritePageSource(ShownScreen(/*settled=*/wait >= SettleLeftMs()));
}

void SimAndroidDevice::Tap(int x, int y, bool long_press) {
  std::lock_guard<std::mutex> lock(mu_);
  Touch(x, y, long_press);
}

void SimAndroidDevice::Swipe(int x, int y, int x2, int y2, int duration_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  TouchSwipe(x, y, x2, y2, duration_ms);
}

SimAndroidDevice::TypeResult SimAndroidDevice::TypeInto(const std::string& path,
                                                        const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  if (dialog_ != Dialog::kNone) {
    ++stats_.input_events;
    return TypeResult::kNoTarget;
  }
  const gui::Screen& s = Screen();
  int w = -1;
  if (!path.empty()) {
    w = s.FindPath(path);
  } else {
    w = focused_path_.empty() ? -1 : s.FindPath(focused_path_);
    for (int i = 0; w < 0 && i < static_cast<int>(s.widgets.size()); ++i)
      if (s.widgets[i].focused) w = i;
  }
  if (w < 0) {
    ++stats_.input_events;  // typed into nothing, as on a device without a focused field
    return TypeResult::kNoTarget;
  }
  if (!s.widgets[w].editable || !s.widgets[w].enabled) {
    ++stats_.input_events;  // ACTION_SET_TEXT fails: the view takes no text
    return TypeResult::kTakesNoText;
  }
  gui::Action act = gui::MakeWidgetAction(gui::ActionKind::kInputText, s, w);
  act.text = text;
  Perform(act);
  return TypeResult::kTyped;
}

std::optional<std::string> SimAndroidDevice::FocusedPath() {
  std::lock_guard<std::mutex> lock(mu_);
  if (dialog_ != Dialog::kNone) return std::nullopt;
  const gui::Screen& s = Screen();
  int w = focused_path_.empty() ? -1 : s.FindPath(focused_path_);
  for (int i = 0; w < 0 && i < static_cast<int>(s.widgets.size()); ++i)
    if (s.widgets[i].focused) w = i;
  if (w < 0) return std::nullopt;
  return s.PathOf(w);
}

std::optional<gui::Rect> SimAndroidDevice::BoundsOf(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  const gui::Screen& s = Screen();
  int w = s.FindPath(path);
  if (w < 0) return std::nullopt;
  return s.widgets[w].bounds;
}

bool SimAndroidDevice::PressKeyCode(int code) {
  std::lock_guard<std::mutex> lock(mu_);
  return Key(std::to_string(code));
}

Result<std::string> SimAndroidDevice::ScreenshotPng() {
  std::lock_guard<std::mutex> lock(mu_);
  return device::DrawSimApp(app_);
}

gui::Rect SimAndroidDevice::Display() {
  std::lock_guard<std::mutex> lock(mu_);
  const gui::Screen& s = app_.screen();
  return {0, 0, s.width, s.height};
}

int SimAndroidDevice::Rotation() {
  std::lock_guard<std::mutex> lock(mu_);
  return app_.screen().rotation;
}

bool SimAndroidDevice::Rotate(int rotation) {
  std::lock_guard<std::mutex> lock(mu_);
  if (Screen().rotation % 2 == rotation % 2) return true;
  if (app_.RotationLocked()) return false;
  for (int k = 0; k < 4 && Screen().rotation % 2 != rotation % 2; ++k)
    Perform(gui::MakeGlobalAction(gui::ActionKind::kRotate));
  return true;
}

std::optional<device::android::ApkManifest> SimAndroidDevice::Installed(
    const std::string& package) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = installed_.find(package);
  if (it == installed_.end()) return std::nullopt;
  return it->second;
}

}  // namespace roam::serve
