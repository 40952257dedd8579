#include "device/android/android_device.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "device/android/apk.h"
#include "device/android/shell_escape.h"
#include "device/android/system_screens.h"
#include "device/android/uia2_protocol.h"
#include "draw/draw.h"
#include "gui/uiautomator.h"

namespace roam::device::android {

namespace {

void SleepMs(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Errors that mean "the device (or its server) is not answering right now", worth waiting for.
bool DeviceAway(const Status& s) {
  if (s.code() == Status::Code::kIo) return true;
  if (!s.IsUnavailable()) return false;
  if (s.message().rfind("adb: ", 0) != 0) return true;  // connect, timeouts
  for (const char* m : {"offline", "not found", "no devices", "no emulators", "connecting",
                        "authorizing", "unauthorized"})
    if (s.message().find(m) != std::string::npos) return true;
  return false;
}

// Snapshot names go to the emulator console: keep them to a safe alphabet.
bool SafeSnapshotName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  return true;
}

}  // namespace

AndroidDevice::AndroidDevice(AndroidDeviceOptions options)
    : options_(std::move(options)), parser_(LogcatOptions{.package = options_.package}) {}

AndroidDevice::~AndroidDevice() {
  driver_.reset();  // the UiAutomator2 server released before the streams close
  logcat_.Close();
}

Result<std::unique_ptr<AndroidDevice>> AndroidDevice::Open(AndroidDeviceOptions options) {
  if (options.package.empty()) return Status::InvalidArgument("android device: no --package given");
  std::unique_ptr<AndroidDevice> d(new AndroidDevice(std::move(options)));
  // Fail fast with a clear message when the server or the device is not there, and before
  // anything is installed when the package is not.
  ROAM_RETURN_IF_ERROR(d->CheckReachable());
  if (!d->options_.apk.empty())
    ROAM_RETURN_IF_ERROR(d->InstallApk(d->options_.apk).Wrap("--apk " + d->options_.apk));
  ROAM_RETURN_IF_ERROR(d->CheckInstalled());
  ROAM_RETURN_IF_ERROR(d->StartLogcat(false));
  // The broadcasts the app's manifest receivers take and the activities intents may start (one
  // native command, dumpsys).
  auto package = d->Shell("dumpsys package " + ShellQuote(d->options_.package));
  if (package.ok()) d->broadcasts_ = ParseReceiverActions(*package);
  d->ReadActivities(package);
  d->driver_ = FallbackDriver::Start(d->options_.driver, d->Host());
  d->Note(fmt::format("driver {}: {}", d->driver_name(), d->driver_reason()));
  if (d->options_.coverage.mode != CoverageSettings::Mode::kNone) {
    AndroidDevice* self = d.get();
    const AndroidDeviceOptions& o = self->options_;
    JacocoCoverage::Adb adb{
        .forward = [&o](int device_port) -> Result<int> {
          if (o.serial.empty())
            return Status::InvalidArgument("--coverage jacoco-tcp needs the device's --serial");
          return Forward(o.host, o.port, o.serial, 0, device_port, o.io_timeout_ms);
        },
        .remove_forward =
            [&o](int local_port) {
              return KillForward(o.host, o.port, o.serial, local_port, o.io_timeout_ms);
            },
        .shell = [self](std::string_view command) { return self->Shell(command); },
        .exec =
            [self](std::string_view command) {
              return self->RunService(ExecService(command), true);
            },
        .pull = [self](const std::string& path) { return self->Pull(path); }};
    d->coverage_ = std::make_unique<JacocoCoverage>(o.coverage, o.package, std::move(adb), o.host);
  }
  return d;
}

void AndroidDevice::ReadActivities(const Result<std::string>& dumpsys_package) {
  if (!options_.apk.empty()) {
    // The manifest says what dumpsys does not: which activities are exported, and those without
    // filters.
    auto bytes = ReadFile(options_.apk);
    auto manifest = bytes.ok() ? ReadApkManifest(*bytes) : Result<ApkManifest>(bytes.status());
    if (manifest.ok() && manifest->package == options_.package) {
      activities_ = std::move(manifest->activities);
      std::sort(activities_.begin(), activities_.end(),
                [](const auto& a, const auto& b) { return a.name < b.name; });
      return;
    }
    Note(fmt::format(
        "the activities of --apk {} are not known ({}); reading dumpsys package", options_.apk,
        manifest.ok() ? "its package is " + manifest->package : manifest.status().message()));
  }
  if (!dumpsys_package.ok()) return;
  activities_ = ParseActivityResolver(*dumpsys_package);
  if (!activities_.empty())
    Note(fmt::format(
        "{} activities with intent filters (dumpsys package); it does not say which are exported, "
        "so each is tried until Android refuses it (--apk tells)",
        activities_.size()));
}

void AndroidDevice::IntentRefused(const gui::Intent& intent, const StartAnswer& answer) {
  const bool changed = ForgetRefused(activities_, intent, answer);
  const std::string reason = StartStatus(answer, intent).message();
  if (!refusals_noted_.insert(reason).second) return;
  Note(fmt::format("Android refused to {} from the shell ({}){}", intent.Describe(),
                   Excerpt(answer.line, 200), changed ? "; not offered again" : ""));
}

Status AndroidDevice::StartCoverage() {
  if (!coverage_) return Status::Ok();
  Status s = coverage_->Start();
  // The app started afresh: its JaCoCo session begins with the run, and no probe an earlier
  // process ran is counted as this run's.
  if (s.ok()) s = Stop();
  if (s.ok()) s = Launch();
  if (s.ok()) s = coverage_->Dump();
  coverage_working_ = s.ok();
  return s;
}

std::optional<CoverageLink> AndroidDevice::CoverageHealth() const {
  if (!coverage_) return std::nullopt;
  CoverageLink link = coverage_->Link();
  link.working = coverage_working_;
  return link;
}

DeviceLife AndroidDevice::Life() const {
  return {.away = reconnects_,
          .away_seconds = away_seconds_,
          .driver_restarts = driver_->restarts(),
          .driver_retries = driver_->retries(),
          .system_screens = system_screens_};
}

Coverage AndroidDevice::GetCoverage() const {
  if (!HasCoverage()) return {};
  return {.covered = coverage_->data().CoveredCount(), .total = coverage_->data().ProbeCount()};
}

Coverage AndroidDevice::UpdateCoverage() {
  if (HasCoverage() && actions_since_dump_ >= DumpEvery(options_.coverage)) {
    // The screen first: reading it waits until the app has taken the action (the driver's
    // settling), so the dump holds what the action's handlers ran and the action gets the
    // credit, not the next one. The next Observe returns this screen.
    gui::Screen screen;
    if (Observe(screen).ok()) read_ahead_ = std::move(screen);
    actions_since_dump_ = 0;
    Status s = coverage_->Dump();
    // One failure is an app restarting (its runtime dies with it); a few in a row, a link gone.
    coverage_failures_in_row_ = s.ok() ? 0 : coverage_failures_in_row_ + 1;
    if (coverage_failures_in_row_ == kCoverageFailuresToWarn)
      Note(fmt::format("coverage dumps fail ({} in a row; the figures keep the last good one): {}",
                       kCoverageFailuresToWarn, s.message()));
    if (s.ok() && coverage_warned_) Note("coverage dumps answer again");
    coverage_warned_ = coverage_failures_in_row_ >= kCoverageFailuresToWarn;
  }
  return GetCoverage();
}

std::vector<std::string> AndroidDevice::CoveredUnits() const {
  return HasCoverage() ? coverage_->CoveredUnits() : std::vector<std::string>{};
}

Result<std::string> AndroidDevice::CoverageExec() const {
  if (!HasCoverage()) return Device::CoverageExec();
  std::string exec = jacoco::ExecHeader();
  coverage_->data().AppendBlocks(exec);
  return exec;
}

Result<std::string> AndroidDevice::Pull(const std::string& path) {
  auto s = Socket::Connect(options_.host, options_.port, options_.io_timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(options_.serial)));
  ROAM_RETURN_IF_ERROR(Request(*s, kSyncService));
  auto pulled = SyncPull(*s, path);
  SyncQuit(*s).ok();
  return pulled;
}

std::string AndroidDevice::Name() const {
  return "android:" + (options_.serial.empty() ? std::string("any") : options_.serial);
}

void AndroidDevice::Note(const std::string& message) const {
  if (options_.log) options_.log(Name() + ": " + message);
}

DriverHost AndroidDevice::Host() {
  return DriverHost{
      .options = &options_,
      .shell = [this](std::string_view command) { return Shell(command); },
      .exec = [this](std::string_view command) { return RunService(ExecService(command), true); },
      .pull = [this](const std::string& path) { return Pull(path); },
      .install = [this](const std::string& apk) { return InstallApk(apk); },
      .note = [this](const std::string& message) { Note(message); },
      .broadcast_refused = [this](const std::string& action) { std::erase(broadcasts_, action); },
      .intent_refused = [this](const gui::Intent& intent,
                               const StartAnswer& answer) { IntentRefused(intent, answer); },
      .await_device = [this]() -> Result<int64_t> {
        auto r = RunService(ShellService("echo roam"), false);
        if (!r.ok()) return r.status();
        return reconnects_;
      }};
}

// ---------------------------------------------------------------------------------------------
// Connections

Result<std::string> AndroidDevice::RunOnce(std::string_view service) {
  return RunDeviceService(options_.host, options_.port, options_.serial, service,
                          options_.io_timeout_ms);
}

Result<std::string> AndroidDevice::RunService(std::string_view service, bool raw) {
  auto r = RunOnce(service);
  // A device given up on is not waited for again (what comes after the run's end: releasing the
  // server, a last screenshot), unless it answers.
  if (r.ok()) gave_up_ = false;
  if (!r.ok() && DeviceAway(r.status()) && gave_up_)
    return Status::Unavailable("device offline: " + r.status().message());
  if (!r.ok() && DeviceAway(r.status())) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(options_.offline_timeout_ms);
    auto seconds_since = [](Clock::time_point t) {
      return std::chrono::duration<double>(Clock::now() - t).count();
    };
    Note(fmt::format("not answering ({}); waiting up to {} s for it", r.status().message(),
                     options_.offline_timeout_ms / 1000.0));
    int attempt = 0;
    auto said = start;
    const auto stopped = [&] { return options_.stop && options_.stop->load(); };
    while (!r.ok() && DeviceAway(r.status()) && Clock::now() < deadline && !stopped()) {
      ++attempt;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      SleepMs(std::min<int>(options_.offline_wait_ms, static_cast<int>(left.count()) + 1));
      r = RunOnce(service);
      if (seconds_since(said) >= 30) {  // a long wait says it is still waiting
        said = Clock::now();
        Note(fmt::format("still not answering after {:.0f} s ({})", seconds_since(start),
                         r.ok() ? "back" : r.status().message()));
      }
    }
    const double waited = seconds_since(start);
    away_seconds_ += waited;
    if (!r.ok()) {
      if (!DeviceAway(r.status())) return r.status();
      Note(fmt::format("gave up after {:.1f} s ({} tries){}", waited, attempt,
                       stopped() ? ": interrupted" : ""));
      gave_up_ = true;
      return Status::Unavailable(
          fmt::format("device offline: {} did not answer for {:.1f} s ({} tries; {})",
                      options_.serial.empty() ? "the device" : options_.serial, waited, attempt,
                      r.status().message()));
    }
    ++reconnects_;
    Note(fmt::format("back after {:.1f} s; resuming", waited));
    // The logcat stream most likely died with the connection: restart it where it stopped.
    logcat_broken_ = true;
  }
  if (!r.ok()) return r.status();
  if (raw) return r;
  return StripCarriageReturns(*r);
}

Result<std::string> AndroidDevice::Shell(std::string_view command) {
  auto out = RunService(ShellService(command), false);
  if (!out.ok()) return out.status().Wrap(fmt::format("adb shell \"{}\"", Excerpt(command, 120)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// logcat

Status AndroidDevice::StartLogcat(bool after_reconnect) {
  logcat_.Close();
  if (!after_reconnect && options_.clear_logcat) {
    auto cleared = Shell("logcat -c");
    if (!cleared.ok()) return cleared.status();
  }
  auto s = Socket::Connect(options_.host, options_.port, options_.io_timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(options_.serial)));
  ROAM_RETURN_IF_ERROR(Request(*s, ShellService("logcat -v threadtime")));
  logcat_ = std::move(*s);
  logcat_broken_ = false;
  log_tail_.clear();
  // The buffer was cleared at start, so a new stream repeats this run's lines: skip up to the
  // last one already read.
  skipping_to_last_line_ = after_reconnect && !last_log_line_.empty();
  return Status::Ok();
}

void AndroidDevice::PumpLogcat() {
  if (logcat_broken_ || !logcat_.is_open()) {
    if (!StartLogcat(true).ok()) return;  // tried again at the next call
  }
  char buf[64 * 1024];
  auto consume = [&](std::string_view chunk) {
    size_t start = 0;
    while (true) {
      size_t nl = chunk.find('\n', start);
      if (nl == std::string_view::npos) break;
      std::string line = std::move(log_tail_);
      log_tail_.clear();
      line.append(chunk.substr(start, nl - start));
      start = nl + 1;
      if (skipping_to_last_line_) {
        if (line == last_log_line_) skipping_to_last_line_ = false;
        continue;
      }
      last_log_line_ = line;
      line += '\n';
      parser_.Feed(line, pending_);
    }
    log_tail_.append(chunk.substr(start));
  };
  auto read_some = [&](int wait_ms) {
    if (!logcat_.is_open() || !logcat_.WaitReadable(wait_ms)) return false;
    auto n = logcat_.ReadSome(buf, sizeof buf);
    if (!n.ok() || *n == 0) {
      logcat_broken_ = true;
      logcat_.Close();
      return false;
    }
    consume(std::string_view(buf, *n));
    return true;
  };
  while (read_some(0)) {
  }
  if (skipping_to_last_line_) {
    // The stream repeated what it had, and our last line was not in it (the buffer rotated
    // or was cleared): go on from here.
    skipping_to_last_line_ = false;
    Note(
        "logcat: could not find where the stream had stopped; lines logged while the device "
        "was away may be missing");
  }
  if (parser_.InBlock()) {
    // The start of a crash block was read: give the rest a moment to arrive.
    while (read_some(options_.logcat_settle_ms)) {
    }
    parser_.Flush(pending_);
  }
}

void AndroidDevice::DrainEvents(std::vector<Event>& out) {
  PumpLogcat();
  for (auto& e : pending_) out.push_back(std::move(e));
  pending_.clear();
}

// ---------------------------------------------------------------------------------------------
// Observe

Status AndroidDevice::Observe(gui::Screen& out) {
  if (read_ahead_) {  // read for a coverage dump since the last action
    out = std::move(*read_ahead_);
    read_ahead_.reset();
    return Status::Ok();
  }
  Status s = ObserveOnce(out);
  // A system screen in front of the app is passed before the step sees it; three in a row
  // (a dialog that comes back at once) are left to the step.
  for (int k = 0; k < 3 && s.ok() && PassSystemScreen(out); ++k) s = ObserveOnce(out);
  return s;
}

bool AndroidDevice::PassSystemScreen(const gui::Screen& out) {
  const SystemScreen sys = ClassifySystemScreen(out);
  using K = SystemScreen::Kind;
  int tap = -1;
  std::string how;
  if ((sys.kind == K::kNotResponding || sys.kind == K::kCrashed) && options_.close_error_dialogs &&
      sys.close >= 0) {
    tap = sys.close;
    how = "close";
  } else if (sys.kind == K::kPermission &&
             options_.permissions != AndroidDeviceOptions::PermissionChoice::kStrategy) {
    const bool allow = options_.permissions == AndroidDeviceOptions::PermissionChoice::kAllow;
    tap = allow ? sys.allow : sys.deny;
    how = allow ? "allow" : "deny";
  } else if (sys.kind == K::kKeyguard && options_.unlock) {
    how = "unlock";
  }
  if (how.empty() || (how != "unlock" && tap < 0)) return false;
  const std::string name = fmt::format("{}: {}", SystemScreenName(sys.kind), how);
  ++system_screens_[name];
  Note(sys.title.empty() ? name : fmt::format("{} (\"{}\")", name, Excerpt(sys.title, 80)));
  if (how == "unlock")  // wake the screen, then dismiss a keyguard without a PIN
    return Shell("input keyevent 224;wm dismiss-keyguard").ok();
  return Perform(gui::MakeWidgetAction(gui::ActionKind::kClick, out, tap)).ok();
}

Status AndroidDevice::ObserveOnce(gui::Screen& out) {
  PumpLogcat();
  ROAM_RETURN_IF_ERROR(driver_->Observe(out).Wrap(Name()));
  rotation_ = out.rotation;
  if (out.width > 0 && out.height > 0) std::tie(width_, height_) = std::pair(out.width, out.height);
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Perform and the app's life cycle

Status AndroidDevice::Perform(const gui::Action& action) {
  PumpLogcat();
  ++actions_since_dump_;
  read_ahead_.reset();
  auto input = PlanAction(action, width_, height_, rotation_, options_.input);
  if (!input.ok()) return input.status();
  Status done = driver_->Perform(*input);
  if (done.IsUnsupported()) return done.Wrap(Name());
  return done;
}

Status AndroidDevice::Launch() {
  read_ahead_.reset();
  return driver_->AwaitLaunch([&] {
    auto out = Shell(LaunchCommand(options_.package));
    if (!out.ok()) return out.status();
    if (out->find("No activities found") != std::string::npos)
      return Status::NotFound(fmt::format("{} has no launcher activity on {} (is it installed?)",
                                          options_.package, Name()));
    return Status::Ok();
  });
}

Status AndroidDevice::Stop() {
  read_ahead_.reset();
  auto out = Shell(StopCommand(options_.package));
  return out.ok() ? Status::Ok() : out.status();
}

Status AndroidDevice::ClearData() {
  read_ahead_.reset();
  // A trace's rotations are turns from the screen it began on, and every trace begins here: a
  // phone a run or a replay left turned is turned upright again (unknown before the first clear).
  std::string command = ClearDataCommand(options_.package);
  if (rotation_ != 0 || !cleared_once_) command += ";" + RotationCommand(0);
  cleared_once_ = true;
  auto out = Shell(command);
  if (!out.ok()) return out.status();
  if (out->find("Success") == std::string::npos)
    return Status::Unavailable(
        fmt::format("pm clear {} on {}: \"{}\"", options_.package, Name(), *out));
  rotation_ = 0;
  return Status::Ok();
}

Status AndroidDevice::CheckReachable() {
  auto probe = RunOnce(ShellService("echo roam"));
  if (probe.ok()) return Status::Ok();
  const std::string serial = options_.serial.empty() ? "(any)" : options_.serial;
  const std::string server = fmt::format("the adb server {}:{}", options_.host, options_.port);
  auto attached = HostQuery(options_.host, options_.port, kHostDevices, options_.io_timeout_ms);
  if (!attached.ok())  // no server at all
    return probe.status().Wrap(fmt::format(
        "cannot reach device {} through {} (start one with `adb start-server`, or `roam sim "
        "serve --app SPEC`; --adb-port or ANDROID_ADB_SERVER_PORT names another)",
        serial, server));
  std::vector<std::string> serials;
  std::string listed;
  for (const auto& [attached_serial, state] : DeviceStates(*attached)) {
    serials.push_back(attached_serial);
    listed += fmt::format("{}{} ({})", listed.empty() ? "" : ", ", attached_serial, state);
  }
  if (!options_.serial.empty() &&
      std::find(serials.begin(), serials.end(), options_.serial) == serials.end())
    return Status::InvalidArgument(fmt::format(
        "no device {} on {}{}: {}", serial, server, DidYouMean(options_.serial, serials),
        listed.empty() ? "no device is attached" : "attached: " + listed));
  return probe.status().Wrap(fmt::format("device {} on {} does not answer ({})", serial, server,
                                         listed.empty() ? "no device is attached" : listed));
}

Status AndroidDevice::CheckInstalled() {
  auto path = Shell("pm path " + ShellQuote(options_.package));
  if (!path.ok()) return path.status();
  if (path->find("package:") != std::string::npos) return Status::Ok();
  std::vector<std::string> installed;
  if (auto list = Shell("pm list packages"); list.ok()) {
    std::istringstream lines(*list);
    for (std::string line; std::getline(lines, line);)
      if (line.starts_with("package:")) installed.push_back(line.substr(8));
  }
  return Status::NotFound(fmt::format(
      "{} is not installed on {}{} (install it with --apk FILE; `adb shell pm list packages` "
      "lists what is)",
      options_.package, Name(), DidYouMean(options_.package, installed)));
}

Status AndroidDevice::InstallApk(const std::string& apk_path) {
  auto data = ReadFile(apk_path);
  if (!data.ok()) return data.status();
  const std::string remote = "/data/local/tmp/roam-install.apk";
  auto s = Socket::Connect(options_.host, options_.port, options_.io_timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(options_.serial)));
  ROAM_RETURN_IF_ERROR(Request(*s, kSyncService));
  ROAM_RETURN_IF_ERROR(SyncPush(*s, remote, *data, 0644).Wrap("push " + apk_path));
  SyncQuit(*s).ok();
  s->Close();
  auto out = Shell("pm install -r -g " + ShellQuote(remote));
  Shell("rm -f " + ShellQuote(remote)).ok();
  if (!out.ok()) return out.status();
  if (out->find("Success") == std::string::npos)
    return Status::Unavailable(fmt::format("pm install {} on {}: \"{}\"", apk_path, Name(), *out));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Capabilities

bool AndroidDevice::CanSnapshot() const { return options_.serial.rfind("emulator-", 0) == 0; }

Status AndroidDevice::Emu(const std::string& command) {
  auto out = RunService(EmuService(command), false);
  if (!out.ok()) return out.status().Wrap(fmt::format("emulator console \"{}\"", command));
  if (out->rfind("OK", 0) == 0) return Status::Ok();
  std::string msg = *out;
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
  return Status::Unavailable(
      fmt::format("emulator console \"{}\" on {}: {}", command, Name(), msg));
}

Status AndroidDevice::Snapshot(const std::string& name) {
  if (!CanSnapshot()) return Unsupported("snapshot " + name);
  if (!SafeSnapshotName(name)) return Status::InvalidArgument("snapshot name \"" + name + "\"");
  return Emu("avd snapshot save " + name);
}

Status AndroidDevice::Restore(const std::string& name) {
  if (!CanSnapshot()) return Unsupported("restore " + name);
  if (!SafeSnapshotName(name)) return Status::InvalidArgument("snapshot name \"" + name + "\"");
  driver_->ScreenChanged();
  read_ahead_.reset();
  return Emu("avd snapshot load " + name);
}

Result<std::string> AndroidDevice::Screenshot(const std::optional<gui::Rect>& outline) {
  auto png = driver_->Screenshot();
  if (!png.ok()) return png.status().Wrap(Name());
  if (outline) return draw::OutlinePng(*png, *outline);
  return png;
}

}  // namespace roam::device::android
