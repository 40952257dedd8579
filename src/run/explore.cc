#include "run/explore.h"

#include <fmt/format.h>

#include "base/files.h"
#include "explore/timetravel.h"
#include "run/fleet.h"
#include "run/networks.h"

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
          {"route", f.route},
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

json DqnConfig(const explore::DqnOptions& d, int64_t flush_every, bool has_coverage) {
  return {{"epsilon", d.epsilon},
          {"warmup", d.warmup},
          {"replay", d.replay},
          {"learning_rate", d.learning_rate},
          {"gamma", d.gamma},
          {"reward_positive", d.reward_positive},
          {"reward_negative", d.reward_negative},
          {"reward_rule", explore::ResolveRewardRule(d.reward, has_coverage)},
          {"system_every", d.system_every},
          {"memory", d.memory},
          {"words", d.words},
          {"generations", d.generations},
          {"histogram", d.histogram},
          {"model", d.model.empty() ? json("shipped") : json(d.model.string())},
          {"model_save_every", flush_every},
          {"frozen", d.frozen},
          {"vectors", d.vectors.string()}};
}

}  // namespace

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
  if (explore::RunsDqn(options.strategy))
    config["dqn"] =
        DqnConfig(options.strategy_settings.dqn, options.campaign.flush_every, target.has_coverage);
  if (options.strategy.starts_with(explore::kTimeTravelPrefix))
    config["time_travel"] = TimeTravelConfig(options.strategy_settings.timetravel, target);
  if (options.harness.Active()) config["harness"] = options.harness.ToJson();
  return config;
}

namespace {

// The strategy that chooses, under the harness and time travel wrapped around it.
const explore::Strategy* Innermost(const explore::Strategy* s) {
  for (;;) {
    if (const auto* h = dynamic_cast<const explore::Harness*>(s))
      s = &h->base();
    else if (const auto* t = dynamic_cast<const explore::TimeTravelStrategy*>(s))
      s = &t->base();
    else
      return s;
  }
}

}  // namespace

std::filesystem::path DefaultWordVectors() { return ROAM_WORD_VECTORS; }

void WireDqn(explore::DqnOptions& dqn) {
  if (!dqn.networks.fresh) dqn.networks = TorchNetworks();
  if (dqn.vectors.empty()) dqn.vectors = DefaultWordVectors();
}

Status WriteHarnessStats(const std::filesystem::path& out, const explore::Strategy& strategy,
                         std::string_view device_tag) {
  const auto* harness = dynamic_cast<const explore::Harness*>(&strategy);
  if (!harness) return Status::Ok();
  const std::string suffix = device_tag.empty() ? "" : fmt::format("-{}", device_tag);
  return WriteJsonFile(out / fmt::format("harness{}.json", suffix), harness->StatsJson());
}

Status WriteDqnStats(const std::filesystem::path& out, const explore::Strategy& strategy) {
  const auto* dqn = dynamic_cast<const explore::DqnStrategy*>(Innermost(&strategy));
  if (!dqn) return Status::Ok();
  const auto& st = dqn->stats();
  return WriteJsonFile(out / "dqn.json", {{"decisions", st.decisions},
                                          {"updates", st.updates},
                                          {"loss", st.loss},
                                          {"positive_rewards", st.positive},
                                          {"vertices", st.vertices},
                                          {"pages", st.pages},
                                          {"reward_rule", dqn->reward_rule()}});
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
  ROAM_RETURN_IF_ERROR(WriteHarnessStats(options.out, **strategy, ""));
  ROAM_RETURN_IF_ERROR(WriteDqnStats(options.out, **strategy));
  return summary;
}

}  // namespace roam::run
