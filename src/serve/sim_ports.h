// serve/sim_ports: the ports of `roam sim serve`'s devices and the adb host's forwards to them.
// A device port is a handler that serves one connection (the JaCoCo agent's TCP server on 6300,
// say); the device service "tcp:PORT" and every forward reach it the same way. A forward is a
// listener on the host's loopback whose connections go to a device port, as `adb forward tcp:L
// tcp:R` makes one. Thread-safe: forwards are added and removed from connection threads while
// their own threads serve.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/status.h"
#include "device/android/adb_protocol.h"

namespace roam::serve {

// Serves one connection to a device port until the peer closes or `stop` is set; the socket is
// the handler's for that time.
using PortHandler =
    std::function<void(device::android::Socket& socket, const std::atomic<bool>& stop)>;

class Forwards {
 public:
  // The handler of `device_port` on `serial`, or null when nothing listens there (the
  // connection is then closed, as adb closes a forward whose device port refuses).
  using Lookup = std::function<PortHandler(const std::string& serial, int device_port)>;
  explicit Forwards(Lookup lookup);
  ~Forwards();
  Forwards(const Forwards&) = delete;
  Forwards& operator=(const Forwards&) = delete;

  // Listens on 127.0.0.1:local_port (0: a free port) for `serial`'s `device_port`; the port
  // bound. A local port already forwarded is moved to the new target unless `no_rebind`.
  Result<int> Add(const std::string& serial, int local_port, int device_port, bool no_rebind);
  // NotFound ("listener 'tcp:L' not found") when no forward listens there.
  Status Remove(int local_port);
  // Every forward of `serial` ("": of every device).
  void RemoveAll(const std::string& serial);
  // "SERIAL tcp:L tcp:R\n" a forward, as host:list-forward answers.
  std::string List() const;

 private:
  struct Entry;
  void AcceptLoop(Entry* entry);
  std::unique_ptr<Entry> Take(int local_port);  // under mu_
  static void Close(std::unique_ptr<Entry> entry);

  Lookup lookup_;
  mutable std::mutex mu_;
  std::map<int, std::unique_ptr<Entry>> entries_;  // by local port
};

}  // namespace roam::serve
