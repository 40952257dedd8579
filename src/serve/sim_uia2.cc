#include "serve/sim_uia2.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/base64.h"
#include "base/files.h"
#include "device/android/phone_pace.h"
#include "device/android/uia2_protocol.h"
#include "serve/sim_uia2_actions.h"
#include "serve/sim_uia2_caps.h"

namespace roam::serve {

namespace {

using nlohmann::json;
namespace a = device::android;

constexpr int kRootRetrievalTimeoutMs = 10000;  // AXWindowHelpers.AX_ROOT_RETRIEVAL_TIMEOUT_MS

HttpResponse Ok(const std::string& session, json value) {
  return {.body = json{{"sessionId", session.empty() ? json(nullptr) : json(session)},
                       {"value", std::move(value)}}
                      .dump(-1, ' ', false, json::error_handler_t::replace)};
}

// The exception class the server's answer for a W3C error comes from (its stacktrace's head).
std::string_view ExceptionOf(std::string_view error) {
  if (error == "invalid argument") return "InvalidArgumentException";
  if (error == "invalid element state") return "InvalidElementStateException";
  if (error == "no such element") return "ElementNotFoundException";
  if (error == "invalid session id") return "NoSuchDriverException";
  if (error == "unknown command") return "UnknownCommandException";
  if (error == "session not created") return "SessionNotCreatedException";
  return "UiAutomator2Exception";
}

// AppiumResponse of an exception: the request's session id (null when its route has none),
// {"error", "message", "stacktrace"}.
HttpResponse Error(const std::string& session, std::string_view error, std::string_view message) {
  const std::string trace =
      fmt::format("io.appium.uiautomator2.common.exceptions.{}: {}\n", ExceptionOf(error), message);
  return {.status = a::Uia2ErrorStatus(error),
          .body = json{{"sessionId", session.empty() ? json(nullptr) : json(session)},
                       {"value", {{"error", error}, {"message", message}, {"stacktrace", trace}}}}
                      .dump(-1, ' ', false, json::error_handler_t::replace)};
}

HttpResponse UnknownCommand() {
  return Error("", "unknown command",
               "The requested resource could not be found, or a request was received using an "
               "HTTP method that is not supported by the mapped resource");
}

// AppiumServlet's routes (10.6.2): a request that matches none is "unknown command" before its
// session is looked at.
struct Route {
  const char* method;
  const char* pattern;
};
constexpr Route kRoutes[] = {
    {"DELETE", "/session/:sessionId"},
    {"POST", "/session"},
    {"POST", "/session/:sessionId/element"},
    {"POST", "/session/:sessionId/elements"},
    {"POST", "/session/:sessionId/element/:id/click"},
    {"POST", "/session/:sessionId/element/:id/clear"},
    {"POST", "/session/:sessionId/orientation"},
    {"POST", "/session/:sessionId/rotation"},
    {"POST", "/session/:sessionId/back"},
    {"POST", "/session/:sessionId/element/:id/value"},
    {"POST", "/session/:sessionId/keys"},
    {"POST", "/session/:sessionId/appium/device/open_notifications"},
    {"POST", "/session/:sessionId/appium/device/press_keycode"},
    {"POST", "/session/:sessionId/appium/device/long_press_keycode"},
    {"POST", "/session/:sessionId/appium/settings"},
    {"POST", "/session/:sessionId/network_connection"},
    {"POST", "/session/:sessionId/appium/device/get_clipboard"},
    {"POST", "/session/:sessionId/appium/device/set_clipboard"},
    {"POST", "/session/:sessionId/alert/accept"},
    {"POST", "/session/:sessionId/alert/dismiss"},
    {"POST", "/session/:sessionId/actions"},
    {"POST", "/session/:sessionId/appium/reset_ax_cache"},
    {"POST", "/session/:sessionId/appium/list_windows"},
    {"POST", "/session/:sessionId/appium/list_displays"},
    {"POST", "/session/:sessionId/appium/gestures/drag"},
    {"POST", "/session/:sessionId/appium/gestures/fling"},
    {"POST", "/session/:sessionId/appium/gestures/click"},
    {"POST", "/session/:sessionId/appium/gestures/long_click"},
    {"POST", "/session/:sessionId/appium/gestures/double_click"},
    {"POST", "/session/:sessionId/appium/gestures/pinch_close"},
    {"POST", "/session/:sessionId/appium/gestures/pinch_open"},
    {"POST", "/session/:sessionId/appium/gestures/scroll"},
    {"POST", "/session/:sessionId/gestures/scroll_to"},
    {"POST", "/session/:sessionId/appium/element/:id/scroll_to/:id2"},
    {"POST", "/session/:sessionId/appium/gestures/swipe"},
    {"POST", "/session/:sessionId/appium/schedule_action"},
    {"POST", "/session/:sessionId/appium/action_history"},
    {"POST", "/session/:sessionId/appium/unschedule_action"},
    {"GET", "/status"},
    {"GET", "/appium/device/apps"},
    {"GET", "/sessions"},
    {"GET", "/session/:sessionId/appium/device/apps"},
    {"GET", "/session/:sessionId"},
    {"GET", "/session/:sessionId/screenshot"},
    {"GET", "/session/:sessionId/orientation"},
    {"GET", "/session/:sessionId/rotation"},
    {"GET", "/session/:sessionId/element/:id/text"},
    {"GET", "/session/:sessionId/element/:id/attribute/:name"},
    {"GET", "/session/:sessionId/element/:id/rect"},
    {"GET", "/session/:sessionId/element/:id/size"},
    {"GET", "/session/:sessionId/element/:id/name"},
    {"GET", "/session/:sessionId/element/active"},
    {"GET", "/session/:sessionId/element/:id/screenshot"},
    {"GET", "/session/:sessionId/screenshot/:id"},
    {"GET", "/session/:sessionId/element/:id/location"},
    {"GET", "/session/:sessionId/window/:windowHandle/size"},
    {"GET", "/session/:sessionId/source"},
    {"GET", "/session/:sessionId/appium/device/system_bars"},
    {"GET", "/session/:sessionId/appium/device/battery_info"},
    {"GET", "/session/:sessionId/appium/settings"},
    {"GET", "/session/:sessionId/appium/device/pixel_ratio"},
    {"GET", "/session/:sessionId/appium/element/:id/first_visible"},
    {"GET", "/session/:sessionId/alert/text"},
    {"GET", "/session/:sessionId/appium/device/info"},
    {"GET", "/session/:sessionId/appium/device/declared_orientation"},
    {"GET", "/session/:sessionId/appium/device/display_density"},
};

std::vector<std::string_view> Sections(std::string_view path) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (true) {
    size_t slash = path.find('/', at);
    out.push_back(path.substr(at, slash == std::string_view::npos ? slash : slash - at));
    if (slash == std::string_view::npos) return out;
    at = slash + 1;
  }
}

// Whether a route of the server takes `method path` (its sections matched one by one, a
// `:name` section matching any).
bool KnownRoute(const std::string& method, const std::string& path) {
  const auto got = Sections(path);
  for (const Route& r : kRoutes) {
    if (method != r.method) continue;
    const auto want = Sections(r.pattern);
    if (want.size() != got.size()) continue;
    bool match = true;
    for (size_t k = 0; k < want.size() && match; ++k)
      match = want[k].starts_with(':') || want[k] == got[k];
    if (match) return true;
  }
  return false;
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
    elements_.clear();
  }
}

void SimUia2Server::FailSources(int fail, int of) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_sources_ = std::clamp(fail, 0, std::max(of, 0));
  of_sources_ = std::max(of, 0);
}

int64_t SimUia2Server::source_failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return source_failures_;
}

HttpResponse SimUia2Server::Handle(const HttpRequest& req) {
  HttpResponse r = Route(req);
  {
    std::lock_guard<std::mutex> lock(mu_);
    r.delay_ms = static_cast<int>(idle_wait_ms_);  // a wait for idle is the phone's own time
  }
  if (device_.phone_pace()) {
    std::string route = req.path.starts_with("/wd/hub/") ? req.path.substr(7) : req.path;
    if (route.starts_with("/session/") && route.find('/', 9) != std::string::npos)
      route = route.substr(route.find('/', 9));
    std::lock_guard<std::mutex> lock(mu_);
    r.delay_ms += rotation_refused_ ? device::android::kRotationRefusalMs
                  : source_failed_
                      ? kRootRetrievalTimeoutMs
                      : device::android::PhoneUia2RequestMs(req.method, route, gesture_ms_);
  }
  return r;
}

HttpResponse SimUia2Server::Route(const HttpRequest& req) {
  std::lock_guard<std::mutex> lock(mu_);
  gesture_ms_ = 0;
  idle_wait_ms_ = 0;
  rotation_refused_ = false;
  source_failed_ = false;
  ForgetStaleSession();
  std::string path = req.path;
  if (path.starts_with("/wd/hub/")) path = path.substr(7);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (!KnownRoute(req.method, path)) return UnknownCommand();
  if (path == "/status") {
    const auto server = device_.Installed(std::string(a::kUia2ServerPackage));
    return Ok("None", {{"ready", true},
                       {"message", "UiAutomator2 Server is ready to accept commands"},
                       {"build",
                        {{"version", server ? server->version_name : ""},
                         {"versionCode", server ? server->version_code : 0}}}});
  }
  if (path == "/sessions") {
    json list = json::array();
    if (!session_.empty())
      list.push_back({{"id", session_}, {"sessionId", session_}, {"capabilities", json::object()}});
    return Ok("", list);
  }
  if (path == "/session") return NewSession(req);
  if (!path.starts_with("/session/"))  // /appium/device/apps
    return Error("", "unknown error", "roam sim serve: " + path + " is not simulated");
  std::string rest = path.substr(9);
  std::string id = rest.substr(0, rest.find('/'));
  rest = rest.size() > id.size() ? rest.substr(id.size()) : "";
  if (id.empty() || id != session_)
    return Error(id, "invalid session id",
                 fmt::format("The session identified by {} is not known", id));
  return Session(req, rest);
}

// NewSession: the capabilities read as W3CCapsUtils reads them; any refusal is 500 "session not
// created" with the cause's text.
HttpResponse SimUia2Server::NewSession(const HttpRequest& req) {
  CapsResult caps = ReadCapabilities(req.body);
  if (!caps.error.empty()) return Error("", "session not created", caps.error);
  settings_ = caps.capabilities;
  elements_.clear();
  session_ = fmt::format("{:08x}-sim-{}", generation_, next_session_++);
  auto body = ParseJson(req.body, "POST /session");
  return Ok(session_, {{"sessionId", session_},
                       {"capabilities", body.ok() ? Field(*body, "capabilities") : json()}});
}

// SendKeysToElement: the focused element (/keys) or a cached one (/element/ID/value); a slider
// would take a number (setProgress), anything else that is not an enabled text field refuses the
// text: ACTION_SET_TEXT fails.
HttpResponse SimUia2Server::Keys(const std::string& element, const json& body) {
  const json& text = Field(body, "text");
  if (text.is_null())
    return Error(session_, "invalid argument",
                 "java.lang.IllegalArgumentException: SendKeysModel: The mandatory field 'text' "
                 "is not present in JSON");
  if (!text.is_string() && !text.is_number() && !text.is_boolean())
    return Error(session_, "invalid argument",
                 "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected "
                 "a string but was BEGIN_OBJECT at path $.text");
  const std::string typed = text.is_string() ? text.get<std::string>() : text.dump();
  std::string target;
  if (!element.empty()) {
    auto it = elements_.find(element);
    if (it == elements_.end())
      return Error(session_, "no such element",
                   fmt::format("The element identified by '{}' is not present in the cache or "
                               "has expired. Try to find it again",
                               element));
    target = it->second;
  }
  switch (device_.TypeInto(target, typed)) {
    case SimAndroidDevice::TypeResult::kTyped:
      return Ok(session_, nullptr);
    case SimAndroidDevice::TypeResult::kNoTarget:
      return Error(session_, "no such element",
                   "An element could not be located on the page using the given search "
                   "parameters");
    case SimAndroidDevice::TypeResult::kTakesNoText:
      break;
  }
  return Error(session_, "invalid element state",
               fmt::format("Cannot set the element to '{}'. Did you interact with the correct "
                           "element?",
                           typed));
}

HttpResponse SimUia2Server::Session(const HttpRequest& req, const std::string& rest) {
  const bool get = req.method == "GET", post = req.method == "POST";
  json body = json::object();
  if (post && !req.body.empty()) {
    auto parsed = ParseJson(req.body, "request");
    if (!parsed.ok())
      return Error(session_, "invalid argument",
                   "com.google.gson.JsonSyntaxException: " + parsed.status().message());
    body = std::move(*parsed);
  }
  if (rest.empty() && req.method == "DELETE") {
    const std::string ended = session_;
    session_.clear();
    elements_.clear();
    device_.Uia2Stop();  // DeleteSession stops the whole server
    return Ok(ended, nullptr);
  }
  if (rest == "/appium/settings" && get) return Ok(session_, settings_);
  if (rest == "/appium/settings" && post) {
    CapsResult set = ReadSettings(body);
    if (!set.error.empty()) return Error(session_, "invalid argument", set.error);
    for (const auto& [k, v] : set.capabilities.items()) settings_[k] = v;
    return Ok(session_, nullptr);
  }
  if (rest == "/source" && get) {
    ++sources_;
    if (of_sources_ > 0 && (sources_ - 1) % of_sources_ >= of_sources_ - fail_sources_) {
      // AXWindowHelpers.getActiveWindowRoot: no root within 10 s.
      ++source_failures_;
      source_failed_ = true;
      return Error(session_, "unknown error",
                   fmt::format("Timed out after {}ms waiting for the root AccessibilityNodeInfo "
                               "in the active window. Make sure the active window is not "
                               "constantly hogging the main UI thread (e.g. the application is "
                               "being idle long enough), so the accessibility manager could do "
                               "its work",
                               kRootRetrievalTimeoutMs));
    }
    // waitForIdleTimeout (10 s unless set): the server waits for the UI to idle first.
    const json& idle = Field(settings_, "waitForIdleTimeout");
    const int idle_ms = idle.is_number_integer() ? idle.get<int>() : 10000;
    return Ok(session_, device_.PageSource(idle_ms, &idle_wait_ms_));
  }
  if (rest == "/screenshot" && get) {
    auto png = device_.ScreenshotPng();
    if (!png.ok()) return Error(session_, "unable to capture screen", png.status().message());
    return Ok(session_, Base64(*png));
  }
  if (rest.starts_with("/window/") && rest.ends_with("/size") && get) {
    const gui::Rect d = device_.Display();
    return Ok(session_, {{"width", d.right}, {"height", d.bottom}});
  }
  if (rest == "/orientation" && get)
    return Ok(session_, device_.Rotation() % 2 == 0 ? "PORTRAIT" : "LANDSCAPE");
  if (rest == "/orientation" && post) {
    const json& o = Field(body, "orientation");
    if (o.is_null())
      return Error(session_, "invalid argument",
                   "java.lang.IllegalArgumentException: OrientationModel: The mandatory field "
                   "'orientation' is not present in JSON");
    // ScreenOrientation.ofString: any case of either name.
    std::string wanted = o.is_string() ? o.get<std::string>() : o.dump();
    std::string upper = wanted;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper != "PORTRAIT" && upper != "LANDSCAPE")
      return Error(session_, "invalid argument",
                   fmt::format("java.lang.IllegalArgumentException: Orientation value '{}' is "
                               "not supported. Only 'LANDSCAPE' and 'PORTRAIT' values could be "
                               "translated into a valid screen orientation",
                               wanted));
    if (!device_.Rotate(upper == "LANDSCAPE" ? 1 : 0)) {
      // CustomUiDevice.setRotationSync: asks, polls for 2 s, then gives up (paced as a phone,
      // the answer takes those 2 s: device/android/phone_pace.h).
      rotation_refused_ = true;
      return Error(session_, "invalid element state",
                   fmt::format("Screen rotation cannot be changed to {} after 2000ms. Is it "
                               "locked programmatically?",
                               upper == "LANDSCAPE" ? "ROTATION_90" : "ROTATION_0"));
    }
    return Ok(session_, upper);
  }
  if (rest == "/appium/gestures/click" && post) {
    int x, y;
    if (!Offset(body, x, y))
      return Error(session_, "invalid argument", "'offset' {x, y} is required");
    device_.Tap(x, y, false);
    return Ok(session_, nullptr);
  }
  if (rest == "/appium/gestures/long_click" && post) {
    int x, y;
    if (!Offset(body, x, y))
      return Error(session_, "invalid argument", "'offset' {x, y} is required");
    double duration = 500;
    if (body.contains("duration") && (!Number(body, "duration", duration) || duration < 0))
      return Error(session_, "invalid argument", "'duration' must be a non-negative number");
    device_.Tap(x, y, true);
    gesture_ms_ = static_cast<int>(std::min<double>(duration, a::kMaxGestureMs));
    return Ok(session_, nullptr);
  }
  if (rest == "/actions" && post) {
    W3CActionsResult chain = ReadW3CActions(body, [this](const std::string& id) {
      auto it = elements_.find(id);
      return it == elements_.end() ? std::nullopt : device_.BoundsOf(it->second);
    });
    if (!chain.error.empty()) return Error(session_, chain.error, chain.message);
    for (const W3CTouch& t : chain.touches)
      device_.Swipe(static_cast<int>(t.x0), static_cast<int>(t.y0), static_cast<int>(t.x1),
                    static_cast<int>(t.y1),
                    static_cast<int>(std::min<int64_t>(t.duration_ms, a::kMaxGestureMs)));
    gesture_ms_ = static_cast<int>(std::min<int64_t>(chain.total_ms, a::kMaxGestureMs));
    return Ok(session_, nullptr);
  }
  if (rest == "/keys" && post) return Keys("", body);
  if (rest.starts_with("/element/") && rest.ends_with("/value") && post)
    return Keys(rest.substr(9, rest.size() - 9 - 6), body);
  if (rest == "/element/active" && get) {
    // ActiveElement: the focused element, cached under a new id.
    auto path = device_.FocusedPath();
    if (!path)
      return Error(session_, "no such element",
                   "An element could not be located on the page using the given search "
                   "parameters");
    const std::string id = fmt::format("{:08x}-0000-0000-0000-{:012x}", generation_,
                                       static_cast<uint64_t>(next_element_++));
    elements_[id] = *path;
    return Ok(session_, {{"ELEMENT", id}, {"element-6066-11e4-a52e-4f735466cecf", id}});
  }
  if (rest == "/appium/device/press_keycode" && post) {
    double code;
    if (!Number(body, "keycode", code))
      return Error(session_, "invalid argument",
                   "java.lang.IllegalArgumentException: KeyCodeModel: The mandatory field "
                   "'keycode' is not present in JSON");
    if (!device_.PressKeyCode(static_cast<int>(code)))
      return Error(session_, "invalid element state",
                   fmt::format("Cannot generate key press event for key code {}", code));
    return Ok(session_, nullptr);
  }
  if (rest == "/back" && post) {
    device_.PressKeyCode(4);
    return Ok(session_, nullptr);
  }
  return Error(session_, "unknown error",
               fmt::format("roam sim serve: {} {} is not simulated", req.method, rest));
}

}  // namespace roam::serve
