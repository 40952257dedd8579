#include "run/replay_spec.h"

#include <fmt/format.h>

#include "base/json_fields.h"
#include "device/android/android_device.h"
#include "device/sim_device.h"
#include "sim/spec.h"

namespace roam::run {

using nlohmann::json;

namespace {

using Permission = device::android::AndroidDeviceOptions::PermissionChoice;
constexpr auto& kPermissionNames = device::android::AndroidDeviceOptions::kPermissionNames;

std::string_view PermissionName(Permission p) {
  for (const auto& [value, name] : kPermissionNames)
    if (value == p) return name;
  return "allow";
}

// How the run drove the device (the driver, its settling, permission requests, gestures).
Result<ReplaySpec> ReadAndroidDriving(const json& j, const std::string& where, ReplaySpec s) {
  std::string driver(device::android::NameOf(s.driver));
  std::string settle(device::android::SettleName(s.uia2.settle));
  std::string permissions(PermissionName(s.permissions));
  ROAM_RETURN_IF_ERROR(ReadField(j, "driver", driver, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "settle", settle, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "settle_ms", s.uia2.settle_ms, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "uia2_apks", s.uia2.apk_dir, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "permission_dialogs", permissions, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "long_click_ms", s.input.long_click_ms, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "swipe_ms", s.input.swipe_ms, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "swipe_span", s.input.swipe_span, where));
  auto kind = device::android::DriverNamed(driver);
  if (!kind)
    return Status::Corruption(fmt::format("{}.driver: unknown driver \"{}\" (uia2 or uiautomator)",
                                          where, Excerpt(driver)));
  s.driver = *kind;
  bool known = false;
  using Settle = device::android::Uia2Settings::Settle;
  for (Settle v : {Settle::kNone, Settle::kIdle, Settle::kCompare})
    if (device::android::SettleName(v) == settle) s.uia2.settle = v, known = true;
  if (!known)
    return Status::Corruption(fmt::format(
        "{}.settle: unknown settling \"{}\" (idle, compare or none)", where, Excerpt(settle)));
  known = false;
  for (const auto& [value, name] : kPermissionNames)
    if (name == permissions) s.permissions = value, known = true;
  if (!known)
    return Status::Corruption(
        fmt::format("{}.permission_dialogs: unknown choice \"{}\" (allow, deny or strategy)", where,
                    Excerpt(permissions)));
  return s;
}

}  // namespace

json ReplaySpecToJson(const ReplaySpec& s) {
  json j = {{"signature_frames", s.signature_frames}, {"start", s.start}};
  if (s.target == ReplaySpec::Target::kAndroid) {
    j["device"] = "android";
    j["serial"] = s.serial;
    j["host"] = s.host;
    j["port"] = s.port;
    j["package"] = s.package;
    j["driver"] = device::android::NameOf(s.driver);
    j["settle"] = device::android::SettleName(s.uia2.settle);
    j["settle_ms"] = s.uia2.settle_ms;
    if (!s.uia2.apk_dir.empty()) j["uia2_apks"] = s.uia2.apk_dir;
    j["permission_dialogs"] = PermissionName(s.permissions);
    j["long_click_ms"] = s.input.long_click_ms;
    j["swipe_ms"] = s.input.swipe_ms;
    j["swipe_span"] = s.input.swipe_span;
  } else {
    j["device"] = "sim";
    j["app"] = s.app;
    j["app_copy"] = s.app_copy;
    j["bugs_off"] = s.bugs_off;
    j["seed"] = s.seed;
  }
  return j;
}

Result<ReplaySpec> ReplaySpecFromJson(const json& j, const std::string& where) {
  ReplaySpec s;
  std::string device;
  ROAM_RETURN_IF_ERROR(ReadField(j, "device", device, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "signature_frames", s.signature_frames, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "start", s.start, where));
  if (s.signature_frames < 1)
    return Status::Corruption(fmt::format("{}.signature_frames: must be at least 1", where));
  if (device == "android") {
    s.target = ReplaySpec::Target::kAndroid;
    ROAM_RETURN_IF_ERROR(ReadField(j, "serial", s.serial, where));
    ROAM_RETURN_IF_ERROR(ReadField(j, "host", s.host, where));
    ROAM_RETURN_IF_ERROR(ReadField(j, "port", s.port, where));
    ROAM_RETURN_IF_ERROR(ReadField(j, "package", s.package, where));
    if (s.package.empty()) return Status::Corruption(where + ": names no package");
    return ReadAndroidDriving(j, where, s);
  }
  if (device != "sim")
    return Status::Unsupported(fmt::format(
        "{}: replay on device \"{}\" is not supported (sim or android)", where, Excerpt(device)));
  ROAM_RETURN_IF_ERROR(ReadField(j, "app", s.app, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "app_copy", s.app_copy, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "seed", s.seed, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "bugs_off", s.bugs_off, where));
  if (s.app.empty() && s.app_copy.empty()) return Status::Corruption(where + ": names no app");
  return s;
}

Result<std::unique_ptr<device::Device>> OpenReplayDevice(const ReplaySpec& spec,
                                                         const std::filesystem::path& bug_dir) {
  if (spec.target == ReplaySpec::Target::kAndroid) {
    device::android::AndroidDeviceOptions o;
    o.serial = spec.serial;
    o.host = spec.host;
    o.port = spec.port;
    o.package = spec.package;
    o.driver = spec.driver;
    o.uia2 = spec.uia2;
    o.input = spec.input;
    o.permissions = spec.permissions;
    auto device = device::android::AndroidDevice::Open(o);
    if (!device.ok()) return device.status();
    return std::unique_ptr<device::Device>(std::move(*device));
  }
  // Prefer the run's own copy of the app.
  std::filesystem::path app;
  std::error_code ec;
  if (!spec.app_copy.empty() && std::filesystem::exists(bug_dir / spec.app_copy, ec))
    app = bug_dir / spec.app_copy;
  else
    app = spec.app;
  auto loaded = sim::LoadSpec(app);
  if (!loaded.ok()) return loaded.status();
  sim::SimOptions sim_options;
  sim_options.seed = spec.seed;
  sim_options.bugs_off.insert(spec.bugs_off.begin(), spec.bugs_off.end());
  return std::unique_ptr<device::Device>(std::make_unique<device::SimDevice>(*loaded, sim_options));
}

}  // namespace roam::run
