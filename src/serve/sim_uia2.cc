#include "serve/sim_uia2.h"

#include <cmath>

#include <fmt/format.h>

#include "base/base64.h"
#include "base/files.h"
#include "device/android/phone_pace.h"
#include "device/android/uia2_protocol.h"

namespace roam::serve {

namespace {

using nlohmann::json;
namespace a = device::android;

HttpResponse Ok(const std::string& session, json value) {
  return {.body = json{{"sessionId", session.empty() ? json(nullptr) : json(session)},
                       {"value", std::move(value)}}
                      .dump(-1, ' ', false, json::error_handler_t::replace)};
}

HttpResponse Error(std::string_view error, std::string_view message) {
  return {.status = a::Uia2ErrorStatus(error), .body = a::Uia2ErrorBody(error, message)};
}

HttpResponse UnknownCommand() {
  return Error("unknown command",
               "The requested resource could not be found, or a request was received using an "
               "HTTP method that is not supported by the mapped resource");
}

// A field of an object; null when `o` is no object or has no such field. (nlohmann's operator[]
// on a const object without the key is undefined behaviour, and on a mutable one adds the key:
// every read of a client's body goes through here.)
const json& Field(const json& o, const char* key) {
  static const json kNull;
  if (!o.is_object()) return kNull;
  auto it = o.find(key);
  return it == o.end() ? kNull : *it;
}

// A number field of an object, as the server's Gson models read it.
bool Number(const json& o, const char* key, double& out) {
  const json& v = Field(o, key);
  if (!v.is_number()) return false;
  out = v.get<double>();
  return std::isfinite(out) && std::abs(out) < 1e9;
}

bool Offset(const json& body, int& x, int& y) {
  double fx, fy;
  const json& offset = Field(body, "offset");
  if (!Number(offset, "x", fx) || !Number(offset, "y", fy)) return false;
  x = static_cast<int>(fx);
  y = static_cast<int>(fy);
  return true;
}

}  // namespace

void SimUia2Server::ForgetStaleSession() {
  const uint64_t generation = device_.Uia2Generation();
  if (generation != generation_) {
    generation_ = generation;
    session_.clear();
    settings_ = json::object();
  }
}

HttpResponse SimUia2Server::Handle(const HttpRequest& req) {
  HttpResponse r = Route(req);
  if (device_.phone_pace()) {
    std::string route = req.path.starts_with("/wd/hub/") ? req.path.substr(7) : req.path;
    if (route.starts_with("/session/") && route.find('/', 9) != std::string::npos)
      route = route.substr(route.find('/', 9));
    std::lock_guard<std::mutex> lock(mu_);
    r.delay_ms = rotation_refused_
                     ? device::android::kRotationRefusalMs
                     : device::android::PhoneUia2RequestMs(req.method, route, gesture_ms_);
  }
  return r;
}

HttpResponse SimUia2Server::Route(const HttpRequest& req) {
  std::lock_guard<std::mutex> lock(mu_);
  gesture_ms_ = 0;
  rotation_refused_ = false;
  ForgetStaleSession();
  std::string path = req.path;
  if (path.starts_with("/wd/hub/")) path = path.substr(7);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path == "/status" && req.method == "GET") {
    const auto server = device_.Installed(std::string(a::kUia2ServerPackage));
    return Ok("None", {{"ready", true},
                       {"message", "UiAutomator2 Server is ready to accept commands"},
                       {"build",
                        {{"version", server ? server->version_name : ""},
                         {"versionCode", server ? server->version_code : 0}}}});
  }
  if (path == "/sessions" && req.method == "GET") {
    json list = json::array();
    if (!session_.empty())
      list.push_back({{"id", session_}, {"sessionId", session_}, {"capabilities", json::object()}});
    return Ok("", list);
  }
  if (path == "/session" && req.method == "POST") {
    auto body = ParseJson(req.body, "POST /session");
    if (!body.ok() || !Field(*body, "capabilities").is_object())
      return Error("session not created",
                   "W3C capabilities are required: {\"capabilities\": {...}}");
    const json& caps = Field(*body, "capabilities");
    const json& first_match = Field(caps, "firstMatch");
    settings_ = json::object();
    for (const json* part :
         {&Field(caps, "alwaysMatch"),
          first_match.is_array() && !first_match.empty() ? &first_match[0] : nullptr}) {
      if (part == nullptr || !part->is_object()) continue;
      for (const auto& [k, v] : part->items())
        settings_[k.rfind("appium:", 0) == 0 ? k.substr(7) : k] = v;
    }
    session_ = fmt::format("{:08x}-sim-{}", generation_, next_session_++);
    return Ok(session_, {{"sessionId", session_}, {"capabilities", caps}});
  }
  if (path.starts_with("/session/")) {
    std::string rest = path.substr(9);
    std::string id = rest.substr(0, rest.find('/'));
    rest = rest.size() > id.size() ? rest.substr(id.size()) : "";
    if (id.empty() || id != session_)
      return Error("invalid session id",
                   fmt::format("The session identified by {} is not known", id));
    return Session(req, rest);
  }
  return UnknownCommand();
}

HttpResponse SimUia2Server::Session(const HttpRequest& req, const std::string& rest) {
  const bool get = req.method == "GET", post = req.method == "POST";
  json body = json::object();
  if (post && !req.body.empty()) {
    auto parsed = ParseJson(req.body, "request");
    if (!parsed.ok()) return Error("invalid argument", parsed.status().message());
    body = std::move(*parsed);
  }
  if (rest.empty() && req.method == "DELETE") {
    session_.clear();
    device_.Uia2Stop();  // DeleteSession stops the whole server
    return Ok("", nullptr);
  }
  if (rest == "/appium/settings" && get) return Ok(session_, settings_);
  if (rest == "/appium/settings" && post) {
    const json& settings = Field(body, "settings");
    if (!settings.is_object()) return Error("invalid argument", "'settings' are required");
    for (const auto& [k, v] : settings.items()) settings_[k] = v;
    return Ok(session_, nullptr);
  }
  if (rest == "/source" && get) return Ok(session_, device_.PageSource());
  if (rest == "/screenshot" && get) {
    auto png = device_.ScreenshotPng();
    if (!png.ok()) return Error("unable to capture screen", png.status().message());
    return Ok(session_, Base64(*png));
  }
  if (rest == "/window/current/size" && get) {
    const gui::Rect d = device_.Display();
    return Ok(session_, {{"width", d.right}, {"height", d.bottom}});
  }
  if (rest == "/orientation" && get)
    return Ok(session_, device_.Rotation() % 2 == 0 ? "PORTRAIT" : "LANDSCAPE");
  if (rest == "/orientation" && post) {
    const json& o = Field(body, "orientation");
    if (o != "PORTRAIT" && o != "LANDSCAPE") return Error("invalid argument", "orientation");
    if (!device_.Rotate(o == "LANDSCAPE" ? 1 : 0)) {
      // CustomUiDevice.setRotationSync: asks, polls for 2 s, then gives up (paced as a phone,
      // the answer takes those 2 s: device/android/phone_pace.h).
      rotation_refused_ = true;
      return Error("invalid element state",
                   fmt::format("Screen rotation cannot be changed to {} after 2000ms. Is it "
                               "locked programmatically?",
                               o == "LANDSCAPE" ? "ROTATION_90" : "ROTATION_0"));
    }
    return Ok(session_, o);
  }
  if (rest == "/appium/gestures/click" && post) {
    int x, y;
    if (!Offset(body, x, y)) return Error("invalid argument", "'offset' {x, y} is required");
    device_.Tap(x, y, false);
    return Ok(session_, nullptr);
  }
  if (rest == "/appium/gestures/long_click" && post) {
    int x, y;
    if (!Offset(body, x, y)) return Error("invalid argument", "'offset' {x, y} is required");
    double duration = 500;
    if (body.contains("duration") && (!Number(body, "duration", duration) || duration < 0))
      return Error("invalid argument", "'duration' must be a non-negative number");
    device_.Tap(x, y, true);
    gesture_ms_ = static_cast<int>(std::min<double>(duration, a::kMaxGestureMs));
    return Ok(session_, nullptr);
  }
  if (rest == "/actions" && post) {
    // One touch pointer: its first move places the finger; down, moves, up make a tap or a
    // swipe from the down point to the last move.
    const json& sources = Field(body, "actions");
    if (!sources.is_array() || sources.size() != 1 || !Field(sources[0], "actions").is_array())
      return Error("invalid argument", "one pointer input source is expected");
    double x = 0, y = 0, x0 = 0, y0 = 0, duration = 0;
    bool down = false, up = false;
    for (const json& step : Field(sources[0], "actions")) {
      const json& type_field = Field(step, "type");
      const std::string type = type_field.is_string() ? type_field.get<std::string>() : "";
      double d = 0;
      if ((type == "pointerMove" || type == "pause") && !Number(step, "duration", d))
        return Error("invalid argument", "Missing duration key for action item " + step.dump());
      if (type == "pointerMove") {
        if (!Number(step, "x", x) || !Number(step, "y", y))
          return Error("invalid argument", "pointerMove needs x and y");
        if (down) duration += d;
      } else if (type == "pointerDown") {
        down = true;
        x0 = x;
        y0 = y;
      } else if (type == "pointerUp") {
        up = true;
      } else if (type == "pause") {
        if (down) duration += d;
      } else {
        return Error("invalid argument", "unknown action item type '" + type + "'");
      }
    }
    if (!down || !up) return Error("invalid argument", "the pointer is never pressed and released");
    gesture_ms_ = static_cast<int>(std::min<double>(duration, a::kMaxGestureMs));
    device_.Swipe(static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x),
                  static_cast<int>(y), gesture_ms_);
    return Ok(session_, nullptr);
  }
  if (rest == "/keys" && post) {
    const json& text = Field(body, "text");
    if (!text.is_string()) return Error("invalid argument", "'text' is required");
    if (!device_.TypeIntoFocused(text.get<std::string>()))
      return Error("no such element",
                   "An element could not be located on the page using the given search parameters");
    return Ok(session_, nullptr);
  }
  if (rest == "/appium/device/press_keycode" && post) {
    double code;
    if (!Number(body, "keycode", code)) return Error("invalid argument", "'keycode' is required");
    if (!device_.PressKeyCode(static_cast<int>(code)))
      return Error("invalid element state", fmt::format("Cannot press the key code {}", code));
    return Ok(session_, nullptr);
  }
  if (rest == "/back" && post) {
    device_.PressKeyCode(4);
    return Ok(session_, nullptr);
  }
  return UnknownCommand();
}

}  // namespace roam::serve
