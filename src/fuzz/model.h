// The GUI transition model M = <S, Σ, δ> of Genie, mined while seeds run, and the systematic
// event weight Υ. States are layout abstractions (Layout::abs); events are known by their
// TypeKey (kind + target type), each edge keeping one concrete example to replay.
//   Υ_1(e) = 100; after e runs from s to s':
//   Υ_{i+1}(e) = (Υ_i(e) + Σ Υ_i(new_events(e))) / exec_times(e)^2
// where new_events(e) are the events ever executed from s' and exec_times(e) is 1 before e's
// first run and grows by one with each run (so the first update already divides by 4).
// new_events(e) is empty when e led back to the state it ran on: it reached no new layout (else
// a click that stays on a hub screen would collect the hub's weights and be chosen forever).
// Υ is kept per (state, concrete event key). Not thread-safe: one per fuzzing job.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "fuzz/layout.h"

namespace roam::fuzz {

struct ModelSettings {
  double initial_weight = 100;  // Υ_1
};

struct Edge {
  uint64_t from = 0, to = 0;
  std::string type_key;  // Event::TypeKey
  Event example;         // the first concrete event seen on this edge
  int count = 0;         // times observed
};

class Model {
 public:
  explicit Model(ModelSettings settings = {}) : settings_(settings) {}

  // Records that `event` (executed on a layout of state `from`) led to state `to`, and updates
  // its Υ.
  void Observe(uint64_t from, const Event& event, uint64_t to);
  // Υ of a concrete event on a state (initial_weight when never run).
  double Weight(uint64_t state, const std::string& event_key) const;
  // exec_times(e): 1 before the first run, then 1 + runs.
  int ExecTimes(uint64_t state, const std::string& event_key) const;

  // Out-edges of a state, all of them (one per TypeKey and target state).
  std::vector<const Edge*> Out(uint64_t state) const;
  // The states events of this TypeKey have led to from `state` (empty: never run there).
  std::vector<uint64_t> Outcomes(uint64_t state, const std::string& type_key) const;
  // Out-edges with the redundant ones pruned: one edge per (state, target state), the most
  // observed (ties: the first seen).
  std::vector<const Edge*> PrunedOut(uint64_t state) const;

  size_t states() const { return states_.size(); }
  size_t edges() const { return edges_.size(); }

 private:
  struct Weighted {
    double weight = 0;
    int exec = 0;
  };
  static std::string WeightKey(uint64_t state, const std::string& event_key);

  ModelSettings settings_;
  std::vector<Edge> edges_;
  std::map<std::tuple<uint64_t, std::string, uint64_t>, size_t> edge_index_;
  std::unordered_map<uint64_t, std::vector<size_t>> out_;
  std::set<uint64_t> states_;
  std::unordered_map<std::string, Weighted> weights_;                  // by WeightKey
  std::unordered_map<uint64_t, std::set<std::string>> executed_from_;  // state -> event keys
};

}  // namespace roam::fuzz
