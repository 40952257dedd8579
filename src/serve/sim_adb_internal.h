// Internal to serve/sim_adb_*.cc: one client connection of SimAdbServer and what its services
// share (sim_adb_server.h). A Conn is served by its own thread.
#pragma once

#include <atomic>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "serve/sim_adb_server.h"

namespace roam::serve {

// One client connection, on the stack of the pool's thread that serves it (sim_conns.h).
struct SimAdbServer::Conn {
  explicit Conn(PooledConn& p) : sock(p.socket()), pooled(p) {}
  device::android::Socket& sock;
  // Says when the connection waits for its next request (not in a stream): at the connection cap
  // the one idle longest is closed to make room, so idle clients cannot lock everyone else out.
  PooledConn& pooled;
  std::string serial;  // the device it is switched to ("" before a transport), under mu_
};

// The last write on a connection that closes next: when the client has already gone, there is
// nobody left to tell, so the status is dropped here, on purpose.
inline void Closing(const Status& written) { (void)written; }

constexpr uint32_t kMaxSyncRequest = 4096;           // a sync request's argument (a path)
constexpr size_t kMaxPushedFile = 64 * 1024 * 1024;  // a file `adb push` may send
constexpr uint32_t kRegularFileMode = 0100644;
constexpr uint32_t kFileMtime = 1700000000;

// "6300" -> 6300: digits only, 0 to 65535.
inline bool ParsePort(std::string_view digits, int* port) {
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *port);
  return ec == std::errc() && end == digits.data() + digits.size() && *port >= 0 && *port <= 65535;
}

}  // namespace roam::serve
