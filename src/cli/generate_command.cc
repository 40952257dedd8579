// `roam sim generate`.
#include <fmt/format.h>

#include "cli/commands.h"

namespace roam::cli {

int SimGenerateCommand(int, char**) {
  fmt::print(stderr, "roam sim generate: not built yet\n");
  return kExitUsage;
}

}  // namespace roam::cli
