// The flags that name what a campaign runs against, shared by the subcommands that open a
// run::Target: a simulated app (--app, --bugs-off) or an app on an Android device (--serial,
// --adb-host, --adb-port, --package, --apk). Thread-compatible.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "run/run_folder.h"
#include "run/target.h"

namespace roam::cli {

struct TargetFlags {
  CLI::Option* app = nullptr;
  CLI::Option* serial = nullptr;
  CLI::Option* driver = nullptr;
  // ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT could not be read ("": fine): TargetGiven says so.
  std::string environment_error;
};

// Adds the flags to `app`, filling `target`; `verb` says what the command does to the app
// ("fuzz", "test").
TargetFlags AddTargetFlags(CLI::App& app, run::TargetOptions& target, const std::string& verb);

// --clock wall|phone (explore, fuzz, bench): the simulator on a phone's clock, the costs those of
// --driver.
void AddClockFlag(CLI::App& app, bool& phone_clock);

// After parsing: false (and a message on stderr from `who`) when neither --app nor --serial was
// given, --serial without --package, or --driver without --serial or --clock phone.
bool TargetGiven(const TargetFlags& flags, const run::TargetOptions& target,
                 const std::string& who);

// "diary" for apps/diary.json, the package on a device: the run folder's default name.
std::string TargetName(const run::TargetOptions& target);

// After parsing: a seed from the clock when `seed_flag` was not given, and the run folder
// out/<target>-<kind>-s<seed> when --out was not.
void DefaultSeedAndOut(const CLI::Option* seed_flag, const std::string& kind,
                       run::RunOptions& options);

}  // namespace roam::cli
