#include "cli/target_flags.h"

#include <chrono>

#include <fmt/format.h>

#include "cli/flags.h"

namespace roam::cli {

TargetFlags AddTargetFlags(CLI::App& app, run::TargetOptions& target, const std::string& verb) {
  TargetFlags f;
  f.app = app.add_option("--app", target.app, "simulated app spec (JSON), e.g. apps/diary.json");
  auto& a = target.android;
  f.serial = app.add_option("--serial", a.serial, verb + " the app on this Android device")
                 ->group("Android device");
  app.add_option("--adb-host", a.host, "adb server host")
      ->capture_default_str()
      ->group("Android device");
  app.add_option("--adb-port", a.port, "adb server port (`roam sim serve`: 5038)")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str()
      ->group("Android device");
  auto* package = app.add_option("--package", a.package, "the app's package, e.g. org.app")
                      ->group("Android device");
  auto* apk = app.add_option("--apk", target.apk, "install this APK first (pm install -r -g)")
                  ->check(CLI::ExistingFile)
                  ->group("Android device");
  f.app->excludes(f.serial);
  package->needs(f.serial);
  apk->needs(f.serial);
  app.add_option("--bugs-off", target.bugs_off, "planted bug ids to switch off (comma-separated)")
      ->delimiter(',');
  return f;
}

bool TargetGiven(const TargetFlags& flags, const run::TargetOptions& target,
                 const std::string& who) {
  if (flags.serial->count() > 0 && target.android.package.empty()) {
    fmt::print(stderr, "{}: --serial needs --package PKG\n", who);
    return false;
  }
  if (flags.app->count() > 0 || flags.serial->count() > 0) return true;
  fmt::print(stderr,
             "{}: give --app SPEC (a simulated app) or --serial SERIAL --package PKG (an Android "
             "device)\n",
             who);
  return false;
}

std::string TargetName(const run::TargetOptions& target) {
  return target.OnAndroid() ? target.android.package : target.app.stem().string();
}

void DefaultSeedAndOut(const CLI::Option* seed_flag, const std::string& kind, run::RunOptions& o) {
  if (seed_flag->count() == 0)
    o.seed = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
             1000000007;
  if (o.out.empty())
    o.out =
        std::filesystem::path("out") / fmt::format("{}-{}-s{}", TargetName(o.target), kind, o.seed);
}

}  // namespace roam::cli
