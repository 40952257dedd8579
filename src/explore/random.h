// The Monkey-like baseline: picks an action kind by settable percentages (like Monkey's
// --pct-*), then a uniformly random widget offering it; kinds the screen does not offer are
// left out and the rest renormalised. Seeded through the Rng it is given. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "explore/intents.h"
#include "explore/strategy.h"

namespace roam::explore {

// Percentages of each kind of event; they need not sum to 100 (they are weights).
struct RandomOptions {
  double pct_click = 55;      // click on a clickable or checkable widget
  double pct_long_click = 8;  // long click on a long-clickable widget
  double pct_input = 10;      // type text into an edit field
  double pct_scroll = 8;      // scroll a scrollable widget, one of four directions
  double pct_swipe = 4;       // swipe the screen, one of four directions
  double pct_back = 8;        // the back key
  double pct_menu = 3;        // the menu key
  double pct_rotate = 1;      // rotate the screen
  double pct_restart = 1;     // restart the app
  double pct_syskeys = 2;     // volume up/down/mute
  // An intent the app takes (explore/intents.h), on apps that declare some and with intents on.
  double pct_intent = 1;
  // Texts typed into fields; empty means the built-in list.
  std::vector<std::string> strings;
};

// The options as config.json's "random" section.
nlohmann::json RandomSettingsJson(const RandomOptions& options);

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(RandomOptions options);
  std::string_view Name() const override { return "random"; }
  gui::Action Next(const StepView& view, Rng& rng) override;
  void AddSettings(nlohmann::json& config) const override {
    config["random"] = RandomSettingsJson(options_);
  }

 private:
  RandomOptions options_;
  IntentChooser intents_;
  std::vector<int> candidates_;  // scratch: indices into view.actions
  std::vector<double> weights_;  // scratch
};

// Random's distribution over a list of actions of `kinds`, as a weight per action: each class's
// percentage shared evenly among the actions of that class (a class the list lacks gets
// nothing, as random renormalises). Fills `out`, one weight per kind.
void MixWeights(const RandomOptions& options, const std::vector<gui::ActionKind>& kinds,
                std::vector<double>& out);

// A small built-in list of texts to type: words, numbers, empty, long, symbols.
const std::vector<std::string>& DefaultInputStrings();

}  // namespace roam::explore
