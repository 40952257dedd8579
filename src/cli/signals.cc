#include "cli/signals.h"

#include <unistd.h>

#include <csignal>

namespace roam::cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnStopSignal(int) {
  g_stop.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

}  // namespace

const std::atomic<bool>& InstallStopSignals() {
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  return g_stop;
}

run::RunContext CampaignContext(bool quiet) {
  return {.stop = &InstallStopSignals(),
          .progress = quiet ? nullptr : stderr,
          .progress_tty = ::isatty(STDERR_FILENO) != 0};
}

}  // namespace roam::cli
