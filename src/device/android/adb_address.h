// Where the adb server listens, as adb's own client finds it from its environment: Roam's default
// before --adb-host and --adb-port, so a shell set up for `adb` (a second server, `roam sim serve`
// on 5038) is set up for Roam too. Pure functions: thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace roam::device::android {

struct AdbServerAddress {
  std::optional<std::string> host;  // unset: the default (127.0.0.1)
  std::optional<int> port;          // unset: the default (5037)
};

// ADB_SERVER_SOCKET ("tcp:PORT" or "tcp:HOST:PORT") wins over ANDROID_ADB_SERVER_PORT, as in
// adb; null or "" is unset. InvalidArgument naming the variable for a value adb would refuse too
// (another socket kind, a port that is not 1 to 65535).
Result<AdbServerAddress> AdbServerFromEnvironment(const char* adb_server_socket,
                                                  const char* android_adb_server_port);

}  // namespace roam::device::android
