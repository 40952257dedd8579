// The planner (strategy name `planner`; `oracle` before, still an alias): a strategy that
// reads the simulated app's spec and always takes the shortest route it knows to code not yet
// covered. It keeps a shadow SimApp that mirrors the device step
// for step (same seed, same bugs, same actions; the simulator is deterministic) and a planner
// SimApp on which it tries actions from copies of the shadow's state, which cost no device
// events. What it tries it keeps in a map of the app for the whole run (screens told apart by
// their screen key, their texts outside lists and which fields hold text; the actions tried on
// each, where they led and the code units they ran), so a search goes on where the last one
// stopped instead of starting over from the current screen: it walks the map to the nearest
// action known to run uncovered code, or to the nearest screen with actions not yet tried and
// tries them, checking every route on the planner before the device takes it (the map does not
// see hidden state). When the map has nothing left, a breadth-first search over the shadow's
// own state looks for what hidden state hides. It is the upper bound the learned strategies are
// measured against, not a testing tool. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "explore/strategy.h"
#include "sim/sim_app.h"

namespace roam::explore {

struct PlannerOptions {
  int max_trials = 4000;   // actions tried per search over hidden state (default 4000)
  int map_trials = 20000;  // actions tried on the map per plan before a step (default 20000)
  int max_depth = 12;      // longest route searched over hidden state (default 12)
  int max_texts = 6;       // texts tried per edit field: the spec's literals first (default 6)
  int retry_after = 100;   // after a search found nothing new, wander this many steps before
                           // searching again at the same coverage, twice as many after each
                           // more search in vain there (default 100)
};

class PlannerStrategy final : public Strategy {
 public:
  PlannerStrategy(std::shared_ptr<const sim::AppSpec> spec, sim::SimOptions sim_options,
                  PlannerOptions options);
  ~PlannerStrategy() override;
  std::string_view Name() const override { return "planner"; }
  gui::Action Next(const StepView& view, Rng& rng) override;
  // Performs the action the device performed on the shadow (the run loop calls it once per
  // event, before the next Next).
  void Learn(const Transition& transition) override;
  // config.json's "planner" section: the options, named as the registry's flags are.
  void AddSettings(nlohmann::json& config) const override;

  // Steps where the shadow did not match the device (then the choice is random).
  int64_t desyncs() const { return desyncs_; }

  // A short route from a freshly installed and launched app to the planted bug `bug_id` (its
  // crash or ANR raised), by the planner's search over its actions and texts, nearest first toward
  // the pages that raise it (sim::BugDistance), with states told apart by everything that decides
  // behaviour (sim::LogicHash; the planner's own planning looks only at the screen and misses bugs
  // behind a hidden setting): the yardstick of the minimised-traces benchmark. nullopt when none
  // is found within the options' depth and trials.
  static std::optional<std::vector<gui::Action>> RouteToBug(
      std::shared_ptr<const sim::AppSpec> spec, const sim::SimOptions& sim_options,
      const PlannerOptions& options, const std::string& bug_id);

 private:
  struct Node;
  // A place of the map (a screen by MapKey) and what was tried on it: the actions of
  // MapCandidates in their order, each with the places it has led to (after KeepInApp; hidden
  // state decides which: a Next that crashes the second time) and the code units it ran last.
  struct Edge {
    gui::Action action;
    std::vector<uint64_t> to;  // the latest last, kMaxWays at most
    std::vector<uint32_t> units;
  };
  static constexpr size_t kMaxWays = 4;
  struct Place {
    std::vector<Edge> edges;
    bool complete = false;  // every candidate tried
  };
  enum class PlanResult { kRoute, kLater, kNone };
  // Fills plan_ with a route from the shadow's state to a step that covers a new unit: kLater
  // when the map's budget ran out first (the next step goes on), kNone when neither the map nor
  // the search over hidden state finds one.
  PlanResult Plan();
  // The map's part of Plan: kNone when no place within reach has anything left to try.
  PlanResult PlanOnMap();
  // Where a walk of SearchMap first strayed to, and the actions that led there.
  struct Stray {
    std::unique_ptr<sim::SimState> state;
    std::vector<gui::Action> plan;
  };
  // PlanOnMap's breadth-first search from `start` (which `prefix` leads to from the shadow's
  // state), spending `trials`, along the way each action went last or, with `all_ways`, along
  // every way it has gone; keeps the first stray in `stray` when given.
  PlanResult SearchMap(const sim::SimState& start, const std::vector<gui::Action>& prefix,
                       int& trials, Stray* stray, bool all_ways);
  // The map's key of a screen: its gui::ScreenKey, its texts outside scrolling lists (digits
  // masked) and which of its edit fields hold text.
  static uint64_t MapKey(const gui::Screen& screen);
  // The actions tried on a place of the map: Candidates, but a field is typed into only while
  // it is empty, with what it asks for (gui/fields.h) first and max_texts texts in all.
  void MapCandidates(const gui::Screen& screen, std::vector<gui::Action>& out) const;
  // Performs `action` on the planner, keeps it in the app and returns the units it ran.
  std::vector<uint32_t> Try(const gui::Action& action);
  // Whether `units` holds one the shadow (the device) has not covered.
  bool RunsNew(const std::vector<uint32_t>& units) const;
  // Search over copies of `from`'s state (tried on `planner`) for a short route after whose last
  // action `goal` holds (given the app and the faults it raised). States with one `key` are
  // searched once. Breadth-first (the shortest route), or, given `distance` (a lower bound on the
  // actions left from a state), nearest first by depth plus distance.
  using SearchGoal = std::function<bool(sim::SimApp&, const std::vector<sim::Fault>&)>;
  using SearchKey = std::function<uint64_t(sim::SimApp&)>;
  using SearchDistance = std::function<int(const sim::SimState&)>;
  static std::optional<std::vector<gui::Action>> Search(sim::SimApp& from, sim::SimApp& planner,
                                                        const PlannerOptions& options,
                                                        const std::vector<std::string>& texts,
                                                        const SearchGoal& goal,
                                                        const SearchKey& key,
                                                        const SearchDistance& distance = {});
  // The texts tried in edit fields: the spec's literals first, then common ones.
  static std::vector<std::string> Texts(const sim::AppSpec& spec, const PlannerOptions& options);
  // The actions tried from a screen: widget actions (one per candidate text for fields), back,
  // menu, restart and the screen swipes.
  static void Candidates(const gui::Screen& screen, const std::vector<std::string>& texts,
                         std::vector<gui::Action>& out);
  // Brings a sim back into the app as the run loop does (relaunch when it left).
  static void KeepInApp(sim::SimApp& app);
  // Launches the shadow at first, then keeps it in the app with its faults drained.
  void SyncShadow();

  std::shared_ptr<const sim::AppSpec> spec_;
  PlannerOptions options_;
  sim::SimApp shadow_;   // mirrors the device
  sim::SimApp planner_;  // tries actions on copies of the shadow's state
  std::vector<std::string> texts_;
  std::unordered_map<uint64_t, Place> map_;  // by MapKey
  std::vector<uint8_t> no_coverage_;         // the planner's mask before each Try
  std::vector<gui::Action> plan_;            // front = next action
  size_t plan_pos_ = 0;
  // The last search that found nothing: the coverage then and the step.
  size_t failed_at_units_ = SIZE_MAX;
  int64_t failed_at_step_ = 0;
  int64_t retry_wait_ = 0;  // steps to wander since failed_at_step_
  gui::Action chosen_;      // what Next returned last
  bool started_ = false;
  int64_t desyncs_ = 0;
};

}  // namespace roam::explore
