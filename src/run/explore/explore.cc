#include "run/explore/explore.h"

#include <optional>

#include <fmt/format.h>

#include "base/files.h"
#include "run/explore/fleet.h"
#include "run/networks.h"
#include "run/oracle_bug.h"

namespace roam::run {

using nlohmann::json;

json ExploreConfig(const ExploreOptions& options, const explore::Strategy& strategy) {
  json config = {{"strategy", options.strategy},
                 {"throttle_ms", options.campaign.session.executor.throttle_ms},
                 {"model_save_every", options.campaign.flush_every},
                 {"intents", options.campaign.intents}};
  strategy.AddSettings(config);
  return config;
}

std::filesystem::path DefaultWordVectors() { return ROAM_WORD_VECTORS; }

void WireDqn(explore::DqnOptions& dqn) {
  if (!dqn.networks.fresh) dqn.networks = TorchNetworks();
  if (dqn.vectors.empty()) dqn.vectors = DefaultWordVectors();
}

Status WriteStrategyFigures(const std::filesystem::path& out, const explore::Strategy& strategy,
                            std::string_view device_tag, bool first_device) {
  std::vector<explore::FiguresFile> files;
  strategy.AddFigures(files);
  for (const auto& f : files) {
    if (f.whole_run && !first_device) continue;
    const bool tagged = !device_tag.empty() && !f.whole_run;
    ROAM_RETURN_IF_ERROR(WriteJsonFile(
        out / fmt::format("{}{}{}.json", f.name, tagged ? "-" : "", tagged ? device_tag : ""),
        f.figures));
  }
  return Status::Ok();
}

Result<report::Summary> Explore(const ExploreOptions& given, const RunContext& context) {
  ExploreOptions options = given;
  WireDqn(options.strategy_settings.dqn);
  ROAM_RETURN_IF_ERROR(CheckBudget(options.budget));
  // One device is a fleet of one: set up the same way, run in this thread.
  const std::vector<std::string> tags = FleetTags(options);
  const size_t n = tags.size();
  const bool fleet = n > 1;
  if (fleet && !options.share_model &&
      (!options.strategy_settings.fastbot.model_dir.empty() ||
       !options.strategy_settings.dqn.model.empty()))
    return Status::InvalidArgument(
        "separate models (--no-shared-model) cannot all be kept in one --model or --dqn-model");
  if (options.devices > 1 && options.target.OnAndroid())
    return Status::InvalidArgument(
        "--devices N makes copies of a simulated app; name Android devices with --serial A,B,C "
        "(or --serial all)");
  if (options.budget.events > 0 && options.budget.events < static_cast<int64_t>(n))
    return Status::InvalidArgument(
        fmt::format("--events {} cannot be divided among {} devices", options.budget.events, n));
  // Learning state shared by the devices, built once and handed to each strategy.
  const explore::SharedLearning shared =
      fleet && options.share_model ? explore::SharedLearning::Make() : explore::SharedLearning{};

  std::vector<ExploreDevice> devices(n);
  json devices_config = json::array();
  for (size_t i = 0; i < n; ++i) {
    ExploreDevice& d = devices[i];
    d.tag = tags[i];
    auto in_fleet = [&](const Status& s) { return fleet ? s.Wrap("device " + d.tag) : s; };
    TargetOptions target = options.target;
    if (!options.serials.empty()) target.android.serial = tags[i];
    target.android.stop = context.stop;  // Ctrl-C ends a wait for a device that went away
    // The simulator's copies are seeded apart, as independent devices are.
    auto opened = Target::Open(target, options.seed + i, options.campaign.session.crash.top_frames);
    if (!opened.ok()) return in_fleet(opened.status());
    d.target = std::move(*opened);
    auto strategy =
        explore::WithHarness(explore::MakeStrategy(options.strategy, options.strategy_settings,
                                                   d.target->Info(), shared),
                             options.harness);
    if (!strategy.ok()) return strategy.status();
    d.strategy = std::move(*strategy);
    devices_config.push_back({{"device", d.tag}, {"name", d.target->device().Name()}});
  }
  json config = ExploreConfig(options, *devices[0].strategy);
  // Read before the run folder: a bad file leaves nothing behind.
  auto oracles = ReadOracles(options.oracle_files, config);
  if (!oracles.ok()) return oracles.status();
  options.campaign.oracles = std::move(*oracles);
  if (fleet) {
    config["devices"] = devices_config;
    config["shared_model"] = options.share_model;
    config["lockstep"] = options.lockstep;
  }
  ROAM_RETURN_IF_ERROR(OpenRunFolder(options, *devices[0].target, config));
  if (fleet) return RunFleet(options, devices, context);

  ExploreDevice& d = devices[0];
  CampaignIo io = DeviceIo(options, d, 0);
  Rng rng(options.seed);
  BudgetOptions budget = options.budget;
  budget.clock = d.target->clock();
  CampaignOptions campaign_options = options.campaign;
  Campaign campaign(campaign_options, budget, d.target->device(), *d.strategy, rng, std::move(io),
                    context);
  auto summary = campaign.Run();
  ROAM_RETURN_IF_ERROR(WriteStrategyFigures(options.out, *d.strategy, "", true));
  return summary;
}

}  // namespace roam::run
