// model/run_graph: the screens met in this run (by gui::ScreenKey), the hyper-events each
// offered when last seen, and where each event taken there led last. Fastbot2 chooses among the
// events of the page it is on; once that page has nothing left to try, this graph gives the
// first event of the shortest known way to a page that has (Route). An event's outcome is the
// last one seen, so hidden state (a list emptied, a flag set) can make a route stray; the caller
// routes again from wherever it arrived. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/model.h"

namespace roam::model {

class RunGraph {
 public:
  // The events `state`'s page offers now (replacing what it offered before).
  void SetPage(uint64_t state, std::span<const EventId> page);
  // Event `e` taken on `from` led to `to`.
  void Record(uint64_t from, EventId e, uint64_t to);
  // The first event of a shortest way from `from` to a page with an event that `wanted` accepts,
  // over recorded outcomes, starting with an event of `from`'s page; nullopt when that page has
  // one itself, or no known way leads to one.
  std::optional<EventId> Route(uint64_t from, const std::function<bool(EventId)>& wanted);

 private:
  struct Node {
    std::vector<EventId> page;
    std::vector<std::pair<EventId, uint64_t>> out;  // event, where it led last
    uint32_t seen = 0;                              // the Route call that last reached it
  };
  std::unordered_map<uint64_t, Node> nodes_;
  std::vector<std::pair<uint64_t, EventId>> queue_;
  uint32_t route_ = 0;
};

}  // namespace roam::model
