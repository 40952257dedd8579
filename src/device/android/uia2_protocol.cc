#include "device/android/uia2_protocol.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::device::android {

using nlohmann::json;

std::string Uia2ServerApkName(std::string_view version) {
  return fmt::format("appium-uiautomator2-server-v{}.apk", version);
}

std::string Uia2StopCommand() {
  return fmt::format("am force-stop {};am force-stop {}", kUia2ServerPackage, kUia2TestPackage);
}

std::string Uia2HiddenApiCommand(bool relax) {
  std::string line;
  for (const char* key :
       {"hidden_api_policy_pre_p_apps", "hidden_api_policy_p_apps", "hidden_api_policy"}) {
    if (!line.empty()) line += ';';
    line += relax ? fmt::format("settings put global {} 1", key)
                  : fmt::format("settings delete global {}", key);
  }
  return line;
}

bool Uia2RunnerListed(std::string_view out) {
  return out.find(fmt::format("{}/{}", kUia2TestPackage, kUia2Runner)) != std::string_view::npos;
}

std::string Uia2InstrumentCommand() {
  return fmt::format("am instrument -w -e disableAnalytics true {}/{}", kUia2TestPackage,
                     kUia2Runner);
}

json Uia2CrawlerSettings(int wait_for_idle_ms) {
  return {{"waitForIdleTimeout", wait_for_idle_ms}, {"waitForSelectorTimeout", 0},
          {"shutdownOnPowerDisconnect", false},     {"deferAccessibilityCacheReset", true},
          {"allowInvisibleElements", false},        {"enableMultiWindows", false}};
}

std::string Uia2NewSessionBody(int wait_for_idle_ms) {
  return json{{"capabilities",
               {{"alwaysMatch", Uia2CrawlerSettings(wait_for_idle_ms)},
                {"firstMatch", json::array({json::object()})}}}}
      .dump();
}

std::string Uia2SessionPath(std::string_view session, std::string_view suffix) {
  return fmt::format("/session/{}{}", session, suffix);
}

std::string Uia2ClickBody(int x, int y) { return json{{"offset", {{"x", x}, {"y", y}}}}.dump(); }

std::string Uia2LongClickBody(int x, int y, int duration_ms) {
  return json{{"offset", {{"x", x}, {"y", y}}}, {"duration", duration_ms}}.dump();
}

std::string Uia2SwipeBody(int x, int y, int x2, int y2, int duration_ms) {
  // Every pointerMove and pause must carry a duration (ActionsTokenizer); the first move only
  // places the finger.
  json steps = json::array({
      {{"type", "pointerMove"}, {"duration", 0}, {"x", x}, {"y", y}},
      {{"type", "pointerDown"}, {"button", 0}},
      {{"type", "pointerMove"},
       {"duration", duration_ms},
       {"origin", "viewport"},
       {"x", x2},
       {"y", y2}},
      {{"type", "pointerUp"}, {"button", 0}},
  });
  return json{{"actions", json::array({{{"type", "pointer"},
                                        {"id", "finger1"},
                                        {"parameters", {{"pointerType", "touch"}}},
                                        {"actions", steps}}})}}
      .dump();
}

std::string Uia2KeysBody(std::string_view text) {
  return json{{"text", text}, {"replace", false}}.dump(-1, ' ', false,
                                                       json::error_handler_t::replace);
}

std::string Uia2KeycodeBody(int keycode) { return json{{"keycode", keycode}}.dump(); }

Result<json> Uia2Value(std::string_view route, long http_status, std::string_view body,
                       bool action) {
  auto parsed = ParseJson(std::string(body), std::string(route));
  if (!parsed.ok() || !parsed->is_object() || !parsed->contains("value"))
    return Status::Corruption(
        fmt::format("UiAutomator2 server, {}: HTTP {} with a body that is not "
                    "its answer: \"{}\"",
                    route, http_status, Excerpt(body, 160)));
  json value = std::move((*parsed)["value"]);
  const bool error = http_status >= 400 ||
                     (value.is_object() && value.contains("error") && value["error"].is_string());
  if (!error) return value;
  std::string code = value.is_object() && value.value("error", json()).is_string()
                         ? value["error"].get<std::string>()
                         : "unknown error";
  std::string message = value.is_object() && value.value("message", json()).is_string()
                            ? value["message"].get<std::string>()
                            : "";
  std::string text = fmt::format("UiAutomator2 server, {}: HTTP {} {}: {}", route, http_status,
                                 code, Excerpt(message, 300));
  if (code == "no such element") return Status::NotFound(text);
  if (code == "invalid session id" || http_status >= 500) return Status::Unavailable(text);
  if (action && http_status >= 400)
    return Status::Refused(
        fmt::format("{} ({}): HTTP {}: {}", code, route, http_status, Excerpt(message, 300)));
  return Status::InvalidArgument(text);
}

std::string Uia2ErrorBody(std::string_view error, std::string_view message) {
  return json{{"sessionId", nullptr},
              {"value", {{"error", error}, {"message", message}, {"stacktrace", ""}}}}
      .dump();
}

int Uia2ErrorStatus(std::string_view error) {
  if (error == "invalid argument" || error == "invalid element state" ||
      error == "invalid selector")
    return 400;
  if (error == "no such element" || error == "no such alert" || error == "invalid session id" ||
      error == "unknown command" || error == "stale element reference")
    return 404;
  if (error == "unknown method") return 405;
  return 500;
}

}  // namespace roam::device::android
