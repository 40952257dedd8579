// sim_faults: the faults `roam sim serve --faults SPEC` schedules, so that a test or a benchmark
// meets what a real phone does to a long run (issue 59 item 6): the spec's syntax (ParseFaults)
// and the clock that says which faults begin and end when (FaultClock). SimAdbServer applies
// them (sim_adb_server.h). Plain values; FaultClock is not thread-safe (its owner locks).
//
// SPEC is a comma-separated list of
//   offline@T+D      the device is listed `offline` from T for D: transports to it FAIL "device
//                    offline", its connections and forwards are dropped (adb's handle_offline)
//   reboot@T+D       the device leaves `adb devices` at T and is back D later: its processes
//                    (the app, the UiAutomator2 server) are gone and its log is empty; installed
//                    packages and files stay
//   adb-restart@T[+D] every connection to the adb port is closed, every forward removed, and the
//                    port refuses for D (default 1s), as `adb kill-server; adb start-server`
//   uia2-kill@T      the UiAutomator2 server's process dies: its `am instrument -w` ends with
//                    "Process crashed.", its forwarded port refuses
//   source500=N/M    of every M GET /source of a server, the last N answer 500 "unknown error"
// T and D are a number with a unit: ms, s, m (from serve start, wall-clock, also under --pace
// phone) or r: requests served (adb requests and UiAutomator2 HTTP requests, over all devices),
// which makes a test deterministic: `uia2-kill@40r` kills the server just before the 40th.
// Every fault hits every served device.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace roam::serve {

enum class FaultKind { kOffline, kReboot, kAdbRestart, kUia2Kill, kSource500 };

// "offline", "reboot", "adb-restart", "uia2-kill", "source500".
std::string_view FaultName(FaultKind kind);

// A point or a span in time (milliseconds) or in requests served.
struct FaultTime {
  int64_t value = 0;
  bool requests = false;
};

struct Fault {
  FaultKind kind = FaultKind::kOffline;
  FaultTime at;          // when it begins (not for source500)
  FaultTime lasting;     // offline, reboot, adb-restart: how long it lasts
  int fail = 0, of = 0;  // source500: `fail` of every `of`
};

inline constexpr int64_t kAdbRestartRefusalMs = 1000;  // the port refuses this long by default

// The faults of SPEC (see the header comment); InvalidArgument naming the item and what is wrong.
Result<std::vector<Fault>> ParseFaults(std::string_view spec);

// Which faults begin and end, each once, as time passes and requests are served.
class FaultClock {
 public:
  explicit FaultClock(std::vector<Fault> faults);
  struct Event {
    size_t fault;  // index into faults()
    bool begin;    // false: its end
  };
  // The events due at `elapsed_ms` after start with `requests` served so far, oldest first; a
  // fault's end is due only after its begin, measured from when it began.
  std::vector<Event> Take(int64_t elapsed_ms, int64_t requests);
  const std::vector<Fault>& faults() const { return faults_; }

 private:
  struct State {
    bool begun = false, ended = false;
    int64_t begun_ms = 0, begun_requests = 0;
  };
  static bool Reached(const FaultTime& t, int64_t from_ms, int64_t from_requests, int64_t ms,
                      int64_t requests);
  std::vector<Fault> faults_;
  std::vector<State> states_;
};

}  // namespace roam::serve
