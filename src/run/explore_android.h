// run/explore_android: `roam explore --serial` and `roam replay` of its bugs: the same campaign
// as on the simulator, on an AndroidDevice. Internal to run/ (explore.cc dispatches here).
// Single-threaded.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>

#include "report/summary.h"
#include "report/trace.h"
#include "run/explore.h"

namespace roam::run {

Result<report::Summary> ExploreAndroid(const ExploreOptions& options, const std::atomic<bool>* stop,
                                       std::FILE* progress, bool progress_tty);
// The device a bug folder's "replay" object names ("device": "android"): its serial and package
// through the adb server it was found through. `where` names bug.json for errors.
Result<std::unique_ptr<device::Device>> OpenReplayAndroid(const nlohmann::json& replay,
                                                          const std::string& where);

}  // namespace roam::run
