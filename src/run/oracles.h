// run/oracles: a campaign's user oracles (oracle/kinds.h: --properties) as every campaign hands
// them its steps. Each is made from the run's makers and hears the step executor's reports;
// before each action it sees the screen with the action that led there, and may take the step
// itself; its figures are its section of summary.json. Single-threaded, as its campaign.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "gui/action.h"
#include "gui/screen.h"
#include "oracle/oracle.h"
#include "run/executor.h"

namespace roam::run {

class CampaignOracles {
 public:
  // Makes one oracle of each maker; `executor` hands them its reports (it must outlive them).
  CampaignOracles(const std::vector<oracle::OracleMaker>& makers, StepExecutor& executor);

  bool empty() const { return oracles_.empty(); }
  // Whether steps of their own are under way (no restore then: it would undo them).
  bool Busy() const;
  // Hands them `screen`, about to be acted on as trace step `step`, with what it offers:
  // `restarted` when no action led here (a relaunch, a restore). Their findings are appended to
  // `found`; returns the first step of their own, or nullopt.
  std::optional<gui::Action> See(int64_t step, const gui::Screen& screen,
                                 const std::vector<gui::Action>& actions, bool restarted, Rng& rng,
                                 std::vector<oracle::Finding>& found);
  // Notes the action just taken on `before`, and whether it crashed the app, for the next See.
  void Saw(const gui::Action& action, const gui::Screen& before, bool failed);
  // Adds each one's Figures to `sections` (summary.json's), under its Name.
  void AddFigures(nlohmann::json& sections) const;

 private:
  std::vector<std::unique_ptr<oracle::Oracle>> oracles_;
  std::optional<gui::Action> last_action_;
  gui::Screen last_screen_;
  bool last_failed_ = false;
};

}  // namespace roam::run
