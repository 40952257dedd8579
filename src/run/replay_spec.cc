#include "run/replay_spec.h"

#include <fmt/format.h>

#include "base/json_fields.h"
#include "device/android/android_device.h"
#include "device/sim_device.h"
#include "sim/spec.h"

namespace roam::run {

using nlohmann::json;

json ReplaySpecToJson(const ReplaySpec& s) {
  json j = {{"signature_frames", s.signature_frames}, {"start", s.start}};
  if (s.target == ReplaySpec::Target::kAndroid) {
    j["device"] = "android";
    j["serial"] = s.serial;
    j["host"] = s.host;
    j["port"] = s.port;
    j["package"] = s.package;
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
    return s;
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
