#include "device/android/uia2_driver.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/base64.h"
#include "base/files.h"
#include "base/json_fields.h"
#include "device/android/uia2_protocol.h"

namespace roam::device::android {

namespace fs = std::filesystem;
using nlohmann::json;

std::string_view SettleName(Uia2Settings::Settle settle) {
  switch (settle) {
    case Uia2Settings::Settle::kNone:
      return "none";
    case Uia2Settings::Settle::kIdle:
      return "idle";
    case Uia2Settings::Settle::kCompare:
      return "compare";
  }
  return "?";
}

std::string DefaultUia2ApkDir() {
#ifdef ROAM_UIA2_APKS
  return ROAM_UIA2_APKS;
#else
  return "build/uia2/apks";
#endif
}

Result<Uia2Apks> FindUia2Apks(const std::string& dir) {
  std::error_code ec;
  Uia2Apks apks;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("appium-uiautomator2-server-v") && name.ends_with(".apk"))
      apks.server = entry.path().string();
  }
  if (ec)
    return Status::NotFound(fmt::format(
        "the UiAutomator2 server's APKs: cannot read {} ({}); setup.sh fetches them "
        "(scripts/uia2_server.sh), or point --uia2-apks at the npm package's apks/ folder",
        dir, ec.message()));
  apks.test = (fs::path(dir) / kUia2TestApkName).string();
  if (apks.server.empty() || !fs::is_regular_file(apks.test, ec))
    return Status::NotFound(fmt::format(
        "the UiAutomator2 server's APKs are not in {}: it needs {} and {} (from the npm package "
        "appium-uiautomator2-server; scripts/uia2_server.sh fetches it)",
        dir, Uia2ServerApkName("VERSION"), kUia2TestApkName));
  auto bytes = ReadFile(apks.server);
  if (!bytes.ok()) return bytes.status();
  auto manifest = ReadApkManifest(*bytes);
  if (!manifest.ok()) return manifest.status().Wrap(apks.server);
  if (manifest->package != kUia2ServerPackage)
    return Status::InvalidArgument(fmt::format("{} is the package {}, not {}", apks.server,
                                               manifest->package, kUia2ServerPackage));
  apks.manifest = std::move(*manifest);
  return apks;
}

ApkManifest InstalledVersion(std::string_view out) {
  ApkManifest m;
  const std::string header = fmt::format("Package [{}]", kUia2ServerPackage);
  size_t at = out.find(header);
  if (at == std::string_view::npos) return m;
  m.package = std::string(kUia2ServerPackage);
  auto field = [&](std::string_view key) -> std::string {
    size_t p = out.find(key, at);
    if (p == std::string_view::npos) return "";
    p += key.size();
    size_t e = out.find_first_of(" \n\r", p);
    return std::string(out.substr(p, e == std::string_view::npos ? out.npos : e - p));
  };
  m.version_name = field("versionName=");
  const std::string code = field("versionCode=");
  if (!code.empty() && code.find_first_not_of("0123456789") == std::string::npos &&
      code.size() < 12)
    m.version_code = std::stoll(code);
  return m;
}

namespace {

void SleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Installs the APKs unless the device has this server version and the test package.
Status InstallWhenNeeded(const Uia2Adb& adb, const Uia2Apks& apks,
                         const std::function<void(const std::string&)>& note) {
  auto out = adb.shell(
      fmt::format("dumpsys package {};pm list packages {}", kUia2ServerPackage, kUia2TestPackage));
  if (!out.ok()) return out.status();
  const ApkManifest installed = InstalledVersion(*out);
  const bool test_installed =
      out->find(fmt::format("package:{}\n", kUia2TestPackage)) != std::string::npos ||
      out->ends_with(fmt::format("package:{}", kUia2TestPackage));
  const bool same = installed.version_code == apks.manifest.version_code &&
                    installed.version_name == apks.manifest.version_name;
  if (same && test_installed) return Status::Ok();
  // Another version is there (a newer one refuses `pm install -r` of ours with
  // INSTALL_FAILED_VERSION_DOWNGRADE): both packages go first, as Appium's driver uninstalls them
  // when the versions differ.
  if (!installed.package.empty() || test_installed) {
    adb.shell(fmt::format("pm uninstall {};pm uninstall {}", kUia2ServerPackage, kUia2TestPackage))
        .ok();
  }
  for (const std::string& apk : {apks.server, apks.test}) {
    ROAM_RETURN_IF_ERROR(adb.install(apk).Wrap("installing the UiAutomator2 server"));
  }
  if (note)
    note(fmt::format(
        "installed the UiAutomator2 server {} ({}; was {})", apks.manifest.version_name,
        apks.server,
        installed.package.empty() ? "not installed" : "version " + installed.version_name));
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Uia2Driver>> Uia2Driver::Start(
    const Uia2Adb& adb, const Uia2Settings& settings,
    const std::function<void(const std::string&)>& note) {
  auto apks = FindUia2Apks(settings.apk_dir.empty() ? DefaultUia2ApkDir() : settings.apk_dir);
  if (!apks.ok()) return apks.status();
  ROAM_RETURN_IF_ERROR(InstallWhenNeeded(adb, *apks, note));
  // As Appium's driver: the package manager may list a new runner a moment after the install; wait
  // for it (every second, as long as a start may take), and go on regardless: `am instrument`
  // then says what is wrong.
  const auto listed_by =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(settings.start_timeout_ms);
  for (bool first = true;; first = false) {
    auto listed = adb.shell("pm list instrumentation");
    if (listed.ok() && Uia2RunnerListed(*listed)) break;
    if (std::chrono::steady_clock::now() >= listed_by) {
      if (note) note("the package manager does not list the UiAutomator2 server's runner");
      break;
    }
    if (first && note) note("waiting for the package manager to list the UiAutomator2 runner");
    SleepMs(1000);
  }
  std::unique_ptr<Uia2Driver> d(new Uia2Driver(adb, settings));
  d->version_ = apks->manifest.version_name;
  if (auto sdk = adb.shell("getprop ro.build.version.sdk");
      sdk.ok() && std::atoi(sdk->c_str()) >= kHiddenApiPolicySdk) {
    d->relaxed_hidden_api_ = adb.shell(Uia2HiddenApiCommand(true)).ok();
  }
  // A server left running by an earlier run answers with its own session: stop it first, as
  // Appium's driver cleans up its leftovers.
  adb.shell(Uia2StopCommand()).ok();
  auto s = Socket::Connect(adb.host, adb.port, adb.timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(adb.serial)));
  ROAM_RETURN_IF_ERROR(Request(*s, ShellService(Uia2InstrumentCommand())));
  d->instrumentation_ = std::move(*s);
  auto local = Forward(adb.host, adb.port, adb.serial, 0, kUia2DevicePort, adb.timeout_ms);
  if (!local.ok()) return local.status().Wrap("forwarding to the UiAutomator2 server's port");
  d->local_port_ = *local;
  d->http_ = std::make_unique<HttpClient>(fmt::format("http://127.0.0.1:{}", *local),
                                          settings.request_timeout_ms);
  // Wait for GET /status (each try short: a port that does not answer yet refuses at once).
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(settings.start_timeout_ms);
  std::string last = "no answer";
  d->http_->set_timeout_ms(std::min(2000, settings.request_timeout_ms));
  while (true) {
    if (!d->Alive()) {
      return Status::Unavailable(
          fmt::format("the UiAutomator2 server's instrumentation ended while starting: \"{}\"",
                      Excerpt(d->said_.empty() ? "(nothing)" : d->said_, 300)));
    }
    auto status = d->http_->Get("/status");
    if (status.ok() && status->status == 200) break;
    last = status.ok() ? fmt::format("HTTP {}", status->status) : status.status().message();
    if (std::chrono::steady_clock::now() >= deadline)
      return Status::Unavailable(
          fmt::format("the UiAutomator2 server did not answer GET /status within {} ms ({})",
                      settings.start_timeout_ms, last));
    SleepMs(settings.poll_ms);
  }
  d->http_->set_timeout_ms(settings.request_timeout_ms);
  auto session = d->Call(
      "POST", "/session",
      Uia2NewSessionBody(settings.settle == Uia2Settings::Settle::kIdle ? settings.settle_ms : 0));
  if (!session.ok()) return session.status();
  if (!session->is_object() || !(*session)["sessionId"].is_string())
    return Status::Corruption("the UiAutomator2 server's POST /session gave no sessionId: " +
                              JsonExcerpt(*session, 160));
  d->session_ = (*session)["sessionId"].get<std::string>();
  return d;
}

Uia2Driver::~Uia2Driver() {
  // Released as Appium's deleteSession releases it: DELETE /session (the server stops and gives
  // back the device's UiAutomation connection, which `uiautomator dump` needs), then a
  // force-stop of both packages for a server that no longer answers, and its wake lock.
  if (http_ && !session_.empty()) {
    http_->set_timeout_ms(kReleaseTimeoutMs);
    http_->Delete(Uia2SessionPath(session_, "")).ok();
  }
  http_.reset();
  if (adb_.shell) {
    adb_.shell(Uia2StopCommand()).ok();
    if (relaxed_hidden_api_) adb_.shell(Uia2HiddenApiCommand(false)).ok();
  }
  instrumentation_.Close();
  if (local_port_ > 0)
    KillForward(adb_.host, adb_.port, adb_.serial, local_port_, adb_.timeout_ms).ok();
}

bool Uia2Driver::Alive() {
  if (!instrumentation_.is_open()) return false;
  // While the server runs the shell prints at most the test's name as it starts (am's pretty
  // printer); an end of the stream, or the run's summary, means the server's test is over.
  while (instrumentation_.WaitReadable(0)) {
    char buf[4096];
    auto n = instrumentation_.ReadSome(buf, sizeof buf);
    if (!n.ok() || *n == 0) {
      instrumentation_.Close();
      return false;
    }
    said_.append(buf, *n);
    if (said_.size() > 64 * 1024) said_.erase(0, said_.size() - 64 * 1024);
  }
  for (const char* end : {"INSTRUMENTATION_", "OK (", "FAILURES!!!", "Process crashed"}) {
    if (said_.find(end) != std::string::npos) {
      instrumentation_.Close();
      return false;
    }
  }
  return true;
}

Result<json> Uia2Driver::Call(const char* method, const std::string& suffix,
                              const std::string& body, bool action) {
  const std::string path = session_.empty() ? suffix : Uia2SessionPath(session_, suffix);
  const std::string route = fmt::format("{} {}", method, suffix);
  Result<HttpReply> reply = std::string_view(method) == "GET"    ? http_->Get(path)
                            : std::string_view(method) == "POST" ? http_->Post(path, body)
                                                                 : http_->Delete(path);
  if (!reply.ok()) return Status::Unavailable("UiAutomator2 server: " + reply.status().message());
  return Uia2Value(route, reply->status, reply->body, action);
}

Result<std::string> Uia2Driver::PageSource() {
  auto value = Call("GET", "/source");
  // A 5xx is often passing (a window in transition has no root yet); a dead server is not.
  for (int retry = 0; retry < settings_.source_retries && value.status().IsUnavailable() && Alive();
       ++retry) {
    ++retries_;
    std::this_thread::sleep_for(std::chrono::milliseconds(settings_.retry_ms));
    value = Call("GET", "/source");
  }
  if (!value.ok()) return value.status();
  if (!value->is_string())
    return Status::Corruption("UiAutomator2 server, GET /source: the value is not a string");
  return value->get<std::string>();
}

Result<std::string> Uia2Driver::Screenshot() {
  auto value = Call("GET", "/screenshot");
  if (!value.ok()) return value.status();
  if (!value->is_string())
    return Status::Corruption("UiAutomator2 server, GET /screenshot: the value is not a string");
  return DecodeBase64(value->get<std::string>());
}

Status Uia2Driver::Perform(const DeviceInput& in) {
  using K = DeviceInput::Kind;
  Result<json> done = json();
  switch (in.kind) {
    case K::kTap:
      done = Call("POST", "/appium/gestures/click", Uia2ClickBody(in.x, in.y), true);
      break;
    case K::kLongPress:
      done =
          Call("POST", "/appium/gestures/long_click", Uia2LongClickBody(in.x, in.y, in.ms), true);
      break;
    case K::kSwipe:
      done = Call("POST", "/actions", Uia2SwipeBody(in.x, in.y, in.x2, in.y2, in.ms), true);
      break;
    case K::kKey:
      if (in.key < 0)
        return Status::Unsupported("UiAutomator2 server: no key code for KEYCODE_" + in.text);
      done = Call("POST", "/appium/device/press_keycode", Uia2KeycodeBody(in.key), true);
      break;
    case K::kText: {
      done = Call("POST", "/appium/gestures/click", Uia2ClickBody(in.x, in.y), true);
      if (done.ok()) done = Call("POST", "/keys", Uia2KeysBody(in.text), true);
      // No focused field after the tap: the text goes nowhere, as `input text` would.
      if (!done.ok() && done.status().code() == Status::Code::kNotFound) return Status::Ok();
      break;
    }
    case K::kRotate:
      done = Call("POST", "/orientation",
                  json{{"orientation", in.rotation % 2 ? "LANDSCAPE" : "PORTRAIT"}}.dump(), true);
      break;
    case K::kRestart:
      return Status::Unsupported("UiAutomator2 server: restarting the app is adb's");
    case K::kBroadcast:
      return Status::Unsupported("UiAutomator2 server: a broadcast is adb's (am broadcast)");
    case K::kIntent:
      return Status::Unsupported("UiAutomator2 server: an intent is adb's (am start)");
  }
  return done.ok() ? Status::Ok() : done.status();
}

}  // namespace roam::device::android
