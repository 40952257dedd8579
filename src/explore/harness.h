// The harness: a Strategy that wraps any other and adds what users of testing tools ask for
// (docs/harness.md), in this order each step:
//   1. activity lists: on a forbidden activity press back (restart after max_backs in a row);
//   2. widget lists: widget actions on black-listed (or, with a white list, unlisted) widgets
//      are removed before the base strategy sees the screen, and a widget action the base
//      returns on such a widget anyway (a strategy that builds its own actions) is replaced;
//   3. custom actions: a script whose activity precondition holds starts with its probability
//      and plays one step per call; a step whose widget is not on the screen abandons it;
//   4. text input: the text of every input_text the base strategy chooses is replaced by one
//      drawn from TextInput's mix (scripts keep their own texts).
// Its Name() is the base's; the base gets Learn() for every transition, whoever chose the
// action, and its run-loop requests (time travel's snapshots and restores) pass through,
// except while a script plays. A virtual added to Strategy must be forwarded here too.
// Owns the base strategy; not thread-safe (one per run, like any strategy).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "explore/harness_config.h"
#include "explore/strategy.h"
#include "explore/text_input.h"

namespace roam::explore {

struct HarnessStats {
  int64_t steps = 0;
  int64_t actions_removed = 0;    // widget actions taken from the base strategy's view
  int64_t vetoed = 0;             // base choices on a forbidden widget, replaced
  int64_t activity_backs = 0;     // backs pressed on a forbidden activity
  int64_t activity_restarts = 0;  // restarts after max_backs backs in a row
  int64_t scripts_started = 0;
  int64_t scripts_completed = 0;
  int64_t scripts_abandoned = 0;
  int64_t script_steps = 0;
  int64_t texts_replaced = 0;
  nlohmann::json ToJson(const TextInput* text) const;
};

class Harness final : public Strategy {
 public:
  Harness(std::unique_ptr<Strategy> base, HarnessConfig config);
  std::string_view Name() const override { return base_->Name(); }
  gui::Action Next(const StepView& view, Rng& rng) override;
  void Learn(const Transition& transition) override;
  std::optional<Request> TakeRequest(const StepView& view) override;
  void Done(const Request& request, bool ok) override { base_->Done(request, ok); }
  Status Flush() override { return base_->Flush(); }
  void AddSettings(nlohmann::json& config) const override {
    base_->AddSettings(config);
    config["harness"] = config_.options.ToJson();
  }
  // harness.json: what the harness did.
  void AddFigures(std::vector<FiguresFile>& files) const override {
    base_->AddFigures(files);
    files.push_back({.name = "harness", .figures = StatsJson()});
  }

  const HarnessStats& stats() const { return stats_; }
  nlohmann::json StatsJson() const { return stats_.ToJson(text_ ? &*text_ : nullptr); }

 private:
  // Whether the widget may be acted on (the widget lists), memoised per step.
  bool WidgetAllowed(const gui::Screen& screen, int widget);
  std::optional<gui::Action> ActivityGuard(const StepView& view);
  std::optional<gui::Action> PlayScript(const StepView& view, Rng& rng);
  gui::Action BaseStep(const StepView& view, Rng& rng);

  std::unique_ptr<Strategy> base_;
  HarnessConfig config_;
  std::optional<TextInput> text_;
  HarnessStats stats_;
  int backs_in_a_row_ = 0;
  const Script* script_ = nullptr;     // the script playing, or null
  size_t script_pos_ = 0;              // its next step
  std::vector<int> script_runs_;       // starts per script
  std::vector<gui::Action> filtered_;  // scratch: the view's actions the lists allow
  std::vector<signed char> allowed_;   // scratch per widget: -1 unknown, 0 no, 1 yes
};

// Wraps `base` in a harness when `options.Active()`, else returns it as it is. Errors: the
// base's own, or a harness file that cannot be read or is wrong.
Result<std::unique_ptr<Strategy>> WithHarness(Result<std::unique_ptr<Strategy>> base,
                                              const HarnessOptions& options);

}  // namespace roam::explore
