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
  // one itself, or no known way leads to one. `wanted` may only narrow over a run's calls (an
  // event once refused is never wanted again, as "picked fewer than K times in this run"): a
  // page found with nothing wanted is not asked again until SetPage changes it, so once every
  // page is spent a call costs nothing.
  std::optional<EventId> Route(uint64_t from, const std::function<bool(EventId)>& wanted);

 private:
  struct Node {
    std::vector<EventId> page;
    std::vector<std::pair<EventId, uint32_t>> out;  // event, the node where it led last
    uint32_t seen = 0;                              // the Route call that last reached it
    bool spent = false;  // nothing on the page was wanted when last asked (see Route)
  };
  uint32_t NodeOf(uint64_t state);  // its index in nodes_, added when new (not spent)

  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, uint32_t> index_;  // state -> nodes_ index
  std::vector<uint32_t> live_;                    // the nodes not (yet) known to be spent
  std::vector<std::pair<uint32_t, EventId>> queue_;
  uint32_t route_ = 0;
};

}  // namespace roam::model
