// sim_uia2_caps: POST /session's capabilities and POST /appium/settings read as the UiAutomator2
// server reads them (appium-uiautomator2-server 10.6.2: NewSession, W3CCapsUtils, Session,
// AbstractSetting, UpdateSettings), so that what it refuses is refused here in its words:
// alwaysMatch that is no object, firstMatch that is no list of objects, an `appium:` prefix on a
// standard capability, a capability named like a setting with a value of the wrong type
// ("Invalid 'waitForIdleTimeout' setting value type. Got: java.lang.String. Expected:
// java.lang.Long."). Gson reads every JSON number as a java.lang.Double. Plain functions:
// thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace roam::serve {

// The merged capabilities of a POST /session body (the `appium:` prefix stripped), or why the
// server would not create the session: the message of its 500 "session not created".
struct CapsResult {
  std::string error;  // "" when the session is created
  nlohmann::json capabilities = nlohmann::json::object();
};
CapsResult ReadCapabilities(const std::string& body);

// The settings a POST /appium/settings body sets (unknown names skipped, as the server skips
// them), or the message of its 400 "invalid argument".
CapsResult ReadSettings(const nlohmann::json& body);

}  // namespace roam::serve
