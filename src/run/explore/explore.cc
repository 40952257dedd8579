#include "run/explore/explore.h"

#include <fmt/format.h>

#include "base/files.h"
#include "run/explore/fleet.h"
#include "run/networks.h"

namespace roam::run {

using nlohmann::json;

json ExploreConfig(const ExploreOptions& options, const explore::Strategy& strategy) {
  json config = {{"strategy", options.strategy},
                 {"throttle_ms", options.campaign.throttle_ms},
                 {"model_save_every", options.campaign.flush_every}};
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
  if (FleetTags(given).size() > 1) return ExploreFleet(given, context);
  ExploreOptions options = given;
  WireDqn(options.strategy_settings.dqn);
  ROAM_RETURN_IF_ERROR(CheckBudget(options.budget));
  auto target = Target::Open(options.target, options.seed, options.campaign.crash.top_frames);
  if (!target.ok()) return target.status();
  const explore::TargetInfo info = (*target)->Info();
  auto strategy = explore::WithHarness(
      explore::MakeStrategy(options.strategy, options.strategy_settings, info), options.harness);
  if (!strategy.ok()) return strategy.status();
  ROAM_RETURN_IF_ERROR(OpenRunFolder(options, **target, ExploreConfig(options, **strategy)));

  CampaignIo io{.app = (*target)->app_name(),
                .seed = options.seed,
                .out_dir = options.out,
                .replay = (*target)->replay(),
                .fresh_device = (*target)->fresh_device(),
                .known = options.known,
                .html_report = options.html_report};
  Rng rng(options.seed);
  Campaign campaign(options.campaign, options.budget, (*target)->device(), **strategy, rng,
                    std::move(io), context);
  auto summary = campaign.Run();
  ROAM_RETURN_IF_ERROR(WriteStrategyFigures(options.out, **strategy, "", true));
  return summary;
}

}  // namespace roam::run
