// The process's one stop signal: SIGINT and SIGTERM set a flag that every campaign polls (it
// finishes its step, writes everything and returns); a second Ctrl-C ends the process at once.
// Install once from main's thread before a campaign starts.
#pragma once

#include <atomic>

namespace roam::cli {

// Installs the handlers (again, if a second Ctrl-C restored the default) and returns the flag.
const std::atomic<bool>& InstallStopSignals();

}  // namespace roam::cli
