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

Result<ReplayOutcome> ReplayAndroidBug(const std::filesystem::path& bug_dir,
                                       const report::BugRecord& bug,
                                       const std::vector<report::TraceStep>& trace) {
  const json& r = bug.replay;
  device::android::AndroidDeviceOptions o;
  o.serial = r.value("serial", "");
  o.host = r.value("host", o.host);
  o.port = r.value("port", o.port);
  o.package = r.value("package", "");
  if (o.package.empty())
    return Status::Corruption((bug_dir / "bug.json").string() + ": replay has no package");
  auto device = device::android::AndroidDevice::Open(o);
  if (!device.ok()) return device.status();
  return ReplayOn(**device, bug, trace);
}

}  // namespace roam::run
