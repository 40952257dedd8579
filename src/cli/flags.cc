#include "cli/flags.h"

#include <cctype>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "cli/commands.h"

namespace roam::cli {

int ParseFlags(CLI::App& app, const std::string& who, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
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
    {"fastbot.model_reset", "--model-reset"},
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
      if (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) ||
                                   message[end] == '_')) {
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
      return kExitNo;
    default:
      return kExitUsage;
  }
}

}  // namespace roam::cli
