// serve/sim_ports: the ports of `roam sim serve`'s devices and the adb host's forwards to them.
// A device port is a handler that serves one connection (the JaCoCo agent's TCP server on 6300,
// say); the device service "tcp:PORT" and every forward reach it the same way. A forward is a
// listener on the host's loopback whose connections go to a device port, as `adb forward tcp:L
// tcp:R` makes one; the connections of every forward share one bounded pool. Thread-safe:
// forwards are added and removed from connection threads while their own threads serve.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "serve/sim_conns.h"

namespace roam::serve {

// Serves one connection to a device port until the peer closes or `stop` is set; the connection
// is the handler's for that time (it says when it waits for a request: PooledConn::SetWaiting).
using PortHandler = std::function<void(PooledConn& conn, const std::atomic<bool>& stop)>;

class Forwards {
 public:
  // The handler of `device_port` on `serial`, or null when nothing listens there (the
  // connection is then closed, as adb closes a forward whose device port refuses).
  using Lookup = std::function<PortHandler(const std::string& serial, int device_port)>;
  // At most `max_connections` forwarded connections at once, over every forward (ConnPool).
  Forwards(Lookup lookup, int max_connections);
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
  // RemoveAll without waiting for the forwarded connections' handlers (their sockets are shut
  // down and they end on their own): callable from a forwarded connection's own thread (a fault
  // its request set off).
  void DropAll(const std::string& serial);
  // "SERIAL tcp:L tcp:R\n" a forward, as host:list-forward answers.
  std::string List() const;
  // Forwarded connections being served, over every forward.
  size_t OpenConnections() const { return pool_.Open(); }

 private:
  struct Entry;
  void AcceptLoop(Entry* entry);
  std::unique_ptr<Entry> Take(int local_port);  // under mu_
  std::vector<std::unique_ptr<Entry>> TakeAll(const std::string& serial);
  void Close(std::unique_ptr<Entry> entry, bool wait = true);

  Lookup lookup_;
  ConnPool pool_;
  mutable std::mutex mu_;
  std::map<int, std::unique_ptr<Entry>> entries_;  // by local port
};

}  // namespace roam::serve
