// The app generator behind `roam sim generate`: random simulated apps (docs/app-spec.md) with
// meaningful labels, a navigation tree with cross links and deep paths, forms, dialogs, lists,
// menus, self-changing widgets and planted bugs (with their ground truth), for training learned
// strategies and for scale tests. Pure functions of their options (one seed, one app);
// thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace roam::sim {

constexpr int kGeneratorMaxActivities = 500;
constexpr int kGeneratorMaxBugs = 100;
constexpr int kGeneratorMaxScreensPerActivity = 4;
constexpr int kGeneratorMaxDepth = 50;
constexpr int kGeneratorMaxFillers = 40;
constexpr int kGeneratorMaxListItems = 200;
constexpr double kGeneratorMaxDeepBias = 10;
constexpr double kGeneratorMaxOutsideRatio = 0.9;

// The shape of the apps. kClassic is the generator as it was before docs/realism.md (kept
// byte for byte); kReal adds what the recordings of real apps show (docs/realism.md): more
// actionable widgets per screen that change nothing, buttons that leave the app (Share, Open
// in browser, Rate us), long lists, and ways on that open only after another action on the
// screen.
enum class GeneratorShape { kClassic, kReal };

// What to generate. Ratios are probabilities per screen, in [0, 1].
struct GeneratorOptions {
  uint64_t seed = 1;              // one seed always gives the same app; the package names it
  int activities = 12;            // distinct activities, 1..kGeneratorMaxActivities
  int bugs = 3;                   // planted bugs, 0..kGeneratorMaxBugs (the first is a crash)
  int screens_per_activity = 2;   // most screens one activity shows (extra ones are tabs), 1..4
  double tab_ratio = 0.15;        // share of activities with extra tab screens
  double form_ratio = 0.25;       // screens with a validated form gating Save / Next
  double list_ratio = 0.35;       // screens with a list bound to data (add / delete rows)
  double dialog_ratio = 0.3;      // screens with a confirm dialog (OK does it, Cancel does not)
  double menu_ratio = 0.3;        // screens with an overflow menu
  double toggle_ratio = 0.2;      // screens with a settings checkbox
  double dynamic_ratio = 0.1;     // screens with a widget that changes on its own (clock, ad)
  double cross_link_ratio = 0.4;  // chance of each further cross link of a screen
  int max_depth = 8;              // tree depth of the deepest activity (its tabs: one more), 1..50
  GeneratorShape shape = GeneratorShape::kReal;
  // kReal only (kClassic ignores them):
  int filler_min = 0;        // widgets per screen whose tap changes nothing visible, at least
  int filler_max = 7;        // ... and at most (icons, chips, like and info buttons), 0..40
  double leave_ratio = 0.4;  // screens with a button that leaves the app (Share, Rate us)
  int list_min_items = 8;    // items a list starts with, at least
  int list_max_items = 30;   // ... and at most, 1..200
  double gate_ratio = 0.5;   // screens whose way to a child shows only after a checkbox
  double deep_bias = 0.0;    // how much deeper screens are preferred as parents, 0..10 (0:
                             // as classic; the recordings show no deeper apps than that)
  // kReal: screens whose activity takes a system broadcast while in front (a receiver that updates
  // a status line: "Back online" on CONNECTIVITY_CHANGE), and how many such receivers crash when it
  // comes (the bugs DinoDroid's and Stoat's system events find), beside `bugs`, 0..100.
  double receiver_ratio = 0.15;
  int broadcast_bugs = 1;
  // kReal: the share of all activities that only outside the app's GUI reaches (exported, no GUI
  // path to them: a deep link, a share target, a notification's screen), 0..0.9: that many more
  // activities beside `activities`. The default is an estimate, not a measurement: the "30%
  // curse" study (Akinotcho, Wei, Rubin; resess.github.io/artifacts/MobileCoverage) finds skilled
  // people reach little more of real apps' activities than tools' ~30% and names "alternate
  // entry" (entered from outside the GUI) among the reasons, without a share we could read; a
  // tenth keeps such screens a minority (docs/app-spec.md). And how many of their extras crash
  // the app when missing or of another type (gen-intent-crash-<i>), beside `bugs`, 0..100.
  double outside_ratio = 0.1;
  int intent_bugs = 1;
};

// "classic" or "real"; nullopt for another name.
std::optional<GeneratorShape> ParseGeneratorShape(std::string_view name);

// Ok, or InvalidArgument naming the first option out of range.
Status ValidateGeneratorOptions(const GeneratorOptions& options);

// A complete app spec; it passes CheckSpec for every `options` that ValidateGeneratorOptions
// accepts (others give an unspecified app). Deterministic: the same options give the same
// document (byte for byte once dumped).
nlohmann::json GenerateApp(const GeneratorOptions& options);

}  // namespace roam::sim
