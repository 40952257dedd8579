// run/explore/explore: the job behind `roam explore`, on the simulator or an Android device: open
// the target, make the strategy (told about the target once), prepare the run folder, run the
// campaign. The cli layer only parses flags into these options. Single-threaded.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "explore/harness.h"
#include "explore/registry.h"
#include "report/summary.h"
#include "run/context.h"
#include "run/explore/campaign.h"
#include "run/run_folder.h"

namespace roam::run {

struct ExploreOptions : RunOptions {
  std::string strategy = "random";
  explore::StrategySettings strategy_settings;
  explore::HarnessOptions harness;  // text input, filters, scripts (off by default)
  CampaignOptions campaign;
  // Several devices (run/explore/fleet.h): Android serials of one adb server (more than one), or
  // `devices` copies of the simulated app; their strategies share one model unless
  // share_model is off (each device then learns alone: the benchmark's baseline).
  std::vector<std::string> serials;
  int devices = 1;
  bool share_model = true;
  bool lockstep = false;  // the devices take turns, a step each: reproducible from the seed
};

// The word vectors setup.sh builds (scripts/word_vectors.sh), for --strategy dqn.
std::filesystem::path DefaultWordVectors();
// Fills in what the dqn strategy needs from this layer: the torch network, the default vectors.
void WireDqn(explore::DqnOptions& dqn);

// config.json's keys of an exploration (the run folder adds the shared ones): the run's, and
// the strategy's own sections (Strategy::AddSettings).
nlohmann::json ExploreConfig(const ExploreOptions& options, const explore::Strategy& strategy);

// The strategy's figures files beside the trace (Strategy::AddFigures), for the device tagged
// `device_tag` (empty: the run's only one); a file of the whole run comes from the first device.
Status WriteStrategyFigures(const std::filesystem::path& out, const explore::Strategy& strategy,
                            std::string_view device_tag, bool first_device);

// One device, or several (run/explore/fleet.h) when options name more than one.
Result<report::Summary> Explore(const ExploreOptions& options, const RunContext& context = {});

}  // namespace roam::run
