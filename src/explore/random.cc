#include "explore/random.h"

#include <array>

namespace roam::explore {

nlohmann::json RandomSettingsJson(const RandomOptions& r) {
  return {{"pct_click", r.pct_click},     {"pct_long_click", r.pct_long_click},
          {"pct_input", r.pct_input},     {"pct_scroll", r.pct_scroll},
          {"pct_swipe", r.pct_swipe},     {"pct_back", r.pct_back},
          {"pct_menu", r.pct_menu},       {"pct_rotate", r.pct_rotate},
          {"pct_restart", r.pct_restart}, {"pct_syskeys", r.pct_syskeys},
          {"pct_intent", r.pct_intent}};
}
namespace {

using gui::ActionKind;

// The event classes the percentages choose between.
enum Class {
  kClick,
  kLongClick,
  kInput,
  kScroll,
  kSwipe,
  kBack,
  kMenu,
  kRotate,
  kRestart,
  kSyskeys,
  kIntentClass,
  kClassCount
};

Class ClassOf(ActionKind kind) {
  switch (kind) {
    case ActionKind::kClick:
      return kClick;
    case ActionKind::kLongClick:
      return kLongClick;
    case ActionKind::kInputText:
      return kInput;
    case ActionKind::kScrollUp:
    case ActionKind::kScrollDown:
    case ActionKind::kScrollLeft:
    case ActionKind::kScrollRight:
      return kScroll;
    case ActionKind::kSwipeUp:
    case ActionKind::kSwipeDown:
    case ActionKind::kSwipeLeft:
    case ActionKind::kSwipeRight:
      return kSwipe;
    case ActionKind::kBack:
      return kBack;
    case ActionKind::kMenu:
      return kMenu;
    case ActionKind::kRotate:
      return kRotate;
    case ActionKind::kRestart:
      return kRestart;
    case ActionKind::kKey:
    case ActionKind::kBroadcast:  // never drawn here (Monkey sends none); counted as a system key
      return kSyskeys;
    case ActionKind::kIntent:
      return kIntentClass;
  }
  return kBack;
}

constexpr std::array<ActionKind, 4> kSwipes = {ActionKind::kSwipeUp, ActionKind::kSwipeDown,
                                               ActionKind::kSwipeLeft, ActionKind::kSwipeRight};
constexpr std::array<const char*, 3> kSysKeys = {"VOLUME_UP", "VOLUME_DOWN", "VOLUME_MUTE"};

std::array<double, kClassCount> Percentages(const RandomOptions& o) {
  return {o.pct_click, o.pct_long_click, o.pct_input,   o.pct_scroll,  o.pct_swipe, o.pct_back,
          o.pct_menu,  o.pct_rotate,     o.pct_restart, o.pct_syskeys, o.pct_intent};
}

}  // namespace

void MixWeights(const RandomOptions& options, const std::vector<gui::ActionKind>& kinds,
                std::vector<double>& out) {
  const auto pct = Percentages(options);
  std::array<int, kClassCount> count{};
  for (auto kind : kinds) ++count[ClassOf(kind)];
  out.resize(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    Class c = ClassOf(kinds[i]);
    out[i] = pct[c] / count[c];
  }
}

const std::vector<std::string>& DefaultInputStrings() {
  static const std::vector<std::string> kStrings = {"hello",       "Test 123",
                                                    "42",          "-1",
                                                    "0",           "",
                                                    "a@b.com",     "https://example.org",
                                                    "Ünïcödé ✓",   std::string(256, 'x'),
                                                    "' OR 1=1 --", "%s%n"};
  return kStrings;
}

RandomStrategy::RandomStrategy(RandomOptions options) : options_(std::move(options)) {
  if (options_.strings.empty()) options_.strings = DefaultInputStrings();
}

gui::Action RandomStrategy::Next(const StepView& view, Rng& rng) {
  const auto pct = Percentages(options_);
  // Which widget classes this screen offers.
  std::array<bool, kClassCount> offered{};
  for (const auto& a : view.actions) offered[ClassOf(a.kind)] = true;
  for (Class c : {kSwipe, kBack, kMenu, kRotate, kRestart, kSyskeys}) offered[c] = true;
  offered[kIntentClass] = !view.intents.empty();
  intents_.Saw(view);

  weights_.assign(kClassCount, 0.0);
  for (int c = 0; c < kClassCount; ++c) weights_[c] = offered[c] ? pct[c] : 0.0;
  double total = 0;
  for (double w : weights_) total += w;
  if (total <= 0) return gui::MakeGlobalAction(ActionKind::kBack);
  auto cls = static_cast<Class>(rng.Weighted(weights_));

  switch (cls) {
    case kSwipe:
      return gui::MakeGlobalAction(kSwipes[rng.Below(kSwipes.size())]);
    case kBack:
      return gui::MakeGlobalAction(ActionKind::kBack);
    case kMenu:
      return gui::MakeGlobalAction(ActionKind::kMenu);
    case kRotate:
      return gui::MakeGlobalAction(ActionKind::kRotate);
    case kRestart:
      return gui::MakeGlobalAction(ActionKind::kRestart);
    case kSyskeys:
      return gui::MakeGlobalAction(ActionKind::kKey, kSysKeys[rng.Below(kSysKeys.size())]);
    case kIntentClass:
      return *intents_.Pick(view, rng);
    default:
      break;
  }
  candidates_.clear();
  for (int i = 0; i < static_cast<int>(view.actions.size()); ++i)
    if (ClassOf(view.actions[i].kind) == cls) candidates_.push_back(i);
  gui::Action action = view.actions[candidates_[rng.Below(candidates_.size())]];
  if (action.kind == ActionKind::kInputText)
    action.text = options_.strings[rng.Below(options_.strings.size())];
  return action;
}

}  // namespace roam::explore
