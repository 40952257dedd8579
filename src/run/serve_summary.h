// run/serve_summary: the summary.json of `roam sim serve`, in the same shape as a campaign's,
// gathered from the served devices' counters (events received, coverage, crashes and ANRs
// de-duplicated by signature). Call it from one thread while the server runs or after it stops.
#pragma once

#include <cstdint>
#include <string>

#include "report/summary.h"
#include "serve/sim_adb_server.h"

namespace roam::run {

report::Summary SummariseServedDevices(serve::SimAdbServer& server, const std::string& app_path,
                                       const std::string& package, uint64_t seed,
                                       double wall_seconds, const std::string& stop_reason);

}  // namespace roam::run
