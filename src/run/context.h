// run/context: what every campaign borrows from the process that runs it: the stop signal (set
// from a signal handler: finish the step, write everything, return), where progress goes, and
// the clock. Plain data; the pointees must outlive the campaign.
#pragma once

#include <atomic>
#include <cstdio>

#include "base/clock.h"

namespace roam::run {

struct RunContext {
  const std::atomic<bool>* stop = nullptr;  // null: never stopped from outside
  std::FILE* progress = nullptr;            // null: silent
  bool progress_tty = false;                // a terminal: one line redrawn in place
  const Clock* clock = &SteadyClock::Get();

  bool Stopped() const { return stop && stop->load(); }
};

}  // namespace roam::run
