#include "cli/dqn_flags.h"

#include "cli/flags.h"

namespace roam::cli {

namespace {
constexpr const char* kGroup = "DQN strategy (DinoDroid)";
}  // namespace

void AddDqnTuningFlags(CLI::App& app, explore::DqnOptions& o) {
  app.add_option("--dqn-epsilon", o.epsilon, "dqn: chance of a random event (epsilon-greedy)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-warmup", o.warmup, "dqn: random steps before the network picks")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-replay", o.replay,
                 "dqn: history samples learned with each new one (experience replay)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-lr", o.learning_rate, "dqn: Adam's learning rate")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-gamma", o.gamma, "dqn: discount of the next screen's best Q")
      ->check(CLI::Range(0.0, 0.999))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-reward-positive", o.reward_positive,
                 "dqn: reward when coverage grew or a unique crash appeared")
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-reward-negative", o.reward_negative, "dqn: reward otherwise")
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-reward", o.reward,
                 "dqn: what counts as growth: coverage (code units), novelty (a new activity or "
                 "abstract state: devices without coverage), auto (coverage where reported)")
      ->check(CLI::IsMember({"auto", "coverage", "novelty"}))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-system-every", o.system_every,
                 "dqn: a random system event (rotation, volume) every so many steps (0: never)")
      ->check(NonNegative())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-broadcasts", o.broadcasts,
                 "dqn: the system events include the broadcasts the app's receivers take "
                 "(true or false)")
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-memory", o.memory, "dqn: samples kept for experience replay")
      ->check(Positive())
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-words", o.words, "dqn: words of an event's text read (TXC's N)")
      ->check(CLI::Range(1, explore::DqnShape::kMaxWords))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-generations", o.generations,
                 "dqn: generations of children pages in FCD (k)")
      ->check(CLI::Range(1, explore::DqnShape::kMaxGenerations))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option("--dqn-histogram", o.histogram, "dqn: length of each FCD histogram")
      ->check(CLI::Range(explore::DqnShape::kMinHistogram, explore::DqnShape::kMaxHistogram))
      ->capture_default_str()
      ->group(kGroup);
  app.add_option_function<std::vector<std::string>>(
         "--dqn-features",
         [&o](const std::vector<std::string>& names) {
           o.features = *explore::FeaturesNamed(names);  // the check below takes only these
         },
         "dqn: the features an event's row carries, of fcr (its execution count), fcd (its "
         "children's histograms) and txc (its words); leave one out to repeat the paper's "
         "ablations")
      ->delimiter(',')
      ->check(CLI::IsMember({"fcr", "fcd", "txc"}))
      ->default_str("fcr,fcd,txc")
      ->group(kGroup);
  app.add_flag("--dqn-record-q", o.record_q,
               "dqn: write dqn-steps.json, every step's events with their Q values and how the "
               "pick was made")
      ->group(kGroup);
  app.add_option("--dqn-vectors", o.vectors,
                 "dqn: word vectors, a fastText .vec file (default: the ones setup.sh built "
                 "under build/wordvec; `hashed`: a hash vector per word)")
      ->group(kGroup);
}

void AddDqnModelFlags(CLI::App& app, explore::DqnOptions& o) {
  app.add_option("--dqn-model", o.model,
                 "dqn: a model file from `roam train` (default: the shipped model); it keeps "
                 "learning and is saved as the run goes")
      ->group(kGroup);
  app.add_flag("--dqn-frozen", o.frozen, "dqn: the model neither learns nor is saved")
      ->group(kGroup);
}

}  // namespace roam::cli
