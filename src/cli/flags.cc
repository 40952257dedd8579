#include "cli/flags.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/files.h"
#include "cli/commands.h"
#include "device/android/adb_address.h"
#include "oracle/kinds.h"

namespace roam::cli {

namespace {

// What CLI11 lets through: NaN and infinities for numbers (its range checks compare false with
// NaN), and negative or too large values wrapped around for unsigned ones (-1 became
// 18446744073709551615). Empty when `value` is a fine value of an option typed `type`.
std::string BadNumber(std::string type, const std::string& value) {
  type = type.substr(0, type.find(':'));  // "FLOAT:NONNEGATIVE": the type, then its checks
  if (type == "FLOAT") {
    char* end = nullptr;
    double d = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || !std::isfinite(d)) return "a finite number";
  } else if (type == "UINT") {
    uint64_t u = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), u);
    if (ec != std::errc() || p != value.data() + value.size())
      return "a whole number from 0 to 18446744073709551615";
  }
  return "";
}

}  // namespace

namespace {

CLI::Validator NumberAtLeast(double low, bool strict, const char* words) {
  return CLI::Validator(
      [low, strict, words](std::string& value) {
        char* end = nullptr;
        double d = std::strtod(value.c_str(), &end);
        if (end != value.c_str() && (strict ? d > low : d >= low)) return std::string();
        return fmt::format("expected {}, got \"{}\"", words, value);
      },
      strict ? "POSITIVE" : "NONNEGATIVE");
}

}  // namespace

CLI::Validator NonNegative() { return NumberAtLeast(0, false, "a number of at least 0"); }

CLI::Option* AddDriverFlag(CLI::App& app, const std::string& help, bool auto_choice,
                           std::function<void(std::optional<device::android::DriverKind>)> set) {
  std::map<std::string, std::string> names;
  for (const auto& d : device::android::kDriverNames) names.emplace(d.name, d.name);
  if (auto_choice) names.emplace("auto", "auto");
  return app
      .add_option_function<std::string>(
          "--driver",
          [set = std::move(set)](const std::string& name) {
            set(device::android::DriverNamed(name));
          },
          help)
      ->transform(CLI::CheckedTransformer(names, CLI::ignore_case).description(""))
      ->type_name(auto_choice ? "auto|uia2|uiautomator" : "uia2|uiautomator");
}

Status AddAdbServerFlags(CLI::App& app, std::string& host, int& port, const std::string& group) {
  auto env = device::android::AdbServerFromEnvironment(std::getenv("ADB_SERVER_SOCKET"),
                                                       std::getenv("ANDROID_ADB_SERVER_PORT"));
  if (env.ok()) {
    host = env->host.value_or(host);
    port = env->port.value_or(port);
  }
  app.add_option("--adb-host", host, "adb server host (default: ADB_SERVER_SOCKET's, as adb)")
      ->capture_default_str()
      ->group(group);
  app.add_option("--adb-port", port,
                 "adb server port (default: ADB_SERVER_SOCKET's or ANDROID_ADB_SERVER_PORT, as "
                 "adb; `roam sim serve`: 5038)")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str()
      ->group(group);
  return env.ok() ? Status::Ok() : env.status();
}

void AddIntentsFlag(CLI::App& app, bool& on) {
  app.add_option_function<std::string>(
         "--intents", [&on](const std::string& v) { on = v == "on"; },
         "start exported activities and deep links of the app with am start, with the extras "
         "its screens read, none and wrong ones (off: the GUI only)")
      ->check(CLI::IsMember({"on", "off"}))
      ->default_str(on ? "on" : "off");
}

void AddOracleFlags(CLI::App& app, std::map<std::string, std::filesystem::path>& files,
                    std::string_view also, std::string_view type) {
  for (const auto& kind : oracle::OracleKinds())
    app.add_option(fmt::format("--{}", kind.name), files[std::string(kind.name)],
                   fmt::format("{}{}", kind.help, also))
        ->type_name(std::string(type))
        ->check(CLI::ExistingPath.description(""))
        ->group("Oracles");
}

void AddBudgetFlags(CLI::App& app, run::BudgetOptions& budget, const std::string& events_help,
                    const std::string& time_help) {
  CLI::Option* events =
      app.add_option("--events", budget.events, events_help)->check(NonNegative());
  events->default_str(std::to_string(budget.events) + ", none with --time alone");
  CLI::Option* time = app.add_option("--time", budget.seconds, time_help)->check(NonNegative());
  app.parse_complete_callback([events, time, &budget] {
    if (time->count() > 0 && events->count() == 0) budget.events = 0;
  });
}

CLI::Validator Within(double min, double max) {
  const bool no_min = min == std::numeric_limits<double>::lowest();
  const bool no_max = max == std::numeric_limits<double>::max();
  const std::string words = no_max   ? fmt::format("a number of at least {}", min)
                            : no_min ? fmt::format("a number of at most {}", max)
                                     : fmt::format("a number from {} to {}", min, max);
  return CLI::Validator(
      [min, max, words](std::string& value) {
        char* end = nullptr;
        double d = std::strtod(value.c_str(), &end);
        if (end != value.c_str() && d >= min && d <= max) return std::string();
        return fmt::format("expected {}, got \"{}\"", words, value);
      },
      no_max   ? fmt::format(">= {}", min)
      : no_min ? fmt::format("<= {}", max)
               : fmt::format("{} to {}", min, max));
}
CLI::Validator Positive() { return NumberAtLeast(0, true, "a number above 0"); }

namespace {

// For a flag whose type names its choices ("auto|uia2|uiautomator"): "" when `value` is one of
// them (any case), else what was expected, with the closest choice.
std::string BadChoice(const std::string& type, const std::string& value) {
  if (type.find('|') == std::string::npos || type.find(' ') != std::string::npos) return "";
  std::vector<std::string> choices;
  for (size_t start = 0; start <= type.size();) {
    const size_t bar = std::min(type.find('|', start), type.size());
    choices.push_back(type.substr(start, bar - start));
    start = bar + 1;
  }
  for (const std::string& c : choices)
    if (c.size() == value.size() &&
        std::equal(c.begin(), c.end(), value.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        }))
      return "";
  return fmt::format("one of {}{}", fmt::join(choices, ", "), DidYouMean(value, choices));
}

}  // namespace

int ParseFlags(CLI::App& app, const std::string& who, int argc, char** argv) {
  // Checked before any range check of the option's own (added as a transform: CLI11 runs
  // those first).
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    opt->transform(CLI::Validator(
        [type](std::string& value) {
          std::string expected = BadNumber(type, value);
          if (expected.empty()) expected = BadChoice(type, value);
          return expected.empty() ? std::string()
                                  : fmt::format("expected {}, got \"{}\"", expected, value);
        },
        "", "number"));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // A mistyped flag: name it and the closest the command has ("--evnets": "--events").
    std::vector<std::string> flags;
    for (const CLI::Option* opt : app.get_options())
      for (const auto& name : opt->get_lnames()) flags.push_back("--" + name);
    for (const std::string& extra : app.remaining())
      if (extra.starts_with("--")) {
        const std::string flag = extra.substr(0, extra.find('='));
        fmt::print(stderr, "{}: unknown flag {}{}; `{} --help` lists the flags\n", who, flag,
                   DidYouMean(flag, flags), who);
        return kExitUsage;
      }
    fmt::print(stderr, "{}: {}\n", who, e.what());
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "{}: {}\n", who, e.what());
    return kExitUsage;
  }
  return -1;
}

namespace {

// Settings as the library names them, and the flags that set them.
constexpr std::pair<std::string_view, std::string_view> kSettingFlags[] = {
    {"time_travel.queue_length", "--tt-queue"},
    {"time_travel.alpha", "--tt-alpha"},
    {"time_travel.beta", "--tt-beta"},
    {"time_travel.max_no_progress", "--tt-max-no-progress"},
    {"time_travel.reward", "--tt-reward"},
    {"time_travel.penalty", "--tt-penalty"},
    {"time_travel.f0_ratio", "--tt-f0-ratio"},
    {"time_travel.k", "--tt-k"},
    {"time_travel.max_snapshots", "--tt-max-snapshots"},
    {"time_travel.interesting", "--tt-interesting"},
    {"fastbot.alpha", "--fastbot-alpha"},
    {"fastbot.beta", "--fastbot-beta"},
    {"fastbot.k", "--fastbot-k"},
    {"fastbot.n_step", "--fastbot-n"},
    {"fastbot.dynamic_texts", "--fastbot-dynamic-texts"},
    {"fastbot.globals", "--fastbot-globals"},
    {"fastbot.repeat", "--fastbot-repeat"},
    {"fastbot.model_steps", "--fastbot-model-steps"},
    {"fastbot.prior", "--fastbot-prior"},
    {"fastbot.model_reset", "--model-reset"},
    {"dqn.epsilon", "--dqn-epsilon"},
    {"dqn.warmup", "--dqn-warmup"},
    {"dqn.replay", "--dqn-replay"},
    {"dqn.learning_rate", "--dqn-lr"},
    {"dqn.gamma", "--dqn-gamma"},
    {"dqn.system_every", "--dqn-system-every"},
    {"dqn.broadcasts", "--dqn-broadcasts"},
    {"dqn.memory", "--dqn-memory"},
    {"dqn.words", "--dqn-words"},
    {"dqn.generations", "--dqn-generations"},
    {"dqn.histogram", "--dqn-histogram"},
    {"dqn.reward", "--dqn-reward"},
    {"dqn.features", "--dqn-features"},
    {"dqn.vectors", "--dqn-vectors"},
    {"dqn.record_q", "--dqn-record-q"},
    {"dqn.model", "--dqn-model"},
    {"harness.strings", "--strings"},
    {"harness.filters", "--filters"},
    {"harness.actions", "--actions"},
    {"harness.max_backs", "--max-backs"},
};

}  // namespace

std::string InFlagTerms(std::string message) {
  for (const auto& [setting, flag] : kSettingFlags) {
    for (size_t at = message.find(setting); at != std::string::npos;
         at = message.find(setting, at + flag.size())) {
      // Whole names only: "time_travel.k" is not the start of "time_travel.kx".
      size_t end = at + setting.size();
      if (end < message.size() &&
          (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_')) {
        at = end - flag.size();
        continue;
      }
      message.replace(at, setting.size(), flag);
    }
  }
  return message;
}

int Fail(const std::string& who, const Status& status) {
  fmt::print(stderr, "{}: {}\n", who, InFlagTerms(status.message()));
  switch (status.code()) {
    case Status::Code::kIo:
    case Status::Code::kUnavailable:
    case Status::Code::kAborted:
    case Status::Code::kRefused:
      return kExitNo;
    default:
      return kExitUsage;
  }
}

}  // namespace roam::cli
