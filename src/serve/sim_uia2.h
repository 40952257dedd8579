// sim_uia2: the HTTP API of Appium's UiAutomator2 server on a simulated device, for the calls
// Roam's uia2 driver makes, with the real server's paths, bodies and error shapes
// (device/android/uia2_protocol.h): /status, /sessions, POST and DELETE /session (DELETE stops
// the server, as the real one does), settings, /source (the page-source format), /screenshot,
// gestures/click and long_click, W3C pointer /actions, /keys into the focused field,
// press_keycode, /back, window size and /orientation (400 "invalid element state" on a screen
// locked to portrait, as CustomUiDevice.setRotationSync answers after 2 s). A leading /wd/hub is
// stripped. Anything else is 404 "unknown command"; a stale session id is 404 "invalid session id".
// The device's instrumentation (SimAndroidDevice::Uia2Running) decides whether the port answers at
// all. On a device paced as a phone each answer takes what the request takes on one (phone_pace.h).
// Thread-safe (one mutex; the device has its own).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "serve/sim_http.h"
#include "serve/sim_shell.h"

namespace roam::serve {

class SimUia2Server {
 public:
  explicit SimUia2Server(SimAndroidDevice& device) : device_(device) {}
  HttpResponse Handle(const HttpRequest& request);

 private:
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Session(const HttpRequest& request, const std::string& rest);
  void ForgetStaleSession();  // under mu_: a server restarted since knows no session

  SimAndroidDevice& device_;
  std::mutex mu_;
  uint64_t generation_ = 0;  // the device's Uia2Generation the session belongs to
  std::string session_;      // "" when none
  nlohmann::json settings_ = nlohmann::json::object();
  int64_t next_session_ = 1;
  int gesture_ms_ = 0;  // the last request's press or swipe duration (for the phone's pace)
  bool rotation_refused_ = false;  // the last request was a rotation the screen refused
};

}  // namespace roam::serve
