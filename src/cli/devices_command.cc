// `roam devices`: the devices an adb server knows (a real one, or `roam sim serve`).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/flags.h"
#include "device/android/adb_protocol.h"

namespace roam::cli {

int DevicesCommand(int argc, char** argv) {
  std::string host(device::android::kLoopback);
  int port = device::android::kDefaultAdbServerPort;
  CLI::App app("List the devices of an adb server (serial, state, details).", "devices");
  const Status env = AddAdbServerFlags(app, host, port, "");
  if (int rc = ParseFlags(app, "roam devices", argc, argv); rc >= 0) return rc;
  if (!env.ok()) return Fail("roam devices", env);
  auto list = device::android::HostQuery(host, port, device::android::kHostDevicesLong);
  if (!list.ok()) {
    int rc = Fail("roam devices", list.status().Wrap(fmt::format("adb server {}:{}", host, port)));
    fmt::print(stderr, "  (start one with `adb start-server`, or `roam sim serve --app SPEC`)\n");
    return rc;
  }
  if (list->empty()) {
    fmt::print("no devices on the adb server {}:{}\n", host, port);
    return kExitNo;
  }
  fmt::print("{}", *list);
  if (list->back() != '\n') fmt::print("\n");
  return kExitOk;
}

}  // namespace roam::cli
