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
Result<ReplayOutcome> ReplayAndroidBug(const std::filesystem::path& bug_dir,
                                       const report::BugRecord& bug,
                                       const std::vector<report::TraceStep>& trace);

}  // namespace roam::run
