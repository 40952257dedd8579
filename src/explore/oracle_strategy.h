// The ceiling: a strategy that reads the simulated app's spec and always takes the shortest
// route to the nearest handler not yet covered. It keeps a shadow SimApp that mirrors the
// device step for step (same seed, same bugs, same actions; the simulator is deterministic),
// and plans by breadth-first search over copies of the shadow's state. It is the upper bound
// the learned strategies are measured against, not a testing tool. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "explore/strategy.h"
#include "sim/sim_app.h"

namespace roam::explore {

struct OracleOptions {
  int max_trials = 4000;  // actions tried per search before giving up (default 4000)
  int max_depth = 12;     // longest route searched (default 12)
  int max_texts = 6;      // texts tried per edit field: the spec's literals first (default 6)
  int retry_after = 100;  // after a search found nothing new, wander this many steps before
                          // searching again at the same coverage (default 100)
};

class OracleStrategy final : public Strategy {
 public:
  OracleStrategy(std::shared_ptr<const sim::AppSpec> spec, sim::SimOptions sim_options,
                 OracleOptions options);
  ~OracleStrategy() override;
  std::string_view Name() const override { return "oracle"; }
  gui::Action Next(const StepView& view, Rng& rng) override;
  // Performs the action the device performed on the shadow (the run loop calls it once per
  // event, before the next Next).
  void Learn(const Transition& transition) override;

  // Steps where the shadow did not match the device (then the choice is random).
  int64_t desyncs() const { return desyncs_; }

  // The shortest route from a freshly installed and launched app to the planted bug `bug_id`
  // (its crash or ANR raised), by the oracle's search over its actions and texts, with states
  // told apart by everything that decides behaviour (sim::LogicHash; the oracle's own planning
  // looks only at the screen and misses bugs behind a hidden setting): the yardstick of the
  // minimised-traces benchmark. nullopt when none is found within the options' depth and trials.
  static std::optional<std::vector<gui::Action>> RouteToBug(
      std::shared_ptr<const sim::AppSpec> spec, const sim::SimOptions& sim_options,
      const OracleOptions& options, const std::string& bug_id);

 private:
  struct Node;
  // Fills plan_ with the shortest route from the shadow's state to a step that covers a new
  // unit; false when none is found within the budget.
  bool Plan();
  // Breadth-first search over copies of `from`'s state (tried on `planner`) for the shortest
  // route after whose last action `goal` holds (given the app and the faults it raised). States
  // with one `key` are searched once.
  using SearchGoal = std::function<bool(sim::SimApp&, const std::vector<sim::Fault>&)>;
  using SearchKey = std::function<uint64_t(sim::SimApp&)>;
  static std::optional<std::vector<gui::Action>> Search(sim::SimApp& from, sim::SimApp& planner,
                                                        const OracleOptions& options,
                                                        const std::vector<std::string>& texts,
                                                        const SearchGoal& goal,
                                                        const SearchKey& key);
  // The texts tried in edit fields: the spec's literals first, then common ones.
  static std::vector<std::string> Texts(const sim::AppSpec& spec, const OracleOptions& options);
  // The actions tried from a screen: widget actions (one per candidate text for fields), back,
  // menu, restart and the screen swipes.
  static void Candidates(const gui::Screen& screen, const std::vector<std::string>& texts,
                         std::vector<gui::Action>& out);
  // Brings a sim back into the app as the run loop does (relaunch when it left).
  static void KeepInApp(sim::SimApp& app);
  // Launches the shadow at first, then keeps it in the app with its faults drained.
  void SyncShadow();

  std::shared_ptr<const sim::AppSpec> spec_;
  OracleOptions options_;
  sim::SimApp shadow_;   // mirrors the device
  sim::SimApp planner_;  // tries actions on copies of the shadow's state
  std::vector<std::string> texts_;
  std::vector<gui::Action> plan_;  // front = next action
  size_t plan_pos_ = 0;
  // The last search that found nothing: the coverage then and the step.
  size_t failed_at_units_ = SIZE_MAX;
  int64_t failed_at_step_ = 0;
  gui::Action chosen_;  // what Next returned last
  bool started_ = false;
  int64_t desyncs_ = 0;
};

}  // namespace roam::explore
