// run/explore/fleet: one exploration on several devices at once: `roam explore --serial A,B,C`
// (Android devices of one adb server), `--serial all`, or `--devices N` (N independent copies of a
// simulated app). A worker thread per device runs the campaign of run/campaign.h; they share
//   - the strategy's model: fastbot's hyper-events, counts and Q-table (model::SharedModel), the
//     dqn's network, graph and replay memory (explore::DqnShared), so what one device learns
//     steers the others (unless ExploreOptions::share_model is off);
//   - the bug folders: a crash met on two devices is one bug, filed by the first (SharedBugs);
//   - the budget: --events is the run's, divided among the devices; --time applies to each;
//   - the stop signal and one progress line.
// One run folder: trace-<tag>.jsonl, progress-<tag>.jsonl and summary-<tag>.json per device
// (tag: the serial, or sim-<i>), and summary.json for the run: the union of activities, states
// and code units, crashes counted over all devices, and a "devices" section with each one's
// figures and how it ended. A device that stops answering is retried by its driver
// (--offline-retries); when it is gone its worker ends and the others go on.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "report/summary.h"
#include "run/context.h"

namespace roam::run {

struct ExploreOptions;

// The devices of a run: the serials given, or the simulator's copies named sim-1 .. sim-N.
std::vector<std::string> FleetTags(const ExploreOptions& options);

// Runs options' exploration on every device; called by Explore when there is more than one.
Result<report::Summary> ExploreFleet(const ExploreOptions& options, const RunContext& context);

// The run's summary from each device's: figures added, activities and crashes united (a crash's
// count summed over devices, its folder the one filed), per-device figures under
// sections["devices"]. `states` and `units` are the unions the caller computed.
report::Summary MergeDeviceSummaries(const std::vector<report::Summary>& devices,
                                     const std::vector<std::string>& tags, size_t states,
                                     std::optional<size_t> units_covered);

}  // namespace roam::run
