#include "explore/timetravel.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gui/abstraction.h"

namespace roam::explore {

Status CheckTimeTravelOptions(const TimeTravelOptions& o) {
  auto bad = [](const char* what) { return Status::InvalidArgument(std::string(what)); };
  if (o.queue_length < 1) return bad("time_travel.queue_length (l) must be at least 1");
  if (!(o.alpha > 0 && o.alpha <= 1)) return bad("time_travel.alpha must be in (0, 1]");
  if (!(o.beta > 0 && o.beta <= 1)) return bad("time_travel.beta must be in (0, 1]");
  if (o.max_no_progress < 1) return bad("time_travel.max_no_progress must be at least 1");
  if (!(o.reward >= 0)) return bad("time_travel.reward (r) must be at least 0");
  if (!(o.penalty >= 0 && o.penalty < 1)) return bad("time_travel.penalty (p) must be in [0, 1)");
  if (!(o.interesting_f0_ratio > 0)) return bad("time_travel.f0_ratio must be above 0");
  if (o.path_length < 0 || o.path_length > 16) return bad("time_travel.k must be in [0, 16]");
  if (o.max_snapshots < 1) return bad("time_travel.max_snapshots must be at least 1");
  if (o.interesting != "auto" && o.interesting != "coverage" && o.interesting != "gui")
    return bad(fmt::format("time_travel.interesting must be auto, coverage or gui, not \"{}\"",
                           o.interesting)
                   .c_str());
  return Status::Ok();
}

std::string ResolveInterestRule(const std::string& rule, bool device_has_coverage) {
  if (rule != "auto") return rule;
  return device_has_coverage ? "coverage" : "gui";
}

// ---- StateGraph ----

StateGraph::Node& StateGraph::At(uint64_t state) {
  auto [it, added] = index_.emplace(state, static_cast<int>(nodes_.size()));
  if (added) nodes_.push_back(Node{.state = state});
  return nodes_[it->second];
}

const StateGraph::Node* StateGraph::Find(uint64_t state) const {
  auto it = index_.find(state);
  return it == index_.end() ? nullptr : &nodes_[it->second];
}

int StateGraph::IndexOf(uint64_t state) const {
  auto it = index_.find(state);
  return it == index_.end() ? -1 : it->second;
}

void StateGraph::AddEdge(uint64_t from, uint64_t to, const gui::Action& action) {
  if (from == to) return;
  At(to);
  int to_index = index_.at(to);
  Node& f = At(from);
  for (const Edge& e : f.out)
    if (e.to == to_index) return;
  f.out.push_back({to_index, action});
}

// ---- fitness ----

double Fitness(const StateGraph::Node& node, const FitnessParams& p) {
  double f0 = node.interesting ? p.interesting_f0_ratio : 1.0;
  double w = static_cast<double>(node.interesting_children);
  double stale = node.visits > node.interesting_children
                     ? static_cast<double>(node.visits - node.interesting_children)
                     : 0.0;
  return f0 * std::pow(1 + p.reward, w) * std::pow(1 - p.penalty, stale);
}

std::vector<double> NeighbourhoodFitness(const StateGraph& graph, int k,
                                         const FitnessParams& params) {
  const auto& nodes = graph.nodes();
  const size_t n = nodes.size();
  std::vector<double> f(n);
  for (size_t i = 0; i < n; ++i) f[i] = Fitness(nodes[i], params);
  // For walks of j edges from i (ending early at a node without successors): count[i] walks,
  // sum[i] of node fitness over all their nodes, len[i] nodes over all of them.
  std::vector<double> count(n, 1.0), sum(f), len(n, 1.0);
  std::vector<double> count2(n), sum2(n), len2(n);
  for (int j = 1; j <= k; ++j) {
    for (size_t i = 0; i < n; ++i) {
      if (nodes[i].out.empty()) {
        count2[i] = 1;
        sum2[i] = f[i];
        len2[i] = 1;
        continue;
      }
      double c = 0, s = 0, l = 0;
      for (const auto& e : nodes[i].out) {
        c += count[e.to];
        s += sum[e.to];
        l += len[e.to];
      }
      count2[i] = c;
      sum2[i] = f[i] * c + s;
      len2[i] = c + l;
    }
    count.swap(count2);
    sum.swap(sum2);
    len.swap(len2);
  }
  std::vector<double> mean(n);
  for (size_t i = 0; i < n; ++i) mean[i] = len[i] > 0 ? sum[i] / len[i] : 0;
  return mean;
}

std::optional<uint64_t> SelectFittestState(const std::vector<uint64_t>& candidates,
                                           const StateGraph& graph, int k,
                                           const FitnessParams& params) {
  if (candidates.empty()) return std::nullopt;
  std::vector<double> mean = NeighbourhoodFitness(graph, k, params);
  std::optional<uint64_t> best;
  double best_fitness = -1;
  for (uint64_t c : candidates) {
    int i = graph.IndexOf(c);
    double fitness = i < 0 ? 0.0 : mean[i];
    if (fitness > best_fitness) {
      best_fitness = fitness;
      best = c;
    }
  }
  return best;
}

// ---- StuckDetector ----

StuckDetector::StuckDetector(int queue_length, double alpha, double beta, int max_no_progress)
    : queue_length_(queue_length), alpha_(alpha), beta_(beta), max_no_progress_(max_no_progress) {}

void StuckDetector::Reset() {
  window_.clear();
  no_progress_ = 0;
}

bool StuckDetector::Update(uint64_t state, const StateGraph& graph) {
  if (!window_.empty() && window_.back() == state) {
    ++no_progress_;
  } else {
    window_.push_back(state);
    if (static_cast<int>(window_.size()) > queue_length_) window_.pop_front();
    no_progress_ = 0;
  }
  if (no_progress_ >= max_no_progress_) return true;  // a dead end
  if (static_cast<int>(window_.size()) < queue_length_) return false;
  return IsLoop(window_, graph);
}

bool StuckDetector::IsLoop(const std::deque<uint64_t>& window, const StateGraph& graph) const {
  if (window.empty()) return false;
  // The visit count a state needs to be among the top ceil(alpha * |states|).
  scratch_.clear();
  for (const auto& node : graph.nodes()) scratch_.push_back(node.visits);
  uint64_t threshold = UINT64_MAX;
  if (!scratch_.empty()) {
    size_t top =
        std::max<size_t>(1, static_cast<size_t>(std::ceil(alpha_ * scratch_.size() - 1e-9)));
    top = std::min(top, scratch_.size());
    std::nth_element(scratch_.begin(), scratch_.begin() + (top - 1), scratch_.end(),
                     std::greater<uint64_t>());
    threshold = scratch_[top - 1];
  }
  // Over the distinct states of the window, as the original tool counts them.
  size_t distinct = 0, easy = 0;
  for (auto it = window.begin(); it != window.end(); ++it) {
    if (std::find(window.begin(), it, *it) != it) continue;  // counted at its first entry
    ++distinct;
    const auto* node = graph.Find(*it);
    bool frequent = node && node->visits >= threshold && node->visits > 0;
    bool repeated = std::count(it + 1, window.end(), *it) > 0;
    easy += frequent || repeated;
  }
  return static_cast<double>(easy) + 1e-9 >= beta_ * static_cast<double>(distinct);
}

// ---- TimeTravelStrategy ----

void TimeTravelStrategy::AddSettings(nlohmann::json& config) const {
  base_->AddSettings(config);
  const TimeTravelOptions& t = options_;
  config["time_travel"] = {{"queue_length", t.queue_length},
                           {"alpha", t.alpha},
                           {"beta", t.beta},
                           {"max_no_progress", t.max_no_progress},
                           {"reward", t.reward},
                           {"penalty", t.penalty},
                           {"f0_ratio", t.interesting_f0_ratio},
                           {"k", t.path_length},
                           {"max_snapshots", t.max_snapshots},
                           {"interesting", t.interesting},
                           {"restore", t.restore}};
}

TimeTravelStrategy::TimeTravelStrategy(std::unique_ptr<Strategy> base, TimeTravelOptions options)
    : base_(std::move(base)),
      options_(std::move(options)),
      fitness_{options_.reward, options_.penalty, options_.interesting_f0_ratio},
      name_("timetravel:" + std::string(base_->Name())),
      gui_rule_(options_.interesting == "gui"),
      stuck_(options_.queue_length, options_.alpha, options_.beta, options_.max_no_progress) {}

gui::Action TimeTravelStrategy::Next(const StepView& view, Rng& rng) {
  return base_->Next(view, rng);
}

void TimeTravelStrategy::Learn(const Transition& t) {
  base_->Learn(t);
  bool first_visit = !graph_.Has(t.to);
  graph_.At(t.from);
  graph_.AddEdge(t.from, t.to, t.action);
  if (t.from != t.to || first_visit) ++graph_.At(t.to).visits;
  arrival_ = Arrival{.from = t.from,
                     .to = t.to,
                     .first_visit = first_visit,
                     .new_units = t.new_units > 0,
                     .new_activity = t.new_activity};
  if (stuck_.Update(t.to, graph_)) stuck_now_ = true;
}

bool TimeTravelStrategy::IsInteresting(const Arrival& a, const StepView& view) {
  if (!a.first_visit) return false;
  if (!gui_rule_) return a.new_units;
  // Every hyper-event this new state offers is noted, whether or not it makes it interesting.
  bool new_events = false;
  for (const auto& action : view.actions)
    new_events |= hyper_events_.insert(gui::MakeHyperEvent(view.screen, action).Hash()).second;
  return a.new_activity || new_events;
}

Request TimeTravelStrategy::SnapshotOf(uint64_t state) {
  std::string name;
  if (snapshots_.size() >= options_.max_snapshots) {
    // Replace the least fit snapshot (its name is reused, so the device keeps at most the cap).
    auto worst = snapshots_.end();
    double worst_fitness = 0;
    for (auto it = snapshots_.begin(); it != snapshots_.end(); ++it) {
      const auto* node = graph_.Find(it->second);
      double f = node ? Fitness(*node, fitness_) : 0.0;
      if (worst == snapshots_.end() || f < worst_fitness) {
        worst = it;
        worst_fitness = f;
      }
    }
    name = worst->first;
    snapshots_.erase(worst);
  } else {
    name = fmt::format("tt{}", next_name_++);
  }
  return Request{.kind = Request::Kind::kSnapshot, .name = name, .state = state};
}

std::optional<Request> TimeTravelStrategy::RestoreRequest(uint64_t current) {
  std::vector<uint64_t> candidates;
  std::vector<std::string> names;
  for (const auto& [name, state] : snapshots_) {
    if (state == current) continue;
    candidates.push_back(state);
    names.push_back(name);
  }
  if (candidates.empty()) {
    for (const auto& [name, state] : snapshots_) {
      candidates.push_back(state);
      names.push_back(name);
    }
  }
  auto best = SelectFittestState(candidates, graph_, options_.path_length, fitness_);
  if (!best) return std::nullopt;
  size_t i = std::find(candidates.begin(), candidates.end(), *best) - candidates.begin();
  return Request{.kind = Request::Kind::kRestore, .name = names[i], .state = *best};
}

std::optional<Request> TimeTravelStrategy::TakeRequest(const StepView& view) {
  base_request_ = false;
  if (!started_) {
    // The start state: its node, one visit, interesting, snapshot.
    started_ = true;
    auto& node = graph_.At(view.state);
    ++node.visits;
    node.interesting = true;
    if (gui_rule_)
      for (const auto& action : view.actions)
        hyper_events_.insert(gui::MakeHyperEvent(view.screen, action).Hash());
    stuck_.Update(view.state, graph_);
    return SnapshotOf(view.state);
  }
  if (arrival_ && arrival_->to == view.state) {
    Arrival a = *arrival_;
    arrival_.reset();
    if (IsInteresting(a, view)) {
      graph_.At(a.to).interesting = true;
      if (a.from != a.to) ++graph_.At(a.from).interesting_children;
      return SnapshotOf(a.to);
    }
  }
  arrival_.reset();
  if (stuck_now_) {
    stuck_now_ = false;
    auto restore = RestoreRequest(view.state);
    if (restore) return restore;
    stuck_.Reset();  // nowhere to go: start counting afresh
  }
  auto request = base_->TakeRequest(view);
  base_request_ = request.has_value();
  return request;
}

void TimeTravelStrategy::Done(const Request& request, bool ok) {
  if (base_request_) {
    base_->Done(request, ok);
    return;
  }
  if (request.kind == Request::Kind::kSnapshot) {
    if (ok) snapshots_[request.name] = request.state;
    return;
  }
  if (!ok) {
    snapshots_.erase(request.name);  // a path that no longer reproduces is dropped
    return;
  }
  ++graph_.At(request.state).visits;
  stuck_.Reset();
  stuck_.Update(request.state, graph_);
}

}  // namespace roam::explore
