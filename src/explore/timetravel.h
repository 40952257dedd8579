// Time-travel testing (TimeMachine, Dong et al., ICSE 2020): a controller that wraps any base
// strategy, keeps a graph of the abstract states seen, asks the run loop to snapshot the
// "interesting" ones, and when the base strategy is stuck (a dead end or a loop) asks it to
// restore the fittest snapshot. The decisions live here; the run loop (run/explore/campaign)
// carries the requests out on the device (strategy.h, Request). Not thread-safe: one per campaign.
//
// How the paper's parameters map onto this code (defaults those of the original tool):
//   isStuck, dead ends: `max_no_progress` (200). A step that stays in the state it started from
//     counts one event of no progress; leaving it resets the count. Stuck once the count
//     reaches max_no_progress, i.e. after 200 events without leaving a state.
//   isStuck, loops: a FIFO window of the last `queue_length` (l = 10) states entered (a state
//     is pushed when the app moves to a different state). When the window is full, each
//     distinct state in it counts as "easy" when it is among the top ceil(alpha * |states|)
//     most visited states of the graph (alpha = 0.2; ties at the threshold included) or occurs
//     more than once in the window (counted once when both hold): nRepeated + nFrequent.
//     Stuck when easy / distinct >= beta (0.8): at least 80% of the states of the last 10
//     transitions are repeats or among the 20% most frequent states. Counting distinct states
//     (not window entries) is what the original tool does (StateGraph.
//     compute_frequent_node_portion); counting entries made a restore fire about every 14
//     events on the benchmark apps. The window and the counter are cleared after each restore.
//   isInteresting: a state's first visit that covered new code units (the coverage rule), or,
//     where the device reports no coverage, a first visit that reached a new activity or offers
//     hyper-events (gui/abstraction.h) never offered before (the gui rule). The start state
//     is always interesting (Algorithm 1, line 2).
//   fitness: f(s) = f0 * (1+r)^w(s) * (1-p)^max(0, v(s)-w(s)), r = p = 0.1, where v(s) counts
//     the arrivals in s (from another state, or by a restore; a step that stays in s is not a
//     visit, as the original tool's hit count) and w(s) the
//     interesting states first reached from s; f0 is `interesting_f0_ratio` (6) for
//     interesting states and 1 for the others. The exponent is kept at or above 0 so a state
//     that spawned more interesting states than visits is not rewarded twice.
//   selectFittestState: for each snapshot, the mean fitness of the nodes on every walk of k = 3
//     edges from it in the graph (self-loops left out; a walk that reaches a state without
//     successors ends there). Walks may revisit a node. Sums over all walks are computed by
//     dynamic programming in O(k * edges), so dense graphs cannot explode. The state the app
//     is in now is not chosen while another snapshot is available.
//   snapshots: at most `max_snapshots`; a new one then replaces the least fit f(s).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "explore/strategy.h"

namespace roam::explore {

struct TimeTravelOptions {
  int queue_length = 10;            // l: the loop detector's window of states entered
  double alpha = 0.2;               // top share of most visited states counted as frequent
  double beta = 0.8;                // share of easy states in a full window that means a loop
  int max_no_progress = 200;        // events without leaving a state that mean a dead end
  double reward = 0.1;              // r
  double penalty = 0.1;             // p
  double interesting_f0_ratio = 6;  // f0 of interesting states / f0 of the others (1)
  int path_length = 3;              // k: walk length of selectFittestState
  size_t max_snapshots = 100;       // cap on stored snapshots (least fit evicted)
  // "coverage", "gui", or "auto" (coverage where the device reports it; MakeStrategy resolves
  // it from the target with ResolveInterestRule).
  std::string interesting = "auto";
  // How a restore is done, for config.json: "snapshot" on a device that takes them, else
  // "replay" (MakeStrategy sets it from the target).
  std::string restore = "replay";
};

// Checks ranges; errors name the setting.
Status CheckTimeTravelOptions(const TimeTravelOptions& options);
// "auto" becomes "coverage" or "gui"; anything else is returned as is.
std::string ResolveInterestRule(const std::string& rule, bool device_has_coverage);

// The state transition graph: nodes are ScreenKey states, edges the first action seen between
// two different states.
class StateGraph {
 public:
  struct Edge {
    int to = 0;
    gui::Action action;
  };
  struct Node {
    uint64_t state = 0;
    uint64_t visits = 0;                // v(s)
    uint64_t interesting_children = 0;  // w(s)
    bool interesting = false;
    std::vector<Edge> out;
  };

  bool Has(uint64_t state) const { return index_.count(state) > 0; }
  // The node of `state`, added (with no visits) if new.
  Node& At(uint64_t state);
  const Node* Find(uint64_t state) const;
  // Adds an edge from -> to (both added if new) unless from == to or it exists.
  void AddEdge(uint64_t from, uint64_t to, const gui::Action& action);
  size_t size() const { return nodes_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }
  int IndexOf(uint64_t state) const;

 private:
  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, int> index_;
};

struct FitnessParams {
  double reward = 0.1;
  double penalty = 0.1;
  double interesting_f0_ratio = 6;
};
double Fitness(const StateGraph::Node& node, const FitnessParams& params);

// The mean node fitness over the walks of `k` edges from each node, indexed as graph.nodes().
std::vector<double> NeighbourhoodFitness(const StateGraph& graph, int k,
                                         const FitnessParams& params);
// The candidate with the highest neighbourhood fitness (the first on ties); nullopt when
// `candidates` is empty. Candidates not in the graph score 0.
std::optional<uint64_t> SelectFittestState(const std::vector<uint64_t>& candidates,
                                           const StateGraph& graph, int k,
                                           const FitnessParams& params);

// Algorithm 2: the dead-end counter and the loop window.
class StuckDetector {
 public:
  StuckDetector(int queue_length, double alpha, double beta, int max_no_progress);
  // The app is now in `state` after one event (the graph already counts this visit).
  bool Update(uint64_t state, const StateGraph& graph);
  void Reset();
  int no_progress() const { return no_progress_; }
  const std::deque<uint64_t>& window() const { return window_; }
  // The loop test alone, on a given full window (exposed for tests).
  bool IsLoop(const std::deque<uint64_t>& window, const StateGraph& graph) const;

 private:
  int queue_length_;
  double alpha_, beta_;
  int max_no_progress_;
  std::deque<uint64_t> window_;
  int no_progress_ = 0;
  mutable std::vector<uint64_t> scratch_;
};

// Forwards Next and Learn (and requests it does not make itself) to the base. A virtual added
// to Strategy must be forwarded here too.
class TimeTravelStrategy final : public Strategy {
 public:
  TimeTravelStrategy(std::unique_ptr<Strategy> base, TimeTravelOptions options);
  std::string_view Name() const override { return name_; }
  gui::Action Next(const StepView& view, Rng& rng) override;
  void Learn(const Transition& transition) override;
  std::optional<Request> TakeRequest(const StepView& view) override;
  void Done(const Request& request, bool ok) override;
  Status Flush() override { return base_->Flush(); }
  void AddSettings(nlohmann::json& config) const override;
  void AddFigures(std::vector<FiguresFile>& files) const override { base_->AddFigures(files); }

  const StateGraph& graph() const { return graph_; }
  // Snapshot name -> state, as confirmed by Done.
  const std::unordered_map<std::string, uint64_t>& snapshots() const { return snapshots_; }
  bool gui_rule() const { return gui_rule_; }

 private:
  struct Arrival {
    uint64_t from = 0, to = 0;
    bool first_visit = false;
    bool new_units = false;
    bool new_activity = false;
  };
  bool IsInteresting(const Arrival& arrival, const StepView& view);
  Request SnapshotOf(uint64_t state);
  std::optional<Request> RestoreRequest(uint64_t current);

  std::unique_ptr<Strategy> base_;
  TimeTravelOptions options_;
  FitnessParams fitness_;
  std::string name_;
  bool gui_rule_ = false;
  StateGraph graph_;
  StuckDetector stuck_;
  bool started_ = false;
  bool stuck_now_ = false;
  std::optional<Arrival> arrival_;
  std::unordered_set<uint64_t> hyper_events_;
  std::unordered_map<std::string, uint64_t> snapshots_;
  int next_name_ = 1;
  bool base_request_ = false;  // the request handed out last came from the base strategy
};

}  // namespace roam::explore
