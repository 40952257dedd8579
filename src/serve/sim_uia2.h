// sim_uia2: the HTTP API of Appium's UiAutomator2 server on a simulated device, for the calls
// Roam's uia2 driver makes, with the real server's paths, bodies and error shapes
// (device/android/uia2_protocol.h): /status, /sessions, POST and DELETE /session (DELETE stops
// the server, as the real one does), settings, /source (the page-source format), /screenshot,
// gestures/click and long_click, W3C pointer /actions (validated as the server validates them:
// sim_uia2_actions.h), /keys into the focused element and /element/active with
// /element/ID/value (400 "invalid element state" when the element takes no text, as
// SendKeysToElement answers), press_keycode, /back, window size and /orientation (400 "invalid
// element state" on a screen locked to portrait, as CustomUiDevice.setRotationSync answers after
// 2 s). Capabilities and settings are type-checked as W3CCapsUtils and AbstractSetting check
// them. A leading /wd/hub is stripped. A route the server does not have is 404 "unknown command";
// a stale session id is 404 "invalid session id"; every error names the request's session id, as
// the server's AppiumResponse does. Faults (roam sim serve --faults): every Mth GET /source may
// answer 500 "unknown error" after the server's 10 s wait for the window root (FailSources).
// The device's instrumentation (SimAndroidDevice::Uia2Running) decides whether the port answers at
// all. On a device paced as a phone each answer takes what the request takes on one (phone_pace.h).
// Thread-safe (one mutex; the device has its own).
#pragma once

#include <cstdint>
#include <map>
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
  // Of every `of` GET /source, the last `fail` answer 500 (0 of 0: none; counted per server).
  void FailSources(int fail, int of);
  int64_t source_failures() const;  // 500s answered so far

 private:
  HttpResponse Route(const HttpRequest& request);
  HttpResponse NewSession(const HttpRequest& request);
  HttpResponse Session(const HttpRequest& request, const std::string& rest);
  HttpResponse Keys(const std::string& element, const nlohmann::json& body);
  void ForgetStaleSession();  // under mu_: a server restarted since knows no session

  SimAndroidDevice& device_;
  mutable std::mutex mu_;
  uint64_t generation_ = 0;  // the device's Uia2Generation the session belongs to
  std::string session_;      // "" when none
  nlohmann::json settings_ = nlohmann::json::object();
  int64_t next_session_ = 1;
  int gesture_ms_ = 0;  // the last request's press or swipe duration (for the phone's pace)
  bool rotation_refused_ = false;  // the last request was a rotation the screen refused
  bool source_failed_ = false;     // the last request was a GET /source answered 500
  int64_t idle_wait_ms_ = 0;       // the last request waited this long for the UI to idle
  int fail_sources_ = 0, of_sources_ = 0;
  int64_t sources_ = 0, source_failures_ = 0;
  std::map<std::string, std::string> elements_;  // element id -> widget path (this session's)
  int64_t next_element_ = 1;
};

}  // namespace roam::serve
