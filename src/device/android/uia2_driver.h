// Uia2Driver: Appium's UiAutomator2 server as AndroidDevice's fast driver (--driver uia2). It
// installs the server's two APKs when they are missing or of another version (push, then
// `pm install -r -g`), waits for the package manager to list its runner, relaxes the hidden-API
// policy on API 28 and later (put back at the end), starts the instrumentation that runs the server
// (one `am instrument -w` shell held open for the server's life), forwards a local port to the
// server's 6790, waits for GET /status, makes a session with the crawler's settings
// (uia2_protocol.h) and then does a step's work over HTTP on one kept-alive connection: page
// source, taps, long presses, swipes, text, keys, rotation, screenshots. No process starts on the
// device per step. A server that died (its shell closed, its port refusing, an unknown session) is
// reported as Unavailable with "UiAutomator2 server" in the message; AndroidDevice restarts it. Not
// thread-safe: the thread that drives the AndroidDevice uses it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "device/android/apk.h"
#include "device/android/device_text.h"
#include "device/android/http_client.h"

namespace roam::device::android {

struct Uia2Settings {
  // The npm package's apks/ folder (setup.sh: build/uia2/apks); "" = the build's.
  std::string apk_dir;
  int start_timeout_ms = 30000;    // from `am instrument` to GET /status answering (Appium's)
  int poll_ms = 250;               // GET /status while starting
  int request_timeout_ms = 20000;  // one request; a /source waits for no idle (settings)
  int restarts = 3;                // a server that dies is started again at most this often a run
  // GET /source answering 5xx (the active window's root not found within the server's 10 s,
  // say) is asked again this often, `retry_ms` apart, before the server counts as failed.
  int source_retries = 2;
  int retry_ms = 250;
  // A page source read after an action may catch the screen mid-transition (an animation, a list
  // loading: a state the app never rests in). kCompare, when the layout (texts aside) moved since
  // the read before the action, reads it again every settle_poll_ms until two reads agree, for
  // at most settle_ms; kIdle has the server
  // wait up to settle_ms for the UI to idle before each call (waitForIdleTimeout); kNone reads it
  // once.
  enum class Settle { kNone, kIdle, kCompare };
  Settle settle = Settle::kIdle;
  int settle_ms = 2000;
  int settle_poll_ms = 150;
};
std::string_view SettleName(Uia2Settings::Settle settle);  // "none", "idle", "compare"

// What the driver needs of the adb side (AndroidDevice gives it its own).
struct Uia2Adb {
  std::string host;
  int port = 0;
  std::string serial;
  int timeout_ms = kDefaultTimeoutMs;
  std::function<Result<std::string>(std::string_view command)> shell;
  std::function<Status(const std::string& apk_path)> install;
};

class Uia2Driver {
 public:
  // Installs when needed, starts the server and makes a session. `note` hears what it did
  // ("installed io.appium.uiautomator2.server 10.6.6").
  static Result<std::unique_ptr<Uia2Driver>> Start(
      const Uia2Adb& adb, const Uia2Settings& settings,
      const std::function<void(const std::string&)>& note);
  // Deletes the session, force-stops the server's packages (the device's UiAutomation connection
  // is free again), closes the instrumentation's shell and removes the forward.
  ~Uia2Driver();

  Result<std::string> PageSource();
  // Performs one input (device_text.h). kRestart is not the server's: Unsupported. An input the
  // server turns down is Refused (the step did nothing); a server that failed, Unavailable.
  Status Perform(const DeviceInput& input);
  Result<std::string> Screenshot();  // PNG bytes
  // False once the instrumentation's shell has ended (the server stopped).
  bool Alive();
  const std::string& version() const { return version_; }
  int64_t retries() const { return retries_; }  // page sources asked again after a 5xx
  int local_port() const { return local_port_; }

 private:
  static constexpr int kReleaseTimeoutMs = 2000;  // DELETE /session at the end: a dead server
  Uia2Driver(Uia2Adb adb, Uia2Settings settings) : adb_(std::move(adb)), settings_(settings) {}
  // `action`: an answer that turns the request down is Refused (Uia2Value).
  Result<nlohmann::json> Call(const char* method, const std::string& suffix,
                              const std::string& body = "", bool action = false);

  Uia2Adb adb_;
  Uia2Settings settings_;
  Socket instrumentation_;  // `am instrument -w`: open while the server runs
  std::string said_;        // what that shell printed (the end of it)
  int local_port_ = 0;
  std::unique_ptr<HttpClient> http_;
  std::string session_;
  std::string version_;
  bool relaxed_hidden_api_ = false;  // put back when released
  int64_t retries_ = 0;
};

// The APK folder Roam uses by default: the build's uia2/apks (scripts/uia2_server.sh).
std::string DefaultUia2ApkDir();

struct Uia2Apks {
  std::string server;    // appium-uiautomator2-server-vV.apk
  std::string test;      // appium-uiautomator2-server-debug-androidTest.apk
  ApkManifest manifest;  // the server's: its versionCode and versionName
};
// The two APKs in `dir`; NotFound naming the folder and what is missing, Corruption when the
// server APK's manifest cannot be read.
Result<Uia2Apks> FindUia2Apks(const std::string& dir);

// From `dumpsys package io.appium.uiautomator2.server`: the installed versionCode and
// versionName ("" and -1 when the package is not installed).
ApkManifest InstalledVersion(std::string_view dumpsys_package);

}  // namespace roam::device::android
