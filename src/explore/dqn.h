// DinoDroid (Zhao et al., TOSEM 2024): a deep Q-network scores every event of a screen from its
// features (explore/dqn_graph.h) and the strategy picks by epsilon-greedy; after each step the
// network is taught Q(s, a) = r + gamma * max_a' Q(s', a') on the step's sample and
// `replay` samples drawn from the memory of earlier ones (Algorithm 1). The network itself
// lives behind QNetwork, so this file and everything that includes it stay free of libtorch:
// net/qnet.h makes the real one (the only translation unit that includes torch).
//
// A model file carries the network's weights and the shape of its input (explore/dqn_model.h);
// one model serves every app (the features say nothing app-specific), so `roam train` teaches
// one network across many apps and `--strategy dqn` tests an app it has never seen. The graph
// and the memory are per run, the weights are kept. Seeded only through the Rng it is given
// and the seed of a fresh network. Not thread-safe.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "explore/dqn_graph.h"
#include "explore/dqn_model.h"
#include "explore/field_typer.h"
#include "explore/intents.h"
#include "explore/strategy.h"
#include "explore/word_vectors.h"

namespace roam::explore {

// The network: Q values for rows of features, and a learning step. Implementations own their
// optimiser state.
class QNetwork {
 public:
  virtual ~QNetwork() = default;
  // q[i] = Q of rows[i * width, (i + 1) * width).
  virtual void Predict(const float* rows, size_t n, float* q) = 0;
  // One optimiser step on the mean squared error between Q(rows) and targets; the loss before.
  virtual double Fit(const float* rows, const float* targets, size_t n) = 0;
  // The weights, as load() reads them back.
  virtual std::string Weights() const = 0;
};

// How a network is made: a fresh one (weights from `seed`) or one from saved weights. Set by
// the layer that links the network library (run/ sets run::TorchNetworks(), which loads
// net/qnet.cc).
struct QNetworkMaker {
  std::function<Result<std::unique_ptr<QNetwork>>(const DqnShape&, double learning_rate,
                                                  uint64_t seed)>
      fresh;
  std::function<Result<std::unique_ptr<QNetwork>>(std::string_view weights, const DqnShape&,
                                                  double learning_rate, const std::string& source)>
      load;
};

struct DqnOptions {
  double epsilon = 0.2;         // chance of a random event once warmed up (the paper: 0.2)
  int warmup = 20;              // random steps before the network picks (the paper: 20)
  int replay = 4;               // history samples learned with each new one (the paper: 4)
  double learning_rate = 1e-4;  // Adam (the paper: 0.0001)
  double gamma = 0.9;           // discount (the paper's text gives none; Q-testing's 0.9)
  double reward_positive = 5;   // coverage grew or a unique crash (the paper: 5)
  double reward_negative = -2;  // nothing new (the paper: -2)
  int system_every = 10;        // a random system event every so many steps (the paper: 10)
  // The system events include the broadcasts the app takes (StepView::broadcasts), beside a
  // rotation and the volume keys (the paper: Stoat's library, the manifest's receivers).
  bool broadcasts = true;
  size_t memory = 10000;  // samples kept for replay (the oldest replaced)
  int words = 6;          // N of TXC (the paper: 6)
  int generations = 3;    // k of FCD (the paper: 3)
  int histogram = 10;     // L of FCD (the paper: 10)
  DqnFeatures features;   // FCR, FCD, TXC on (switched off: the paper's ablations)
  // dqn-steps.json: each step's events with their Q values and how the pick was made.
  bool record_q = false;
  // "coverage": +reward when code coverage grew; "novelty": when a new activity or a new
  // abstract state was reached (a device without coverage); "auto": coverage where the target
  // reports it. A unique crash counts in every rule.
  std::string reward = "auto";
  std::filesystem::path model;  // empty: the shipped model (learns, never saved)
  bool frozen = false;          // the weights neither learn nor are saved
  bool save = true;             // Flush writes the model (false: learns in memory only)
  bool create = false;          // a missing model file starts a fresh network (roam train)
  uint64_t init_seed = 1;       // the weights of a fresh network
  // The word-vector file (.vec); empty or "hashed": hashed vectors only (every word its own).
  std::filesystem::path vectors;
  std::string app;                   // the app under test, added to the model's list when saved
  std::vector<std::string> strings;  // texts to type; empty: DefaultInputStrings
  QNetworkMaker networks;
  std::function<void(const std::string&)> note;  // notes for the user
  // Several devices of one run learning together (run/explore/fleet.h): the strategies made with
  // the same holder share its network, graph and replay memory, the first one made loading them.
  std::shared_ptr<struct DqnShared> shared;
};

// Checks the settings; the message names the setting (dqn.epsilon, ...).
Status CheckDqnOptions(const DqnOptions& options);
// "coverage" or "novelty": the rule `reward` names on a target with or without coverage.
std::string ResolveRewardRule(const std::string& reward, bool has_coverage);
bool RunsDqn(std::string_view strategy);

// What a run learned, for summary.json and `roam train`'s progress.
struct DqnStats {
  int64_t decisions = 0;  // steps the network picked (after warm-up, not epsilon)
  int64_t updates = 0;    // learning steps
  double loss = 0;        // mean loss of the last 100 updates
  int64_t positive = 0;   // steps rewarded positively
  size_t vertices = 0, pages = 0;
};

// What the dqn strategies of several devices share, each step under `mu` (the network's
// forward and backward pass is the step's cost, so waiters sleep). One strategy alone holds its
// own.
struct DqnShared {
  std::mutex mu;
  bool loaded = false;
  WordVectors vectors;
  DqnModelMeta meta;
  std::unique_ptr<QNetwork> network;
  EventGraph graph;
  // Replay memory: rows and targets, a ring of DqnOptions::memory.
  std::vector<float> memory_rows, memory_targets;
  size_t memory_next = 0;
  std::vector<double> recent_loss;
  DqnStats stats;
};

class DqnStrategy final : public Strategy {
 public:
  // Loads the word vectors and the model (options.model, or the shipped one); `has_coverage`
  // resolves the reward rule.
  static Result<std::unique_ptr<DqnStrategy>> Make(DqnOptions options, bool has_coverage);
  DqnStrategy(DqnOptions options, std::string reward_rule, std::shared_ptr<DqnShared> shared);

  std::string_view Name() const override { return "dqn"; }
  gui::Action Next(const StepView& view, Rng& rng) override;
  void Learn(const Transition& transition) override;
  Status Flush() override;

  void AddSettings(nlohmann::json& config) const override;
  // dqn.json: the stats, of the run when its devices share the network; with record_q,
  // dqn-steps.json: this device's steps, each {"step", "activity", "how" (warmup, epsilon,
  // network or system), "chosen" (an index into "events", -1 for a system event), "events":
  // [{"event", "q"}]}.
  void AddFigures(std::vector<FiguresFile>& files) const override;

  // Not to be read while another device's strategy may be stepping on shared state.
  const DqnStats& stats() const { return s_.stats; }
  const EventGraph& graph() const { return s_.graph; }

 private:
  struct Event {
    EventGraph::Vertex vertex;
    std::vector<int> actions;  // indexes into view.actions, or -1 - index into globals_
  };
  void MapPage(const StepView& view);
  void LearnStep(float best_next, Rng& rng);
  // The event to execute, and how it was picked ("warmup", "epsilon", "network").
  std::pair<size_t, std::string_view> Choose(Rng& rng);
  // With record_q: the step's events and their Q values into steps_record_.
  void RecordStep(const StepView& view, std::string_view how, int chosen);

  DqnOptions options_;
  std::string reward_rule_;
  std::shared_ptr<DqnShared> shared_;  // never null
  DqnShared& s_;                       // *shared_, taken under s_.mu
  DqnShape shape_;
  FieldTyper typer_;                  // what input_text actions type
  std::vector<gui::Action> globals_;  // back, menu, swipes, rotate, restart: on every page
  IntentChooser intents_;             // the system events' intent
  std::vector<Event> page_;
  std::vector<float> rows_, q_;  // the page's rows and Q values
  int64_t steps_ = 0;            // Next calls
  // The executed event's row, waiting for its reward and the next page.
  std::vector<float> pending_row_;
  std::optional<EventGraph::Vertex> pending_vertex_;
  std::optional<double> pending_reward_;
  std::vector<float> batch_rows_, batch_targets_;
  std::vector<size_t> picks_;
  nlohmann::json steps_record_ = nlohmann::json::array();  // record_q's steps
};

}  // namespace roam::explore
