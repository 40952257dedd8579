// run/explore/fleet: one exploration on several devices at once: `roam explore --serial A,B,C`
// (Android devices of one adb server), `--serial all`, or `--devices N` (N independent copies of a
// simulated app). Explore (run/explore/explore.h) sets the devices up as it does one; a worker
// thread per device runs the campaign of run/explore/campaign.h; they share
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

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/rng.h"
#include "base/status.h"
#include "explore/strategy.h"
#include "report/summary.h"
#include "run/context.h"
#include "run/explore/campaign.h"
#include "run/target.h"

namespace roam::run {

struct ExploreOptions;

// The devices of a run: the serials given, or the simulator's copies named sim-1 .. sim-N.
std::vector<std::string> FleetTags(const ExploreOptions& options);

// One device of a run, as Explore sets it up (the run's only one, or one of several), and what
// it leaves behind.
struct ExploreDevice {
  std::string tag;  // FleetTags
  std::unique_ptr<Target> target;
  std::unique_ptr<explore::Strategy> strategy;
  std::unique_ptr<Rng> rng;  // the campaign's
  std::unique_ptr<Campaign> campaign;
  Status status;
  report::Summary summary;
};

// What the campaign of device `index` of a run is handed, whether the run has one device or
// several: the app, its seed, the run folder, how its bugs replay and are checked, the known bugs,
// the simulator's planted functional bugs. RunFleet adds what several devices share.
CampaignIo DeviceIo(const ExploreOptions& options, const ExploreDevice& device, size_t index);

// Runs options' exploration on `devices` (two or more, set up by Explore, the run folder
// prepared), a worker thread each; the run's summary merges theirs.
Result<report::Summary> RunFleet(const ExploreOptions& options, std::vector<ExploreDevice>& devices,
                                 const RunContext& context);

// The run's summary from each device's: figures added, activities and crashes united (a crash's
// count summed over devices, its folder the one filed), per-device figures under
// sections["devices"]. `states` and `units` are the unions the caller computed.
report::Summary MergeDeviceSummaries(const std::vector<report::Summary>& devices,
                                     const std::vector<std::string>& tags, size_t states,
                                     std::optional<size_t> units_covered);

}  // namespace roam::run
