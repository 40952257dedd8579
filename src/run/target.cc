#include "run/target.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "device/phone_clock.h"
#include "device/sim_device.h"
#include "sim/sim_app.h"

namespace roam::run {

using nlohmann::json;

namespace {

// Unknown bug ids are an error: a typo would silently leave the bug on.
Status CheckBugIds(const std::vector<std::string>& bugs_off, const sim::AppSpec& spec,
                   const std::string& app) {
  std::vector<std::string> known;
  for (const auto& b : spec.bugs()) known.push_back(b.id);
  for (const auto& id : bugs_off) {
    if (std::count(known.begin(), known.end(), id)) continue;
    return Status::InvalidArgument(
        fmt::format("--bugs-off: {} plants no bug \"{}\"{}; its bugs: {}", app, id,
                    DidYouMean(id, known), fmt::join(known, ", ")));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Target>> Target::Open(const TargetOptions& options, uint64_t seed,
                                             int signature_frames) {
  if (options.OnAndroid()) return OpenAndroid(options, signature_frames);
  return OpenSim(options, seed, signature_frames);
}

Result<std::unique_ptr<Target>> Target::OpenSim(const TargetOptions& options, uint64_t seed,
                                                int signature_frames) {
  auto spec = sim::LoadSpec(options.app);
  if (!spec.ok()) return spec.status();
  ROAM_RETURN_IF_ERROR(CheckBugIds(options.bugs_off, **spec, options.app.string()));
  std::unique_ptr<Target> t(new Target());
  t->options_ = options;
  t->spec_ = *spec;
  t->sim_options_ = {.seed = seed, .bugs_off = {options.bugs_off.begin(), options.bugs_off.end()}};
  device::SimDeviceOptions dev_options{.snapshots = options.snapshots};
  t->device_ = std::make_unique<device::SimDevice>(t->spec_, t->sim_options_, dev_options);
  // --driver auto would start the fastest driver on a phone.
  const auto driver = options.android.driver.value_or(device::android::kDriverNames[0].kind);
  if (options.phone_clock) {
    auto paced = std::make_unique<device::PhoneClockDevice>(std::move(t->device_), driver,
                                                            options.android.uia2);
    t->clock_ = &paced->clock();
    t->device_ = std::move(paced);
  }
  t->replay_ = {.target = ReplaySpec::Target::kSim,
                .app = std::filesystem::absolute(options.app).string(),
                .seed = seed,
                .bugs_off = options.bugs_off,
                .signature_frames = signature_frames};
  t->config_ = {
      {"app", options.app.string()},    {"package", t->device_->Package()},
      {"device", t->device_->Name()},   {"bugs_off", options.bugs_off},
      {"snapshots", options.snapshots}, {"clock", options.phone_clock ? "phone" : "wall"}};
  if (options.phone_clock) t->config_["clock_driver"] = device::android::NameOf(driver);
  t->app_name_ = options.app.string();
  t->fresh_device_ =
      [spec = t->spec_, sim_options = t->sim_options_, dev_options](
          const std::set<std::string>& extra_off) -> Result<std::unique_ptr<device::Device>> {
    sim::SimOptions o = sim_options;
    o.bugs_off.insert(extra_off.begin(), extra_off.end());
    return std::unique_ptr<device::Device>(
        std::make_unique<device::SimDevice>(spec, o, dev_options));
  };
  return t;
}

Result<std::unique_ptr<Target>> Target::OpenAndroid(const TargetOptions& options,
                                                    int signature_frames) {
  const auto& a = options.android;
  if (a.package.empty()) return Status::InvalidArgument("--serial needs --package PKG");
  if (options.phone_clock)
    return Status::InvalidArgument(
        "--clock phone puts the simulator on a phone's clock; on a device the wall clock is the "
        "phone's");
  device::android::AndroidDeviceOptions with_apk = a;
  with_apk.apk = options.apk.string();
  // Before the run folder: a wrong --serial or --package is a usage error that leaves nothing
  // behind, found before anything is installed.
  auto device = device::android::AndroidDevice::Open(std::move(with_apk));
  if (!device.ok()) return device.status();
  const std::string driver = (*device)->driver_name(), why = (*device)->driver_reason();
  const auto driver_kind = (*device)->driver_kind();
  // A coverage link is tried before the strategies pick their rules: one that does not work is
  // said out loud, and nothing steers by a figure that stays 0.
  Status link = (*device)->StartCoverage();
  const std::string coverage = device::android::CoverageName(a.coverage);
  if (!link.ok() && a.coverage.required)
    return Status::InvalidArgument(fmt::format(
        "--coverage {} does not work (--coverage-required): {}", coverage, link.message()));
  if (!link.ok() && a.log)
    a.log(
        fmt::format("{}: coverage: --coverage {} does not work, so the run goes on without "
                    "coverage (--coverage-required stops instead): {}",
                    (*device)->Name(), coverage, link.message()));
  std::unique_ptr<Target> t(new Target());
  t->options_ = options;
  t->device_ = std::move(*device);
  t->replay_ = {.target = ReplaySpec::Target::kAndroid,
                .serial = a.serial,
                .host = a.host,
                .port = a.port,
                .package = a.package,
                .driver = driver_kind,
                .uia2 = a.uia2,
                .input = a.input,
                .permissions = a.permissions,
                .signature_frames = signature_frames};
  t->config_ = {{"app", a.package},
                {"package", a.package},
                {"device", t->device_->Name()},
                {"serial", a.serial},
                {"adb_host", a.host},
                {"adb_port", a.port},
                {"apk", options.apk.string()},
                {"offline_timeout_ms", a.offline_timeout_ms},
                {"offline_wait_ms", a.offline_wait_ms},
                {"driver", driver},
                {"driver_reason", why},
                {"settle", device::android::SettleName(a.uia2.settle)},
                {"settle_ms", a.uia2.settle_ms},
                {"coverage", coverage}};
  if (a.coverage.mode != device::android::CoverageSettings::Mode::kNone) {
    t->config_["coverage_every"] = device::android::DumpEvery(a.coverage);
    t->config_["coverage_working"] = link.ok();
    if (!link.ok()) t->config_["coverage_error"] = link.message();
  }
  t->app_name_ = a.package;
  // No fresh devices: a phone has no second copy of the app.
  return t;
}

explore::TargetInfo Target::Info() const {
  return {.package = device_->Package(),
          .has_coverage = device_->HasCoverage(),
          .has_snapshots = device_->CanSnapshot(),
          .spec_for_planner = spec_,
          .sim_for_planner = sim_options_};
}

std::vector<std::string> Target::FunctionalBugsOn() const {
  std::vector<std::string> out;
  if (!spec_) return out;
  for (const auto& b : spec_->bugs())
    if (b.kind != "crash" && b.kind != "anr" && !sim_options_.bugs_off.count(b.id))
      out.push_back(b.id);
  return out;
}

Status Target::CopyApp(const std::filesystem::path& out_dir) const {
  if (!spec_) return Status::Ok();
  auto text = ReadFile(options_.app);
  if (!text.ok()) return text.status();
  return WriteFileAtomic(out_dir / "app.json", *text);
}

}  // namespace roam::run
