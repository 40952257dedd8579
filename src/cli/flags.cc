#include "cli/flags.h"

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

}  // namespace roam::cli
