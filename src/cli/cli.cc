#include "cli/cli.h"

#include <csignal>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "cli/commands.h"

namespace roam::cli {

namespace {

void PrintUsage() {
  fmt::print(
      "roam: automated GUI testing for Android apps\n\nUsage: roam <command> [options]\n\n"
      "Commands:\n");
  for (const auto& c : Commands()) fmt::print("  {:<10} {}\n", c.name, c.description);
  fmt::print(
      "\n`roam <command> --help` shows a command's options; `roam --version` the version.\n");
}

}  // namespace

int Main(int argc, char** argv) {
  // A file-size limit (ulimit -f) then fails a write with EFBIG, which is reported like a full
  // disk, instead of killing the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    PrintUsage();
    return kExitUsage;
  }
  std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    PrintUsage();
    return 0;
  }
  if (name == "--version" || name == "version") {
    fmt::print("roam {} (commit {})\n", ROAM_VERSION, ROAM_COMMIT);
    return 0;
  }
  std::vector<std::string> names;
  for (const auto& c : Commands()) {
    if (c.name == name) return c.run(argc - 1, argv + 1);
    names.push_back(c.name);
  }
  fmt::print(stderr, "roam: unknown command \"{}\"{}. `roam help` lists the commands.\n", name,
             DidYouMean(name, names));
  return kExitUsage;
}

}  // namespace roam::cli
