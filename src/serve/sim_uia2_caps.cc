#include "serve/sim_uia2_caps.h"

#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"

namespace roam::serve {

namespace {

using nlohmann::json;

constexpr char kInvalidArgument[] =
    "io.appium.uiautomator2.common.exceptions.InvalidArgumentException: ";

// Settings.java's settings by name, with the Java type AbstractSetting casts a value to.
const std::map<std::string, std::string, std::less<>>& SettingTypes() {
  static const std::map<std::string, std::string, std::less<>> kTypes = [] {
    std::map<std::string, std::string, std::less<>> t;
    for (const char* n :
         {"actionAcknowledgmentTimeout", "keyInjectionDelay", "scrollAcknowledgmentTimeout",
          "waitForIdleTimeout", "waitForSelectorTimeout", "wakeLockTimeout"})
      t[n] = "java.lang.Long";
    for (const char* n :
         {"currentDisplayId", "mjpegScalingFactor", "mjpegServerFramerate", "mjpegServerPort",
          "mjpegServerScreenshotQuality", "serverPort", "snapshotMaxDepth"})
      t[n] = "java.lang.Integer";
    for (const char* n : {"alwaysTraversableViewClasses", "elementResponseAttributes"})
      t[n] = "java.lang.String";
    for (const char* n : {"allowInvisibleElements",
                          "ignoreUnimportantViews",
                          "deferAccessibilityCacheReset",
                          "disableIdLocatorAutocompletion",
                          "enableMultiWindows",
                          "enableNotificationListener",
                          "enableTopmostWindowFromActivePackage",
                          "enforceXPath1",
                          "includeA11yActionsInPageSource",
                          "includeExtraRenderingInfo",
                          "includeExtrasInPageSource",
                          "limitXPathContextScope",
                          "mapTestTagToResourceId",
                          "mjpegBilinearFiltering",
                          "normalizeTagNames",
                          "shouldUseCompactResponses",
                          "shutdownOnPowerDisconnect",
                          "simpleBoundsCalculation",
                          "trackScrollEvents",
                          "useResourcesForOrientationDetection"})
      t[n] = "java.lang.Boolean";
    return t;
  }();
  return kTypes;
}

// The class Gson gives a JSON value read as an Object.
std::string JavaClass(const json& v) {
  if (v.is_string()) return "java.lang.String";
  if (v.is_number()) return "java.lang.Double";
  if (v.is_boolean()) return "java.lang.Boolean";
  if (v.is_array()) return "java.util.ArrayList";
  return "com.google.gson.internal.LinkedTreeMap";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// AbstractSetting.convertValue: "" when `value` casts to the setting's type (a null casts).
std::string CheckSetting(const std::string& name, const std::string& type, const json& value) {
  if (value.is_null()) return "";
  const bool fits = type == "java.lang.Boolean"  ? value.is_boolean()
                    : type == "java.lang.String" ? value.is_string()
                                                 : value.is_number();
  if (fits) return "";
  return fmt::format("Invalid '{}' setting value type. Got: {}. Expected: {}.", name,
                     JavaClass(value), type);
}

// W3CCapsUtils.stripPrefixes.
std::string StripPrefixes(const json& caps, json& out) {
  static const std::vector<std::string> kStandard = {
      "browserName", "browserVersion", "platformName", "acceptInsecureCerts",    "pageLoadStrategy",
      "proxy",       "setWindowRect",  "timeouts",     "unhandledPromptBehavior"};
  out = json::object();
  std::vector<std::string> bad;
  for (const auto& [k, v] : caps.items()) {
    if (!k.starts_with("appium:")) {
      out[k] = v;
      continue;
    }
    const std::string name = k.substr(7);
    out[name] = v;
    for (const auto& s : kStandard)
      if (Lower(s) == Lower(name)) bad.push_back(name);
  }
  if (bad.empty()) return "";
  std::string list = "[";
  for (size_t i = 0; i < bad.size(); ++i) list += (i ? ", " : "") + bad[i];
  return fmt::format(
      "The capabilities {}] are standard capabilities and should not have the "
      "'appium:' prefix",
      list);
}

std::string CastError(const json& v, const char* to) {
  return fmt::format("java.lang.ClassCastException: {} cannot be cast to {}", JavaClass(v), to);
}

}  // namespace

CapsResult ReadCapabilities(const std::string& body) {
  CapsResult out;
  auto parsed = ParseJson(body, "POST /session");
  if (!parsed.ok() || !parsed->is_object()) {
    out.error =
        "com.google.gson.JsonSyntaxException: " +
        (parsed.ok() ? std::string("Expected BEGIN_OBJECT at path $") : parsed.status().message());
    return out;
  }
  const json& b = *parsed;
  if (!b.contains("capabilities") || b["capabilities"].is_null()) {
    out.error = std::string(kInvalidArgument) + "'capabilities' are mandatory for session creation";
    return out;
  }
  const json& caps = b["capabilities"];
  if (!caps.is_object()) {
    out.error = fmt::format(
        "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected "
        "BEGIN_OBJECT but was {} at path $.capabilities",
        caps.is_array()    ? "BEGIN_ARRAY"
        : caps.is_string() ? "STRING"
                           : "NUMBER");
    return out;
  }
  json always = json::object();
  if (caps.contains("alwaysMatch") && !caps["alwaysMatch"].is_null()) {
    if (!caps["alwaysMatch"].is_object()) {
      out.error = CastError(caps["alwaysMatch"], "java.util.Map");
      return out;
    }
    always = caps["alwaysMatch"];
  }
  json first = json::array({json::object()});
  if (caps.contains("firstMatch") && !caps["firstMatch"].is_null()) {
    if (!caps["firstMatch"].is_array()) {
      out.error = CastError(caps["firstMatch"], "java.util.List");
      return out;
    }
    if (!caps["firstMatch"].empty()) first = caps["firstMatch"];
  }
  json required;
  if (std::string e = StripPrefixes(always, required); !e.empty()) {
    out.error = kInvalidArgument + e;
    return out;
  }
  bool merged = false;
  for (const json& fm : first) {
    if (!fm.is_object()) {
      out.error = CastError(fm, "java.util.Map");
      return out;
    }
    json stripped;
    if (std::string e = StripPrefixes(fm, stripped); !e.empty()) {
      out.error = kInvalidArgument + e;
      return out;
    }
    json all = required;
    bool clash = false;
    for (const auto& [k, v] : stripped.items()) {
      if (all.contains(k)) clash = true;
      all[k] = v;
    }
    if (clash) continue;  // the server logs it and tries the next firstMatch entry
    out.capabilities = std::move(all);
    merged = true;
    break;
  }
  if (!merged) {
    out.error =
        std::string(kInvalidArgument) + "Could not find matching capabilities from " + caps.dump();
    return out;
  }
  // Session's constructor: a capability named like a setting (in any case) updates it.
  for (const auto& [k, v] : out.capabilities.items()) {
    for (const auto& [name, type] : SettingTypes()) {
      if (Lower(name) != Lower(k)) continue;
      if (std::string e = CheckSetting(name, type, v); !e.empty()) {
        out.error = kInvalidArgument + e;
        return out;
      }
    }
  }
  return out;
}

CapsResult ReadSettings(const json& body) {
  CapsResult out;
  if (!body.is_object() || !body.contains("settings") || body["settings"].is_null()) {
    out.error =
        "java.lang.IllegalArgumentException: SettingsModel: The mandatory field 'settings' is not "
        "present in JSON";
    return out;
  }
  const json& settings = body["settings"];
  if (!settings.is_object()) {
    out.error =
        "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected "
        "BEGIN_OBJECT at path $.settings";
    return out;
  }
  for (const auto& [k, v] : settings.items()) {
    auto it = SettingTypes().find(k);
    if (it == SettingTypes().end()) continue;  // "Setting '...' is not known -> skipped"
    if (std::string e = CheckSetting(k, it->second, v); !e.empty()) {
      out.error = e;
      return out;
    }
    out.capabilities[k] = v;
  }
  return out;
}

}  // namespace roam::serve
