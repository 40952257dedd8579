// `roam sim serve`.
#include <fmt/format.h>

#include "cli/commands.h"

namespace roam::cli {

int SimServeCommand(int, char**) {
  fmt::print(stderr, "roam sim serve: not built yet\n");
  return kExitUsage;
}

}  // namespace roam::cli
