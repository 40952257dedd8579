// `roam train`: DinoDroid's training phase over a set of simulated apps.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/dqn_flags.h"
#include "cli/flags.h"
#include "cli/signals.h"
#include "run/bench/bench.h"
#include "run/explore/train.h"

namespace roam::cli {

int TrainCommand(int argc, char** argv) {
  run::TrainOptions o;
  std::vector<std::filesystem::path> inputs;
  bool quiet = false;
  CLI::App app(
      "Train the dqn strategy's network (DinoDroid) across simulated apps: one run per app, the "
      "weights carried from app to app, the model saved as it goes. Test it on apps it never saw "
      "with `roam explore --strategy dqn --dqn-model FILE`.",
      "train");
  app.add_option("--apps", inputs, "folders of app specs (*.json) or spec files")->required();
  app.add_option("--model", o.model,
                 "the model file: continued when it exists, else a fresh network")
      ->required();
  app.add_option("--events", o.events, "events per app")->check(Positive())->capture_default_str();
  app.add_option("--passes", o.passes, "times over all the apps")
      ->check(Positive())
      ->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the first run (app i of pass p: seed + p*apps + i)")
      ->capture_default_str();
  app.add_option("--init-seed", o.dqn.init_seed, "seed of a fresh network's weights")
      ->capture_default_str();
  app.add_option("--out", o.out, "where the training runs' folders go")->capture_default_str();
  app.add_option("--save-every", o.save_every, "events between model saves within a run")
      ->check(NonNegative())
      ->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "no progress output");
  AddDqnTuningFlags(app, o.dqn);
  if (int rc = ParseFlags(app, "roam train", argc, argv); rc >= 0) return rc;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(in, ec)) {
      auto apps = run::AppsIn(in);
      if (!apps.ok()) return Fail("roam train", apps.status());
      o.apps.insert(o.apps.end(), apps->begin(), apps->end());
    } else if (std::filesystem::exists(in, ec)) {
      o.apps.push_back(in);
    } else {
      fmt::print(stderr, "roam train: --apps {}: no such file or folder\n", in.string());
      return kExitUsage;
    }
  }
  o.dqn.note = [](const std::string& note) {
    fmt::print(stderr, "roam train: {}\n", InFlagTerms(note));
  };
  if (!quiet)
    fmt::print(stderr, "roam train: {} apps x {} events{}, model {}\n", o.apps.size(), o.events,
               o.passes > 1 ? fmt::format(" x {} passes", o.passes) : "", o.model.string());
  const run::RunContext context = CampaignContext(quiet);
  auto trained = run::Train(o, context, quiet ? nullptr : stderr);
  if (!trained.ok()) return Fail("roam train", trained.status());
  int64_t events = 0;
  for (const auto& t : *trained) events += t.events;
  fmt::print("trained on {} runs, {} events; model: {}\n", trained->size(), events,
             o.model.string());
  return context.Stopped() ? kExitInterrupted : kExitOk;
}

}  // namespace roam::cli
