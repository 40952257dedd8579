// SimAdbServer: the adb server protocol over simulated devices (`roam sim serve`). Any adb
// client -- Roam's AndroidDevice, Debian's `adb` -- connects to it as to a real adb server on
// 127.0.0.1 and sees N devices, each a SimAndroidDevice (sim_shell.h) whose state persists
// across connections.
// Answers: host:version ("0029"), host:devices[-l], host:track-devices, host:features and
// host-serial:S:features ("shell_v2"), host:kill, host:get-state/get-serialno,
// host:transport:S / transport-any / -usb / -local / transport-id:N, host:tport:serial:S /
// any / usb / local / transport-id:N (OKAY + 8-byte id), host-serial:S:{get-state,
// get-serialno,get-devpath,emu:CMD}; after a transport: shell:CMD (v1, stderr merged),
// shell,v2,...:CMD (packets with exit code), exec:CMD (stdout only), shell: (interactive, line
// by line), sync: (STAT, RECV, SEND, LIST, QUIT), emu:CMD (emulator-* serials only), root:,
// tcp:PORT (a device port: the app's JaCoCo agent on 6300 while it runs, the UiAutomator2
// server's HTTP API on 6790 while its instrumentation runs, sim_uia2.h); forwards
// (host-serial:S:forward:tcp:L;tcp:R, host:forward after a transport, killforward:tcp:L,
// killforward-all, host:list-forward), each a listener on 127.0.0.1 (sim_ports.h).
// Host queries close the connection after their answer, as the real server does.
// Fault injection for client tests: SetOffline(serial, true) lists the device as "offline",
// makes transport requests FAIL with "device offline" and drops its open connections and its
// forwards (adb's handle_offline runs the transport's disconnects, which remove its listeners);
// DropConnections() closes every open connection at once (a USB cable pulled, adb restarted).
// SimAdbServerOptions::faults schedules faults by time or by requests served (sim_faults.h:
// offline, reboot, adb-restart, uia2-kill, source500); FaultsHappened() counts those that did.
// Thread-safe: one accept thread, one thread per connection (at most max_connections on the adb
// port, and as many again over all forwards: sim_conns.h); all public methods may be called from
// any thread. Stop() (or the destructor) closes everything and joins the threads.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "serve/sim_conns.h"
#include "serve/sim_faults.h"
#include "serve/sim_ports.h"
#include "serve/sim_shell.h"
#include "sim/sim_app.h"

namespace roam::serve {

class SimUia2Server;

struct SimAdbServerOptions {
  std::string host =
      std::string(device::android::kLoopback);  // address to bind (default loopback only)
  int port =
      device::android::kDefaultSimServePort;  // 0: an ephemeral port (see SimAdbServer::port())
  std::string serial = "emulator-5554";       // first device; emulator-N: N+2, N+4 for the rest,
                                              // else NAME, NAME-2, NAME-3
  int devices = 1;                            // how many independent devices
  sim::SimOptions sim;                        // seed and planted bugs switched off
  // Limits, as adbd has them: connections open at once, on the adb port and again over all
  // forwarded ports (past it the connection idle longest between requests is closed to make
  // room; when none idles, or no thread can be started, the new one is answered FAIL, or closed
  // on a forward);
  // how long a connection may wait for its next request or sync header before it is closed
  // (streams such as logcat and an interactive shell may idle); the longest shell line.
  int max_connections = 64;
  int idle_timeout_ms = 30000;
  size_t max_line_bytes = 1 << 20;
  // --pace phone: every command, server request and console command takes what it takes on a
  // phone (device/android/phone_pace.h) before its answer comes; the simulator still runs at
  // its own speed underneath.
  bool phone_pace = false;
  // false: the paced time is counted (SimAdbServer::paced_ms) but not waited (tests).
  bool pace_sleeps = true;
  // --dialogs: the devices show Android's "isn't responding", "keeps stopping" and permission
  // dialogs (SimAndroidDevice::set_system_dialogs).
  bool system_dialogs = false;
  // --root: the devices' shells run as root (SimAndroidDevice::set_root).
  bool root = false;
  // --jacoco-output none: the app's JaCoCo runtime serves no port (an APK whose
  // jacoco-agent.properties says output=none); --stale-coverage: the app's coverage.ec holds
  // yesterday's session (SimAndroidDevice::set_jacoco_tcpserver, LeaveStaleCoverage).
  bool jacoco_tcpserver = true;
  bool stale_coverage = false;
  // --faults: what happens to the devices and the server, when (sim_faults.h); none by default.
  std::vector<Fault> faults;
};

// The serials of `count` devices named after `first` (see SimAdbServerOptions::serial).
std::vector<std::string> DeviceSerials(const std::string& first, int count);

class SimAdbServer {
 public:
  SimAdbServer(std::shared_ptr<const sim::AppSpec> spec, SimAdbServerOptions options);
  ~SimAdbServer();
  SimAdbServer(const SimAdbServer&) = delete;
  SimAdbServer& operator=(const SimAdbServer&) = delete;

  // Binds and starts the accept thread.
  Status Start();
  // Closes the listener and every connection, joins all threads. Idempotent.
  void Stop();
  int port() const { return port_; }
  // True once a client sent host:kill (the server has stopped accepting connections).
  bool kill_requested() const { return kill_requested_; }

  std::vector<std::string> Serials() const;
  // The device behind a serial (nullptr if none); owned by the server.
  SimAndroidDevice* Device(const std::string& serial);

  // Fault injection (see the header comment).
  void SetOffline(const std::string& serial, bool offline);
  void DropConnections();
  size_t OpenConnections() const;
  // The phone's time the answers were paced by so far (--pace phone), in milliseconds.
  int64_t paced_ms() const { return paced_ms_; }
  // Requests served: adb requests and UiAutomator2 HTTP requests, over all devices (the clock of
  // a fault timed in requests).
  int64_t requests() const { return requests_; }
  // The scheduled faults that happened, by name (sim_faults.h), each device counted: "offline",
  // "reboot", "adb-restart", "uia2-kill" (only where a server ran), "source500" (500s answered).
  std::map<std::string, int64_t> FaultsHappened() const;
  // For summary.json: {"spec": [...], "happened": FaultsHappened(), "log": [{"fault", "serial",
  // "begin_s", "end_s", "request"}...]}.
  nlohmann::json FaultsReport() const;

 private:
  struct Conn;
  struct Dev {
    std::unique_ptr<SimAndroidDevice> device;
    uint64_t transport_id = 0;
    bool offline = false;
    bool gone = false;  // rebooting: not in `adb devices` at all
  };
  // Counts `ms` of a phone's pace; what the answer is to wait (0 without pace_sleeps).
  int64_t Pace(int64_t ms);
  void AcceptLoop();
  void Serve(Conn* conn);
  // Host requests: returns false when the connection is to be closed.
  bool HandleHost(Conn* conn, const std::string& req);
  void HandleDeviceService(Conn* conn, Dev* dev, const std::string& service);
  // shell: and exec: (one stream: stderr goes into stdout, as adbd's raw subprocess without the
  // shell protocol dups it) and shell,v2: (stdout and stderr apart).
  void RunShellService(Conn* conn, Dev* dev, const std::string& command, bool v2);
  void InteractiveShell(Conn* conn, Dev* dev);
  void SyncService(Conn* conn, Dev* dev);
  void TrackDevices(Conn* conn, bool long_form);
  // Resolves a transport selector ("serial:S", "any", "usb", "local", "transport-id:N", or a bare
  // serial); on failure *error holds the FAIL message.
  Dev* Select(const std::string& selector, std::string* error);
  std::string DevicesText(bool long_form) const;
  // Forward requests ("forward:...", "killforward:...", "killforward-all") for `serial`.
  void HandleForward(Conn* conn, const std::string& serial, const std::string& request);
  // What listens on `port` of the device `serial` (null: nothing).
  PortHandler DevicePort(const std::string& serial, int port);
  // The UiAutomator2 server's API of `serial` (sim_uia2.h), made once.
  std::shared_ptr<SimUia2Server> Uia2Server(const std::string& serial);

  // Faults (sim_adb_faults.cc). A request is counted, and the faults it makes due applied, before
  // it is served; the fault thread applies those due by time. Nothing here waits for a
  // connection's thread, so a connection's own request may set a fault off.
  void CountRequest();
  void ApplyDueFaults();
  void FaultLoop();
  void Apply(size_t index, bool begin);  // under fault_mu_
  void SetGone(Dev& dev, bool gone);
  void CloseAdbPort();  // adb kill-server: stop accepting, close every connection and forward
  void OpenAdbPort();   // adb start-server: listen on the same port again
  double Elapsed() const;

  std::shared_ptr<const sim::AppSpec> spec_;
  SimAdbServerOptions options_;
  std::vector<Dev> devs_;
  device::android::Listener listener_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> kill_requested_{false};
  std::atomic<int64_t> paced_ms_{0};
  std::thread accept_thread_;
  mutable std::mutex mu_;               // guards the connections' serials, the offline flags
  std::unique_ptr<ConnPool> conns_;     // made in the constructor
  std::unique_ptr<Forwards> forwards_;  // made in the constructor; emptied by Stop()
  std::map<std::string, std::shared_ptr<SimUia2Server>> uia2_;  // by serial, under mu_

  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<int64_t> requests_{0};
  std::atomic<bool> adb_down_{false};  // between an adb-restart's begin and end
  std::thread fault_thread_;
  mutable std::mutex fault_mu_;  // guards the clock, the counts, the log, the adb port's restart
  std::condition_variable fault_cv_;
  std::unique_ptr<FaultClock> fault_clock_;  // null: no faults
  std::map<std::string, int64_t> happened_;
  nlohmann::json fault_log_ = nlohmann::json::array();
};

}  // namespace roam::serve
