#include "model/run_graph.h"

#include <algorithm>

namespace roam::model {

void RunGraph::SetPage(uint64_t state, std::span<const EventId> page) {
  nodes_[state].page.assign(page.begin(), page.end());
}

void RunGraph::Record(uint64_t from, EventId e, uint64_t to) {
  auto& out = nodes_[from].out;
  auto it = std::find_if(out.begin(), out.end(), [e](const auto& edge) { return edge.first == e; });
  if (it == out.end())
    out.emplace_back(e, to);
  else
    it->second = to;
}

std::optional<EventId> RunGraph::Route(uint64_t from, const std::function<bool(EventId)>& wanted) {
  auto start = nodes_.find(from);
  if (start == nodes_.end()) return std::nullopt;
  auto offers = [&](const Node& node) {
    return std::any_of(node.page.begin(), node.page.end(), wanted);
  };
  if (offers(start->second)) return std::nullopt;
  ++route_;
  start->second.seen = route_;
  // Breadth-first; the queue holds (state, first event of the way there).
  queue_.clear();
  const auto& page = start->second.page;
  for (const auto& [e, to] : start->second.out)
    if (std::find(page.begin(), page.end(), e) != page.end()) queue_.emplace_back(to, e);
  for (size_t head = 0; head < queue_.size(); ++head) {
    auto [state, first] = queue_[head];
    auto it = nodes_.find(state);
    if (it == nodes_.end() || it->second.seen == route_) continue;
    Node& node = it->second;
    node.seen = route_;
    if (offers(node)) return first;
    for (const auto& [e, to] : node.out) queue_.emplace_back(to, first);
  }
  return std::nullopt;
}

}  // namespace roam::model
