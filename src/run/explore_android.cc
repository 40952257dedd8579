#include "run/explore_android.h"

#include <fmt/format.h>


namespace roam::run {

using nlohmann::json;

Result<std::unique_ptr<device::android::AndroidDevice>> OpenAndroidDevice(
    const ExploreOptions& options) {
  auto device = device::android::AndroidDevice::Open(options.android);
  if (!device.ok()) return device.status();
  if (!options.apk.empty()) {
    Status installed = (*device)->InstallApk(options.apk.string());
    if (!installed.ok()) return installed.Wrap("--apk " + options.apk.string());
  }
  return device;
}

Result<report::Summary> ExploreAndroid(const ExploreOptions& options, const std::atomic<bool>* stop,
                                       std::FILE* progress, bool progress_tty) {
  const auto& a = options.android;
  if (a.package.empty()) return Status::InvalidArgument("--serial needs --package PKG");
  auto device = OpenAndroidDevice(options);
  if (!device.ok()) return device.status();
  explore::StrategySettings settings = options.strategy_settings;
  if (settings.fastbot.package.empty()) settings.fastbot.package = a.package;
  settings.timetravel.interesting =
      explore::ResolveInterestRule(settings.timetravel.interesting, (*device)->HasCoverage());
  auto strategy = explore::WithHarness(explore::MakeStrategy(options.strategy, settings),
                                       options.harness);
  if (!strategy.ok()) return strategy.status();
  ROAM_RETURN_IF_ERROR(PrepareOutDir(options.out, options.force));

  CampaignTarget target;
  target.replay = {{"device", "android"},
                   {"serial", a.serial},
                   {"host", a.host},
                   {"port", a.port},
                   {"package", a.package},
                   {"signature_frames", options.campaign.crash.top_frames},
                   {"start", "clear"}};
  target.config = {{"app", a.package},
                   {"package", a.package},
                   {"device", (*device)->Name()},
                   {"serial", a.serial},
                   {"adb_host", a.host},
                   {"adb_port", a.port},
                   {"apk", options.apk.string()},
                   {"offline_retries", a.offline_retries},
                   {"offline_wait_ms", a.offline_wait_ms}};
  target.app = a.package;
  // No fresh_device: a phone has no second copy of the app, so bug traces are written unchecked.
  return RunCampaign(options, **device, **strategy, std::move(target), stop, progress,
                     progress_tty);
}

Result<std::unique_ptr<device::Device>> OpenReplayAndroid(const json& replay,
                                                          const std::string& where) {
  device::android::AndroidDeviceOptions o;
  o.serial = replay.value("serial", "");
  o.host = replay.value("host", o.host);
  o.port = replay.value("port", o.port);
  o.package = replay.value("package", "");
  if (o.package.empty()) return Status::Corruption(where + ": replay has no package");
  auto device = device::android::AndroidDevice::Open(o);
  if (!device.ok()) return device.status();
  return std::unique_ptr<device::Device>(std::move(*device));
}

}  // namespace roam::run
