#include "fuzz/model.h"

#include <fmt/format.h>

namespace roam::fuzz {

std::string Model::WeightKey(uint64_t state, const std::string& event_key) {
  return fmt::format("{:016x}:{}", state, event_key);
}

void Model::Observe(uint64_t from, const Event& event, uint64_t to) {
  states_.insert(from);
  states_.insert(to);
  auto key = std::make_tuple(from, event.TypeKey(), to);
  auto it = edge_index_.find(key);
  if (it == edge_index_.end()) {
    edge_index_.emplace(key, edges_.size());
    out_[from].push_back(edges_.size());
    edges_.push_back(Edge{from, to, event.TypeKey(), event, 1});
  } else {
    ++edges_[it->second].count;
  }

  // Υ update, with the Υ_i of new_events(e) read before this update.
  const std::string k = event.Key();
  executed_from_[from].insert(k);
  Weighted& w = weights_[WeightKey(from, k)];
  if (w.exec == 0) w.weight = settings_.initial_weight, w.exec = 1;  // Υ_1, exec_times = 1
  ++w.exec;
  double sum = 0;
  auto next = executed_from_.find(to);
  if (to != from && next != executed_from_.end())
    for (const auto& e : next->second) sum += Weight(to, e);
  w.weight = (w.weight + sum) / (static_cast<double>(w.exec) * w.exec);
}

double Model::Weight(uint64_t state, const std::string& event_key) const {
  auto it = weights_.find(WeightKey(state, event_key));
  return it == weights_.end() ? settings_.initial_weight : it->second.weight;
}

int Model::ExecTimes(uint64_t state, const std::string& event_key) const {
  auto it = weights_.find(WeightKey(state, event_key));
  return it == weights_.end() ? 1 : it->second.exec;
}

std::vector<const Edge*> Model::Out(uint64_t state) const {
  std::vector<const Edge*> out;
  auto it = out_.find(state);
  if (it == out_.end()) return out;
  for (size_t i : it->second) out.push_back(&edges_[i]);
  return out;
}

std::vector<uint64_t> Model::Outcomes(uint64_t state, const std::string& type_key) const {
  std::vector<uint64_t> out;
  for (const Edge* e : Out(state))
    if (e->type_key == type_key) out.push_back(e->to);
  return out;
}

std::vector<const Edge*> Model::PrunedOut(uint64_t state) const {
  std::vector<const Edge*> out;
  for (const Edge* e : Out(state)) {
    bool replaced = false;
    for (auto& kept : out)
      if (kept->to == e->to) {
        if (e->count > kept->count) kept = e;
        replaced = true;
        break;
      }
    if (!replaced) out.push_back(e);
  }
  return out;
}

}  // namespace roam::fuzz
