// run/replay_spec: how a bug folder's trace is re-run, the "replay" object of bug.json and
// config.json. One typed record, written by every campaign and read back with checked types and
// located errors. Value type; thread-compatible.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "device/android/android_options.h"
#include "device/device.h"

namespace roam::run {

struct ReplaySpec {
  enum class Target { kSim, kAndroid };
  Target target = Target::kSim;
  // The simulator: the spec file, the run folder's own copy of it (relative to a bug folder,
  // preferred when present), the simulator seed and the planted bugs switched off.
  std::string app;
  std::string app_copy = "../../app.json";
  uint64_t seed = 1;
  std::vector<std::string> bugs_off;
  // An Android device, through an adb server, driven as the run drove it: the same driver reads
  // the screens the trace's states and targets came from, and types and swipes alike. Absent from
  // a bug.json written before they were recorded: uiautomator with the defaults.
  std::string serial;
  std::string host = std::string(device::android::kLoopback);
  int port = device::android::kDefaultAdbServerPort;
  std::string package;
  device::android::DriverKind driver = device::android::DriverKind::kUiautomator;
  device::android::Uia2Settings uia2;
  device::android::InputSettings input;
  device::android::AndroidDeviceOptions::PermissionChoice permissions =
      device::android::AndroidDeviceOptions::PermissionChoice::kAllow;
  // App frames in a crash signature (oracle/crash.h), and where a replay starts ("clear").
  int signature_frames = 3;
  std::string start = "clear";
};

nlohmann::json ReplaySpecToJson(const ReplaySpec& spec);
// Reads a "replay" object; `where` names it in errors ("out/r/bugs/B1/bug.json: replay").
Result<ReplaySpec> ReplaySpecFromJson(const nlohmann::json& j, const std::string& where);

// Opens the device a replay spec names: a fresh simulated app (the copy beside `bug_dir` when
// there is one, else `app`) or the Android device it was found on.
Result<std::unique_ptr<device::Device>> OpenReplayDevice(const ReplaySpec& spec,
                                                         const std::filesystem::path& bug_dir);

}  // namespace roam::run
