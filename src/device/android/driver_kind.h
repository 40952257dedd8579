// DriverKind: which driver reads a phone's screen and acts on it (screen_driver.h), one enum for
// the user's choice (--driver), AndroidDevice's drivers and the phone clock's pacing table
// (phone_pace.h). A new driver is a value here and a row in kDriverNames.
#pragma once

#include <optional>
#include <string_view>

namespace roam::device::android {

enum class DriverKind {
  kUiautomator,  // shell commands: `uiautomator dump`, `input`, `dumpsys`; a process a step
  kUia2,         // Appium's UiAutomator2 server over HTTP (uia2_driver.h)
};

struct DriverName {
  DriverKind kind;
  std::string_view name;  // what --driver, config.json and the benchmarks call it
  std::string_view what;  // what the notes call it
};
// The fastest first: `--driver auto` starts the first, and goes on with uiautomator (which needs
// nothing on the device) when it cannot.
inline constexpr DriverName kDriverNames[] = {
    {DriverKind::kUia2, "uia2", "the UiAutomator2 server"},
    {DriverKind::kUiautomator, "uiautomator", "uiautomator"}};

constexpr std::string_view NameOf(DriverKind kind) {
  for (const DriverName& d : kDriverNames)
    if (d.kind == kind) return d.name;
  return "?";
}

constexpr std::string_view WhatIs(DriverKind kind) {
  for (const DriverName& d : kDriverNames)
    if (d.kind == kind) return d.what;
  return "?";
}

constexpr std::optional<DriverKind> DriverNamed(std::string_view name) {
  for (const DriverName& d : kDriverNames)
    if (d.name == name) return d.kind;
  return std::nullopt;
}

}  // namespace roam::device::android
