#include "explore/harness.h"

#include "explore/random.h"

namespace roam::explore {

using gui::ActionKind;

nlohmann::json HarnessStats::ToJson(const TextInput* text) const {
  nlohmann::json j = {{"steps", steps},
                      {"actions_removed", actions_removed},
                      {"vetoed", vetoed},
                      {"activity_backs", activity_backs},
                      {"activity_restarts", activity_restarts},
                      {"scripts_started", scripts_started},
                      {"scripts_completed", scripts_completed},
                      {"scripts_abandoned", scripts_abandoned},
                      {"script_steps", script_steps},
                      {"texts_replaced", texts_replaced}};
  if (text) {
    nlohmann::json drawn;
    for (int i = 0; i < kTextSourceCount; ++i)
      drawn[TextSourceName(static_cast<TextSource>(i))] = text->drawn()[i];
    j["texts_by_source"] = drawn;
    j["texts_seen"] = text->seen().size();
  }
  return j;
}

Harness::Harness(std::unique_ptr<Strategy> base, HarnessConfig config)
    : base_(std::move(base)), config_(std::move(config)), script_runs_(config_.scripts.size(), 0) {
  const HarnessOptions& o = config_.options;
  if (o.text_input || !o.strings_file.empty()) text_.emplace(o.mix, config_.user_strings);
}

bool Harness::WidgetAllowed(const gui::Screen& screen, int widget) {
  const WidgetLists& lists = config_.widgets;
  if (widget < 0 || widget >= static_cast<int>(allowed_.size())) return lists.white.empty();
  signed char& memo = allowed_[widget];
  if (memo < 0) {
    bool ok = true;
    for (const auto& m : lists.black) ok = ok && !m.Matches(screen, widget);
    if (ok && !lists.white.empty()) {
      ok = false;
      for (const auto& m : lists.white) ok = ok || m.Matches(screen, widget);
    }
    memo = ok ? 1 : 0;
  }
  return memo == 1;
}

std::optional<gui::Action> Harness::ActivityGuard(const StepView& view) {
  if (config_.activities.empty() || view.screen.activity.empty() ||
      config_.activities.Allowed(view.screen.activity)) {
    backs_in_a_row_ = 0;
    return std::nullopt;
  }
  if (script_) {
    ++stats_.scripts_abandoned;
    script_ = nullptr;
  }
  if (backs_in_a_row_ >= config_.options.max_backs) {
    backs_in_a_row_ = 0;
    ++stats_.activity_restarts;
    return gui::MakeGlobalAction(ActionKind::kRestart);
  }
  ++backs_in_a_row_;
  ++stats_.activity_backs;
  return gui::MakeGlobalAction(ActionKind::kBack);
}

std::optional<gui::Action> Harness::PlayScript(const StepView& view, Rng& rng) {
  if (!script_) {
    for (size_t i = 0; i < config_.scripts.size() && !script_; ++i) {
      const Script& s = config_.scripts[i];
      if (s.max_runs > 0 && script_runs_[i] >= s.max_runs) continue;
      if (!s.activity.empty() && !gui::ActivityMatches(view.screen.activity, s.activity)) continue;
      if (s.probability < 1 && !rng.Chance(s.probability)) continue;
      script_ = &s;
      script_pos_ = 0;
      ++script_runs_[i];
      ++stats_.scripts_started;
    }
    if (!script_) return std::nullopt;
  }
  auto action = gui::StepAction(script_->steps[script_pos_], view.screen, view.actions);
  if (!action) {  // the screen is not what the script expects: leave it to the base
    ++stats_.scripts_abandoned;
    script_ = nullptr;
    return std::nullopt;
  }
  ++stats_.script_steps;
  if (++script_pos_ == script_->steps.size()) {
    ++stats_.scripts_completed;
    script_ = nullptr;
  }
  return action;
}

gui::Action Harness::BaseStep(const StepView& view, Rng& rng) {
  gui::Action action = base_->Next(view, rng);
  if (!config_.widgets.empty() && gui::IsWidgetAction(action.kind) &&
      !WidgetAllowed(view.screen, gui::TargetOf(view.screen, action))) {
    // The base built its own action on a forbidden widget: one the lists allow instead.
    ++stats_.vetoed;
    action = view.actions.empty() ? gui::MakeGlobalAction(ActionKind::kBack)
                                  : view.actions[rng.Below(view.actions.size())];
    if (action.kind == ActionKind::kInputText && !text_) {  // the table leaves texts empty
      const auto& plain = DefaultInputStrings();
      action.text = plain[rng.Below(plain.size())];
    }
  }
  if (text_ && action.kind == ActionKind::kInputText) {
    TextSource source;
    action.text = text_->Draw(rng, source);
    ++stats_.texts_replaced;
  }
  return action;
}

gui::Action Harness::Next(const StepView& view, Rng& rng) {
  ++stats_.steps;
  if (text_) text_->Observe(view.screen, view.state);
  if (!config_.widgets.empty()) allowed_.assign(view.screen.widgets.size(), -1);
  if (auto back = ActivityGuard(view)) return *back;
  const std::vector<gui::Action>* actions = &view.actions;
  if (!config_.widgets.empty()) {
    // Copied only from the first removed action on: most screens lose none.
    for (size_t i = 0; i < view.actions.size(); ++i) {
      const gui::Action& a = view.actions[i];
      if (!gui::IsWidgetAction(a.kind) ||
          WidgetAllowed(view.screen, gui::TargetOf(view.screen, a))) {
        if (actions == &filtered_) filtered_.push_back(a);
        continue;
      }
      ++stats_.actions_removed;
      if (actions != &filtered_) {
        filtered_.assign(view.actions.begin(),
                         view.actions.begin() + static_cast<std::ptrdiff_t>(i));
        actions = &filtered_;
      }
    }
  }
  StepView filtered{view.screen, view.state, *actions, view.step};
  if (auto scripted = PlayScript(filtered, rng)) return *scripted;
  return BaseStep(filtered, rng);
}

void Harness::Learn(const Transition& transition) {
  if (script_ && (transition.crashed || transition.left_app)) {
    ++stats_.scripts_abandoned;
    script_ = nullptr;
  }
  base_->Learn(transition);
}

std::optional<Request> Harness::TakeRequest(const StepView& view) {
  if (script_) return std::nullopt;  // a restore in the middle of a login would undo it
  return base_->TakeRequest(view);
}

Result<std::unique_ptr<Strategy>> WithHarness(Result<std::unique_ptr<Strategy>> base,
                                              const HarnessOptions& options) {
  if (!base.ok() || !options.Active()) return base;
  auto config = LoadHarnessConfig(options);
  if (!config.ok()) return config.status();
  return std::unique_ptr<Strategy>(
      std::make_unique<Harness>(std::move(base).value(), std::move(*config)));
}

}  // namespace roam::explore
