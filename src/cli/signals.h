// The process's one stop signal: SIGINT and SIGTERM set a flag that every campaign polls (it
// finishes its step, writes everything and returns); a second Ctrl-C ends the process at once.
// Install once from main's thread before a campaign starts.
#pragma once

#include <atomic>

#include "run/context.h"

namespace roam::cli {

// Installs the handlers (again, if a second Ctrl-C restored the default) and returns the flag.
const std::atomic<bool>& InstallStopSignals();

// What a campaign run from the command line borrows: the stop signal (installed here), progress
// on stderr unless `quiet`, redrawn in place when stderr is a terminal.
run::RunContext CampaignContext(bool quiet);

}  // namespace roam::cli
