#include "run/explore.h"

#include "base/files.h"

namespace roam::run {

using nlohmann::json;

namespace {

json FastbotConfig(const explore::FastbotOptions& f, int64_t flush_every) {
  return {{"alpha", f.alpha},
          {"k", f.k},
          {"n_step", f.n_step},
          {"gamma", f.gamma},
          {"learning_rate", f.learning_rate},
          {"beta", f.beta},
          {"stuck_steps", f.stuck_steps},
          {"dynamic_texts", f.dynamic_texts},
          {"globals", f.globals},
          {"model",
           f.model_dir.empty() ? json(nullptr) : json(explore::ModelFile(f.model_dir).string())},
          {"model_save_every", flush_every},
          {"model_reset", f.model_reset}};
}

json TimeTravelConfig(const explore::TimeTravelOptions& t, const explore::TargetInfo& target) {
  return {{"queue_length", t.queue_length},
          {"alpha", t.alpha},
          {"beta", t.beta},
          {"max_no_progress", t.max_no_progress},
          {"reward", t.reward},
          {"penalty", t.penalty},
          {"f0_ratio", t.interesting_f0_ratio},
          {"k", t.path_length},
          {"max_snapshots", t.max_snapshots},
          {"interesting", explore::ResolveInterestRule(t.interesting, target.has_coverage)},
          {"restore", target.has_snapshots ? "snapshot" : "replay"}};
}

// config.json's keys of an exploration (the run folder adds the shared ones).
json ExploreConfig(const ExploreOptions& options, const explore::TargetInfo& target) {
  const auto& r = options.strategy_settings.random;
  json config = {{"strategy", options.strategy},
                 {"throttle_ms", options.campaign.throttle_ms},
                 {"random",
                  {{"pct_click", r.pct_click},
                   {"pct_long_click", r.pct_long_click},
                   {"pct_input", r.pct_input},
                   {"pct_scroll", r.pct_scroll},
                   {"pct_swipe", r.pct_swipe},
                   {"pct_back", r.pct_back},
                   {"pct_menu", r.pct_menu},
                   {"pct_rotate", r.pct_rotate},
                   {"pct_restart", r.pct_restart},
                   {"pct_syskeys", r.pct_syskeys}}}};
  if (explore::RunsFastbot(options.strategy))
    config["fastbot"] =
        FastbotConfig(options.strategy_settings.fastbot, options.campaign.flush_every);
  if (options.strategy.starts_with(explore::kTimeTravelPrefix))
    config["time_travel"] = TimeTravelConfig(options.strategy_settings.timetravel, target);
  if (options.harness.Active()) config["harness"] = options.harness.ToJson();
  return config;
}

}  // namespace

Result<report::Summary> Explore(const ExploreOptions& options, const RunContext& context) {
  ROAM_RETURN_IF_ERROR(CheckBudget(options.budget));
  auto target = Target::Open(options.target, options.seed, options.campaign.crash.top_frames);
  if (!target.ok()) return target.status();
  const explore::TargetInfo info = (*target)->Info();
  auto strategy = explore::WithHarness(
      explore::MakeStrategy(options.strategy, options.strategy_settings, info), options.harness);
  if (!strategy.ok()) return strategy.status();
  ROAM_RETURN_IF_ERROR(OpenRunFolder(options, **target, ExploreConfig(options, info)));

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
  if (const auto* harness = dynamic_cast<const explore::Harness*>(strategy->get()))
    ROAM_RETURN_IF_ERROR(WriteJsonFile(options.out / "harness.json", harness->StatsJson()));
  return summary;
}

}  // namespace roam::run
