#include "run/explore/train.h"

#include <fmt/format.h>

#include "base/files.h"
#include "run/explore/explore.h"

namespace roam::run {

Result<std::vector<TrainedApp>> Train(const TrainOptions& options, const RunContext& context,
                                      std::FILE* line) {
  if (options.apps.empty()) return Status::InvalidArgument("no apps to train on");
  if (options.model.empty()) return Status::InvalidArgument("no model file to train (--model)");
  if (options.events < 1 || options.passes < 1)
    return Status::InvalidArgument("--events and --passes must be at least 1");
  std::vector<TrainedApp> trained;
  const size_t total = options.apps.size() * static_cast<size_t>(options.passes);
  for (int pass = 0; pass < options.passes; ++pass) {
    for (size_t i = 0; i < options.apps.size(); ++i) {
      const auto& app = options.apps[i];
      const size_t n = static_cast<size_t>(pass) * options.apps.size() + i;
      ExploreOptions o;
      o.target.app = app;
      o.seed = options.seed + n;
      o.out = options.out / fmt::format("{:03}-{}", n + 1, app.stem().string());
      o.force = true;
      o.budget.events = options.events;
      o.html_report = false;
      o.strategy = "dqn";
      o.strategy_settings.dqn = options.dqn;
      o.strategy_settings.dqn.model = options.model;
      o.strategy_settings.dqn.create = true;  // the first app starts a fresh network
      o.strategy_settings.dqn.frozen = false;
      o.campaign.flush_every = options.save_every;
      o.campaign.session.bug_screenshots = 0;
      o.campaign.session.state_screens = 0;
      auto summary = Explore(o, context);
      if (!summary.ok()) return summary.status().Wrap(fmt::format("training on {}", app.string()));
      TrainedApp t{.app = app.string(),
                   .events = summary->events,
                   .activities = summary->activities_covered.size(),
                   .activities_total = summary->activities_total,
                   .wall_seconds = summary->wall_seconds};
      if (auto stats = ReadJsonFile(o.out / "dqn.json"); stats.ok())
        t.loss = stats->value("loss", 0.0);
      if (line)
        fmt::print(line,
                   "roam train: {}/{} {}: {} events, {} activities{}, loss {:.2f}, {:.1f}s; "
                   "model saved to {}\n",
                   n + 1, total, app.string(), t.events, t.activities,
                   t.activities_total ? fmt::format(" of {}", *t.activities_total) : "", t.loss,
                   t.wall_seconds, options.model.string());
      trained.push_back(std::move(t));
      if (context.Stopped() || summary->stop_reason == "interrupted") return trained;
    }
  }
  return trained;
}

}  // namespace roam::run
