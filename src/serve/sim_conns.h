// serve/sim_conns: the connections a served port holds, each on a thread of its own, at most
// `max` at once. At the cap the connection idle longest (waiting for its next request) is closed
// and its thread joined before a new one starts, so idle clients cannot lock the others out and
// a flood of connections never holds more than `max` threads; when none idles, or the process
// cannot start another thread, that one client is refused and the server goes on (as it does
// when serving one throws: out of memory). The adb port
// has a pool of its own; every forwarded port of a server shares one (sim_ports.h).
// Thread-safe: the accept threads add, connection threads report, any thread may close all.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "device/android/adb_protocol.h"

namespace roam::serve {

// One connection of a pool, as its serving thread sees it.
class PooledConn {
 public:
  device::android::Socket& socket() { return sock_; }
  // Whether the connection waits for its next request (true when it starts). Only a waiting
  // connection may be closed to make room; a stream or a command in progress is never cut.
  void SetWaiting(bool waiting);

 private:
  friend class ConnPool;
  device::android::Socket sock_;
  std::thread thread_;
  std::atomic<bool> waiting_{true};
  std::atomic<int64_t> waiting_since_ms_{0};  // steady clock
  std::atomic<bool> done_{false};
  // Shut down to make room, its place held for the one who closed it (under the pool's mutex).
  bool closing_ = false;
  std::string tag_;  // the owner's name for it (a device's serial), under the pool's mutex
};

class ConnPool {
 public:
  using Serve = std::function<void(PooledConn& conn)>;
  // What a refused client is told before its socket closes (may be empty: closed silently).
  using Refuse = std::function<void(device::android::Socket& socket, const std::string& why)>;

  // How long the accept thread waits for a connection closed to make room to end.
  static constexpr int kMakeRoomWaitMs = 2000;

  explicit ConnPool(int max) : max_(max) {}
  ~ConnPool() { CloseAll(); }
  ConnPool(const ConnPool&) = delete;
  ConnPool& operator=(const ConnPool&) = delete;

  // Serves `socket` with `serve` on a thread of its own (see the header comment); false when the
  // client was refused. `tag` names it (see Tag).
  bool Add(device::android::Socket socket, Serve serve, const Refuse& refuse = {},
           std::string tag = "");
  // Names a connection (Shutdown(tag) and Close(tag) reach those of that name).
  void Tag(PooledConn& conn, std::string tag);
  // Shuts down the sockets of the connections tagged `tag` ("": all): their reads fail and their
  // threads end.
  void Shutdown(const std::string& tag = "");
  // Shutdown(tag), then waits until their `serve` has returned.
  void Close(const std::string& tag);
  // Shuts every connection down and joins its thread.
  void CloseAll();
  // Connections whose thread has not ended.
  size_t Open() const;

 private:
  void ReapLocked();                                  // joins the ended threads (under mu_)
  bool MakeRoom(std::unique_lock<std::mutex>& lock);  // at the cap: close the idlest

  const int max_;
  mutable std::mutex mu_;
  // Shared: the accept thread waits on a connection it closed to make room, which CloseAll, from
  // another thread, may take out of the list meanwhile.
  std::list<std::shared_ptr<PooledConn>> conns_;
};

}  // namespace roam::serve
