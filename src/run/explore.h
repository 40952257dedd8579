// run/explore: the jobs behind `roam explore` and `roam replay` on the embedded simulator or an
// Android device (explore_android.cc):
// prepare the output folder, build device and strategy, run the campaign; re-run a bug's
// trace. The cli layer only parses flags into these options. Single-threaded.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/android/android_device.h"
#include "explore/harness.h"
#include "explore/registry.h"
#include "report/summary.h"
#include "run/campaign.h"
#include "run/replay.h"

namespace roam::run {

struct ExploreOptions {
  std::filesystem::path app;               // a simulated app spec (JSON)
  std::vector<std::string> bugs_off;       // planted bugs switched off
  std::string strategy = "random";
  explore::StrategySettings strategy_settings;
  explore::HarnessOptions harness;         // text input, filters, scripts (off by default)
  uint64_t seed = 1;
  std::filesystem::path out;               // output folder
  bool force = false;                      // replace an earlier run in `out`
  bool snapshots = true;                   // simulator snapshot capability
  CampaignOptions campaign;

  // The Android target (`--serial`): when android.serial is set, the run drives that device
  // through the adb server android.host:android.port and tests android.package instead of the
  // simulated `app` (bugs_off and snapshots then do not apply).
  device::android::AndroidDeviceOptions android;
  std::filesystem::path apk;               // installed (pm install -r -g) before the run
};

// Opens the Android device of options.android (installing options.apk first when set).
Result<std::unique_ptr<device::android::AndroidDevice>> OpenAndroidDevice(
    const ExploreOptions& options);

// Creates `dir` or checks it may be used: a folder that holds an earlier run (config.json,
// summary.json or trace.jsonl) is refused unless `force`, which then clears it.
Status PrepareOutDir(const std::filesystem::path& dir, bool force);

// What a device target adds to a campaign: how to replay its bugs, its own config.json keys,
// the app's name for summary.json and, where one can be had, a fresh device on which bug traces
// are checked before they are written.
struct CampaignTarget {
  nlohmann::json replay;
  nlohmann::json config;
  std::string app;
  DeviceFactory fresh_device;
};

// The part of a run every target shares: config.json (the shared keys, then the target's) and
// the campaign itself. `options.out` must be prepared.
Result<report::Summary> RunCampaign(const ExploreOptions& options, device::Device& device,
                                    explore::Strategy& strategy, CampaignTarget target,
                                    const std::atomic<bool>* stop, std::FILE* progress,
                                    bool progress_tty);

Result<report::Summary> Explore(const ExploreOptions& options, const std::atomic<bool>* stop,
                                std::FILE* progress, bool progress_tty);

struct ReplayOutcome {
  bool reproduced = false;
  std::string expected;                    // the bug's signature
  ReplayResult result;
};
// Re-runs bugs/B<n>/trace.jsonl as bug.json's "replay" says: on a fresh simulated app, or
// ("device": "android") on the device it was found on, through its adb server.
Result<ReplayOutcome> ReplayBug(const std::filesystem::path& bug_dir);
// The device a bug folder's "replay" object names: a fresh simulated app (the run's own copy of
// the spec beside `bug_dir`, its seed and bugs switched off) or the Android device it was found
// on. `where` names the file for errors.
Result<std::unique_ptr<device::Device>> ReplayDevice(const nlohmann::json& replay,
                                                     const std::filesystem::path& bug_dir,
                                                     const std::string& where);
// The shared end of both: runs `trace` on `device` and looks for the bug's signature.
Result<ReplayOutcome> ReplayOn(device::Device& device, const report::BugRecord& bug,
                               const std::vector<report::TraceStep>& trace);

}  // namespace roam::run
