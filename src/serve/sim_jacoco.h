// serve/sim_jacoco: a served app's code units as an app built with JaCoCo hands them out. The
// units become classes and probes (a class per name before the last '.', so
// "MainActivity.onSave" is a probe of org/roam/diary/MainActivity; probes in the spec's unit
// order; a class id is a hash of its name, where JaCoCo's is a CRC64 of the class file), and one
// connection to the agent's TCP server is answered as JaCoCo's tcpserver answers it. Stateless
// functions; thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"

namespace roam::serve {

// JaCoCo's default port for output=tcpserver.
constexpr int kJacocoPort = 6300;
// Where a served app's coverage receiver writes its file when a broadcast reaches it (file mode):
// files/coverage.ec in the app's private folder, as TimeMachine's receiver and docs/coverage.md's
// write it; adb's shell reads it with `run-as PACKAGE`, its sync protocol not at all.
std::string SimCoverageFile(const std::string& package);
// Whether a broadcast reaches the served app's coverage receiver, as docs/coverage.md declares it
// (`.CoverageReceiver`, exported, taking the action PACKAGE.DUMP_COVERAGE): an explicit one
// (-n PACKAGE/.CoverageReceiver) or the action sent to the package (-p PACKAGE). An implicit
// broadcast without -p reaches no manifest receiver on Android 8 and later.
bool ReachesCoverageReceiver(const std::string& package, const std::string& component,
                             const std::string& action, const std::string& to_package);

// The execution data of the units with hit[i] set (every class listed, as a runtime that has
// loaded them; WriteExec leaves out those without a hit, as JaCoCo does).
device::jacoco::ExecData JacocoData(const std::string& package,
                                    const std::vector<std::string>& units,
                                    const std::vector<bool>& hit, const std::string& session);

// The unit a class and probe stand for, as JacocoData lays them out; "" when there is none.
std::string UnitOfProbe(const std::string& package, const std::vector<std::string>& units,
                        const std::string& class_name, size_t probe);

// Serves one connection as the agent does: sends its header and reads the client's, then answers
// each dump command with the session and the classes (when asked to dump) and command-ok, until
// the peer closes, `stop` is set, or `dump` fails (the app's process ended: the connection
// drops, as the agent's dies with it).
void ServeJacoco(device::android::Socket& socket, const std::atomic<bool>& stop,
                 const std::function<Result<device::jacoco::ExecData>(bool reset)>& dump);

}  // namespace roam::serve
