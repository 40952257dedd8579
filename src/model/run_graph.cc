#include "model/run_graph.h"

#include <algorithm>

namespace roam::model {

uint32_t RunGraph::NodeOf(uint64_t state) {
  auto [it, added] = index_.try_emplace(state, static_cast<uint32_t>(nodes_.size()));
  if (added) {
    nodes_.emplace_back();
    live_.push_back(it->second);
  }
  return it->second;
}

void RunGraph::SetPage(uint64_t state, std::span<const EventId> page) {
  const uint32_t i = NodeOf(state);
  Node& node = nodes_[i];
  if (std::equal(page.begin(), page.end(), node.page.begin(), node.page.end())) return;
  node.page.assign(page.begin(), page.end());
  if (node.spent) {
    node.spent = false;
    live_.push_back(i);
  }
}

void RunGraph::Record(uint64_t from, EventId e, uint64_t to) {
  const uint32_t target = NodeOf(to);
  auto& out = nodes_[NodeOf(from)].out;
  auto it = std::find_if(out.begin(), out.end(), [e](const auto& edge) { return edge.first == e; });
  if (it == out.end())
    out.emplace_back(e, target);
  else
    it->second = target;
}

std::optional<EventId> RunGraph::Route(uint64_t from, const std::function<bool(EventId)>& wanted) {
  auto start_it = index_.find(from);
  if (start_it == index_.end()) return std::nullopt;
  // Ask the pages not yet found spent; those that offer nothing wanted now never will again.
  std::erase_if(live_, [&](uint32_t i) {
    Node& node = nodes_[i];
    node.spent = std::none_of(node.page.begin(), node.page.end(), wanted);
    return node.spent;
  });
  Node& start = nodes_[start_it->second];
  if (live_.empty() || !start.spent) return std::nullopt;
  ++route_;
  start.seen = route_;
  // Breadth-first; the queue holds (node, first event of the way there).
  queue_.clear();
  for (const auto& [e, to] : start.out)
    if (std::find(start.page.begin(), start.page.end(), e) != start.page.end())
      queue_.emplace_back(to, e);
  for (size_t head = 0; head < queue_.size(); ++head) {
    auto [i, first] = queue_[head];
    Node& node = nodes_[i];
    if (node.seen == route_) continue;
    node.seen = route_;
    if (!node.spent) return first;
    for (const auto& [e, to] : node.out) queue_.emplace_back(to, first);
  }
  return std::nullopt;
}

}  // namespace roam::model
