#include "cli/target_flags.h"

#include <chrono>
#include <map>

#include <fmt/format.h>

#include "cli/flags.h"

namespace roam::cli {

TargetFlags AddTargetFlags(CLI::App& app, run::TargetOptions& target, const std::string& verb) {
  TargetFlags f;
  f.app = app.add_option("--app", target.app, "simulated app spec (JSON), e.g. apps/diary.json");
  auto& a = target.android;
  f.serial = app.add_option("--serial", a.serial, verb + " the app on this Android device")
                 ->group("Android device");
  if (Status env = AddAdbServerFlags(app, a.host, a.port, "Android device"); !env.ok())
    f.environment_error = env.message();
  auto* package = app.add_option("--package", a.package, "the app's package, e.g. org.app")
                      ->group("Android device");
  auto* apk = app.add_option("--apk", target.apk, "install this APK first (pm install -r -g)")
                  ->check(CLI::ExistingFile)
                  ->group("Android device");
  auto* coverage =
      app.add_option_function<std::string>(
             "--coverage",
             [&a](const std::string& v) {
               auto parsed = device::android::ParseCoverage(v);
               if (!parsed.ok()) throw CLI::ValidationError(parsed.status().message());
               // The other --coverage-* flags may have come first.
               a.coverage.mode = parsed->mode;
               a.coverage.device_port = parsed->device_port;
               a.coverage.file = parsed->file;
             },
             "code coverage of an app built with JaCoCo: jacoco-tcp[:PORT] (the agent's TCP "
             "server, default port 6300) or jacoco-file:PATH (docs/coverage.md)")
          ->group("Android device");
  app.add_option("--coverage-trigger", a.coverage.trigger,
                 "jacoco-file: the shell command that makes the app write its coverage file")
      ->needs(coverage)
      ->group("Android device");
  app.add_option("--coverage-every", a.coverage.every,
                 fmt::format("dump coverage after every N actions (default 1 for jacoco-tcp, {} "
                             "for jacoco-file, whose dump costs about a step: docs/coverage.md)",
                             device::android::kFileDumpEvery))
      ->check(CLI::Range(1, 1000000))
      ->needs(coverage)
      ->group("Android device");
  app.add_option("--classfiles", a.coverage.classfiles,
                 "the app's compiled classes (folders, jars or class files) of the build that "
                 "runs: at the end, JaCoCo's line, branch and method coverage from them "
                 "(needs Java and libjacoco-java: docs/coverage.md)")
      ->check(CLI::ExistingPath)
      ->needs(coverage)
      ->group("Android device");
  app.add_flag("--coverage-required", a.coverage.required,
               "stop before exploring (exit 2) when the first coverage dump fails, rather than "
               "run on without coverage")
      ->needs(coverage)
      ->group("Android device");
  a.driver = std::nullopt;  // auto
  f.driver = AddDriverFlag(app,
                           "how a step reaches the device: uia2 (Appium's UiAutomator2 server: "
                           "HTTP, no process a step), uiautomator (uiautomator dump, input: "
                           "processes a step) or auto (uia2 when it starts, else uiautomator); "
                           "with --clock phone, whose costs the simulator's phone clock charges",
                           true, [&a](auto kind) { a.driver = kind; })
                 ->default_str("auto")
                 ->group("Android device");
  auto* uia2_apks =
      app.add_option("--uia2-apks", a.uia2.apk_dir,
                     "the folder with the UiAutomator2 server's two APKs (the npm package "
                     "appium-uiautomator2-server's apks/; default: the build's, from setup.sh)")
          ->check(CLI::ExistingDirectory)
          ->group("Android device");
  using Settle = device::android::Uia2Settings::Settle;
  app.add_option("--settle", a.uia2.settle,
                 "uia2: how a page source read after an action waits for the screen to settle "
                 "(an animation, a list loading): idle (the server waits for the UI to idle), "
                 "compare (read again until two reads agree) or none")
      ->transform(
          CLI::CheckedTransformer(
              std::map<std::string, Settle>{
                  {"compare", Settle::kCompare}, {"idle", Settle::kIdle}, {"none", Settle::kNone}},
              CLI::ignore_case)
              .description(""))
      ->type_name("idle|compare|none")
      ->default_str("idle")
      ->group("Android device");
  app.add_option("--settle-ms", a.uia2.settle_ms, "uia2: the longest wait for a screen to settle")
      ->check(Within(0, 60000))
      ->capture_default_str()
      ->group("Android device");
  using Options = device::android::AndroidDeviceOptions;
  std::map<std::string, Options::PermissionChoice> permissions;
  for (const auto& [value, name] : Options::kPermissionNames)
    permissions[std::string(name)] = value;
  app.add_option("--permission-dialogs", a.permissions,
                 "a runtime permission request: allow it, deny it, or leave it to the strategy")
      ->transform(CLI::CheckedTransformer(permissions, CLI::ignore_case).description(""))
      ->type_name("allow|deny|strategy")
      ->default_str("allow")
      ->needs(f.serial)
      ->group("Android device");
  uia2_apks->needs(f.serial);
  coverage->needs(f.serial);
  f.app->excludes(f.serial);
  package->needs(f.serial);
  apk->needs(f.serial);
  app.add_option("--bugs-off", target.bugs_off, "planted bug ids to switch off (comma-separated)")
      ->delimiter(',');
  return f;
}

void AddClockFlag(CLI::App& app, bool& phone_clock) {
  app.add_option_function<std::string>(
         "--clock", [&phone_clock](const std::string& v) { phone_clock = v == "phone"; },
         "what --time counts on the simulator: wall (seconds of this machine) or phone (the "
         "seconds a phone would take with --driver's commands; docs/benchmarks.md)")
      ->check(CLI::IsMember({"wall", "phone"}))
      ->default_str("wall");
}

bool TargetGiven(const TargetFlags& flags, const run::TargetOptions& target,
                 const std::string& who) {
  if (flags.driver->count() > 0 && flags.serial->count() == 0 && !target.phone_clock) {
    fmt::print(stderr,
               "{}: --driver picks how steps reach an Android device (--serial), or whose costs "
               "a phone's clock charges (--clock phone)\n",
               who);
    return false;
  }
  if (flags.serial->count() > 0 && !flags.environment_error.empty()) {
    fmt::print(stderr, "{}: {}\n", who, flags.environment_error);
    return false;
  }
  if (flags.serial->count() > 0 && target.android.package.empty()) {
    fmt::print(stderr, "{}: --serial needs --package PKG\n", who);
    return false;
  }
  if (Status s = device::android::CheckCoverage(target.android.coverage); !s.ok()) {
    fmt::print(stderr, "{}: {}\n", who, s.message());
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
