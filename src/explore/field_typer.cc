#include "explore/field_typer.h"

#include "explore/random.h"
#include "gui/abstraction.h"
#include "gui/fields.h"

namespace roam::explore {

namespace {

// A field is known by its activity and its resource-id, or its hint where it has none.
uint64_t FieldKey(const gui::Screen& screen, const gui::Widget& w) {
  return gui::StableHash()
      .Add(screen.activity)
      .Add(w.resource_id.empty() ? w.hint : w.resource_id)
      .value();
}

constexpr size_t kMaxTyped = 32;  // typed values kept per activity visit

bool IsClick(gui::ActionKind kind) {
  return kind == gui::ActionKind::kClick || kind == gui::ActionKind::kLongClick;
}

}  // namespace

FieldTyper::FieldTyper(std::vector<std::string> strings, double pct_fitting)
    : strings_(std::move(strings)), pct_fitting_(pct_fitting) {
  if (strings_.empty()) strings_ = DefaultInputStrings();
}

void FieldTyper::Arrived(const gui::Screen& screen) {
  if (screen.activity == activity_) return;
  if (last_was_click_)
    for (auto& [key, value] : typed_) passed_[key] = std::move(value);
  typed_.clear();
}

void FieldTyper::Chosen(const gui::Screen& screen, gui::Action& action, Rng& rng) {
  activity_ = screen.activity;
  last_was_click_ = IsClick(action.kind);
  if (action.kind != gui::ActionKind::kInputText) return;
  if (action.widget < 0 || action.widget >= static_cast<int>(screen.widgets.size())) {
    action.text = strings_[rng.Below(strings_.size())];
    return;
  }
  const gui::Widget& w = screen.widgets[action.widget];
  const uint64_t key = FieldKey(screen, w);
  const auto& fitting = gui::FieldValues(gui::ClassifyField(w));
  const bool first = typed_into_.insert(key).second;
  if (auto it = passed_.find(key); it != passed_.end() && rng.Chance(pct_fitting_ / 100)) {
    action.text = it->second;
  } else if (!fitting.empty() && (first || rng.Chance(pct_fitting_ / 100))) {
    action.text = fitting[rng.Below(fitting.size())];
  } else {
    action.text = strings_[rng.Below(strings_.size())];
  }
  if (typed_.size() == kMaxTyped) typed_.erase(typed_.begin());
  typed_.emplace_back(key, action.text);
}

}  // namespace roam::explore
