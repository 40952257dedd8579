// run/target: what a campaign runs against, opened once: a simulated app (from its spec) or an
// app on an Android device (a phone, an emulator, `roam sim serve`) through an adb server. It
// owns the device, knows the package and the device's capabilities (coverage, snapshots), makes
// fresh copies of the app where there can be some (the simulator), says how bugs found on it
// replay, and adds its keys to config.json. Every campaign (explore, fuzz) opens its target
// here. Single-threaded.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "base/status.h"
#include "device/android/android_device.h"
#include "device/device.h"
#include "explore/registry.h"
#include "run/replay_spec.h"
#include "sim/spec.h"

namespace roam::run {

struct TargetOptions {
  std::filesystem::path app;          // a simulated app spec (JSON)
  std::vector<std::string> bugs_off;  // planted bugs switched off (simulator)
  bool snapshots = true;              // the simulator's snapshot capability
  // An Android device instead: when android.serial is set, the campaign drives that device
  // through the adb server android.host:android.port and tests android.package (app, bugs_off
  // and snapshots then do not apply).
  device::android::AndroidDeviceOptions android;
  std::filesystem::path apk;  // installed (pm install -r -g) before the run
  // The simulator on a phone's clock (device/phone_clock.h): a time budget counts what the run
  // would take on a phone with android.driver (auto: uia2); the wall clock on a device.
  bool phone_clock = false;

  bool OnAndroid() const { return !android.serial.empty(); }
};

// A fresh device of the target's app with `extra_off` planted bugs switched off as well.
using DeviceFactory =
    std::function<Result<std::unique_ptr<device::Device>>(const std::set<std::string>& extra_off)>;

class Target {
 public:
  // Loads and checks the spec (every --bugs-off id must be a bug it plants) or connects to the
  // device (installing the APK first). `seed` seeds the simulator; `signature_frames` is the
  // crash oracle's, recorded in the replay spec. Touches no run folder.
  static Result<std::unique_ptr<Target>> Open(const TargetOptions& options, uint64_t seed,
                                              int signature_frames);

  device::Device& device() { return *device_; }
  // What strategies are told about the target (the spec only for the oracle strategy).
  explore::TargetInfo Info() const;
  // How a bug found on this target replays.
  const ReplaySpec& replay() const { return replay_; }
  // The target's keys of config.json.
  const nlohmann::json& config() const { return config_; }
  // The app for summary.json: the spec's path or the package.
  const std::string& app_name() const { return app_name_; }
  // Fresh devices of the same app; empty where there is no second copy (a phone).
  const DeviceFactory& fresh_device() const { return fresh_device_; }
  // The clock a time budget counts: a phone's over the simulator (phone_clock); null: the wall.
  const Clock* clock() const { return clock_; }
  // The simulated app's spec; null on a device.
  const sim::AppSpec* spec() const { return spec_.get(); }
  // Planted bugs that are switched on, of the given kinds' complement: the functional ones
  // (neither crash nor ANR). Empty on a device.
  std::vector<std::string> FunctionalBugsOn() const;
  // Writes out_dir/app.json, the run's own copy of the spec, so its bugs replay even if the spec
  // file changes (the simulator; nothing on a device).
  Status CopyApp(const std::filesystem::path& out_dir) const;

 private:
  Target() = default;
  static Result<std::unique_ptr<Target>> OpenSim(const TargetOptions& options, uint64_t seed,
                                                 int signature_frames);
  static Result<std::unique_ptr<Target>> OpenAndroid(const TargetOptions& options,
                                                     int signature_frames);

  TargetOptions options_;
  std::unique_ptr<device::Device> device_;
  std::shared_ptr<const sim::AppSpec> spec_;
  sim::SimOptions sim_options_;
  ReplaySpec replay_;
  nlohmann::json config_;
  std::string app_name_;
  DeviceFactory fresh_device_;
  const Clock* clock_ = nullptr;
};

}  // namespace roam::run
