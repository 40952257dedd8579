// model/: the reusable model of Fastbot2 (Lv et al., ASE'22): hyper-events interned to dense
// ids, the probabilistic model M = (E, A, delta) with counts N(e, A) and N(e), the Q-table, and
// the per-run bookkeeping (activities visited, events executed in this run). The counts, Q and
// the dynamic-text slots persist across runs (model_file.h); the run state does not.
// Owned by one strategy; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/spin_mutex.h"
#include "base/status.h"
#include "gui/abstraction.h"

namespace roam::model {

using EventId = uint32_t;
using ActivityId = uint32_t;

class Model {
 public:
  explicit Model(std::string package = "") : package_(std::move(package)) {}

  const std::string& package() const { return package_; }
  void set_package(std::string package) { package_ = std::move(package); }

  // --- Hyper-events (E) and activities (A) -------------------------------------------------
  // The id of `event` (key = event.Hash()), interning it when new.
  EventId Intern(uint64_t key, const gui::HyperEvent& event);
  EventId Intern(const gui::HyperEvent& event) { return Intern(event.Hash(), event); }
  // Room for `events` hyper-events (loading).
  void Reserve(size_t events);
  std::optional<EventId> Find(uint64_t key) const;
  const gui::HyperEvent& event(EventId e) const { return events_[e].event; }
  uint64_t key(EventId e) const { return events_[e].key; }
  size_t event_count() const { return events_.size(); }

  ActivityId InternActivity(std::string_view name);
  std::optional<ActivityId> FindActivity(std::string_view name) const;
  const std::string& activity(ActivityId a) const { return activities_[a].name; }
  size_t activity_count() const { return activities_.size(); }

  // --- The probabilistic model (persists) -------------------------------------------------
  // e was executed and led to `to`; nullopt: it left the app (N(e) grows, no N(e, A) does).
  void RecordTransition(EventId e, std::optional<ActivityId> to);
  uint32_t Count(EventId e) const { return events_[e].n; }  // N(e)
  uint32_t Count(EventId e, ActivityId a) const;            // N(e, A)
  double P(EventId e, ActivityId a) const;                  // N(e, A) / N(e)
  // In M: executed at least once, in this run or an earlier one.
  bool Known(EventId e) const { return events_[e].n > 0; }
  const std::vector<std::pair<ActivityId, uint32_t>>& Transitions(EventId e) const {
    return events_[e].to;
  }
  size_t transition_count() const;  // distinct (e, A) pairs
  // Loading: sets N(e) and the (e, A) counts as stored.
  void SetCounts(EventId e, uint32_t n, std::vector<std::pair<ActivityId, uint32_t>> to);

  // --- The Q-table (persists; 0 for a new event) ------------------------------------------
  double Q(EventId e) const { return events_[e].q; }
  void SetQ(EventId e, double q) { events_[e].q = q; }

  // --- Texts that change between visits (persist) -----------------------------------------
  // Whether the widget slot `slot` (activity, resource-id, kind, path) shows dynamic text: once
  // a slot was seen with more than dynamic_text_limit() different texts (`text_hash`), it is
  // dynamic for good.
  bool DynamicText(uint64_t slot, uint64_t text_hash);
  void MarkDynamic(uint64_t slot) { slots_[slot].dynamic = true; }
  // 1 (the default): a slot is dynamic as soon as its text changes. More tolerates a few texts
  // in one slot (dialogs of one activity that put different items at the same place). 1..8.
  static constexpr int kMaxDynamicTextLimit = 8;
  void set_dynamic_text_limit(int limit) { dynamic_text_limit_ = limit; }
  int dynamic_text_limit() const { return dynamic_text_limit_; }
  std::vector<uint64_t> DynamicSlots() const;

  // --- This run (not persisted) -----------------------------------------------------------
  void VisitActivity(ActivityId a);                                      // N(A) += 1
  uint32_t Visits(ActivityId a) const { return activities_[a].visits; }  // N(A) in this run
  bool Visited(ActivityId a) const { return activities_[a].visits > 0; }
  void MarkExecuted(EventId e) { ++events_[e].run_count; }
  uint32_t RunCount(EventId e) const { return events_[e].run_count; }  // times in this run
  // E(e) = sum of P(e, A) over the activities A not yet visited in this run. `also_unvisited`
  // counts as not visited even if it was (the reward of the step that first reached it).
  double Expectation(EventId e, std::optional<ActivityId> also_unvisited = std::nullopt) const;
  // Forgets the run state (visits, run counts); M and Q stay.
  void StartRun();
  // Changes whenever the model's shape changes: an event or activity interned, an event executed
  // for the first time, a new (e, A) pair, an activity's first visit in the run, a new run.
  // Planners that read only the shape recompute when it changes (model/lookahead.h).
  uint64_t version() const { return version_; }

 private:
  struct EventData {
    gui::HyperEvent event;
    uint64_t key = 0;
    uint32_t n = 0;  // N(e)
    uint32_t run_count = 0;
    double q = 0;
    std::vector<std::pair<ActivityId, uint32_t>> to;  // (A, N(e, A))
  };
  struct ActivityData {
    std::string name;
    uint32_t visits = 0;
  };
  struct Slot {
    uint64_t texts[kMaxDynamicTextLimit] = {};  // the different texts seen, up to the limit
    int count = 0;
    bool dynamic = false;
  };

  std::string package_;
  uint64_t version_ = 0;
  std::vector<EventData> events_;
  std::unordered_map<uint64_t, EventId> event_ids_;
  std::vector<ActivityData> activities_;
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, ActivityId, NameHash, std::equal_to<>> activity_ids_;
  std::unordered_map<uint64_t, Slot> slots_;
  int dynamic_text_limit_ = 1;
};

// One model that the strategies of several devices of one run learn into at once
// (run/explore/fleet.h): each takes `mu` for a step's reads and writes. `loaded` is set by the
// first strategy made on it, which loads the model file and starts the run; the others find the
// model ready.
struct SharedModel {
  SpinMutex mu;
  Model model;
  bool loaded = false;
};

// Models learned apart (on other devices or machines) as one: hyper-events and activities
// matched by their content, N(e) and N(e, A) added (saturating), Q(e) the mean of the models'
// Q weighted by their N(e) (plain mean where no model executed e), dynamic-text slots united.
// All must be of one package; `names` name them in errors ("b.bin is of org.other, a.bin of
// org.app").
Result<Model> MergeModels(const std::vector<const Model*>& models,
                          const std::vector<std::string>& names);

// Softmax weights exp(v / temperature) (shifted by the max, so they never overflow), written
// to `out`; the caller normalises or draws with Rng::Weighted. temperature must be > 0.
void SoftmaxWeights(const std::vector<double>& values, double temperature,
                    std::vector<double>& out);

}  // namespace roam::model
