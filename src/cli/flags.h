// Flag parsing shared by the subcommands: CLI11's parse with our exit codes and messages.
// Stateless; thread-compatible.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "base/status.h"
#include "device/android/driver_kind.h"
#include "run/budget.h"

namespace roam::cli {

// Parses argv into `app`. Returns -1 to go on, or the exit code to return at once: 0 after
// --help, kExitUsage after printing "`who`: what is wrong" for a bad flag.
int ParseFlags(CLI::App& app, const std::string& who, int argc, char** argv);

// Range checks with plain messages ("expected a number above 0, got -5"); every numeric flag
// is also refused NaN, infinities and wrapped-around unsigned values by ParseFlags.
CLI::Validator NonNegative();
CLI::Validator Positive();
// A number from `min` to `max`, both included (lowest() and max() of double: no bound).
CLI::Validator Within(double min, double max);

// --driver NAME: a name of device::android::kDriverNames, or with `auto_choice` "auto" (`set`
// hears nullopt), any case.
CLI::Option* AddDriverFlag(CLI::App& app, const std::string& help, bool auto_choice,
                           std::function<void(std::optional<device::android::DriverKind>)> set);

// --adb-host and --adb-port, their defaults where adb's client finds its server (ADB_SERVER_SOCKET,
// ANDROID_ADB_SERVER_PORT), else 127.0.0.1:5037; `group` names their help group ("": none). The
// error of an environment variable adb would refuse too: the caller says it when it needs a device.
Status AddAdbServerFlags(CLI::App& app, std::string& host, int& port, const std::string& group);

// --events N and --time S into `budget`. --time alone is a time budget: the events' default is
// dropped (unbounded) unless --events is given too, and then the first spent ends the run.
void AddBudgetFlags(CLI::App& app, run::BudgetOptions& budget, const std::string& events_help,
                    const std::string& time_help);

// --intents on|off: whether exploring strategies may start the app's activities from outside its
// GUI (exported activities, deep links; docs/exploring.md#intents).
void AddIntentsFlag(CLI::App& app, bool& on);

// --properties FILE and the other user oracles of oracle/kinds.h, one flag a row, into `files`
// by the row's name; `also` is added to each help line.
void AddOracleFlags(CLI::App& app, std::map<std::string, std::filesystem::path>& files,
                    std::string_view also = "", std::string_view type = "FILE");

// A library message in the command line's terms: settings named as config.json names them
// ("time_travel.alpha") become the flags that set them ("--tt-alpha").
std::string InFlagTerms(std::string message);

// Prints "`who`: message" (in flag terms) on stderr and returns the exit code for `status`:
// kExitUsage for what the user gave (bad arguments, missing or malformed input files),
// kExitNo for a run that failed (a device lost, a disk full).
int Fail(const std::string& who, const Status& status);

}  // namespace roam::cli
