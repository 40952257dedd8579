#include "device/android/adb_address.h"

#include <charconv>

#include <fmt/format.h>

namespace roam::device::android {

namespace {

std::optional<int> Port(std::string_view text) {
  int port = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (ec != std::errc() || end != text.data() + text.size() || port < 1 || port > 65535)
    return std::nullopt;
  return port;
}

}  // namespace

Result<AdbServerAddress> AdbServerFromEnvironment(const char* socket, const char* port) {
  AdbServerAddress a;
  if (socket && *socket) {
    std::string_view s = socket;
    if (!s.starts_with("tcp:"))
      return Status::InvalidArgument(
          fmt::format("ADB_SERVER_SOCKET=\"{}\": Roam reaches an adb server over TCP: tcp:PORT or "
                      "tcp:HOST:PORT",
                      socket));
    s.remove_prefix(4);
    const size_t colon = s.rfind(':');
    if (colon != std::string_view::npos) {
      if (colon == 0)
        return Status::InvalidArgument(
            fmt::format("ADB_SERVER_SOCKET=\"{}\": no host before the port", socket));
      a.host = std::string(s.substr(0, colon));
      s.remove_prefix(colon + 1);
    }
    a.port = Port(s);
    if (!a.port)
      return Status::InvalidArgument(fmt::format(
          "ADB_SERVER_SOCKET=\"{}\": the port is not a number from 1 to 65535", socket));
    return a;
  }
  if (port && *port) {
    a.port = Port(port);
    if (!a.port)
      return Status::InvalidArgument(
          fmt::format("ANDROID_ADB_SERVER_PORT=\"{}\": not a port number from 1 to 65535", port));
  }
  return a;
}

}  // namespace roam::device::android
