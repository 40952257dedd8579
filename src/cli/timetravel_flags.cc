#include "cli/timetravel_flags.h"

#include "cli/flags.h"

namespace roam::cli {

void AddTimeTravelFlags(CLI::App& app, explore::TimeTravelOptions& tt) {
  const char* kTt = "Time travel (--strategy timetravel:<base>)";
  app.add_option("--tt-queue", tt.queue_length, "l: window of states entered for loop detection")
      ->check(Positive())
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-alpha", tt.alpha,
                 "alpha: top share of most visited states that count as frequent")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-beta", tt.beta,
                 "beta: share of repeated or frequent states in a full window that means a loop")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-max-no-progress", tt.max_no_progress,
                 "events without leaving a state that mean a dead end")
      ->check(Positive())
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-reward", tt.reward,
                 "r: fitness reward per interesting state found from a state")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-penalty", tt.penalty, "p: fitness penalty per visit that found nothing")
      ->check(CLI::Range(0.0, 0.999))
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-f0-ratio", tt.interesting_f0_ratio,
                 "initial fitness of interesting states over the others")
      ->check(Positive())
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-k", tt.path_length,
                 "k: length of the paths whose mean fitness ranks a snapshot")
      ->check(CLI::Range(0, 16))
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-max-snapshots", tt.max_snapshots,
                 "snapshots kept (the least fit is replaced)")
      ->check(Positive())
      ->capture_default_str()
      ->group(kTt);
  app.add_option("--tt-interesting", tt.interesting,
                 "interesting states: coverage (new code units), gui (new activity or "
                 "hyper-events), auto (coverage where the device reports it)")
      ->check(CLI::IsMember({"auto", "coverage", "gui"}))
      ->capture_default_str()
      ->group(kTt);
}

}  // namespace roam::cli
