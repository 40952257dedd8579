// run/replay: re-executes a trace on a device and says whether a given crash or ANR signature
// shows up again. Used by `roam replay` and by the campaign to check that a bug's trace
// reproduces before it is written. Single-threaded.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "report/trace.h"

namespace roam::run {

struct ReplayResult {
  bool reproduced = false;
  int64_t steps_run = 0;                // trace steps executed before stopping
  std::vector<std::string> signatures;  // every failure signature seen on the way
};

// Runs `steps` in order (clear / launch / stop / snapshot / restore / act) and stops at the first event whose signature is
// `want_signature` (empty: run to the end and just collect signatures).
Result<ReplayResult> ReplayTrace(device::Device& device, const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames);

}  // namespace roam::run
