#include "run/oracles.h"

#include <algorithm>
#include <string>

namespace roam::run {

CampaignOracles::CampaignOracles(const std::vector<oracle::OracleMaker>& makers,
                                 StepExecutor& executor) {
  for (const auto& make : makers) {
    oracles_.push_back(make());
    executor.Hear(*oracles_.back());
  }
}

bool CampaignOracles::Busy() const {
  return std::ranges::any_of(oracles_, [](const auto& o) { return o->Busy(); });
}

std::optional<gui::Action> CampaignOracles::See(int64_t step, const gui::Screen& screen,
                                                const std::vector<gui::Action>& actions,
                                                bool restarted, Rng& rng,
                                                std::vector<oracle::Finding>& found) {
  const oracle::StepSeen seen{.step = step,
                              .screen = &screen,
                              .actions = &actions,
                              .last_action = !restarted && last_action_ ? &*last_action_ : nullptr,
                              .last_screen = &last_screen_,
                              .failed = last_failed_};
  std::optional<gui::Action> own;
  for (auto& o : oracles_) {
    std::optional<gui::Action> next = o->See(seen, rng, found);
    if (!own) own = std::move(next);
  }
  return own;
}

void CampaignOracles::Saw(const gui::Action& action, const gui::Screen& before, bool failed) {
  if (oracles_.empty()) return;
  last_action_ = action;
  last_screen_ = before;
  last_failed_ = failed;
}

void CampaignOracles::AddFigures(nlohmann::json& sections) const {
  for (const auto& o : oracles_)
    if (auto figures = o->Figures(); !figures.is_null())
      sections[std::string(o->Name())] = std::move(figures);
}

}  // namespace roam::run
